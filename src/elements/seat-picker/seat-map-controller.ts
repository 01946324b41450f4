/**
 * The seat map's view: one canvas that paints only the seats in view, and an
 * overlay of real, focusable buttons (transparent, over the painted seats)
 * for the seats in view only, so 20,000 seats cost a few hundred elements.
 *
 * - Roving focus: the overlay is one tab stop; exactly one seat button has
 *   tabindex 0. Arrows move by seat within a row and to the nearest seat of the
 *   row above/below; Home/End go to the ends of the row, Ctrl+Home/End to the
 *   first/last seat; Enter/Space press the native button (which toggles).
 *   The active seat's button always exists, even when scrolled out of view.
 * - Pointer: the buttons ignore the pointer; a tap or click is hit-tested on
 *   the map (O(log n)). One finger or a mouse drag pans, two fingers pinch to
 *   zoom, Ctrl+wheel zooms, plain wheel scrolls natively.
 * - A selection change repaints the changed cells and updates their buttons;
 *   it never touches the other seats.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { neighbour, seatAt, seatsIn, ROW_LABEL_UNITS, type MapSeat, type SeatMap } from '../../state/seat-map.ts';

export interface SeatMapElements {
  /** The scroll container (receives pointer and wheel input). */
  viewport: HTMLElement;
  /** Sized to the whole map; holds the overlay buttons. */
  sizer: HTMLElement;
  /** Painted surface, sized to the viewport, under it. */
  canvas: HTMLCanvasElement;
}

export interface SeatMapCallbacks {
  /** A seat was pressed (pointer, keyboard or assistive technology). */
  toggle(index: number): void;
  /** The roving focus moved to a seat. */
  activate(index: number): void;
  /** The accessible name of a seat. */
  label(seat: MapSeat, held: boolean): string;
  /** Zoom changed by pinch or Ctrl+wheel. */
  zoomed(zoom: number): void;
  /** The map was painted for the first time since it was attached (its frame is being produced now). */
  painted?(): void;
}

export interface SeatMapPalette {
  bands: string[];
  mark: string;
  selected: string;
  selectedMark: string;
  held: string;
  restricted: string;
  text: string;
  background: string;
  focus: string;
  /** An outline around every seat (forced colours, where fills are all one system colour). */
  outline: string | null;
  /** The host's font family, for row and area labels. */
  font: string;
}

/** Seat size and pitch at zoom 1, in CSS px (the seat is at least 24 px: WCAG 2.5.8). */
export const SEAT_SIZE = 24;
export const SEAT_PITCH = 28;
/** Above this many seats in view, only the active seat's row gets buttons. */
const OVERLAY_CAP = 1500;
const DRAG_THRESHOLD = 6;

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 3;

