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
 *   the map (O(log n)). A mouse or pen chooses on press while the whole map is
 *   in view (nothing to drag), so the seat shows chosen in the next frame;
 *   otherwise a seat is chosen on release, when the pointer did not drag. A finger
 *   is no finer than 24 px: a tap on seats drawn smaller than that (a fitted
 *   venue) zooms in about the tap until they are 24 px, and the next tap
 *   chooses. One finger or a mouse drag pans; two fingers pinch to
 *   zoom and pan together (the point of the map under them stays under them);
 *   Ctrl+wheel zooms, plain wheel scrolls natively.
 * - Fit: a map opens fitted to its viewport (the whole venue in view, at most
 *   100 %) and stays fitted as the viewport is resized, until the visitor
 *   zooms (pinch, Ctrl+wheel, the zoom buttons: `zoomTo`); `fit()` fits again.
 * - Centre: at a zoom where the map is narrower (or shorter) than its viewport,
 *   it sits in the middle of it (`margin`): the painting, the buttons (the
 *   sizer's margin), the hit test and the zoom anchors all add the same margin.
 * - A selection change repaints the changed cells and updates their buttons;
 *   it never touches the other seats.
 *
 * This controller owns the elements, the input, the overlay and when to paint;
 * `SeatMapPainter` (seat-map-painter.ts) paints.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { neighbour, seatAt, seatsIn, ROW_LABEL_UNITS, type MapSeat, type SeatMap } from '../../state/seat-map.ts';
import { afterNextFrame, hidden } from './frames.ts';
import { SeatMapPainter, SEAT_PITCH, SEAT_SIZE, viewRect, type PaintView, type ViewBox } from './seat-map-painter.ts';

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
  /** The accessible name of a seat (`invalid`: the service named it as why the selection was refused). */
  label(seat: MapSeat, held: boolean, invalid: boolean): string;
  /** Zoom changed (pinch, Ctrl+wheel, the buttons, a fit), or the view stopped or started fitting: see `fitted`. */
  zoomed(zoom: number): void;
  /** The map was painted for the first time since it was attached (its frame is being produced now). */
  painted?(): void;
}

/** Above this many seats in view, only the active seat's row gets buttons. */
const OVERLAY_CAP = 1500;
const DRAG_THRESHOLD = 6;

export const MIN_ZOOM = 0.25;
/** The least size (CSS px) of a seat a finger can be trusted to choose (WCAG 2.5.8's target size). */
export const TOUCH_TARGET = 24;
export const MAX_ZOOM = 3;

