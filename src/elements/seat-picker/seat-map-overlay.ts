/**
 * The seat map's overlay and its focus: real, focusable buttons (transparent, over the painted
 * seats) for the seats in view only, so 20,000 seats cost a few hundred elements.
 *
 * Roving focus: the overlay is one tab stop; exactly one seat button has tabindex 0. Arrows move
 * by seat within a row and to the nearest seat of the row above/below; Home/End go to the ends
 * of the row, Ctrl+Home/End to the first/last seat; PageDown/PageUp (and Ctrl+ArrowRight/Left)
 * jump to the next/previous block of free seats side by side; Enter/Space press the native button
 * (which toggles). The active seat's button always exists, even when scrolled out of view.
 */
import { neighbour, seatsIn, ROW_LABEL_UNITS, type MapSeat, type SeatMap } from '../../state/seat-map.ts';
import type { SeatMapGeometry } from './seat-map-geometry.ts';
import { viewRect, type PaintView } from './seat-map-painter.ts';

/** Above this many seats in view, only the active seat's row gets buttons. */
const OVERLAY_CAP = 1500;

/** Chosen, in the basket, and refused by the service (InvalidSeatID): sets of map indices. */
export interface SeatStates {
  selected: ReadonlySet<number>;
  held: ReadonlySet<number>;
  invalid: ReadonlySet<number>;
}

/** What the overlay reads of the map's view, and tells it. */
export interface OverlayPort {
  readonly geometry: SeatMapGeometry;
  /** Holds the buttons (sized to the whole map), while attached. */
  sizer(): HTMLElement | null;
  /** The data and the part of the map in view (what is painted). */
  paintView(): PaintView;
  /** The seats' states (map indices), without the view. */
  states(): SeatStates;
  /** The accessible name of a seat (`invalid`: the service named it as why the selection was refused). */
  label(seat: MapSeat, held: boolean, invalid: boolean): string;
  /** The roving focus moved to a seat. */
  activate(index: number): void;
  /** A seat was pressed (keyboard, assistive technology, or a click on its button). */
  toggle(index: number): void;
  /** Say this in the live region (after a jump to a block of free seats). */
  announce(text: string): void;
}

export class SeatOverlay {
  /** The seat holding the roving focus (-1: none). */
  active = -1;
  private buttons = new Map<number, HTMLButtonElement>();
  private template: HTMLButtonElement | null = null;

  constructor(private readonly port: OverlayPort) {}

  private get map(): SeatMap | null {
    return this.port.geometry.map;
  }

  /** Whether `index` has a button now. */
  has(index: number): boolean {
    return this.buttons.has(index);
  }

  /** Remove every button (a new map, or detached). */
  clear(): void {
    for (const b of this.buttons.values()) b.remove();
    this.buttons.clear();
  }

  /** Keep the buttons where their seats are (after a zoom). */
  placeAll(): void {
    for (const [i, b] of this.buttons) this.placeButton(b, i);
  }

  /** Buttons for the seats in view (and the active seat), no others. */
  sync(): void {
    const map = this.map;
    const sizer = this.port.sizer();
    if (!map || !sizer) return;
    const r = viewRect(this.port.paintView());
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
    sizer.append(fragment);
  }

  /** Scroll a seat into view (with a margin) and focus its button. */
  focusSeat(index: number, options: { focus?: boolean } = {}): void {
    const map = this.map;
    const seat = map?.seats[index];
    if (!map || !seat || !this.port.sizer()) return;
    const geometry = this.port.geometry;
    const previous = this.active;
    this.active = index;
    const p = geometry.pitch;
    const left = seat.x * p;
    const top = seat.y * p;
    const margin = p;
    const labelSpace = ROW_LABEL_UNITS * p;
    const b = geometry.box();
    let x = b.left;
    let y = b.top;
    if (left - labelSpace < x) x = Math.max(0, left - labelSpace - margin);
    else if (left + p > x + b.w) x = left + p + margin - b.w;
    if (top < y) y = Math.max(0, top - margin);
    else if (top + p > y + b.h) y = top + p + margin - b.h;
    // The seats in view changed only if the view moved (a click on a seat in view leaves it be).
    if (x !== b.left || y !== b.top) {
      geometry.scrollTo(x, y);
      this.sync();
    }
    this.update(previous);
    const button = this.ensure(index);
    if (options.focus !== false) button.focus({ preventScroll: true });
    this.port.activate(index);
  }

