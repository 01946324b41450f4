/**
 * The seat map's canvas painting: the palette (the host's colours as the browser
 * resolves them, read again when they change, or the system colours in
 * forced-colours mode), one pre-drawn sprite
 * per look of a seat, seat shapes with the band marks that say without colour what
 * the colour says, row and area labels, and the full and per-seat repaints.
 *
 * It paints what a `PaintView` describes and keeps only its caches: input, focus,
 * the overlay of buttons and when to paint belong to `SeatMapController`.
 */
import { seatsIn, ROW_LABEL_UNITS, type MapSeat, type SeatMap } from '../../state/seat-map.ts';
import { lightBand, seatColour } from './seat-colours.ts';
import {
  BAND_LETTER,
  HELD_OUTLINE,
  INVALID_RING,
  MARK_WIDTH,
  RESTRICTED_CORNER,
  SEAT_LOWER_RADIUS,
  SEAT_RADIUS,
  SEAT_UNITS,
  seatMark,
  type SymbolShape,
} from './seat-symbols.ts';
import { FOCUS_RING, lightSide } from '../tokens.ts';

export interface SeatMapPalette {
  bands: string[];
  mark: string;
  selected: string;
  selectedMark: string;
  held: string;
  restricted: string;
  /** The ring around a seat the service refused (InvalidSeatID). */
  invalid: string;
  text: string;
  background: string;
  focus: string;
  /** An outline around every seat (forced colours, where fills are all one system colour). */
  outline: string | null;
  /** The host's font family, for row and area labels. */
  font: string;
}

/**
 * The viewport's size, and where it looks at the map, in CSS px: `left`/`top`
 * are negative when the map is centred in a larger viewport (the map's left
 * edge is then at canvas x = -left).
 */
export interface ViewBox {
  w: number;
  h: number;
  left: number;
  top: number;
}

/** What one paint shows: the data, the scale, and the part of the map in view. */
export interface PaintView {
  map: SeatMap | null;
  selected: ReadonlySet<number>;
  held: ReadonlySet<number>;
  /** Seats the service named as why the selection was refused: ringed in the danger colour. */
  invalid: ReadonlySet<number>;
  zoom: number;
  dpr: number;
  box: ViewBox;
}

/** Seat size and pitch at zoom 1, in CSS px (the seat is at least 24 px: WCAG 2.5.8). */
export const SEAT_SIZE = 24;
export const SEAT_PITCH = 28;
/** Below this size (CSS px) a seat is painted as a plain block: its marks would not be seen. */
const TINY_SEAT = 6;

/** The colours the canvas paints with, as CSS values (seat-colours.ts; the shared styles' palette), in a fixed order. */
const PALETTE = [
  seatColour('band-1'), seatColour('band-2'), seatColour('band-3'), seatColour('band-4'), seatColour('band-5'), seatColour('band-6'),
  seatColour('mark'), seatColour('selected'), 'var(--_accent-contrast)', seatColour('held'), seatColour('restricted'),
  'var(--_text)', 'var(--_surface)', 'var(--_danger)',
];

/** The visible part of the map, in units. */
export function viewRect(view: PaintView): { left: number; top: number; right: number; bottom: number } {
  const b = view.box;
  const p = SEAT_PITCH * view.zoom;
  return { left: b.left / p, top: b.top / p, right: (b.left + b.w) / p, bottom: (b.top + b.h) / p };
}

/** Where the row-label column starts on the canvas: the map's left edge, or the canvas's while panned past it. */
function labelLeft(view: PaintView): number {
  return Math.max(0, -view.box.left);
}