export class SeatMapController implements ReactiveController {
  private els: SeatMapElements | null = null;
  private map: SeatMap | null = null;
  private selected: ReadonlySet<number> = new Set();
  private held: ReadonlySet<number> = new Set();
  private invalid: ReadonlySet<number> = new Set();
  private zoom = 1;
  private active = -1;
  private readonly painter: SeatMapPainter;
  private buttons = new Map<number, HTMLButtonElement>();
  private frame = 0;
  private resizeObserver: ResizeObserver | null = null;
  private pointers = new Map<number, { x: number; y: number; startX: number; startY: number }>();
  private dragged = false;
  /** Two fingers down: their distance and the map point (in units) under their midpoint at the start. */
  private pinch: { distance: number; zoom: number; unitX: number; unitY: number } | null = null;
  /** Whether the view fits the whole map (from the start, and after `fit()`), until the visitor zooms. */
  private fitting = true;
  private cleanup: (() => void)[] = [];
  private dpr = 1;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly callbacks: SeatMapCallbacks,
  ) {
    // A live change of colours (the page's colour scheme) repaints everything in view.
    this.painter = new SeatMapPainter(host, () => this.schedule());
    host.addController(this);
  }

  get pitch(): number {
    return SEAT_PITCH * this.zoom;
  }

  /** The index of the seat holding the roving focus. */
  get activeSeat(): number {
    return this.active;
  }

  /** Whether the view fits the whole map and keeps fitting it on resize. */
  get fitted(): boolean {
    return this.fitting;
  }

  /** The zoom at which the whole map fits a viewport of `w` × `h` CSS px (at most 1), or null without a map. */
  private fitZoom(w: number, h: number): number | null {
    const map = this.map;
    if (!map || w <= 0 || h <= 0) return null;
    const zoom = Math.min(1, w / (map.width * SEAT_PITCH), h / (map.height * SEAT_PITCH));
    return Math.max(0.01, Math.floor(zoom * 100) / 100);
  }

  /** The least zoom: 25 %, or less when that is what fitting a large map takes. */
  private get minZoom(): number {
    const b = this.box();
    return Math.min(MIN_ZOOM, this.fitZoom(b.w, b.h) ?? MIN_ZOOM);
  }

  /** Fit the whole map in the viewport now, and on every resize until the visitor zooms. */
  fit(): void {
    this.fitting = true;
    const b = this.box();
    const zoom = this.fitZoom(b.w, b.h);
    if (zoom === null || !this.els) return;
    if (zoom !== this.zoom) this.zoomAt(zoom, { left: 0, top: 0 });
    this.callbacks.zoomed(zoom);
  }

  /** The visitor zooms (the zoom buttons): about the viewport's centre; the view no longer follows its size. */
  zoomTo(zoom: number): void {
    this.fitting = false;
    const next = clampZoom(zoom, this.minZoom);
    if (next !== this.zoom && this.els) {
      this.applyZoom(next);
      this.schedule();
    }
    this.callbacks.zoomed(this.zoom);
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
    on(viewport, 'scroll', () => {
      this.scrollStale = true; // read again when next needed (in the frame's paint, layout clean)
      this.schedule();
    }, { passive: true });
    on(viewport, 'pointerdown', (e) => this.handlePointerDown(e));
    on(viewport, 'pointermove', (e) => this.handlePointerMove(e));
    on(viewport, 'pointerup', (e) => this.handlePointerUp(e));
    on(viewport, 'pointercancel', (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
    });
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
    this.scrollStale = true;
    this.announcedPaint = false;
  }

  /**
   * New data for the view. A new map repaints everything in view; a new
   * selection repaints only the seats whose state changed.
   */
  update(next: {
    map: SeatMap | null;
    selected: ReadonlySet<number>;
    held: ReadonlySet<number>;
    /** Seats the service named as why the selection was refused (InvalidSeatID): marked. */
    invalid?: ReadonlySet<number>;
    zoom: number;
    active: number;
  }): void {
    const invalid = next.invalid ?? this.invalid;
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
      if (invalid !== this.invalid) {
        for (const i of invalid) if (!this.invalid.has(i)) changed.push(i);
        for (const i of this.invalid) if (!invalid.has(i)) changed.push(i);
      }
    }
    const previousActive = this.active;
    this.map = next.map;
    this.selected = next.selected;
    this.held = next.held;
    this.invalid = invalid;
    if (zoomChanged) this.applyZoom(next.zoom);
    this.active = next.map && next.active >= 0 && next.active < next.map.seats.length ? next.active : next.map?.seats.length ? 0 : -1;
    if (mapChanged) {
      for (const b of this.buttons.values()) b.remove();
      this.buttons.clear();
      this.painter.forgetSprites();
      this.fitting = true; // every map opens with the whole venue in view
    }
    if (!this.els || !this.sized) return;
    if (mapChanged && next.map) {
      const b = this.box();
      const zoom = this.fitZoom(b.w, b.h);
      if (zoom !== null && zoom !== this.zoom) {
        this.zoomAt(zoom, { left: 0, top: 0 });
        this.callbacks.zoomed(zoom);
      }
    }
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
    const p = this.pitch;
    const left = seat.x * p;
    const top = seat.y * p;
    const margin = p;
    const labelSpace = ROW_LABEL_UNITS * p;
    const b = this.box();
    let x = b.left;
    let y = b.top;
    if (left - labelSpace < x) x = Math.max(0, left - labelSpace - margin);
    else if (left + p > x + b.w) x = left + p + margin - b.w;
    if (top < y) y = Math.max(0, top - margin);
    else if (top + p > y + b.h) y = top + p + margin - b.h;
    // The seats in view changed only if the view moved (a click on a seat in view leaves it be).
    if (x !== b.left || y !== b.top) {
      this.scrollTo(x, y);
      this.syncOverlay();
    }
    this.updateButton(previous);
    const button = this.ensureButton(index);
    if (options.focus !== false) button.focus({ preventScroll: true });
    this.callbacks.activate(index);
  }

  /**
   * The viewport's size (from its resize reports) and scroll (what this
   * controller set, or read again after a scroll event). Kept, not read from the
   * DOM when painting: a read after the click's DOM changes would force a style
   * and layout pass in the middle of answering the click.
   */
  private viewBox: ViewBox = { w: 0, h: 0, left: 0, top: 0 };
  private scrollStale = true;

  private box(): ViewBox {
    const v = this.els?.viewport;
    if (v && this.scrollStale) {
      this.scrollStale = false;
      this.viewBox = { ...this.viewBox, left: v.scrollLeft, top: v.scrollTop };
    }
    return this.viewBox;
  }

  /** Scroll the viewport, clamped as the browser clamps it, and keep what it is now. */
  private scrollTo(left: number, top: number): void {
    const v = this.els?.viewport;
    const map = this.map;
    if (!v) return;
    const p = this.pitch;
    const { w, h } = this.viewBox;
    const x = Math.round(Math.max(0, Math.min(left, Math.ceil((map?.width ?? 0) * p) - w)));
    const y = Math.round(Math.max(0, Math.min(top, Math.ceil((map?.height ?? 0) * p) - h)));
    this.box();
    if (x !== this.viewBox.left) v.scrollLeft = x;
    if (y !== this.viewBox.top) v.scrollTop = y;
    this.viewBox = { ...this.viewBox, left: x, top: y };
  }

  /** What the painter paints now: the data, the scale and the viewport as it is. */
  private paintView(): PaintView {
    return { map: this.map, selected: this.selected, held: this.held, invalid: this.invalid, zoom: this.zoom, dpr: this.dpr, box: this.mapBox() };
  }

  private context(): CanvasRenderingContext2D | null {
    return this.els ? this.painter.context(this.els.canvas, this.dpr) : null;
  }

  private paintAll(options: { labels?: boolean } = {}): void {
    const ctx = this.context();
    if (ctx) this.painter.paintAll(ctx, this.paintView(), options);
  }

  private paintSeat(index: number): void {
    const ctx = this.context();
    const seat = this.map?.seats[index];
    if (ctx && seat) this.painter.paintSeat(ctx, this.paintView(), seat);
  }

  /** Zoom about a point of the viewport (default its centre): the map point under it stays put. */
  private applyZoom(zoom: number, anchor?: { x: number; y: number }): void {
    const v = this.els?.viewport;
    if (!v) {
      this.zoom = zoom;
      return;
    }
    const b = this.box();
    const ax = anchor?.x ?? b.w / 2;
    const ay = anchor?.y ?? b.h / 2;
    const ratio = zoom / this.zoom;
    // The map point under the anchor (CSS px of the map at this zoom, past the centring margin) stays under it.
    const before = this.margin();
    const after = this.margin(zoom);
    this.zoomAt(zoom, { left: (b.left + ax - before.x) * ratio - ax + after.x, top: (b.top + ay - before.y) * ratio - ay + after.y });
  }

  /**
   * The space left of and above the map (CSS px) at `zoom`: half of what the
   * viewport has to spare, so a map narrower or shorter than its box is centred
   * in it; 0 on an axis the map overflows.
   */
  private margin(zoom = this.zoom): { x: number; y: number } {
    const map = this.map;
    const { w, h } = this.viewBox;
    if (!map || w <= 0 || h <= 0) return { x: 0, y: 0 };
    const p = SEAT_PITCH * zoom;
    return { x: Math.max(0, Math.floor((w - Math.ceil(map.width * p)) / 2)), y: Math.max(0, Math.floor((h - Math.ceil(map.height * p)) / 2)) };
  }

  /** The part of the map in view, as the painter and the overlay see it: the scroll less the centring margin. */
  private mapBox(): ViewBox {
    const b = this.box();
    const m = this.margin();
    return { w: b.w, h: b.h, left: b.left - m.x, top: b.top - m.y };
  }

  /** Set the zoom and scroll the viewport to `scroll` (CSS px at the new zoom). */
  private zoomAt(zoom: number, scroll: { left: number; top: number }): void {
    this.zoom = zoom;
    const v = this.els?.viewport;
    if (!v) return;
    this.sizeSizer();
    this.scrollTo(scroll.left, scroll.top);
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
    const m = this.margin();
    const style = this.els.sizer.style;
    style.width = `${Math.ceil((map?.width ?? 0) * p)}px`;
    style.height = `${Math.ceil((map?.height ?? 0) * p)}px`;
    // Centred when it is smaller than the viewport: the buttons move with it, the painting adds the same margin.
    style.marginLeft = `${m.x}px`;
    style.marginTop = `${m.y}px`;
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
    this.viewBox = { w, h, left: viewport.scrollLeft, top: viewport.scrollTop };
    this.scrollStale = false;
    // Fitted: the whole map in view at this size (then nothing can be scrolled: the browser clamps to 0).
    const fit = this.fitting ? this.fitZoom(w, h) : null;
    const refit = fit !== null && fit !== this.zoom;
    if (refit) {
      this.zoom = fit;
      this.viewBox = { w, h, left: 0, top: 0 };
      for (const [i, b] of this.buttons) this.placeButton(b, i);
    }
    canvas.style.top = `${offsetTop}px`;
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    canvas.width = Math.max(1, Math.round(w * this.dpr));
    canvas.height = Math.max(1, Math.round(h * this.dpr));
    this.sizeSizer();
    // The seats first: row and area labels (text: the canvas's first font lookup and shaping,
    // ~8 ms at first use) are drawn a frame later, with the overlay.
    this.paintAll({ labels: false });
    // The painted map is what the visitor sees first; the focusable stand-ins follow a frame later
    // (the active seat's at once, so the tab stop exists from the start).
    if (this.active >= 0 && this.map) this.ensureButton(this.active);
    if (refit) this.callbacks.zoomed(this.zoom);
    this.scheduleOverlay();
    if (this.map && !this.announcedPaint) {
      this.announcedPaint = true;
      this.callbacks.painted?.();
    }
  }

  private announcedPaint = false;

  private overlayFrame = 0;

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
    if (this.painter.takeOwedLabels()) {
      const ctx = this.context();
      if (ctx) this.painter.drawLabels(ctx, this.paintView());
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

  // ------------------------------------------------------------------ overlay

  private syncOverlay(): void {
    const map = this.map;
    const els = this.els;
    if (!map || !els) return;
    const r = viewRect(this.paintView());
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
    const invalid = this.invalid.has(seat.index);
    b.tabIndex = seat.index === this.active ? 0 : -1;
    b.setAttribute('aria-label', this.callbacks.label(seat, held, invalid));
    b.setAttribute('aria-pressed', String(selected));
    if (held) b.setAttribute('aria-disabled', 'true');
    else b.removeAttribute('aria-disabled');
    if (invalid) b.setAttribute('aria-invalid', 'true');
    else b.removeAttribute('aria-invalid');
    b.setAttribute('part', `seat-button${selected ? ' selected' : ''}${held ? ' in-basket' : ''}${seat.restricted ? ' restricted' : ''}${invalid ? ' invalid' : ''}`);
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
    this.pressed = false;
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) this.startPinch();
    try {
      this.els?.viewport.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic pointers */
    }
    // A mouse or pen on a map that fits whole (nothing to drag it by): the press chooses the seat,
    // so the answer is in the very next frame, however long the button is held. On a map that can
    // be panned, a press may begin a drag, and the seat is chosen on release (as a touch always is).
    if (e.pointerType !== 'touch' && this.pointers.size === 1 && this.wholeMapInView()) {
      this.pressed = this.chooseAt(e);
    }
  }

  /** The press already chose a seat (see handlePointerDown): its release does not choose again. */
  private pressed = false;

  /** Whether the whole map is in the viewport (nothing to scroll). */
  private wholeMapInView(): boolean {
    const map = this.map;
    const { w, h } = this.viewBox;
    const p = this.pitch;
    return map !== null && w > 0 && Math.ceil(map.width * p) <= w && Math.ceil(map.height * p) <= h;
  }

  /** Choose the seat under a pointer (hit-tested on the map); false when there is none. */
  private chooseAt(e: PointerEvent): boolean {
    const v = this.els?.viewport;
    const map = this.map;
    if (!v || !map) return false;
    const rect = v.getBoundingClientRect();
    const p = this.pitch;
    const b = this.mapBox();
    const index = seatAt(map, (e.clientX - rect.left + b.left) / p, (e.clientY - rect.top + b.top) / p);
    if (index < 0) return false;
    const hadFocus = this.host.shadowRoot?.activeElement instanceof HTMLButtonElement && this.buttons.has(Number(this.host.shadowRoot.activeElement.dataset.seat));
    this.focusSeat(index, { focus: hadFocus });
    this.callbacks.toggle(index);
    return true;
  }

  private pointerDistance(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) || 1 : 1;
  }

  /** The two fingers' midpoint, relative to the viewport. */
  private pointerMidpoint(): { x: number; y: number } {
    const [a, b] = [...this.pointers.values()];
    const rect = this.els?.viewport.getBoundingClientRect();
    return { x: ((a?.x ?? 0) + (b?.x ?? 0)) / 2 - (rect?.left ?? 0), y: ((a?.y ?? 0) + (b?.y ?? 0)) / 2 - (rect?.top ?? 0) };
  }

  /** Two fingers down: remember the map point under them, which stays under them while they move. */
  private startPinch(): void {
    const v = this.els?.viewport;
    if (!v) return;
    const mid = this.pointerMidpoint();
    const p = this.pitch;
    const b = this.mapBox();
    this.pinch = { distance: this.pointerDistance(), zoom: this.zoom, unitX: (b.left + mid.x) / p, unitY: (b.top + mid.y) / p };
    this.dragged = true;
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
      // Pinch and two-finger pan at once: the zoom follows the fingers' spread, and the map
      // point that was under their midpoint stays under it wherever it moves.
      const pinch = this.pinch;
      const zoom = clampZoom((pinch.zoom * this.pointerDistance()) / pinch.distance, this.minZoom);
      const mid = this.pointerMidpoint();
      const p = SEAT_PITCH * zoom;
      const m = this.margin(zoom);
      const scroll = { left: pinch.unitX * p - mid.x + m.x, top: pinch.unitY * p - mid.y + m.y };
      const b = this.box();
      if (zoom === this.zoom && Math.abs(scroll.left - b.left) < 0.5 && Math.abs(scroll.top - b.top) < 0.5) return;
      const report = zoom !== this.zoom || this.fitting;
      this.fitting = false;
      this.zoomAt(zoom, scroll);
      if (report) this.callbacks.zoomed(zoom);
      this.schedule();
      return;
    }
    if (!this.dragged && Math.hypot(e.clientX - pt.startX, e.clientY - pt.startY) < DRAG_THRESHOLD) return;
    if (!this.dragged) v.classList.add('dragging');
    this.dragged = true;
    const b = this.box();
    this.scrollTo(b.left - dx, b.top - dy);
    this.schedule();
  }

  private handlePointerUp(e: PointerEvent): void {
    const pt = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    // One finger left of two: it pans on from where it is now, not from where it went down.
    for (const pt of this.pointers.values()) {
      pt.startX = pt.x;
      pt.startY = pt.y;
    }
    const v = this.els?.viewport;
    if (!this.pointers.size) v?.classList.remove('dragging');
    if (!pt || !v || !this.map || this.dragged || this.pressed) return;
    if (e.pointerType === 'touch' && SEAT_SIZE * this.zoom < TOUCH_TARGET) {
      this.zoomToTouch(e);
      return;
    }
    this.chooseAt(e);
  }

  /**
   * A tap on seats smaller than a fingertip would choose whichever seat the
   * finger's centre happened to land on, often a neighbour: it zooms in about
   * the tap instead (the map point under the finger stays under it) until the
   * seats are touch-sized, and chooses nothing. A tap beside the map does nothing.
   */
  private zoomToTouch(e: PointerEvent): void {
    const v = this.els?.viewport;
    const map = this.map;
    if (!v || !map) return;
    const rect = v.getBoundingClientRect();
    const at = { x: e.clientX - rect.left, y: e.clientY - rect.top };
    const b = this.mapBox();
    const p = this.pitch;
    const ux = (b.left + at.x) / p;
    const uy = (b.top + at.y) / p;
    if (ux < 0 || uy < 0 || ux > map.width || uy > map.height) return;
    this.fitting = false;
    this.applyZoom(clampZoom(Math.max(this.zoom, TOUCH_TARGET / SEAT_SIZE), this.minZoom), at);
    this.callbacks.zoomed(this.zoom);
    this.schedule();
  }

  private handleWheel(e: WheelEvent): void {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const v = this.els?.viewport;
    if (!v) return;
    const rect = v.getBoundingClientRect();
    const zoom = clampZoom(this.zoom * Math.exp(-e.deltaY / 300), this.minZoom);
    const wasFitting = this.fitting;
    this.fitting = false;
    if (zoom === this.zoom) {
      if (wasFitting) this.callbacks.zoomed(zoom);
      return;
    }
    this.applyZoom(zoom, { x: e.clientX - rect.left, y: e.clientY - rect.top });
    this.callbacks.zoomed(zoom);
    this.schedule();
  }
}

/** A zoom within [min, MAX_ZOOM], to the percent. */
export function clampZoom(zoom: number, min = MIN_ZOOM): number {
  return Math.round(Math.min(MAX_ZOOM, Math.max(min, zoom)) * 100) / 100;
}