export class SeatMapController implements ReactiveController {
  private els: SeatMapElements | null = null;
  private map: SeatMap | null = null;
  private selected: ReadonlySet<number> = new Set();
  private held: ReadonlySet<number> = new Set();
  private zoom = 1;
  private active = -1;
  private palette: SeatMapPalette | null = null;
  private buttons = new Map<number, HTMLButtonElement>();
  private frame = 0;
  private resizeObserver: ResizeObserver | null = null;
  private pointers = new Map<number, { x: number; y: number; startX: number; startY: number }>();
  private dragged = false;
  private pinch: { distance: number; zoom: number } | null = null;
  private cleanup: (() => void)[] = [];
  private dpr = 1;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly callbacks: SeatMapCallbacks,
  ) {
    host.addController(this);
  }

  get pitch(): number {
    return SEAT_PITCH * this.zoom;
  }

  /** The index of the seat holding the roving focus. */
  get activeSeat(): number {
    return this.active;
  }

  hostDisconnected(): void {
    this.detach();
  }

  /** Give the controller its elements (after each render; a no-op when unchanged). */
  attach(els: SeatMapElements | null): void {
    if (els && this.els && els.viewport === this.els.viewport && els.canvas === this.els.canvas && els.sizer === this.els.sizer) return;
    this.detach();
    if (!els) return;
    this.els = els;
    const { viewport } = els;
    const on = <K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, fn: (e: HTMLElementEventMap[K]) => void, opts?: AddEventListenerOptions) => {
      target.addEventListener(type, fn as EventListener, opts);
      this.cleanup.push(() => target.removeEventListener(type, fn as EventListener, opts));
    };
    on(viewport, 'scroll', () => this.schedule(), { passive: true });
    on(viewport, 'pointerdown', (e) => this.handlePointerDown(e));
    on(viewport, 'pointermove', (e) => this.handlePointerMove(e));
    on(viewport, 'pointerup', (e) => this.handlePointerUp(e));
    on(viewport, 'pointercancel', (e) => this.pointers.delete(e.pointerId));
    on(viewport, 'wheel', (e) => this.handleWheel(e), { passive: false });
    on(els.sizer, 'keydown', (e) => this.handleKeyDown(e));
    on(els.sizer, 'click', (e) => this.handleButtonClick(e));
    on(els.sizer, 'focusin', (e) => this.handleFocusIn(e));
    // The first size arrives with the observer's first report, in the next frame after layout:
    // painting then costs no forced layout, and the canvas is in that very frame.
    // A hidden page produces no frames: then size and paint at once.
    this.sized = false;
    if (typeof ResizeObserver !== 'undefined') {
      this.resizeObserver = new ResizeObserver(() => this.resize());
      this.resizeObserver.observe(viewport);
    }
    if (!this.resizeObserver || hidden()) this.resize();
  }

  private sized = false;

  private detach(): void {
    for (const off of this.cleanup) off();
    this.cleanup = [];
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
    if (this.frame) cancelAnimationFrame(this.frame);
    if (this.overlayFrame) cancelAnimationFrame(this.overlayFrame);
    this.frame = this.overlayFrame = 0;
    for (const b of this.buttons.values()) b.remove();
    this.buttons.clear();
    this.pointers.clear();
    this.els = null;
    this.announcedPaint = false;
  }

  /**
   * New data for the view. A new map repaints everything in view; a new
   * selection repaints only the seats whose state changed.
   */
  update(next: { map: SeatMap | null; selected: ReadonlySet<number>; held: ReadonlySet<number>; zoom: number; active: number }): void {
    const mapChanged = next.map !== this.map;
    const zoomChanged = next.zoom !== this.zoom;
    const changed: number[] = [];
    if (!mapChanged) {
      for (const i of next.selected) if (!this.selected.has(i)) changed.push(i);
      for (const i of this.selected) if (!next.selected.has(i)) changed.push(i);
      if (next.held !== this.held) {
        for (const i of next.held) if (!this.held.has(i)) changed.push(i);
        for (const i of this.held) if (!next.held.has(i)) changed.push(i);
      }
    }
    const previousActive = this.active;
    this.map = next.map;
    this.selected = next.selected;
    this.held = next.held;
    if (zoomChanged) this.applyZoom(next.zoom);
    this.active = next.map && next.active >= 0 && next.active < next.map.seats.length ? next.active : next.map?.seats.length ? 0 : -1;
    if (mapChanged) {
      for (const b of this.buttons.values()) b.remove();
      this.buttons.clear();
      this.sprites.clear();
      this.patterns.clear();
    }
    if (!this.els || !this.sized) return;
    if (mapChanged || zoomChanged) {
      this.sizeSizer();
      this.paintAll();
      this.syncOverlay();
      return;
    }
    for (const i of changed) {
      this.paintSeat(i);
      this.updateButton(i);
    }
    if (previousActive !== this.active) {
      this.syncOverlay();
      for (const i of [previousActive, this.active]) this.updateButton(i);
    }
  }

  /** Scroll a seat into view (with a margin) and focus its button. */
  focusSeat(index: number, options: { focus?: boolean } = {}): void {
    const map = this.map;
    const seat = map?.seats[index];
    if (!map || !seat || !this.els) return;
    const previous = this.active;
    this.active = index;
    const { viewport } = this.els;
    const p = this.pitch;
    const left = seat.x * p;
    const top = seat.y * p;
    const margin = p;
    const labelSpace = ROW_LABEL_UNITS * p;
    const { scrollLeft, scrollTop } = viewport;
    if (left - labelSpace < viewport.scrollLeft) viewport.scrollLeft = Math.max(0, left - labelSpace - margin);
    else if (left + p > viewport.scrollLeft + viewport.clientWidth) viewport.scrollLeft = left + p + margin - viewport.clientWidth;
    if (top < viewport.scrollTop) viewport.scrollTop = Math.max(0, top - margin);
    else if (top + p > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + p + margin - viewport.clientHeight;
    // The seats in view changed only if the view moved (a click on a seat in view leaves it be).
    if (viewport.scrollLeft !== scrollLeft || viewport.scrollTop !== scrollTop) this.syncOverlay();
    this.updateButton(previous);
    const button = this.ensureButton(index);
    if (options.focus !== false) button.focus({ preventScroll: true });
    this.callbacks.activate(index);
  }

  /** The viewport's size and scroll, as read before `resize` wrote any style (reading after it would force a layout). */
  private measured: { w: number; h: number; left: number; top: number } | null = null;

  private box(): { w: number; h: number; left: number; top: number } {
    const v = this.els?.viewport;
    if (this.measured) return this.measured;
    return v ? { w: v.clientWidth, h: v.clientHeight, left: v.scrollLeft, top: v.scrollTop } : { w: 0, h: 0, left: 0, top: 0 };
  }

  /** The visible part of the map, in units. */
  private viewRect(): { left: number; top: number; right: number; bottom: number } {
    const b = this.box();
    const p = this.pitch;
    return { left: b.left / p, top: b.top / p, right: (b.left + b.w) / p, bottom: (b.top + b.h) / p };
  }

  private applyZoom(zoom: number, anchor?: { x: number; y: number }): void {
    const v = this.els?.viewport;
    const old = this.zoom;
    this.zoom = zoom;
    if (!v) return;
    const ax = anchor?.x ?? v.clientWidth / 2;
    const ay = anchor?.y ?? v.clientHeight / 2;
    const ratio = zoom / old;
    const left = (v.scrollLeft + ax) * ratio - ax;
    const top = (v.scrollTop + ay) * ratio - ay;
    this.sizeSizer();
    v.scrollLeft = Math.max(0, left);
    v.scrollTop = Math.max(0, top);
    for (const [i, b] of this.buttons) this.placeButton(b, i);
  }

  private placeButton(b: HTMLButtonElement, index: number): void {
    const seat = this.map?.seats[index];
    if (!seat) return;
    const p = this.pitch;
    b.style.cssText = `left:${seat.x * p}px;top:${seat.y * p}px;width:${p}px;height:${p}px`;
  }

  private sizeSizer(): void {
    if (!this.els) return;
    const map = this.map;
    const p = this.pitch;
    this.els.sizer.style.width = `${Math.ceil((map?.width ?? 0) * p)}px`;
    this.els.sizer.style.height = `${Math.ceil((map?.height ?? 0) * p)}px`;
  }

  private resize(): void {
    if (!this.els) return;
    this.sized = true;
    const { viewport, canvas } = this.els;
    this.dpr = Math.min(typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1, 3);
    // Every read first, then the writes: painting uses what was read (no forced layout).
    const w = viewport.clientWidth;
    const h = viewport.clientHeight;
    const offsetTop = viewport.offsetTop;
    this.measured = { w, h, left: viewport.scrollLeft, top: viewport.scrollTop };
    try {
      canvas.style.top = `${offsetTop}px`;
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      canvas.width = Math.max(1, Math.round(w * this.dpr));
      canvas.height = Math.max(1, Math.round(h * this.dpr));
      this.sizeSizer();
      // The seats first: row and area labels (text: the canvas's first font lookup and shaping,
      // ~8 ms at first use) are drawn a frame later, with the overlay.
      this.paintAll({ labels: false });
    } finally {
      this.measured = null;
    }
    // The painted map is what the visitor sees first; the focusable stand-ins follow a frame later
    // (the active seat's at once, so the tab stop exists from the start).
    if (this.active >= 0 && this.map) this.ensureButton(this.active);
    this.scheduleOverlay();
    if (this.map && !this.announcedPaint) {
      this.announcedPaint = true;
      this.callbacks.painted?.();
    }
  }

  private announcedPaint = false;

  private overlayFrame = 0;
  /** The labels were left out of the last full paint (the first one): draw them after that frame. */
  private labelsOwed = false;

  /** Build the overlay (and draw labels still owed) just after the next frame is painted (rAF, then a task). */
  private scheduleOverlay(): void {
    if (hidden()) return this.afterFirstFrame();
    if (this.overlayFrame) return;
    this.overlayFrame = afterNextFrame(() => {
      this.overlayFrame = 0;
      this.afterFirstFrame();
    });
  }

  private afterFirstFrame(): void {
    if (this.labelsOwed) {
      this.labelsOwed = false;
      const ctx = this.context();
      if (ctx) this.drawLabels(ctx, this.readPalette());
    }
    this.syncOverlay();
  }

  private schedule(): void {
    if (hidden()) {
      this.paintAll();
      this.syncOverlay();
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paintAll();
      this.syncOverlay();
    });
  }

  // ------------------------------------------------------------------ painting

  /** Price band colours: `--booking-seat-band-1` … `-6` (the legend uses the same properties). */
  static readonly BAND_DEFAULTS = ['#0b63a8', '#a34400', '#007a5a', '#a8437f', '#5b4a9e', '#7a6500'];

  private readPalette(): SeatMapPalette {
    if (this.palette) return this.palette;
    const style = getComputedStyle(this.host);
    const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
    const forced = typeof matchMedia === 'function' && matchMedia('(forced-colors: active)').matches;
    if (forced) {
      this.palette = {
        bands: ['Canvas'], mark: 'CanvasText', selected: 'Highlight', selectedMark: 'HighlightText', held: 'GrayText',
        restricted: 'CanvasText', text: 'CanvasText', background: 'Canvas', focus: 'Highlight', outline: 'CanvasText',
        font: style.fontFamily || 'sans-serif',
      };
    } else {
      this.palette = {
        bands: SeatMapController.BAND_DEFAULTS.map((fallback, i) => read(`--booking-seat-band-${i + 1}`, fallback)),
        mark: read('--booking-seat-mark', '#ffffff'),
        selected: read('--booking-seat-selected', read('--_accent', '#7a1f3d')),
        selectedMark: read('--_accent-contrast', '#ffffff'),
        held: read('--booking-seat-held', '#6b6f76'),
        restricted: read('--booking-seat-restricted', '#1d1d1f'),
        text: read('--booking-text', '#1d1d1f'),
        background: read('--_surface', '#ffffff'),
        focus: '#1a73e8',
        outline: null,
        font: style.fontFamily || 'sans-serif',
      };
    }
    return this.palette;
  }

  private context(): CanvasRenderingContext2D | null {
    const ctx = this.els?.canvas.getContext('2d') ?? null;
    ctx?.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    return ctx;
  }

  /** One pre-drawn image per look of a seat (band, selected, held, restricted) at the current zoom. */
  private sprites = new Map<string, OffscreenCanvas | HTMLCanvasElement>();
  private spriteScale = '';

  private lookKey(seat: MapSeat): string {
    const selected = this.selected.has(seat.index);
    const held = this.held.has(seat.index);
    return `${selected ? 's' : held ? 'h' : `b${seat.band % 6}:${seat.band}`}${seat.restricted ? 'r' : ''}`;
  }

  private sprite(seat: MapSeat, key = this.lookKey(seat)): OffscreenCanvas | HTMLCanvasElement {
    const scale = `${this.zoom}:${this.dpr}`;
    if (scale !== this.spriteScale) {
      this.sprites.clear();
      this.patterns.clear();
      this.spriteScale = scale;
    }
    let sprite = this.sprites.get(key);
    if (!sprite) {
      const side = Math.max(1, Math.ceil(this.pitch * this.dpr));
      // An OffscreenCanvas is cheaper to make than a <canvas> element (no DOM node).
      const canvas: OffscreenCanvas | HTMLCanvasElement = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(side, side) : document.createElement('canvas');
      canvas.width = canvas.height = side;
      sprite = canvas;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
      if (ctx) {
        ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
        const selected = this.selected.has(seat.index);
        this.drawSeatShape(ctx, { band: seat.band, selected, held: this.held.has(seat.index), restricted: seat.restricted }, 0, 0, this.readPalette());
      }
      this.sprites.set(key, sprite);
    }
    return sprite;
  }

  /** The sprite of a look as a repeating pattern (one fill paints a whole run of seats). */
  private patterns = new Map<string, CanvasPattern | null>();

  private pattern(ctx: CanvasRenderingContext2D, seat: MapSeat, key: string): CanvasPattern | null {
    const sprite = this.sprite(seat, key);
    let pattern = this.patterns.get(key);
    if (pattern === undefined) {
      pattern = ctx.createPattern(sprite, 'repeat');
      this.patterns.set(key, pattern);
    }
    return pattern;
  }

  /**
   * Repaint what is in view. Seats side by side with the same look form a run,
   * and every run of one look (on one grid) goes into one path filled with that
   * look's sprite as a pattern: a few fills instead of one image copy per seat
   * (both to record and to rasterize), then the labels.
   */
  private paintAll(options: { labels?: boolean } = {}): void {
    const ctx = this.context();
    const v = this.els?.viewport;
    if (!ctx || !v) return;
    const pal = this.readPalette();
    const b = this.box();
    ctx.clearRect(0, 0, b.w, b.h);
    const map = this.map;
    this.labelsOwed = false;
    if (!map) return;
    const r = this.viewRect();
    const p = this.pitch;
    const sx = b.left;
    const sy = b.top;
    const groups = new Map<string, { seat: MapSeat; key: string; path: Path2D; ox: number; oy: number }>();
    let run: { key: string; y: number; left: number; right: number; group: { path: Path2D } } | null = null;
    const flush = () => {
      if (run) run.group.path.rect(run.left * p - sx, run.y * p - sy, (run.right - run.left) * p, p);
    };
    for (const seat of seatsIn(map, r.left, r.top, r.right, r.bottom)) {
      const key = this.lookKey(seat);
      if (run && run.key === key && run.y === seat.y && run.right === seat.x) {
        run.right = seat.x + 1;
        continue;
      }
      flush();
      // Seats share a grid when their offsets differ by whole units (x always does; y per area).
      const gridKey = `${key}|${seat.y % 1}|${seat.x % 1}`;
      let group = groups.get(gridKey);
      if (!group) {
        group = { seat, key, path: new Path2D(), ox: seat.x * p - sx, oy: seat.y * p - sy };
        groups.set(gridKey, group);
      }
      run = { key, y: seat.y, left: seat.x, right: seat.x + 1, group };
    }
    flush();
    const side = Math.max(1, Math.ceil(p * this.dpr));
    for (const g of groups.values()) {
      const pattern = this.pattern(ctx, g.seat, g.key);
      if (!pattern) {
        // No pattern support: one image copy per seat of this look.
        for (const seat of seatsIn(map, r.left, r.top, r.right, r.bottom)) {
          if (this.lookKey(seat) === g.key) ctx.drawImage(this.sprite(seat, g.key), seat.x * p - sx, seat.y * p - sy, p, p);
        }
        continue;
      }
      pattern.setTransform(new DOMMatrix([p / side, 0, 0, p / side, g.ox, g.oy]));
      ctx.fillStyle = pattern;
      ctx.fill(g.path);
    }
    if (options.labels === false) this.labelsOwed = true;
    else this.drawLabels(ctx, pal);
  }

  private paintSeat(index: number): void {
    const ctx = this.context();
    const v = this.els?.viewport;
    const seat = this.map?.seats[index];
    if (!ctx || !v || !seat) return;
    const p = this.pitch;
    const b = this.box();
    const x = seat.x * p - b.left;
    const y = seat.y * p - b.top;
    if (x + p < 0 || y + p < 0 || x > b.w || y > b.h) return;
    ctx.clearRect(x, y, p, p);
    ctx.drawImage(this.sprite(seat), x, y, p, p);
    if (x < ROW_LABEL_UNITS * p) {
      this.labelsOwed = false;
      this.drawLabels(ctx, this.readPalette());
    }
  }

  /** A seat in its cell at (cellX, cellY): colour, and a mark that says the same without colour. */
  private drawSeatShape(
    ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
    look: { band: number; selected: boolean; held: boolean; restricted: boolean },
    cellX: number,
    cellY: number,
    pal: SeatMapPalette,
  ): void {
    const p = this.pitch;
    const size = SEAT_SIZE * this.zoom;
    const inset = (p - size) / 2;
    const x = cellX + inset;
    const y = cellY + inset;
    const radius = Math.min(size * 0.25, 6);
    ctx.beginPath();
    ctx.roundRect(x, y, size, size, [radius, radius, radius * 0.4, radius * 0.4]);
    ctx.fillStyle = look.selected ? pal.selected : look.held ? pal.held : (pal.bands[look.band % pal.bands.length] ?? '#0b63a8');
    ctx.fill();
    if (pal.outline) {
      ctx.strokeStyle = pal.outline;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    if (size < 6) return;
    const cx = x + size / 2;
    const cy = y + size / 2;
    const u = size / 24;
    ctx.lineWidth = Math.max(1.5, 2 * u);
    ctx.lineCap = 'round';
    if (look.selected || look.held) {
      // A check mark; held seats also get a dashed outline (grey alone would be colour only).
      ctx.strokeStyle = look.selected ? pal.selectedMark : pal.mark;
      ctx.beginPath();
      ctx.moveTo(cx - 6 * u, cy);
      ctx.lineTo(cx - 1.5 * u, cy + 5 * u);
      ctx.lineTo(cx + 6.5 * u, cy - 5 * u);
      ctx.stroke();
      if (look.held) {
        ctx.setLineDash([2 * u, 2 * u]);
        ctx.strokeStyle = pal.text;
        ctx.lineWidth = Math.max(1, u);
        ctx.strokeRect(x - 1, y - 1, size + 2, size + 2);
        ctx.setLineDash([]);
      }
    } else if (look.band >= 6) {
      // Colours and marks repeat after six bands: from the seventh on, the band's letter tells them apart.
      ctx.fillStyle = pal.mark;
      ctx.font = `700 ${Math.round(11 * u)}px ${pal.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(this.map?.bands[look.band]?.label ?? '', cx, cy + 0.5 * u, size - 4 * u);
    } else {
      this.drawBandMark(ctx, look.band, cx, cy, u, pal.mark);
    }
    if (look.restricted) {
      // A dark corner triangle: restricted view.
      ctx.fillStyle = pal.restricted;
      ctx.beginPath();
      ctx.moveTo(x + size - 10 * u, y);
      ctx.lineTo(x + size, y);
      ctx.lineTo(x + size, y + 10 * u);
      ctx.closePath();
      ctx.fill();
    }
  }

  /** The mark that names a price band besides its colour: 0 none, 1 diagonal, 2 dot, 3 bar, 4 plus, 5 ring (the legend draws the same). */
  private drawBandMark(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, band: number, cx: number, cy: number, u: number, colour: string): void {
    const k = 5.5 * u;
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.beginPath();
    switch (band % 6) {
      case 0:
        return;
      case 1:
        ctx.moveTo(cx - k, cy + k);
        ctx.lineTo(cx + k, cy - k);
        break;
      case 2:
        ctx.arc(cx, cy, 2.6 * u, 0, Math.PI * 2);
        ctx.fill();
        return;
      case 3:
        ctx.moveTo(cx - k, cy);
        ctx.lineTo(cx + k, cy);
        break;
      case 4:
        ctx.moveTo(cx - k, cy);
        ctx.lineTo(cx + k, cy);
        ctx.moveTo(cx, cy - k);
        ctx.lineTo(cx, cy + k);
        break;
      default:
        ctx.arc(cx, cy, k * 0.75, 0, Math.PI * 2);
    }
    ctx.stroke();
  }

  /** Row labels stay at the left edge while panning; area names above their rows. */
  private drawLabels(ctx: CanvasRenderingContext2D, pal: SeatMapPalette): void {
    const map = this.map;
    if (!map) return;
    const p = this.pitch;
    const b = this.box();
    const r = this.viewRect();
    const labelWidth = ROW_LABEL_UNITS * p;
    const fontSize = Math.max(9, Math.min(14, p * 0.45));
    ctx.font = `600 ${fontSize}px ${pal.font}`;
    ctx.textBaseline = 'middle';
    const pinned = b.left > 0;
    for (const row of map.rows) {
      if (row.y + 1 < r.top) continue;
      if (row.y > r.bottom) break;
      const y = row.y * p - b.top;
      if (pinned) {
        ctx.fillStyle = pal.background;
        ctx.globalAlpha = 0.92;
        ctx.fillRect(0, y, labelWidth - 2, p);
        ctx.globalAlpha = 1;
      }
      ctx.fillStyle = pal.text;
      ctx.textAlign = 'right';
      ctx.fillText(row.label, labelWidth - 6, y + p / 2, labelWidth - 6);
    }
    ctx.textAlign = 'left';
    ctx.font = `700 ${Math.max(10, Math.min(15, p * 0.5))}px ${pal.font}`;
    for (const area of map.areas) {
      const y = area.y * p - b.top;
      if (y > b.h || y + p < 0) continue;
      ctx.fillStyle = pal.background;
      ctx.fillRect(0, y, b.w, p * 1.2);
      ctx.fillStyle = pal.text;
      ctx.fillText(area.name, 4, y + p * 0.6);
    }
  }

  // ------------------------------------------------------------------ overlay

  private syncOverlay(): void {
    const map = this.map;
    const els = this.els;
    if (!map || !els) return;
    const r = this.viewRect();
    const wanted = new Set<number>();
    let count = 0;
    for (const seat of seatsIn(map, r.left, r.top, r.right, r.bottom)) {
      if (++count > OVERLAY_CAP) break;
      wanted.add(seat.index);
    }
    if (count > OVERLAY_CAP) {
      // Too small to point at: keep the active seat's row only (the list path serves the rest).
      wanted.clear();
      const row = map.rows[map.seats[this.active]?.rowIndex ?? -1];
      for (const i of row?.seats ?? []) wanted.add(i);
    }
    if (this.active >= 0) wanted.add(this.active);
    for (const [i, b] of this.buttons) {
      if (!wanted.has(i)) {
        b.remove();
        this.buttons.delete(i);
      }
    }
    const fragment = document.createDocumentFragment();
    for (const i of wanted) if (!this.buttons.has(i)) fragment.append(this.createButton(i));
    els.sizer.append(fragment);
  }

  private template: HTMLButtonElement | null = null;

  private createButton(index: number): HTMLButtonElement {
    const seat = this.map?.seats[index] as MapSeat;
    if (!this.template) {
      this.template = document.createElement('button');
      this.template.type = 'button';
    }
    const b = this.template.cloneNode(false) as HTMLButtonElement;
    b.dataset.seat = String(index);
    this.placeButton(b, index);
    this.buttons.set(index, b);
    this.fillButton(b, seat);
    return b;
  }

  private ensureButton(index: number): HTMLButtonElement {
    const existing = this.buttons.get(index);
    if (existing) return existing;
    const b = this.createButton(index);
    this.els?.sizer.append(b);
    return b;
  }

  private fillButton(b: HTMLButtonElement, seat: MapSeat): void {
    const selected = this.selected.has(seat.index);
    const held = this.held.has(seat.index);
    b.tabIndex = seat.index === this.active ? 0 : -1;
    b.setAttribute('aria-label', this.callbacks.label(seat, held));
    b.setAttribute('aria-pressed', String(selected));
    if (held) b.setAttribute('aria-disabled', 'true');
    else b.removeAttribute('aria-disabled');
    b.setAttribute('part', `seat${selected ? ' selected' : ''}${held ? ' in-basket' : ''}${seat.restricted ? ' restricted' : ''}`);
  }

  private updateButton(index: number): void {
    const b = this.buttons.get(index);
    const seat = this.map?.seats[index];
    if (b && seat) this.fillButton(b, seat);
  }

  // ------------------------------------------------------------------ input

  private handleButtonClick(e: MouseEvent): void {
    const b = (e.target as HTMLElement).closest('button');
    const index = Number(b?.dataset.seat);
    if (!b || !Number.isInteger(index)) return;
    this.focusSeat(index, { focus: false });
    this.callbacks.toggle(index);
  }

  private handleFocusIn(e: FocusEvent): void {
    const index = Number((e.target as HTMLElement).dataset?.seat);
    if (Number.isInteger(index) && index !== this.active) {
      const previous = this.active;
      this.active = index;
      this.updateButton(previous);
      this.updateButton(index);
      this.callbacks.activate(index);
    }
  }

  private handleKeyDown(e: KeyboardEvent): void {
    const map = this.map;
    if (!map || this.active < 0) return;
    const keys: Record<string, Parameters<typeof neighbour>[2]> = {
      ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', Home: 'home', End: 'end',
    };
    let direction = keys[e.key];
    if (!direction) return;
    if (e.ctrlKey && (e.key === 'Home' || e.key === 'End')) direction = e.key === 'Home' ? 'first' : 'last';
    e.preventDefault();
    const next = neighbour(map, this.active, direction);
    if (next >= 0) this.focusSeat(next);
  }

  private handlePointerDown(e: PointerEvent): void {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) {
      this.pinch = { distance: this.pointerDistance(), zoom: this.zoom };
      this.dragged = true;
    }
    try {
      this.els?.viewport.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic pointers */
    }
  }

  private pointerDistance(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) || 1 : 1;
  }

  private handlePointerMove(e: PointerEvent): void {
    const pt = this.pointers.get(e.pointerId);
    const v = this.els?.viewport;
    if (!pt || !v) return;
    const dx = e.clientX - pt.x;
    const dy = e.clientY - pt.y;
    pt.x = e.clientX;
    pt.y = e.clientY;
    if (this.pointers.size >= 2 && this.pinch) {
      const [a, b] = [...this.pointers.values()];
      const rect = v.getBoundingClientRect();
      const anchor = { x: ((a?.x ?? 0) + (b?.x ?? 0)) / 2 - rect.left, y: ((a?.y ?? 0) + (b?.y ?? 0)) / 2 - rect.top };
      const zoom = clampZoom((this.pinch.zoom * this.pointerDistance()) / this.pinch.distance);
      if (zoom !== this.zoom) {
        this.applyZoom(zoom, anchor);
        this.callbacks.zoomed(zoom);
        this.schedule();
      }
      return;
    }
    if (!this.dragged && Math.hypot(e.clientX - pt.startX, e.clientY - pt.startY) < DRAG_THRESHOLD) return;
    if (!this.dragged) v.classList.add('dragging');
    this.dragged = true;
    v.scrollLeft -= dx;
    v.scrollTop -= dy;
  }

  private handlePointerUp(e: PointerEvent): void {
    const pt = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    const v = this.els?.viewport;
    if (!this.pointers.size) v?.classList.remove('dragging');
    const map = this.map;
    if (!pt || !v || !map || this.dragged) return;
    const rect = v.getBoundingClientRect();
    const p = this.pitch;
    const index = seatAt(map, (e.clientX - rect.left + v.scrollLeft) / p, (e.clientY - rect.top + v.scrollTop) / p);
    if (index < 0) return;
    const hadFocus = this.host.shadowRoot?.activeElement instanceof HTMLButtonElement && this.buttons.has(Number(this.host.shadowRoot.activeElement.dataset.seat));
    this.focusSeat(index, { focus: hadFocus });
    this.callbacks.toggle(index);
  }

  private handleWheel(e: WheelEvent): void {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const v = this.els?.viewport;
    if (!v) return;
    const rect = v.getBoundingClientRect();
    const zoom = clampZoom(this.zoom * Math.exp(-e.deltaY / 300));
    if (zoom === this.zoom) return;
    this.applyZoom(zoom, { x: e.clientX - rect.left, y: e.clientY - rect.top });
    this.callbacks.zoomed(zoom);
    this.schedule();
  }
}

/** A hidden page gets no animation frames nor resize reports: work that waits for one is done at once there. */
function hidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * Run `fn` at the start of the next frame (rAF); on a hidden page (no frames) in the next
 * task, also when the page is hidden before that frame comes.
 */
export function nextFrame(fn: () => void): void {
  const soon = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn();
    channel.port2.postMessage(null);
  };
  if (hidden() || typeof requestAnimationFrame !== 'function') return soon();
  const onHide = () => {
    if (!hidden()) return;
    document.removeEventListener('visibilitychange', onHide);
    cancelAnimationFrame(id);
    soon();
  };
  const id = requestAnimationFrame(() => {
    document.removeEventListener('visibilitychange', onHide);
    fn();
  });
  document.addEventListener('visibilitychange', onHide);
}

/**
 * Run `fn` in a task just after the next frame is produced (rAF, then a message: the frame
 * is not delayed by it). On a hidden page (no frames) in the next task. Returns the rAF id
 * (0 when none), for cancelAnimationFrame.
 */
export function afterNextFrame(fn: () => void): number {
  const task = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn();
    channel.port2.postMessage(null);
  };
  if (hidden() || typeof requestAnimationFrame !== 'function') {
    task();
    return 0;
  }
  return requestAnimationFrame(task);
}

export function clampZoom(zoom: number): number {
  return Math.round(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom)) * 100) / 100;
}