  /** The seat's button, made now when it has none. */
  ensure(index: number): HTMLButtonElement {
    const existing = this.buttons.get(index);
    if (existing) return existing;
    const b = this.createButton(index);
    this.port.sizer()?.append(b);
    return b;
  }

  /** Say a seat's state again on its button (when it has one). */
  update(index: number): void {
    const b = this.buttons.get(index);
    const seat = this.map?.seats[index];
    if (b && seat) this.fillButton(b, seat);
  }

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

  private placeButton(b: HTMLButtonElement, index: number): void {
    const seat = this.map?.seats[index];
    if (!seat) return;
    const p = this.port.geometry.pitch;
    b.style.cssText = `left:${seat.x * p}px;top:${seat.y * p}px;width:${p}px;height:${p}px`;
  }

  private fillButton(b: HTMLButtonElement, seat: MapSeat): void {
    const view = this.port.states();
    const selected = view.selected.has(seat.index);
    const held = view.held.has(seat.index);
    const invalid = view.invalid.has(seat.index);
    b.tabIndex = seat.index === this.active ? 0 : -1;
    b.setAttribute('aria-label', this.port.label(seat, held, invalid));
    b.setAttribute('aria-pressed', String(selected));
    if (held) b.setAttribute('aria-disabled', 'true');
    else b.removeAttribute('aria-disabled');
    if (invalid) b.setAttribute('aria-invalid', 'true');
    else b.removeAttribute('aria-invalid');
    b.setAttribute('part', `seat-button${selected ? ' selected' : ''}${held ? ' in-basket' : ''}${seat.restricted ? ' restricted' : ''}${invalid ? ' invalid' : ''}`);
  }

  // ------------------------------------------------------------------ input on the buttons

  readonly handleClick = (e: MouseEvent): void => {
    const b = (e.target as HTMLElement).closest('button');
    const index = Number(b?.dataset.seat);
    if (!b || !Number.isInteger(index)) return;
    this.focusSeat(index, { focus: false });
    this.port.toggle(index);
  };

  readonly handleFocusIn = (e: FocusEvent): void => {
    const index = Number((e.target as HTMLElement).dataset?.seat);
    if (Number.isInteger(index) && index !== this.active) {
      const previous = this.active;
      this.active = index;
      this.update(previous);
      this.update(index);
      this.port.activate(index);
    }
  };

  readonly handleKeyDown = (e: KeyboardEvent): void => {
    const map = this.map;
    if (!map || this.active < 0) return;
    const block = e.key === 'PageDown' || (e.ctrlKey && e.key === 'ArrowRight') ? 'next' : e.key === 'PageUp' || (e.ctrlKey && e.key === 'ArrowLeft') ? 'previous' : null;
    if (block) {
      e.preventDefault();
      void import('./seat-blocks.ts').then(({ freeBlock, blockSentence }) => {
        if (map !== this.map) return;
        const { selected, held } = this.port.states();
        const found = freeBlock(map, this.active, block, (i) => selected.has(i) || held.has(i));
        if (found) this.focusSeat(found.start);
        this.port.announce(blockSentence(found?.size ?? 0));
      });
      return;
    }
    const keys: Record<string, Parameters<typeof neighbour>[2]> = {
      ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', Home: 'home', End: 'end',
    };
    let direction = keys[e.key];
    if (!direction) return;
    if (e.ctrlKey && (e.key === 'Home' || e.key === 'End')) direction = e.key === 'Home' ? 'first' : 'last';
    e.preventDefault();
    const next = neighbour(map, this.active, direction);
    if (next >= 0) this.focusSeat(next);
  };
}