type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export class SeatMapPainter {
  private palette: SeatMapPalette | null = null;
  /** One pre-drawn image per look of a seat (band, selected, held, restricted) at the current zoom. */
  private sprites = new Map<string, OffscreenCanvas | HTMLCanvasElement>();
  private spriteScale = '';
  /** The sprite of a look as a repeating pattern (one fill paints a whole run of seats). */
  private patterns = new Map<string, CanvasPattern | null>();
  /** The labels were left out of the last full paint (the first one): draw them after that frame. */
  private labelsOwed = false;

  /**
   * `host` gives the palette: its colours as the browser resolves them inside its
   * shadow root (the built-in light or dark side, the host page's `--booking-*`);
   * `changed` is called when they change while shown (a live colour-scheme switch).
   */
  constructor(
    private readonly host: HTMLElement,
    private readonly changed: () => void = () => undefined,
  ) {}

  /** Forget the sprites and patterns (a new map). */
  forgetSprites(): void {
    this.sprites.clear();
    this.patterns.clear();
  }

  /** Whether the labels are still owed since the last full paint; they are not owed after this call. */
  takeOwedLabels(): boolean {
    const owed = this.labelsOwed;
    this.labelsOwed = false;
    return owed;
  }

  private probe: HTMLElement | null = null;
  private forcedQuery: MediaQueryList | null = null;

  /**
   * One span per palette colour, each coloured with the custom property it stands
   * for, in the host's shadow root: reading them back gives plain colours the
   * canvas understands (light-dark() resolved for the colour scheme in force). A
   * transition on each reports a change: then the palette is read afresh.
   */
  private probeFor(): HTMLElement | null {
    const root = this.host.shadowRoot;
    if (!root) return null;
    if (this.probe?.isConnected) return this.probe;
    const probe = document.createElement('div');
    probe.setAttribute('aria-hidden', 'true');
    // Styled through the CSSOM (no stylesheet, and a strict CSP allows it): out of sight, no size.
    probe.style.cssText = 'position:absolute;width:0;height:0;overflow:hidden;visibility:hidden;pointer-events:none';
    for (const value of PALETTE) {
      const span = document.createElement('span');
      span.style.color = value;
      span.style.transition = 'color 1ms';
      probe.append(span);
    }
    probe.addEventListener('transitionend', () => this.paletteChanged());
    root.append(probe);
    this.probe = probe;
    // Forced colours switched on or off (or the forced palette changed): read the palette afresh.
    if (!this.forcedQuery && typeof matchMedia === 'function') {
      this.forcedQuery = matchMedia('(forced-colors: active)');
      this.forcedQuery.addEventListener('change', () => this.paletteChanged());
    }
    return probe;
  }

  /** The colours changed while shown: read them afresh and repaint. */
  private paletteChanged(): void {
    if (!this.palette) return;
    this.palette = null;
    this.forgetSprites();
    this.changed();
  }

  /** A system colour (`Canvas`, `Highlight`, …) as the page resolves it now (the forced palette in force), or the keyword. */
  private systemColour(name: string): string {
    const probe = this.probeFor();
    if (!probe) return name;
    const span = document.createElement('span');
    span.style.color = name;
    probe.append(span);
    const value = getComputedStyle(span).color || name;
    span.remove();
    return value;
  }

  readPalette(): SeatMapPalette {
    if (this.palette) return this.palette;
    const style = getComputedStyle(this.host);
    const forced = typeof matchMedia === 'function' && matchMedia('(forced-colors: active)').matches;
    if (forced) {
      // A canvas resolves a system colour keyword to the browser's default, not the visitor's forced
      // palette (white Canvas seats on a black page): read each through a probe, as the page shows it.
      const system = (name: string) => this.systemColour(name);
      this.palette = {
        bands: [system('Canvas')], mark: system('CanvasText'), selected: system('Highlight'), selectedMark: system('HighlightText'), held: system('GrayText'),
        restricted: system('CanvasText'), invalid: system('Mark'), text: system('CanvasText'), background: system('Canvas'), focus: system('Highlight'),
        outline: system('CanvasText'), font: style.fontFamily || 'sans-serif',
      };
      return this.palette;
    }
    const spans = this.probeFor()?.children;
    const colour = (i: number, fallback: string) => {
      const span = spans?.[i];
      return (span && getComputedStyle(span).color) || fallback;
    };
    this.palette = {
      bands: [0, 1, 2, 3, 4, 5].map((i) => colour(i, lightBand(i))),
      mark: colour(6, lightSide('seat-mark')),
      selected: colour(7, lightSide('accent')),
      selectedMark: colour(8, lightSide('accent-contrast')),
      held: colour(9, lightSide('seat-held')),
      restricted: colour(10, lightSide('seat-mark')),
      text: colour(11, lightSide('text')),
      background: colour(12, lightSide('surface')),
      invalid: colour(13, lightSide('danger')),
      focus: FOCUS_RING[0],
      outline: null,
      font: style.fontFamily || 'sans-serif',
    };
    return this.palette;
  }

  /** The canvas's context, scaled to CSS px. */
  context(canvas: HTMLCanvasElement, dpr: number): CanvasRenderingContext2D | null {
    const ctx = canvas.getContext('2d') ?? null;
    ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  private lookKey(view: PaintView, seat: MapSeat): string {
    const selected = view.selected.has(seat.index);
    const held = view.held.has(seat.index);
    return `${selected ? 's' : held ? 'h' : `b${seat.band % 6}:${seat.band}`}${seat.restricted ? 'r' : ''}${view.invalid.has(seat.index) ? 'x' : ''}`;
  }

  private sprite(view: PaintView, seat: MapSeat, key = this.lookKey(view, seat)): OffscreenCanvas | HTMLCanvasElement {
    const { zoom, dpr } = view;
    const scale = `${zoom}:${dpr}`;
    if (scale !== this.spriteScale) {
      this.sprites.clear();
      this.patterns.clear();
      this.spriteScale = scale;
    }
    let sprite = this.sprites.get(key);
    if (!sprite) {
      const side = Math.max(1, Math.ceil(SEAT_PITCH * zoom * dpr));
      // An OffscreenCanvas is cheaper to make than a <canvas> element (no DOM node).
      const canvas: OffscreenCanvas | HTMLCanvasElement = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(side, side) : document.createElement('canvas');
      canvas.width = canvas.height = side;
      sprite = canvas;
      const ctx = canvas.getContext('2d') as Context2D | null;
      if (ctx) {
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        const selected = view.selected.has(seat.index);
        const look = { band: seat.band, selected, held: view.held.has(seat.index), restricted: seat.restricted, invalid: view.invalid.has(seat.index) };
        this.drawSeatShape(ctx, view, look, 0, 0, this.readPalette());
      }
      this.sprites.set(key, sprite);
    }
    return sprite;
  }

  private pattern(ctx: CanvasRenderingContext2D, view: PaintView, seat: MapSeat, key: string): CanvasPattern | null {
    const sprite = this.sprite(view, seat, key);
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
   * (both to record and to rasterize), then the labels (unless `labels: false`:
   * then they are owed, see `takeOwedLabels`).
   */
  paintAll(ctx: CanvasRenderingContext2D, view: PaintView, options: { labels?: boolean } = {}): void {
    const pal = this.readPalette();
    const b = view.box;
    ctx.clearRect(0, 0, b.w, b.h);
    const map = view.map;
    this.labelsOwed = false;
    if (!map) return;
    const r = viewRect(view);
    const p = SEAT_PITCH * view.zoom;
    const sx = b.left;
    const sy = b.top;
    const groups = new Map<string, { seat: MapSeat; key: string; path: Path2D; ox: number; oy: number }>();
    let run: { key: string; y: number; left: number; right: number; group: { path: Path2D } } | null = null;
    // A run's rectangle: a whole cell per seat (the sprite pattern has the seat inside it), or
    // for tiny seats the seats' own extent (filled solid, see below).
    const tiny = SEAT_SIZE * view.zoom < TINY_SEAT;
    const shrink = tiny ? p - SEAT_SIZE * view.zoom : 0;
    const flush = () => {
      if (run) run.group.path.rect(run.left * p - sx, run.y * p - sy, (run.right - run.left) * p - shrink, p - shrink);
    };
    for (const seat of seatsIn(map, r.left, r.top, r.right, r.bottom)) {
      const key = this.lookKey(view, seat);
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
    const size = SEAT_SIZE * view.zoom;
    if (size < TINY_SEAT) {
      // Seats too small for their marks (a large map fitted to a phone): each run one solid
      // block of its look's colour, quicker to fill than a pattern; marks would not show anyway.
      const inset = (p - size) / 2;
      for (const g of groups.values()) {
        const seat = g.seat;
        const selected = view.selected.has(seat.index);
        const held = view.held.has(seat.index);
        ctx.fillStyle = selected ? pal.selected : held ? pal.held : (pal.bands[seat.band % pal.bands.length] ?? lightBand(0));
        ctx.save();
        ctx.translate(inset, inset);
        ctx.fill(g.path);
        ctx.restore();
      }
      // A refused seat keeps its ring, however small.
      for (const i of view.invalid) {
        const seat = map.seats[i];
        if (!seat) continue;
        ctx.strokeStyle = pal.invalid;
        ctx.lineWidth = 1.5;
        ctx.strokeRect(seat.x * p - sx - 1, seat.y * p - sy - 1, p + 2, p + 2);
      }
      if (options.labels === false) this.labelsOwed = true;
      else this.drawLabels(ctx, view, pal);
      return;
    }
    const side = Math.max(1, Math.ceil(p * view.dpr));
    for (const g of groups.values()) {
      const pattern = this.pattern(ctx, view, g.seat, g.key);
      if (!pattern) {
        // No pattern support: one image copy per seat of this look.
        for (const seat of seatsIn(map, r.left, r.top, r.right, r.bottom)) {
          if (this.lookKey(view, seat) === g.key) ctx.drawImage(this.sprite(view, seat, g.key), seat.x * p - sx, seat.y * p - sy, p, p);
        }
        continue;
      }
      pattern.setTransform(new DOMMatrix([p / side, 0, 0, p / side, g.ox, g.oy]));
      ctx.fillStyle = pattern;
      ctx.fill(g.path);
    }
    if (options.labels === false) this.labelsOwed = true;
    else this.drawLabels(ctx, view, pal);
  }

  /** Repaint one seat (when in view), and the labels when it is under them. */
  paintSeat(ctx: CanvasRenderingContext2D, view: PaintView, seat: MapSeat): void {
    const p = SEAT_PITCH * view.zoom;
    const b = view.box;
    const x = seat.x * p - b.left;
    const y = seat.y * p - b.top;
    if (x + p < 0 || y + p < 0 || x > b.w || y > b.h) return;
    ctx.clearRect(x, y, p, p);
    ctx.drawImage(this.sprite(view, seat), x, y, p, p);
    if (x < labelLeft(view) + ROW_LABEL_UNITS * p) {
      this.labelsOwed = false;
      this.drawLabels(ctx, view, this.readPalette());
    }
  }

  /** A seat in its cell at (cellX, cellY): colour, and a mark that says the same without colour. */
  private drawSeatShape(
    ctx: Context2D,
    view: PaintView,
    look: { band: number; selected: boolean; held: boolean; restricted: boolean; invalid: boolean },
    cellX: number,
    cellY: number,
    pal: SeatMapPalette,
  ): void {
    const p = SEAT_PITCH * view.zoom;
    const size = SEAT_SIZE * view.zoom;
    const inset = (p - size) / 2;
    const x = cellX + inset;
    const y = cellY + inset;
    const radius = Math.min(size * (SEAT_RADIUS / SEAT_UNITS), SEAT_RADIUS);
    ctx.beginPath();
    ctx.roundRect(x, y, size, size, [radius, radius, radius * SEAT_LOWER_RADIUS, radius * SEAT_LOWER_RADIUS]);
    ctx.fillStyle = look.selected ? pal.selected : look.held ? pal.held : (pal.bands[look.band % pal.bands.length] ?? lightBand(0));
    ctx.fill();
    if (pal.outline) {
      ctx.strokeStyle = pal.outline;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    if (size < 6) return;
    // The symbols (seat-symbols.ts, which the legend draws too), in seat units: u CSS px each.
    const u = size / SEAT_UNITS;
    const mark = seatMark(look);
    if (mark) drawSymbol(ctx, mark, x, y, u, look.selected ? pal.selectedMark : pal.mark, Math.max(1.5, MARK_WIDTH * u));
    if (look.held) {
      const o = HELD_OUTLINE.outset;
      ctx.setLineDash([HELD_OUTLINE.dash * u, HELD_OUTLINE.dash * u]);
      ctx.strokeStyle = pal.text;
      ctx.lineWidth = Math.max(1, HELD_OUTLINE.width * u);
      ctx.strokeRect(x - o, y - o, size + 2 * o, size + 2 * o);
      ctx.setLineDash([]);
    } else if (!look.selected && look.band >= 6) {
      // Colours and marks repeat after six bands: from the seventh on, the band's letter tells them apart.
      ctx.fillStyle = pal.mark;
      ctx.font = `${BAND_LETTER.weight} ${Math.round(BAND_LETTER.size * u)}px ${pal.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(view.map?.bands[look.band]?.label ?? '', x + BAND_LETTER.x * u, y + BAND_LETTER.y * u, size - 4 * u);
    }
    if (look.invalid) {
      // Refused by the service: a ring in the danger colour around the seat (a shape, not colour alone).
      const o = INVALID_RING.outset;
      ctx.strokeStyle = pal.invalid;
      ctx.lineWidth = Math.max(1.5, INVALID_RING.width * u);
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.roundRect(x - o, y - o, size + 2 * o, size + 2 * o, radius + o);
      ctx.stroke();
    }
    // Restricted view: the corner, in the marks' colour.
    if (look.restricted) drawSymbol(ctx, RESTRICTED_CORNER, x, y, u, pal.restricted, 0);
  }

  /**
   * Row labels just left of their rows (the map's own label column; pinned to
   * the left edge while panning); area names above their rows.
   */
  drawLabels(ctx: CanvasRenderingContext2D, view: PaintView, pal: SeatMapPalette = this.readPalette()): void {
    const map = view.map;
    if (!map) return;
    const p = SEAT_PITCH * view.zoom;
    const b = view.box;
    const r = viewRect(view);
    const x0 = labelLeft(view);
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
      ctx.fillText(row.label, x0 + labelWidth - 6, y + p / 2, labelWidth - 6);
    }
    ctx.textAlign = 'left';
    ctx.font = `700 ${Math.max(10, Math.min(15, p * 0.5))}px ${pal.font}`;
    for (const area of map.areas) {
      const y = area.y * p - b.top;
      if (y > b.h || y + p < 0) continue;
      ctx.fillStyle = pal.background;
      ctx.fillRect(0, y, b.w, p * 1.2);
      ctx.fillStyle = pal.text;
      ctx.fillText(area.name, x0 + 4, y + p * 0.6);
    }
  }
}

/** Path2D of each symbol's path data, made once. */
const paths = new Map<string, Path2D>();

/** A symbol (seat-symbols.ts) on the seat whose top left corner is at x, y, `u` CSS px per seat unit. */
function drawSymbol(ctx: Context2D, shape: SymbolShape, x: number, y: number, u: number, colour: string, lineWidth: number): void {
  let path = paths.get(shape.d);
  if (!path) {
    path = new Path2D(shape.d);
    paths.set(shape.d, path);
  }
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(u, u);
  if (shape.paint === 'fill') {
    ctx.fillStyle = colour;
    ctx.fill(path);
  } else {
    ctx.strokeStyle = colour;
    ctx.lineWidth = lineWidth / u;
    ctx.lineCap = 'round';
    ctx.stroke(path);
  }
  ctx.restore();
}
