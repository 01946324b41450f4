/**
 * The seat map's view: one canvas that paints only the seats in view, and an
 * overlay of real, focusable buttons (transparent, over the painted seats)
 * for the seats in view only, so 20,000 seats cost a few hundred elements.
 *
 * This controller owns the elements, the data and when to paint, and composes:
 * - `SeatMapGeometry` (seat-map-geometry.ts): zoom, the viewport's size and
 *   scroll, the fit, the centring margin, the map point under a point.
 * - `SeatOverlay` (seat-map-overlay.ts): the seat buttons and roving focus
 *   (arrows, Home/End, Ctrl+Home/End, PageDown/PageUp to the next free block, Enter/Space).
 * - `SeatMapGestures` (seat-map-gestures.ts): pointer, drag, pinch, the touch
 *   zoom and Ctrl+wheel.
 * - `SeatMapPainter` (seat-map-painter.ts): the canvas.
 *
 * - Fit: a map opens fitted to its viewport (the whole venue in view, at most
 *   100 %) and stays fitted as the viewport is resized, until the visitor
 *   zooms (pinch, Ctrl+wheel, the zoom buttons: `zoomTo`); `fit()` fits again.
 * - Centre: at a zoom where the map is narrower (or shorter) than its viewport,
 *   it sits in the middle of it (`margin`): the painting, the buttons (the
 *   sizer's margin), the hit test and the zoom anchors all add the same margin.
 * - A selection change repaints the changed cells and updates their buttons;
 *   it never touches the other seats.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MapSeat, SeatMap } from '../../state/seat-map.ts';
import { afterNextFrame, hidden } from './frames.ts';
import { clampZoom, SeatMapGeometry } from './seat-map-geometry.ts';
import { SeatMapGestures } from './seat-map-gestures.ts';
import { SeatOverlay, type SeatStates } from './seat-map-overlay.ts';
import { SeatMapPainter, type PaintView } from './seat-map-painter.ts';

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
  /** Say this in the live region (a key jumped to a block of free seats). */
  announce(text: string): void;
  /** The accessible name of a seat (`invalid`: the service named it as why the selection was refused). */
  label(seat: MapSeat, held: boolean, invalid: boolean): string;
  /** Zoom changed (pinch, Ctrl+wheel, the buttons, a fit), or the view stopped or started fitting: see `fitted`. */
  zoomed(zoom: number): void;
  /** The map was painted for the first time since it was attached (its frame is being produced now). */
  painted?(): void;
}

const NONE: ReadonlySet<number> = new Set();

