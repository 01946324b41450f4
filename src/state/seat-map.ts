/**
 * The seat map of one performance, built from FullAvailability: areas → rows →
 * seats in natural order (row B before AA, seat 9 before 10), price bands, and
 * a layout in seat-pitch units that a painter and a hit test share.
 *
 * No rendering, no DOM: a plain data structure the seat picker paints.
 *
 * Layout: areas are stacked top to bottom in the order the service first names
 * them (the service's order is the venue's; alphabetical would put "Balcony"
 * before "Stalls"). Each area has a heading line, then one line per row. Within
 * a row, when every seat label of the area is a whole number, a seat sits at
 * its number (so a gap shows a seat that is sold, since FullAvailability lists
 * only available tickets); otherwise seats sit side by side in natural order.
 */
import type { BasketItem, FullTicketInfo } from '../api/types.ts';

// ---------------------------------------------------------------- natural order

const chunk = /(\d+)|(\D+)/g;
const collator = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * Seat and row designators in the order a person expects: shorter letter
 * labels before longer ones (B before AA, as theatres letter rows A–Z then
 * AA–ZZ), numbers by value (9 before 10), mixed labels chunk by chunk
 * ("A2" before "A10"). Case-insensitive, ties broken by the raw text so the
 * order is total and stable.
 */
export function compareNatural(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  const lettersOnly = /^[A-Za-z]+$/;
  if (lettersOnly.test(x) && lettersOnly.test(y) && x.length !== y.length) return x.length - y.length;
  const ca = x.match(chunk) ?? [];
  const cb = y.match(chunk) ?? [];
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    const pa = ca[i] as string;
    const pb = cb[i] as string;
    const da = /^\d/.test(pa);
    const db = /^\d/.test(pb);
    if (da && db) {
      const diff = Number(pa) - Number(pb);
      if (diff !== 0) return diff;
      if (pa.length !== pb.length) return pa.length - pb.length; // "01" after "1"
    } else if (da !== db) {
      return da ? -1 : 1; // numbers before letters
    } else {
      if (lettersOnly.test(pa) && lettersOnly.test(pb) && pa.length !== pb.length) return pa.length - pb.length;
      const diff = collator.compare(pa, pb);
      if (diff !== 0) return diff;
    }
  }
  if (ca.length !== cb.length) return ca.length - cb.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------- model

export interface MapSeat {
  /** Index in `SeatMap.seats`. */
  readonly index: number;
  readonly ticketId: number;
  readonly area: string;
  readonly row: string;
  readonly seat: string;
  readonly price: number;
  readonly faceValue: number;
  readonly restricted: boolean;
  readonly description: string | null;
  /** Index in `SeatMap.bands`. */
  readonly band: number;
  /** Index in `SeatMap.rows`. */
  readonly rowIndex: number;
  /** Position in its row, in natural order. */
  readonly indexInRow: number;
  /** Left edge, in seat-pitch units. */
  readonly x: number;
  /** Top edge, in seat-pitch units. */
  readonly y: number;
}

export interface MapRow {
  readonly index: number;
  readonly area: string;
  readonly areaIndex: number;
  readonly label: string;
  readonly y: number;
  /** Seat indices in natural order (ascending x). */
  readonly seats: readonly number[];
}

export interface MapArea {
  readonly name: string;
  /** Top of the area heading, in units. */
  readonly y: number;
  readonly rows: readonly number[];
}

export interface PriceBand {
  readonly price: number;
  /** A letter that names the band in the legend and on seats (A, B, C ...). */
  readonly label: string;
  readonly seatCount: number;
}

export interface SeatMap {
  readonly seats: readonly MapSeat[];
  readonly rows: readonly MapRow[];
  readonly areas: readonly MapArea[];
  /** Price bands, cheapest first. */
  readonly bands: readonly PriceBand[];
  /** Width and height in units (row labels included). */
  readonly width: number;
  readonly height: number;
  /** Seat index by TicketId (made on first use). */
  readonly byTicket: ReadonlyMap<number, number>;
  /** How many seats have a restricted view (the legend's entry, without a pass over every seat). */
  readonly restrictedCount: number;
}

