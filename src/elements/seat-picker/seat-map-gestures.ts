/**
 * The seat map's pointer and wheel input. The buttons ignore the pointer; a tap or click is
 * hit-tested on the map (O(log n)). A mouse or pen chooses on press while the whole map is in
 * view (nothing to drag), so the seat shows chosen in the next frame; otherwise a seat is chosen
 * on release, when the pointer did not drag. A finger is no finer than 24 px: a tap on seats
 * drawn smaller than that (a fitted venue) zooms in about the tap until they are 24 px, and the
 * next tap chooses. One finger or a mouse drag pans; two fingers pinch to zoom and pan together
 * (the point of the map under them stays under them); Ctrl+wheel zooms, plain wheel scrolls
 * natively.
 *
 * Until the map is engaged (a tap or a click on it, two fingers on it, its zoom buttons), a
 * one-finger vertical pan over it scrolls the page (`touch-action: pan-y`): on a phone the map
 * covers most of the screen, and a visitor scrolling past it must not be caught by it. Engaged,
 * one finger pans the map (`touch-action: none`) until the visitor touches or clicks elsewhere.
 */
import { seatAt } from '../../state/seat-map.ts';
import { afterNextFrame } from './frames.ts';
import { clampZoom, TOUCH_TARGET, type SeatMapGeometry } from './seat-map-geometry.ts';
import { SEAT_PITCH, SEAT_SIZE } from './seat-map-painter.ts';

const DRAG_THRESHOLD = 6;

/** What the gestures do to the map's view. */
export interface GesturesPort {
  readonly geometry: SeatMapGeometry;
  /** Whether the view fits the whole map (and keeps fitting it), until the visitor zooms. */
  fitting: boolean;
  /** Choose a seat (the pointer hit it): roving focus on it, and toggled. `focus`: move the keyboard focus too. */
  choose(index: number, focus: boolean): void;
  /** Whether the keyboard focus is on a seat's button now. */
  seatFocused(): boolean;
  /** Set the zoom and scroll to `scroll` (CSS px at the new zoom). */
  zoomAt(zoom: number, scroll: { left: number; top: number }): void;
  /** Zoom about a point of the viewport (the map point under it stays put). */
  applyZoom(zoom: number, anchor?: { x: number; y: number }): void;
  /** The zoom changed, or the view stopped fitting. */
  zoomed(zoom: number): void;
  /** Paint (and sync the overlay) in the next frame. */
  schedule(): void;
}

export class SeatMapGestures {
  private pointers = new Map<number, { x: number; y: number; startX: number; startY: number }>();
  private dragged = false;
  /** Two fingers down: their distance and the map point (in units) under their midpoint at the start. */
  private pinch: { distance: number; zoom: number; unitX: number; unitY: number } | null = null;
  /** The press already chose a seat (see handlePointerDown): its release does not choose again. */
  private pressed = false;

  constructor(private readonly port: GesturesPort) {}

  private get geometry(): SeatMapGeometry {
    return this.port.geometry;
  }

  /** Forget pointers in progress (the map was detached). */
  reset(): void {
    this.pointers.clear();
    this.disengage();
  }

  /** Whether the map has the visitor's fingers (one finger pans it, not the page). */
  engaged = false;
  private engagedViewport: HTMLElement | null = null;

  /**
   * The visitor engaged the map: one finger pans it, until they press anywhere else. `later`: its
   * class (which restyles every seat's stand-in: an ancestor's touch-action is theirs too) after the
   * next frame, unless a press elsewhere lets go of the map first.
   */
  engage(later = false): void {
    const v = this.geometry.viewport;
    if (this.engaged || !v) return;
    this.engaged = true;
    this.engagedViewport = v;
    const mark = () => void (this.engagedViewport === v && v.classList.add('engaged'));
    if (later) afterNextFrame(mark);
    else mark();
    document.addEventListener('pointerdown', this.pressedElsewhere, true);
  }

  private disengage(): void {
    if (!this.engaged) return;
    this.engaged = false;
    this.engagedViewport?.classList.remove('engaged');
    this.engagedViewport = null;
    document.removeEventListener('pointerdown', this.pressedElsewhere, true);
  }

  private readonly pressedElsewhere = (e: PointerEvent): void => {
    if (this.engagedViewport && !e.composedPath().includes(this.engagedViewport)) this.disengage();
  };

  /**
   * Two fingers on the map engage it, and the browser does not scroll the page with them (the
   * first finger's `pan-y` would let it): the pinch and two-finger pan are the map's.
   */
  readonly handleTouch = (e: TouchEvent): void => {
    if (e.touches.length < 2) return;
    this.engage();
    if (e.cancelable) e.preventDefault();
  };

