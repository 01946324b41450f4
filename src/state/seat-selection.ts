/**
 * The seat picker's choice against its seat map and the shared basket, with no rendering:
 * the map built from FullAvailability plus the seats this performance already holds in the
 * basket (held seats drop out of FullAvailability, the map still shows them), which seats are
 * chosen, held and refused as sets of map indices, what a fresh map leaves of the choice (after
 * a 409, or another tab took seats), and one seat chosen or put back.
 *
 * `SeatSelection.derive` keeps every derived set the same object while nothing it is made of
 * changed, so the map's view repaints only the seats that did.
 */
import { parseServiceDateTime } from '../api/time.ts';
import type { BasketContent, FullTicketInfo } from '../api/types.ts';
import { basketSeats, buildSeatMap, type MapSeat, type RawSeat, type SeatMap } from './seat-map.ts';

const EMPTY: ReadonlySet<number> = new Set();

/** The performance the map is of: its event and date (what a basket item names). */
export interface PerformanceKey {
  EventId: number;
  PerformanceDate: string;
}

/** Whether two service DateTimes are the same minute. */
export function sameDateTime(a: string, b: string): boolean {
  const x = parseServiceDateTime(a);
  const y = parseServiceDateTime(b);
  return x !== null && y !== null && x.year === y.year && x.month === y.month && x.day === y.day && x.hour === y.hour && x.minute === y.minute;
}

/**
 * Basket tickets of `performance` that FullAvailability (`listed`: its ticket ids, asked for
 * only when the basket holds seats of this performance) no longer has.
 */
export function heldExtras(content: BasketContent | null, performance: PerformanceKey | null, listed: () => ReadonlySet<number>): RawSeat[] {
  if (!content || !performance) return [];
  const items = content.Items.filter((i) => i.EventId === performance.EventId && sameDateTime(i.PerformanceDate, performance.PerformanceDate));
  if (!items.length) return [];
  const ids = listed();
  return basketSeats(items).filter((s) => !ids.has(s.ticketId));
}

/** The map indices of the basket's tickets that are on `map`. */
export function heldIndices(map: SeatMap | null, content: BasketContent | null): Set<number> {
  const held = new Set<number>();
  if (map) for (const item of content?.Items ?? []) for (const t of item.Tickets) {
    const i = map.byTicket.get(t.TicketId);
    if (i !== undefined) held.add(i);
  }
  return held;
}

/** The map indices of the chosen tickets that are on `map`. */
export function selectedIndices(map: SeatMap | null, selected: readonly number[]): Set<number> {
  const indices = new Set<number>();
  if (map) for (const tid of selected) {
    const i = map.byTicket.get(tid);
    if (i !== undefined) indices.add(i);
  }
  return indices;
}

/** The chosen tickets a fresh map still has (`kept`, in the order chosen), and those it lost. */
export function reconcile(selected: readonly number[], next: SeatMap): { kept: readonly number[]; lost: readonly number[] } {
  const lost = selected.filter((tid) => !next.byTicket.has(tid));
  return { kept: lost.length ? selected.filter((tid) => next.byTicket.has(tid)) : selected, lost };
}

/** The seats of `map` for tickets (unknown ones left out), in the order given. */
export function seatsOf(map: SeatMap | null, ticketIds: readonly number[]): MapSeat[] {
  if (!map) return [];
  return ticketIds.map((tid) => map.seats[map.byTicket.get(tid) ?? -1]).filter((s): s is MapSeat => Boolean(s));
}

/** What the chosen tickets cost together, by the map's prices. */
export function totalOf(map: SeatMap | null, ticketIds: readonly number[]): number {
  return seatsOf(map, ticketIds).reduce((sum, s) => sum + s.price, 0);
}

export type ToggleOutcome =
  /** Already in the basket: nothing changes. */
  | { kind: 'held' }
  /** Taken out of the choice. */
  | { kind: 'removed'; selected: readonly number[] }
  /** Added to the choice. */
  | { kind: 'added'; selected: readonly number[] }
  /** The choice is full (`max` seats): nothing changes. */
  | { kind: 'full' };