/** Units kept left of the seats for row labels. */
export const ROW_LABEL_UNITS = 1.5;
/** Height of an area heading line, in units. */
export const AREA_HEADING_UNITS = 1.25;
/** Space between areas, in units. */
const AREA_GAP_UNITS = 0.5;

const wholeNumber = /^\s*\d{1,6}\s*$/;

/** The letters that name the i-th (0-based) row or band: A … Z, AA, AB … */
export function letterLabel(i: number): string {
  let n = i;
  let s = '';
  do {
    s = String.fromCharCode(65 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

export interface RawSeat {
  ticketId: number;
  area: string;
  row: string;
  seat: string;
  price: number;
  faceValue: number;
  restricted: boolean;
  description: string | null;
}

/** Basket tickets of this performance, as seats (they are no longer in FullAvailability once held). */
export function basketSeats(items: readonly BasketItem[]): RawSeat[] {
  return items.flatMap((item) =>
    item.Tickets.map((t) => ({
      ticketId: t.TicketId,
      area: item.AreaName,
      row: t.TicketName1,
      seat: t.TicketName2,
      price: t.SellingPrice,
      faceValue: t.FaceValue,
      restricted: t.IsRestrictedView,
      description: t.RestrictionDescription,
    })),
  );
}

/**
 * Build the map from FullAvailability's tickets, plus seats the visitor already
 * holds (`held`: once in a basket they drop out of FullAvailability, but the
 * map still shows them, as in the basket). Tickets with no usable id are
 * skipped; a ticket listed twice counts once.
 */
export function buildSeatMap(tickets: readonly FullTicketInfo[], held: readonly RawSeat[] = []): SeatMap {
  // This runs once per map, so uncompiled (interpreted): at 20,000 seats every call per seat
  // shows in the first paint. Hence one object per seat, made once in its final shape (the
  // layout fields are filled in below), and the per-seat loops kept free of avoidable calls.
  type Draft = { -readonly [K in keyof MapSeat]: MapSeat[K] };
  const seen = new Set<number>();
  // Areas in first-seen order; within an area, rows by label.
  const areaOrder: string[] = [];
  const byArea = new Map<string, Map<string, Draft[]>>();
  const priceSet = new Set<number>();
  const listFor = (area: string, row: string): Draft[] => {
    let rows = byArea.get(area);
    if (!rows) {
      rows = new Map();
      byArea.set(area, rows);
      areaOrder.push(area);
    }
    let list = rows.get(row);
    if (!list) {
      list = [];
      rows.set(row, list);
    }
    return list;
  };
  const number = (v: unknown): number => (typeof v === 'number' && v === v && v !== 0 ? v : Number(v) || 0);
  const add = (list: Draft[], ticketId: number, area: string, row: string, seat: string, price: number, faceValue: number, restricted: boolean, description: string | null) => {
    list.push({ index: 0, ticketId, area, row, seat, price, faceValue, restricted, description, band: 0, rowIndex: 0, indexInRow: 0, x: Number.NaN, y: Number.NaN });
    priceSet.add(price);
  };
  // Consecutive tickets mostly share their area and row: those skip the clean-up and lookups.
  let areaRaw: unknown = null;
  let rowRaw: unknown = null;
  let list: Draft[] | null = null;
  let area = '';
  let row = '';
  for (const t of tickets) {
    const id = t?.TicketId;
    if (typeof id !== 'number' || id - id !== 0) continue; // not a finite number
    const known = seen.size;
    if (seen.add(id).size === known) continue; // listed twice: counted once
    if (list === null || t.AreaName !== areaRaw || t.TicketName1 !== rowRaw) {
      areaRaw = t.AreaName;
      rowRaw = t.TicketName1;
      area = String(areaRaw ?? '').trim() || '—';
      row = String(rowRaw ?? '').trim();
      list = listFor(area, row);
    }
    const seat = t.TicketName2;
    const price = number(t.SellingPrice);
    list.push({
      index: 0, ticketId: id, area, row, seat: (typeof seat === 'string' ? seat : String(seat ?? '')).trim(), price, faceValue: number(t.FaceValue),
      restricted: !!t.RestrictedView, description: t.Description ? String(t.Description) : null, band: 0, rowIndex: 0, indexInRow: 0, x: Number.NaN, y: Number.NaN,
    });
    priceSet.add(price);
  }
  for (const h of held) {
    if (seen.has(h.ticketId)) continue;
    seen.add(h.ticketId);
    const a = h.area.trim() || '—';
    add(listFor(a, h.row), h.ticketId, a, h.row, h.seat, h.price, h.faceValue, h.restricted, h.description);
  }

  const prices = [...priceSet].sort((a, b) => a - b);
  const bandOf = new Map(prices.map((p, i) => [p, i]));
  const bandCounts = prices.map(() => 0);

  const seats: Draft[] = [];
  const rows: MapRow[] = [];
  const areas: MapArea[] = [];
  let restrictedCount = 0;
  let byTicket: Map<number, number> | null = null;
  let y = 0;
  let width = ROW_LABEL_UNITS + 1;
  let bandPrice = Number.NaN;
  let band = 0;
  for (let areaIndex = 0; areaIndex < areaOrder.length; areaIndex++) {
    const areaName = areaOrder[areaIndex] as string;
    const areaRows = byArea.get(areaName) as Map<string, Draft[]>;
    // Whole seat numbers: each seat sits at its number. The number is parsed once and kept in
    // the seat's `x` until its position replaces it below (so sorting parses nothing).
    let numeric = true;
    let minNumber = Infinity; // a loop, not Math.min(...all): no argument-count limit on a stadium
    for (const seatsOfRow of areaRows.values()) {
      for (const s of seatsOfRow) {
        if (!wholeNumber.test(s.seat)) {
          numeric = false;
          break;
        }
        const n = +s.seat;
        s.x = n;
        if (n < minNumber) minNumber = n;
      }
      if (!numeric) break;
    }
    const areaTop = y;
    y += AREA_HEADING_UNITS;
    const rowIndices: number[] = [];
    for (const label of [...areaRows.keys()].sort(compareNatural)) {
      const seatsOfRow = areaRows.get(label) as Draft[];
      // The service usually lists a row in order already: check (without a call per seat) before sorting.
      let ordered = true;
      for (let i = 1; i < seatsOfRow.length && ordered; i++) {
        const a = seatsOfRow[i - 1] as Draft;
        const b = seatsOfRow[i] as Draft;
        ordered = numeric ? a.x < b.x || (a.x === b.x && a.ticketId <= b.ticketId) : (compareNatural(a.seat, b.seat) || a.ticketId - b.ticketId) <= 0;
      }
      if (!ordered) {
        seatsOfRow.sort(numeric ? (a, b) => a.x - b.x || a.ticketId - b.ticketId : (a, b) => compareNatural(a.seat, b.seat) || a.ticketId - b.ticketId);
      }
      const rowIndex = rows.length;
      const indices: number[] = [];
      let lastX = -Infinity;
      for (let i = 0; i < seatsOfRow.length; i++) {
        const s = seatsOfRow[i] as Draft;
        let x = ROW_LABEL_UNITS + (numeric ? s.x - minNumber : i);
        if (x < lastX + 1) x = lastX + 1; // never overlap (duplicate numbers)
        lastX = x;
        if (s.price !== bandPrice) {
          bandPrice = s.price;
          band = bandOf.get(bandPrice) ?? 0;
        }
        bandCounts[band] = (bandCounts[band] ?? 0) + 1;
        const index = seats.length;
        s.index = index;
        s.band = band;
        s.rowIndex = rowIndex;
        s.indexInRow = i;
        s.x = x;
        s.y = y;
        seats[index] = s;
        indices[i] = index;
        if (s.restricted) restrictedCount += 1;
        if (x + 1 > width) width = x + 1;
      }
      rows.push(Object.freeze({ index: rowIndex, area: areaName, areaIndex, label, y, seats: Object.freeze(indices) }));
      rowIndices.push(rowIndex);
      y += 1;
    }
    areas.push(Object.freeze({ name: areaName, y: areaTop, rows: Object.freeze(rowIndices) }));
    y += AREA_GAP_UNITS;
  }

  return Object.freeze({
    seats: Object.freeze(seats as MapSeat[]),
    rows: Object.freeze(rows),
    areas: Object.freeze(areas),
    bands: Object.freeze(prices.map((price, i) => Object.freeze({ price, label: letterLabel(i), seatCount: bandCounts[i] ?? 0 }))),
    width: width + 0.5,
    height: Math.max(y - AREA_GAP_UNITS, 1),
    // Made on first use: the first paint never needs it (a selection or a basket does).
    get byTicket(): ReadonlyMap<number, number> {
      if (!byTicket) {
        byTicket = new Map();
        for (const s of seats) byTicket.set(s.ticketId, s.index);
      }
      return byTicket;
    },
    restrictedCount,
  });
}

// ---------------------------------------------------------------- geometry

/** The row whose line contains `y` (units), or -1. Rows are sorted by y. */
export function rowAt(map: SeatMap, y: number): number {
  let lo = 0;
  let hi = map.rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = map.rows[mid] as MapRow;
    if (y < row.y) hi = mid - 1;
    else if (y >= row.y + 1) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The first position in a row whose seat ends after `x` (units). */
export function firstSeatFrom(map: SeatMap, row: MapRow, x: number): number {
  let lo = 0;
  let hi = row.seats.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const seat = map.seats[row.seats[mid] as number] as MapSeat;
    if (seat.x + 1 <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The seat under a point (units), or -1. */
export function seatAt(map: SeatMap, x: number, y: number): number {
  const r = rowAt(map, y);
  if (r < 0) return -1;
  const row = map.rows[r] as MapRow;
  const pos = firstSeatFrom(map, row, x);
  const index = row.seats[pos];
  if (index === undefined) return -1;
  const seat = map.seats[index] as MapSeat;
  return x >= seat.x && x < seat.x + 1 ? index : -1;
}

/** Seats whose cells meet a rectangle (units), row by row, left to right. */
export function* seatsIn(map: SeatMap, left: number, top: number, right: number, bottom: number): Generator<MapSeat> {
  let r = 0;
  let lo = 0;
  let hi = map.rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((map.rows[mid] as MapRow).y + 1 <= top) lo = mid + 1;
    else hi = mid;
  }
  for (r = lo; r < map.rows.length; r++) {
    const row = map.rows[r] as MapRow;
    if (row.y >= bottom) break;
    for (let p = firstSeatFrom(map, row, left); p < row.seats.length; p++) {
      const seat = map.seats[row.seats[p] as number] as MapSeat;
      if (seat.x >= right) break;
      yield seat;
    }
  }
}

/**
 * Keyboard movement: the seat reached from `from` by an arrow. Left/right move
 * within the row (stopping at its ends); up/down go to the nearest seat by x in
 * the previous/next row (across areas). Returns `from` when there is nowhere to go.
 */
export function neighbour(map: SeatMap, from: number, direction: 'left' | 'right' | 'up' | 'down' | 'home' | 'end' | 'first' | 'last'): number {
  const seat = map.seats[from];
  if (!seat) return map.seats.length ? 0 : -1;
  const row = map.rows[seat.rowIndex] as MapRow;
  switch (direction) {
    case 'left':
      return row.seats[seat.indexInRow - 1] ?? from;
    case 'right':
      return row.seats[seat.indexInRow + 1] ?? from;
    case 'home':
      return row.seats[0] ?? from;
    case 'end':
      return row.seats[row.seats.length - 1] ?? from;
    case 'first':
      return 0;
    case 'last':
      return map.seats.length - 1;
    case 'up':
    case 'down': {
      const target = map.rows[seat.rowIndex + (direction === 'up' ? -1 : 1)];
      if (!target || !target.seats.length) return from;
      const pos = Math.min(firstSeatFrom(map, target, seat.x + 0.5), target.seats.length - 1);
      const candidates = [target.seats[pos - 1], target.seats[pos]].filter((i): i is number => i !== undefined);
      let best = candidates[0] as number;
      for (const c of candidates) {
        if (Math.abs((map.seats[c] as MapSeat).x - seat.x) < Math.abs((map.seats[best] as MapSeat).x - seat.x)) best = c;
      }
      return best;
    }
  }
}

/** A seat's number from its label ("14", "b10" → 10); NaN when it has none. */
function seatNumber(label: string): number {
  return Number.parseInt(label.replace(/^\D+/, ''), 10);
}

/**
 * Whether choosing `selected` (ticket ids) would leave a single free seat
 * stranded in its row: a free seat whose neighbours on both sides (by seat
 * number) are chosen, taken or missing, at least one of them chosen. The rule
 * the service enforces (it refuses such a selection); its own message about it
 * is in its language, so the picker says it in the visitor's.
 */
export function leavesSingleSeat(map: SeatMap, selected: readonly number[]): boolean {
  const number = (seat: MapSeat) => seatNumber(seat.seat);
  const chosen = selected.map((id) => map.seats[map.byTicket.get(id) ?? -1]).filter((s): s is MapSeat => s !== undefined);
  for (const rowIndex of new Set(chosen.map((s) => s.rowIndex))) {
    const row = map.rows[rowIndex];
    if (!row) continue;
    const picked = new Set(chosen.filter((s) => s.rowIndex === rowIndex).map(number));
    const free = new Set<number>();
    for (const index of row.seats) {
      const n = number(map.seats[index] as MapSeat);
      if (Number.isFinite(n) && !picked.has(n)) free.add(n);
    }
    for (const n of free) {
      if (!free.has(n - 1) && !free.has(n + 1) && (picked.has(n - 1) || picked.has(n + 1))) return true;
    }
  }
  return false;
}

/**
 * The best block of `count` seats among the free seats of one area and price
 * (AvailableTickets gives them all, in no promised order): side by side in
 * one row, never leaving a single free seat stranded at either end of the
 * block's run (the service refuses that), front rows first and, within a row,
 * the block nearest the row's middle. Falls back to any side-by-side block,
 * then null when no row has `count` seats together.
 */
export function bestBlock<T extends { TicketName1: string; TicketName2: string }>(tickets: readonly T[], count: number): T[] | null {
  if (count < 1) return null;
  const rows = new Map<string, T[]>();
  for (const t of tickets) {
    const row = rows.get(t.TicketName1);
    if (row) row.push(t);
    else rows.set(t.TicketName1, [t]);
  }
  const number = (t: T) => seatNumber(t.TicketName2);
  let fallback: T[] | null = null;
  for (const rowName of [...rows.keys()].sort(compareNatural)) {
    const seats = (rows.get(rowName) ?? []).slice().sort((a, b) => compareNatural(a.TicketName2, b.TicketName2));
    // Runs of consecutive seat numbers.
    const runs: T[][] = [];
    for (const seat of seats) {
      const run = runs.at(-1);
      const last = run?.at(-1);
      if (run && last && Number.isFinite(number(seat)) && number(seat) === number(last) + 1) run.push(seat);
      else runs.push([seat]);
    }
    let best: { block: T[]; distance: number } | null = null;
    const middle = (number(seats[0] as T) + number(seats.at(-1) as T)) / 2;
    for (const run of runs) {
      for (let start = 0; start + count <= run.length; start++) {
        const block = run.slice(start, start + count);
        fallback ??= block;
        const before = start;
        const after = run.length - start - count;
        if (before === 1 || after === 1) continue;
        const centre = (number(block[0] as T) + number(block.at(-1) as T)) / 2;
        const distance = Number.isFinite(middle) ? Math.abs(centre - middle) : start;
        if (!best || distance < best.distance) best = { block, distance };
      }
    }
    if (best) return best.block;
  }
  return fallback;
}