  readonly handlePointerDown = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
    this.pressed = false;
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) this.startPinch();
    try {
      this.geometry.viewport?.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic pointers */
    }
    // A mouse or pen on a map that fits whole (nothing to drag it by): the press chooses the seat,
    // so the answer is in the very next frame, however long the button is held. On a map that can
    // be panned, a press may begin a drag, and the seat is chosen on release (as a touch always is).
    if (e.pointerType !== 'touch' && this.pointers.size === 1 && this.geometry.wholeMapInView()) {
      this.pressed = this.chooseAt(e);
    }
  };

  readonly handlePointerCancel = (e: PointerEvent): void => {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  };

  /** Choose the seat under a pointer (hit-tested on the map); false when there is none. */
  private chooseAt(e: PointerEvent): boolean {
    const geometry = this.geometry;
    const map = geometry.map;
    if (!geometry.viewport || !map) return false;
    const at = geometry.inViewport(e.clientX, e.clientY);
    const unit = geometry.unitAt(at.x, at.y);
    const index = seatAt(map, unit.x, unit.y);
    if (index < 0) return false;
    this.port.choose(index, this.port.seatFocused());
    return true;
  }

  private pointerDistance(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) || 1 : 1;
  }

  /** The two fingers' midpoint, relative to the viewport. */
  private pointerMidpoint(): { x: number; y: number } {
    const [a, b] = [...this.pointers.values()];
    return this.geometry.inViewport(((a?.x ?? 0) + (b?.x ?? 0)) / 2, ((a?.y ?? 0) + (b?.y ?? 0)) / 2);
  }

  /** Two fingers down: remember the map point under them, which stays under them while they move. */
  private startPinch(): void {
    if (!this.geometry.viewport) return;
    const mid = this.pointerMidpoint();
    const unit = this.geometry.unitAt(mid.x, mid.y);
    this.pinch = { distance: this.pointerDistance(), zoom: this.geometry.zoom, unitX: unit.x, unitY: unit.y };
    this.dragged = true;
  }

  readonly handlePointerMove = (e: PointerEvent): void => {
    const pt = this.pointers.get(e.pointerId);
    const geometry = this.geometry;
    const v = geometry.viewport;
    if (!pt || !v) return;
    const dx = e.clientX - pt.x;
    const dy = e.clientY - pt.y;
    pt.x = e.clientX;
    pt.y = e.clientY;
    if (this.pointers.size >= 2 && this.pinch) {
      // Pinch and two-finger pan at once: the zoom follows the fingers' spread, and the map
      // point that was under their midpoint stays under it wherever it moves.
      const pinch = this.pinch;
      const zoom = clampZoom((pinch.zoom * this.pointerDistance()) / pinch.distance, geometry.minZoom);
      const mid = this.pointerMidpoint();
      const p = SEAT_PITCH * zoom;
      const m = geometry.margin(zoom);
      const scroll = { left: pinch.unitX * p - mid.x + m.x, top: pinch.unitY * p - mid.y + m.y };
      const b = geometry.box();
      if (zoom === geometry.zoom && Math.abs(scroll.left - b.left) < 0.5 && Math.abs(scroll.top - b.top) < 0.5) return;
      const report = zoom !== geometry.zoom || this.port.fitting;
      this.port.fitting = false;
      this.port.zoomAt(zoom, scroll);
      if (report) this.port.zoomed(zoom);
      this.port.schedule();
      return;
    }
    if (!this.dragged && Math.hypot(e.clientX - pt.startX, e.clientY - pt.startY) < DRAG_THRESHOLD) return;
    if (!this.dragged) v.classList.add('dragging');
    this.dragged = true;
    const b = geometry.box();
    geometry.scrollTo(b.left - dx, b.top - dy);
    this.port.schedule();
  };

  readonly handlePointerUp = (e: PointerEvent): void => {
    const pt = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    // One finger left of two: it pans on from where it is now, not from where it went down.
    for (const pt of this.pointers.values()) {
      pt.startX = pt.x;
      pt.startY = pt.y;
    }
    const v = this.geometry.viewport;
    if (!this.pointers.size) v?.classList.remove('dragging');
    // A tap or a click: the visitor is using the map. A click's engagement, which only a touch
    // would use, waits for the frame that answers the press; a tap's is needed by the next finger.
    if (pt && !this.dragged) this.engage(e.pointerType !== 'touch');
    if (!pt || !v || !this.geometry.map || this.dragged || this.pressed) return;
    if (e.pointerType === 'touch' && SEAT_SIZE * this.geometry.zoom < TOUCH_TARGET) {
      this.zoomToTouch(e);
      return;
    }
    this.chooseAt(e);
  };

  /**
   * A tap on seats smaller than a fingertip would choose whichever seat the
   * finger's centre happened to land on, often a neighbour: it zooms in about
   * the tap instead (the map point under the finger stays under it) until the
   * seats are touch-sized, and chooses nothing. A tap beside the map does nothing.
   */
  private zoomToTouch(e: PointerEvent): void {
    const geometry = this.geometry;
    const map = geometry.map;
    if (!geometry.viewport || !map) return;
    const at = geometry.inViewport(e.clientX, e.clientY);
    const unit = geometry.unitAt(at.x, at.y);
    if (unit.x < 0 || unit.y < 0 || unit.x > map.width || unit.y > map.height) return;
    this.port.fitting = false;
    this.port.applyZoom(clampZoom(Math.max(geometry.zoom, TOUCH_TARGET / SEAT_SIZE), geometry.minZoom), at);
    this.port.zoomed(geometry.zoom);
    this.port.schedule();
  }

  readonly handleWheel = (e: WheelEvent): void => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const geometry = this.geometry;
    if (!geometry.viewport) return;
    const zoom = clampZoom(geometry.zoom * Math.exp(-e.deltaY / 300), geometry.minZoom);
    const wasFitting = this.port.fitting;
    this.port.fitting = false;
    if (zoom === geometry.zoom) {
      if (wasFitting) this.port.zoomed(zoom);
      return;
    }
    this.port.applyZoom(zoom, geometry.inViewport(e.clientX, e.clientY));
    this.port.zoomed(zoom);
    this.port.schedule();
  };
}
