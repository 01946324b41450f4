/**
 * The seat map's geometry: the zoom, the viewport's size and scroll, and what follows from
 * them: the seat pitch, the zoom that fits the whole map, the margin that centres a map smaller
 * than its box, the part of the map in view, and the map point under a point of the viewport.
 *
 * The viewport's size comes from its resize reports and its scroll from what was set here (or
 * is read again after a scroll event): never read from the DOM while painting, where a read
 * after a click's DOM changes would force a style and layout pass in the middle of answering it.
 */
import type { SeatMap } from '../../state/seat-map.ts';
import { SEAT_PITCH, type ViewBox } from './seat-map-painter.ts';

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 3;
/** The least size (CSS px) of a seat a finger can be trusted to choose (WCAG 2.5.8's target size). */
export const TOUCH_TARGET = 24;

/** A zoom within [min, MAX_ZOOM], to the percent. */
export function clampZoom(zoom: number, min = MIN_ZOOM): number {
  return Math.round(Math.min(MAX_ZOOM, Math.max(min, zoom)) * 100) / 100;
}

export class SeatMapGeometry {
  map: SeatMap | null = null;
  zoom = 1;
  /** The scroll container, while the map is attached. */
  viewport: HTMLElement | null = null;
  /** The viewport's size (its resize reports) and scroll (kept; see `box`). */
  private viewBox: ViewBox = { w: 0, h: 0, left: 0, top: 0 };
  private scrollStale = true;

  /** One seat's cell at this zoom, CSS px. */
  get pitch(): number {
    return SEAT_PITCH * this.zoom;
  }

  /** The viewport scrolled (a scroll event): read its scroll again when next needed. */
  scrolled(): void {
    this.scrollStale = true;
  }

  /** The viewport as it is now: its size, and its scroll as set here or read after a scroll. */
  box(): ViewBox {
    const v = this.viewport;
    if (v && this.scrollStale) {
      this.scrollStale = false;
      this.viewBox = { ...this.viewBox, left: v.scrollLeft, top: v.scrollTop };
    }
    return this.viewBox;
  }

  /** The viewport's size and scroll, read at once (its resize report). */
  measured(box: ViewBox): void {
    this.viewBox = box;
    this.scrollStale = false;
  }

  /** Scroll the viewport, clamped as the browser clamps it, and keep what it is now. */
  scrollTo(left: number, top: number): void {
    const v = this.viewport;
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

  /** The zoom at which the whole map fits a viewport of `w` × `h` CSS px (at most 1), or null without a map. */
  fitZoom(w: number, h: number): number | null {
    const map = this.map;
    if (!map || w <= 0 || h <= 0) return null;
    const zoom = Math.min(1, w / (map.width * SEAT_PITCH), h / (map.height * SEAT_PITCH));
    return Math.max(0.01, Math.floor(zoom * 100) / 100);
  }

  /** The least zoom: 25 %, or less when that is what fitting a large map takes. */
  get minZoom(): number {
    const b = this.box();
    return Math.min(MIN_ZOOM, this.fitZoom(b.w, b.h) ?? MIN_ZOOM);
  }

  /**
   * The space left of and above the map (CSS px) at `zoom`: half of what the
   * viewport has to spare, so a map narrower or shorter than its box is centred
   * in it; 0 on an axis the map overflows.
   */
  margin(zoom = this.zoom): { x: number; y: number } {
    const map = this.map;
    const { w, h } = this.viewBox;
    if (!map || w <= 0 || h <= 0) return { x: 0, y: 0 };
    const p = SEAT_PITCH * zoom;
    return { x: Math.max(0, Math.floor((w - Math.ceil(map.width * p)) / 2)), y: Math.max(0, Math.floor((h - Math.ceil(map.height * p)) / 2)) };
  }

  /** The part of the map in view, as the painter and the overlay see it: the scroll less the centring margin. */
  mapBox(): ViewBox {
    const b = this.box();
    const m = this.margin();
    return { w: b.w, h: b.h, left: b.left - m.x, top: b.top - m.y };
  }

  /** Whether the whole map is in the viewport (nothing to scroll). */
  wholeMapInView(): boolean {
    const map = this.map;
    const { w, h } = this.viewBox;
    const p = this.pitch;
    return map !== null && w > 0 && Math.ceil(map.width * p) <= w && Math.ceil(map.height * p) <= h;
  }

  /** The map point (in seat units) under a point of the viewport (CSS px from its top left corner). */
  unitAt(x: number, y: number): { x: number; y: number } {
    const b = this.mapBox();
    const p = this.pitch;
    return { x: (b.left + x) / p, y: (b.top + y) / p };
  }

  /** A point of the page (clientX/Y) relative to the viewport. */
  inViewport(clientX: number, clientY: number): { x: number; y: number } {
    const rect = this.viewport?.getBoundingClientRect();
    return { x: clientX - (rect?.left ?? 0), y: clientY - (rect?.top ?? 0) };
  }

  /**
   * The scroll that zooms to `zoom` about a point of the viewport (default its centre): the map
   * point under it stays put (CSS px of the map at the new zoom, past the centring margin).
   */
  scrollForZoom(zoom: number, anchor?: { x: number; y: number }): { left: number; top: number } {
    const b = this.box();
    const ax = anchor?.x ?? b.w / 2;
    const ay = anchor?.y ?? b.h / 2;
    const ratio = zoom / this.zoom;
    const before = this.margin();
    const after = this.margin(zoom);
    return { left: (b.left + ax - before.x) * ratio - ax + after.x, top: (b.top + ay - before.y) * ratio - ay + after.y };
  }

  /** Forget the viewport (the map was detached). */
  detach(): void {
    this.viewport = null;
    this.scrollStale = true;
  }
}