/** Choose a seat, or put it back (at most `max` seats; never one already in the basket). */
export function toggle(selected: readonly number[], ticketId: number, options: { held: boolean; max: number }): ToggleOutcome {
  if (options.held) return { kind: 'held' };
  if (selected.includes(ticketId)) return { kind: 'removed', selected: selected.filter((t) => t !== ticketId) };
  if (selected.length >= options.max) return { kind: 'full' };
  return { kind: 'added', selected: [...selected, ticketId] };
}

/** What `derive` is given: the data as it is now. */
export interface SelectionInput {
  /** FullAvailability's tickets (null: no seat map). */
  tickets: readonly FullTicketInfo[] | null;
  /** The shared basket's content. */
  content: BasketContent | null;
  /** The performance shown, once its facts are known (null until then, or when they are another's). */
  performance: PerformanceKey | null;
  /** The chosen tickets. */
  selected: readonly number[];
}

/** What changed in one `derive`. */
export interface Derived {
  /** The map was built again (from new data, or other held seats): `previous` was the one before. */
  rebuilt: boolean;
  previous: SeatMap | null;
  /** The choice on the map now: the input's, less the seats a rebuilt map lost. */
  selected: readonly number[];
  /** Chosen tickets the rebuilt map no longer has. */
  lost: readonly number[];
}

/** The map and the choice's sets of map indices, derived from the data and kept stable while it is unchanged. */
export class SeatSelection {
  map: SeatMap | null = null;
  /** Chosen seats (map indices). */
  selectedIdx: ReadonlySet<number> = EMPTY;
  /** Seats already in the basket (map indices). */
  heldIdx: ReadonlySet<number> = EMPTY;
  /** The seat the service named as why it refused the choice (InvalidSeatID; -1: none), and as a set. */
  invalidSeat = -1;
  invalidIdx: ReadonlySet<number> = EMPTY;

  private source: readonly FullTicketInfo[] | null = null;
  private extrasKey = '';
  private heldFor: { content: BasketContent | null; map: SeatMap | null } = { content: null, map: null };
  private listedFor: { tickets: readonly FullTicketInfo[] | null; ids: ReadonlySet<number> } = { tickets: null, ids: EMPTY };

  /** Bring the map and the sets up to date with `input`. */
  derive(input: SelectionInput): Derived {
    const { tickets, content } = input;
    const extras = tickets ? heldExtras(content, input.performance, () => this.listed(tickets)) : [];
    const extrasKey = extras.map((s) => s.ticketId).join(',');
    const previous = this.map;
    let selected = input.selected;
    let lost: readonly number[] = [];
    const rebuilt = tickets !== this.source || extrasKey !== this.extrasKey;
    if (rebuilt) {
      this.source = tickets;
      this.extrasKey = extrasKey;
      this.map = tickets ? buildSeatMap(tickets, extras) : null;
      if (previous && this.map) ({ kept: selected, lost } = reconcile(selected, this.map));
    }
    const map = this.map;
    if (this.heldFor.content !== content || this.heldFor.map !== map) {
      this.heldFor = { content, map };
      this.heldIdx = heldIndices(map, content);
    }
    const selectedIdx = selectedIndices(map, selected);
    if (selectedIdx.size !== this.selectedIdx.size || [...selectedIdx].some((i) => !this.selectedIdx.has(i))) this.selectedIdx = selectedIdx;
    return { rebuilt, previous, selected, lost };
  }

  /** The seat the service named (a map index; -1: none). */
  markInvalid(seat: number): void {
    if (seat === this.invalidSeat) return;
    this.invalidSeat = seat;
    this.invalidIdx = seat >= 0 ? new Set([seat]) : EMPTY;
  }

  /** FullAvailability's ticket ids (made once per answer). */
  private listed(tickets: readonly FullTicketInfo[]): ReadonlySet<number> {
    if (this.listedFor.tickets !== tickets) this.listedFor = { tickets, ids: new Set(tickets.map((t) => t.TicketId)) };
    return this.listedFor.ids;
  }
}