export class SeatMapController implements ReactiveController {
  private els: SeatMapElements | null = null;
  private states: SeatStates = { selected: NONE, held: NONE, invalid: NONE };
  private readonly geometry = new SeatMapGeometry();
  private readonly painter: SeatMapPainter;
  private readonly overlay: SeatOverlay;
  private readonly gestures: SeatMapGestures;
  private frame = 0;
  private overlayFrame = 0;
  private resizeObserver: ResizeObserver | null = null;
  /** Whether the view fits the whole map (from the start, and after `fit()`), until the visitor zooms. */
  private fitting = true;
  private cleanup: (() => void)[] = [];
  private dpr = 1;
  /** Whether the viewport has reported its size since the map was attached. */
  private sized = false;
  private resizeFrame = 0;
  private announcedPaint = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly callbacks: SeatMapCallbacks,
  ) {
    // A live change of colours (the page's colour scheme) repaints everything in view.
    this.painter = new SeatMapPainter(host, () => this.schedule());
    const geometry = this.geometry;
    this.overlay = new SeatOverlay({
      geometry,
      sizer: () => this.els?.sizer ?? null,
      paintView: () => this.paintView(),
      states: () => this.states,
      label: (seat, held, invalid) => callbacks.label(seat, held, invalid),
      activate: (index) => callbacks.activate(index),
      toggle: (index) => callbacks.toggle(index),
      announce: (text) => callbacks.announce(text),
    });
    const controller = this;
    this.gestures = new SeatMapGestures({
      geometry,
      get fitting() {
        return controller.fitting;
      },
      set fitting(value: boolean) {
        controller.fitting = value;
      },
      choose: (index, focus) => {
        this.overlay.focusSeat(index, { focus });
        callbacks.toggle(index);
      },
      seatFocused: () => {
        const focused = host.shadowRoot?.activeElement;
        return focused instanceof HTMLButtonElement && this.overlay.has(Number(focused.dataset.seat));
      },
      zoomAt: (zoom, scroll) => this.zoomAt(zoom, scroll),
      applyZoom: (zoom, anchor) => this.applyZoom(zoom, anchor),
      zoomed: (zoom) => callbacks.zoomed(zoom),
      schedule: () => this.schedule(),
    });
    host.addController(this);
  }

  get pitch(): number {
    return this.geometry.pitch;
  }

  /** The index of the seat holding the roving focus. */
  get activeSeat(): number {
    return this.overlay.active;
  }

  /** Whether the view fits the whole map and keeps fitting it on resize. */
  get fitted(): boolean {
    return this.fitting;
  }

  /** Fit the whole map in the viewport now, and on every resize until the visitor zooms. */
  fit(): void {
    this.fitting = true;
    const b = this.geometry.box();
    const zoom = this.geometry.fitZoom(b.w, b.h);
    if (zoom === null || !this.els) return;
    if (zoom !== this.geometry.zoom) this.zoomAt(zoom, { left: 0, top: 0 });
    this.callbacks.zoomed(zoom);
  }

  /** The visitor zooms (the zoom buttons): about the viewport's centre; the view no longer follows its size. */
  zoomTo(zoom: number): void {
    this.fitting = false;
    this.gestures.engage();
    const next = clampZoom(zoom, this.geometry.minZoom);
    if (next !== this.geometry.zoom && this.els) {
      this.applyZoom(next);
      this.schedule();
    }
    this.callbacks.zoomed(this.geometry.zoom);
  }

  /** Scroll a seat into view (with a margin) and focus its button. */
  focusSeat(index: number, options: { focus?: boolean } = {}): void {
    this.overlay.focusSeat(index, options);
  }

  /**
   * Give the keyboard focus to the seat holding the roving focus, and bring the map into the page's
   * view (a skip to the seats); false while the map is not painted yet.
   */
  focusActive(): boolean {
    const active = this.overlay.active;
    if (!this.els || !this.sized || !this.geometry.map || active < 0) return false;
    this.overlay.focusSeat(active, { focus: false });
    this.overlay.ensure(active).focus();
    return true;
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
    this.geometry.viewport = viewport;
    const on = <K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, fn: (e: HTMLElementEventMap[K]) => void, opts?: AddEventListenerOptions) => {
      target.addEventListener(type, fn as EventListener, opts);
      this.cleanup.push(() => target.removeEventListener(type, fn as EventListener, opts));
    };
    on(viewport, 'scroll', () => {
      this.geometry.scrolled(); // read again when next needed (in the frame's paint, layout clean)
      this.schedule();
    }, { passive: true });
    const { gestures, overlay } = this;
    on(viewport, 'pointerdown', gestures.handlePointerDown);
    on(viewport, 'pointermove', gestures.handlePointerMove);
    on(viewport, 'pointerup', gestures.handlePointerUp);
    on(viewport, 'pointercancel', gestures.handlePointerCancel);
    on(viewport, 'wheel', gestures.handleWheel, { passive: false });
    on(viewport, 'touchstart', gestures.handleTouch, { passive: false });
    on(viewport, 'touchmove', gestures.handleTouch, { passive: false });
    on(els.sizer, 'keydown', overlay.handleKeyDown);
    on(els.sizer, 'click', overlay.handleClick);
    on(els.sizer, 'focusin', overlay.handleFocusIn);
    // The first size arrives with the observer's first report, in the next frame after layout:
    // painting then costs no forced layout, and the canvas is in that very frame.
    // A hidden page produces no frames: then size and paint at once.
    this.sized = false;
    if (typeof ResizeObserver !== 'undefined') {
      // Later reports wait for the next frame: sizing the map can show or hide the viewport's
      // scrollbars, which changes the size observed; answered within the report, that is a
      // "ResizeObserver loop" error (Firefox reports it when a resize crosses a scrollbar's width).
      this.resizeObserver = new ResizeObserver(() => {
        if (!this.sized) return this.resize();
        this.resizeFrame ||= requestAnimationFrame(() => {
          this.resizeFrame = 0;
          this.resize();
        });
      });
      this.resizeObserver.observe(viewport);
    }
    if (!this.resizeObserver || hidden()) this.resize();
  }

  private detach(): void {
    for (const off of this.cleanup) off();
    this.cleanup = [];
    this.resizeObserver?.disconnect();
    this.resizeObserver = null;
    if (this.frame) cancelAnimationFrame(this.frame);
    if (this.overlayFrame) cancelAnimationFrame(this.overlayFrame);
    if (this.resizeFrame) cancelAnimationFrame(this.resizeFrame);
    this.frame = this.overlayFrame = this.resizeFrame = 0;
    this.overlay.clear();
    this.gestures.reset();
    this.els = null;
    this.geometry.detach();
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
    const geometry = this.geometry;
    const was = this.states;
    const invalid = next.invalid ?? was.invalid;
    const mapChanged = next.map !== geometry.map;
    const zoomChanged = next.zoom !== geometry.zoom;
    const changed: number[] = [];
    if (!mapChanged) {
      for (const i of next.selected) if (!was.selected.has(i)) changed.push(i);
      for (const i of was.selected) if (!next.selected.has(i)) changed.push(i);
      if (next.held !== was.held) {
        for (const i of next.held) if (!was.held.has(i)) changed.push(i);
        for (const i of was.held) if (!next.held.has(i)) changed.push(i);
      }
      if (invalid !== was.invalid) {
        for (const i of invalid) if (!was.invalid.has(i)) changed.push(i);
        for (const i of was.invalid) if (!invalid.has(i)) changed.push(i);
      }
    }
    const overlay = this.overlay;
    const previousActive = overlay.active;
    geometry.map = next.map;
    this.states = { selected: next.selected, held: next.held, invalid };
    if (zoomChanged) this.applyZoom(next.zoom);
    overlay.active = next.map && next.active >= 0 && next.active < next.map.seats.length ? next.active : next.map?.seats.length ? 0 : -1;
    if (mapChanged) {
      overlay.clear();
      this.painter.forgetSprites();
      this.fitting = true; // every map opens with the whole venue in view
    }
    if (!this.els || !this.sized) return;
    if (mapChanged && next.map) {
      const b = geometry.box();
      const zoom = geometry.fitZoom(b.w, b.h);
      if (zoom !== null && zoom !== geometry.zoom) {
        this.zoomAt(zoom, { left: 0, top: 0 });
        this.callbacks.zoomed(zoom);
      }
    }
    if (mapChanged || zoomChanged) {
      this.sizeSizer();
      this.paintAll();
      overlay.sync();
      return;
    }
    for (const i of changed) {
      this.paintSeat(i);
      overlay.update(i);
    }
    if (previousActive !== overlay.active) {
      overlay.sync();
      for (const i of [previousActive, overlay.active]) overlay.update(i);
    }
  }

  // ------------------------------------------------------------------ painting

  /** What the painter paints now: the data, the scale and the viewport as it is. */
  private paintView(): PaintView {
    const g = this.geometry;
    return { map: g.map, ...this.states, zoom: g.zoom, dpr: this.dpr, box: g.mapBox() };
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
    const seat = this.geometry.map?.seats[index];
    if (ctx && seat) this.painter.paintSeat(ctx, this.paintView(), seat);
  }

  // ------------------------------------------------------------------ zoom and size

  /** Zoom about a point of the viewport (default its centre): the map point under it stays put. */
  private applyZoom(zoom: number, anchor?: { x: number; y: number }): void {
    if (!this.els) {
      this.geometry.zoom = zoom;
      return;
    }
    this.zoomAt(zoom, this.geometry.scrollForZoom(zoom, anchor));
  }

  /** Set the zoom and scroll the viewport to `scroll` (CSS px at the new zoom). */
  private zoomAt(zoom: number, scroll: { left: number; top: number }): void {
    this.geometry.zoom = zoom;
    if (!this.els) return;
    this.sizeSizer();
    this.geometry.scrollTo(scroll.left, scroll.top);
    this.overlay.placeAll();
  }

  private sizeSizer(): void {
    if (!this.els) return;
    const { map, pitch: p } = this.geometry;
    const m = this.geometry.margin();
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
    const geometry = this.geometry;
    this.dpr = Math.min(typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1, 3);
    // Every read first, then the writes: painting uses what was read (no forced layout).
    const w = viewport.clientWidth;
    const h = viewport.clientHeight;
    const offsetTop = viewport.offsetTop;
    geometry.measured({ w, h, left: viewport.scrollLeft, top: viewport.scrollTop });
    // Fitted: the whole map in view at this size (then nothing can be scrolled: the browser clamps to 0).
    const fit = this.fitting ? geometry.fitZoom(w, h) : null;
    const refit = fit !== null && fit !== geometry.zoom;
    if (refit) {
      geometry.zoom = fit;
      geometry.measured({ w, h, left: 0, top: 0 });
      this.overlay.placeAll();
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
    // (the active seat's at once, so the tab stop exists from the start). After the first paint,
    // two frames later: the next frame shows what is below the map (the choice and its "Add"),
    // and a tap in it is not kept waiting behind building them (about 60 ms on a slow phone).
    if (this.overlay.active >= 0 && geometry.map) this.overlay.ensure(this.overlay.active);
    if (refit) this.callbacks.zoomed(geometry.zoom);
    const firstPaint = Boolean(geometry.map) && !this.announcedPaint;
    this.scheduleOverlay(firstPaint ? 2 : 1);
    if (firstPaint) {
      this.announcedPaint = true;
      this.callbacks.painted?.();
    }
  }

  // ------------------------------------------------------------------ scheduling

  /** Build the overlay (and draw labels still owed) just after the `frames`th frame from now is painted (rAF, then a task). */
  private scheduleOverlay(frames = 1): void {
    if (hidden()) return this.afterFirstFrame();
    if (this.overlayFrame) return;
    const wait = (left: number): void => {
      this.overlayFrame = left > 1
        ? requestAnimationFrame(() => wait(left - 1))
        : afterNextFrame(() => {
          this.overlayFrame = 0;
          this.afterFirstFrame();
        });
    };
    wait(frames);
  }

  private afterFirstFrame(): void {
    if (this.painter.takeOwedLabels()) {
      const ctx = this.context();
      if (ctx) this.painter.drawLabels(ctx, this.paintView());
    }
    this.overlay.sync();
  }

  private schedule(): void {
    if (hidden()) {
      this.paintAll();
      this.overlay.sync();
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paintAll();
      this.overlay.sync();
    });
  }
}
