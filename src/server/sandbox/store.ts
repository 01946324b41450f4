/**
 * The sandbox's in-process store: the catalogue turned into indexed runtime
 * records, the lazy per-performance seat state, and the baskets.
 *
 * Every method is synchronous. A request handler parses its body first, then
 * calls one method that checks and reserves seats with no await in between:
 * that is what keeps concurrent requests from ever selling one seat twice.
 * Expiry is evaluated against the injected clock at the start of every
 * request (`sweep`), so nothing runs on a timer.
 */
import type { Catalogue, CatalogueArea, CatalogueEvent, CataloguePerformance, CatalogueVenue } from './catalogue.ts';
import { seededRandom } from './catalogue.ts';
import { serviceTimeToInstant } from '../../api/time.ts';
import type { DeliveryInformation, FailureReasonName, LanguageCode } from '../../api/types.ts';

export interface Clock {
  now(): number;
}

export interface AreaRt {
  def: CatalogueArea;
  id: number;
  name: string;
  /** Row index ranges [start, end) in venue seat indices, front to back. */
  rows: { start: number; end: number }[];
}

export interface SeatDef {
  area: AreaRt;
  row: string;
  number: number;
  band: number;
  restriction: string | null;
  rowStart: number;
  rowEnd: number;
}

export interface VenueRt {
  def: CatalogueVenue;
  seats: SeatDef[];
  areas: Map<number, AreaRt>;
}

export interface EventRt {
  def: CatalogueEvent;
  venue: VenueRt;
  /** FaceValue by venue seat index; NaN where the seat is not on sale. */
  faces: Float64Array;
  performances: PerfRt[];
}

export interface SeatState {
  /** 0 free, 1 held by a basket, 2 booked (sold), 3 not on sale. */
  status: Uint8Array;
  holder: Map<number, Item>;
  /** Bumped on every change of status: keys the cached summary. */
  version: number;
}

/** Counts of a performance that listings need, cached until its seats change. */
export interface PerfSummary {
  key: string;
  free: number;
  onSale: number;
  minFreePrice: number | null;
  minPrice: number | null;
  maxConsecutive: number;
}

export interface PerfRt {
  def: CataloguePerformance;
  id: number;
  ordinal: number;
  instant: number;
  event: EventRt;
  venue: VenueRt;
  bookable: boolean;
  paired: PerfRt[];
  /** Paired performances that are not directly bookable: added together with this one. */
  linked: PerfRt[];
  discount: number;
  state?: SeatState;
  summary?: PerfSummary;
}

export const FREE = 0;
export const HELD = 1;
export const BOOKED = 2;
export const OFF_SALE = 3;

export interface Item {
  id: number;
  basket: Basket;
  perf: PerfRt;
  area: AreaRt;
  seats: number[];
  addedAt: number;
  expiresAt: number;
  /** Items added together (a paired performance's item): removed together. */
  group: number;
}

export interface OrderInfo {
  delivery: DeliveryInformation;
  requireTicketPlan: boolean;
  successUrl: string | null;
  failureUrl: string | null;
  returnUrl: string | null;
  transactionReference: string | null;
  /** PaymentGateLanguage of the order (1 English … 9 Danish): the language of the payment page. */
  language: LanguageCode;
}

export type BasketState = 'open' | 'submitted' | 'booked' | 'cancelled';

export interface Basket {
  id: string;
  state: BasketState;
  items: Item[];
  order: OrderInfo | null;
  paymentDeadline: number | null;
  bookingReference: string | null;
  transactionReference: number | null;
  bookedAt: number | null;
  barcodes: Map<number, string>;
}

export type AddOutcome =
  | { ok: true; items: Item[] }
  | { ok: false; reason: FailureReasonName; status: 200 | 409; bookable?: number };

export type SelectionCheck = { ok: true } | { ok: false; reason: 'TicketNotAvailable' | 'TicketLeavesSingleSeat'; seat: number };

/** Largest number of tickets one basket may hold for one performance. */
export const MAX_TICKETS_PER_PERFORMANCE = 10;
const TICKET_BASE = 1_000_000;

export interface StoreOptions {
  seed: number;
  clock: Clock;
  reservationMinutes: number;
  paymentMinutes: number;
  timeZone: string;
}

/** Money to the penny. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

function hashInts(...values: number[]): number {
  let h = 2166136261;
  for (const v of values) {
    h ^= v >>> 0;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

export class Store {
  readonly venues = new Map<number, VenueRt>();
  readonly events = new Map<number, EventRt>();
  readonly performances = new Map<number, PerfRt>();
  readonly perfByOrdinal: PerfRt[] = [];
  readonly baskets = new Map<string, Basket>();
  /** Baskets whose items or payment can expire. */
  private readonly active = new Set<Basket>();
  private nextDeadline = Number.POSITIVE_INFINITY;
  private nextItemId = 1;
  private nextTransaction = 700_001;
  private readonly stride: number;
  /** Simulated supplier failures still to happen, per performance id (0: any performance). */
  private readonly supplierFailures = new Map<number, number>();

  constructor(
    readonly catalogue: Catalogue,
    readonly options: StoreOptions,
  ) {
    for (const v of catalogue.Venues) this.venues.set(v.VenueId, buildVenue(v));
    this.stride = Math.max(10_000, ...[...this.venues.values()].map((v) => Math.ceil(v.seats.length / 1000) * 1000));
    for (const e of catalogue.Events) {
      const venue = this.venues.get(e.VenueId);
      if (!venue) throw new Error(`event ${e.EventId}: unknown venue ${e.VenueId}`);
      const prices = new Map<string, number>();
      for (const p of e.Prices) prices.set(`${p.AreaId}:${p.Band}`, p.FaceValue);
      const faces = new Float64Array(venue.seats.length);
      venue.seats.forEach((seat, i) => {
        faces[i] = prices.get(`${seat.area.id}:${seat.band}`) ?? Number.NaN;
      });
      this.events.set(e.EventId, { def: e, venue, faces, performances: [] });
    }
    const zone = catalogue.TimeZone ?? options.timeZone;
    catalogue.Performances.forEach((p, ordinal) => {
      const event = this.events.get(p.EventId);
      if (!event) throw new Error(`performance ${p.PerformanceId}: unknown event ${p.EventId}`);
      const perf: PerfRt = {
        def: p,
        id: p.PerformanceId,
        ordinal,
        instant: serviceTimeToInstant(p.PerformanceDate, zone),
        event,
        venue: event.venue,
        bookable: p.DirectlyBookable !== false,
        paired: [],
        linked: [],
        discount: p.Discount ?? 0,
      };
      this.performances.set(perf.id, perf);
      this.perfByOrdinal.push(perf);
      event.performances.push(perf);
    });
    for (const perf of this.performances.values()) {
      for (const id of perf.def.PairedPerformances ?? []) {
        const other = this.performances.get(id);
        if (!other) throw new Error(`performance ${perf.id}: unknown paired performance ${id}`);
        if (other.venue !== perf.venue) throw new Error(`performance ${perf.id}: paired performance ${id} is at another venue`);
        perf.paired.push(other);
      }
    }
    for (const perf of this.performances.values()) perf.linked = perf.paired.filter((p) => !p.bookable);
    for (const event of this.events.values()) event.performances.sort((a, b) => a.instant - b.instant || a.id - b.id);
  }

  now(): number {
    return this.options.clock.now();
  }

  // ---------------------------------------------------------------- tickets and prices

  ticketId(perf: PerfRt, seat: number): number {
    return TICKET_BASE + perf.ordinal * this.stride + seat;
  }

  /** The performance and seat of a TicketId, or null. */
  decodeTicket(ticketId: number): { perf: PerfRt; seat: number } | null {
    if (!Number.isInteger(ticketId) || ticketId < TICKET_BASE) return null;
    const ordinal = Math.floor((ticketId - TICKET_BASE) / this.stride);
    const seat = (ticketId - TICKET_BASE) % this.stride;
    const perf = this.perfByOrdinal[ordinal];
    if (!perf || seat >= perf.venue.seats.length) return null;
    return { perf, seat };
  }

  faceValue(perf: PerfRt, seat: number): number | null {
    const face = perf.event.faces[seat];
    return face === undefined || Number.isNaN(face) ? null : face;
  }

  sellingPrice(perf: PerfRt, seat: number): number | null {
    const face = this.faceValue(perf, seat);
    return face === null ? null : round2(face * (1 - perf.discount));
  }

  /** Seat state of a performance, created on first touch (sold seats drawn from the seed). */
  state(perf: PerfRt): SeatState {
    if (perf.state) return perf.state;
    const seats = perf.venue.seats;
    const status = new Uint8Array(seats.length);
    // A paired performance that is not bookable on its own mirrors its partner's sales.
    const partner = !perf.bookable ? perf.paired[0] : undefined;
    const salesKey = partner ? partner.id : perf.id;
    const fraction = partner ? partner.def.SoldFraction : perf.def.SoldFraction;
    const rnd = seededRandom(hashInts(this.options.seed, salesKey));
    for (let i = 0; i < seats.length; ) {
      const def = seats[i];
      if (!def) break;
      // Sales come in runs of 1–6 seats (parties), never across a row end.
      const run = 1 + Math.floor(rnd() * 6);
      const sold = fraction >= 1 || rnd() < fraction;
      const end = Math.min(def.rowEnd, i + run);
      for (; i < end; i++) status[i] = sold ? BOOKED : FREE;
    }
    for (let i = 0; i < seats.length; i++) if (this.faceValue(perf, i) === null) status[i] = OFF_SALE;
    perf.state = { status, holder: new Map(), version: 0 };
    return perf.state;
  }

  /** Free in the performance and in every performance booked together with it. */
  isFree(perf: PerfRt, seat: number): boolean {
    if (this.state(perf).status[seat] !== FREE) return false;
    return perf.linked.every((p) => this.state(p).status[seat] === FREE);
  }

  /** Seats of a performance a customer can add now. */
  freeSeats(perf: PerfRt): number[] {
    const out: number[] = [];
    for (let i = 0; i < perf.venue.seats.length; i++) if (this.isFree(perf, i)) out.push(i);
    return out;
  }

  /** Free count, prices and longest run of a performance, recomputed only when its seats (or its linked ones) changed. */
  summary(perf: PerfRt): PerfSummary {
    const key = [perf, ...perf.linked].map((p) => this.state(p).version).join(',');
    if (perf.summary?.key === key) return perf.summary;
    const free = this.freeSeats(perf);
    let minFreePrice: number | null = null;
    for (const s of free) {
      const price = this.sellingPrice(perf, s);
      if (price !== null && (minFreePrice === null || price < minFreePrice)) minFreePrice = price;
    }
    let minPrice: number | null = null;
    for (let s = 0; s < perf.venue.seats.length; s++) {
      const price = this.sellingPrice(perf, s);
      if (price !== null && (minPrice === null || price < minPrice)) minPrice = price;
    }
    perf.summary = { key, free: free.length, onSale: this.onSaleCount(perf), minFreePrice, minPrice, maxConsecutive: this.maxConsecutive(perf, free) };
    return perf.summary;
  }

  onSaleCount(perf: PerfRt): number {
    const status = this.state(perf).status;
    let n = 0;
    for (const s of status) if (s !== OFF_SALE) n++;
    return n;
  }

  /** Longest run of free seats in one row. */
  maxConsecutive(perf: PerfRt, seats: number[] = this.freeSeats(perf)): number {
    let best = 0;
    let run = 0;
    let prev = -2;
    let prevRow = -1;
    for (const s of seats) {
      const def = perf.venue.seats[s];
      if (!def) continue;
      run = s === prev + 1 && def.rowStart === prevRow ? run + 1 : 1;
      best = Math.max(best, run);
      prev = s;
      prevRow = def.rowStart;
    }
    return best;
  }

  /** Make the next `count` adds (for one performance, or any) fail as if the supplier were down. */
  failNextAdds(count: number, performanceId = 0): void {
    this.supplierFailures.set(performanceId, (this.supplierFailures.get(performanceId) ?? 0) + count);
  }

  /** Whether this add meets a supplier failure (consumes one simulated failure). */
  supplierFails(perf: PerfRt): boolean {
    if (perf.def.SupplierUnavailable) return true;
    for (const key of [perf.id, 0]) {
      const left = this.supplierFailures.get(key) ?? 0;
      if (left > 0) {
        this.supplierFailures.set(key, left - 1);
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- expiry

  /** Release what has expired by now: items past their ExpirationDate, payments past their deadline. */
  sweep(): void {
    const now = this.now();
    if (now < this.nextDeadline) return;
    let next = Number.POSITIVE_INFINITY;
    for (const basket of [...this.active]) {
      if (basket.state === 'submitted' && basket.paymentDeadline !== null) {
        if (basket.paymentDeadline <= now) {
          this.release(basket.items);
          basket.items = [];
          basket.state = 'cancelled';
        } else next = Math.min(next, basket.paymentDeadline);
      } else if (basket.state === 'open') {
        const expired = basket.items.filter((i) => i.expiresAt <= now);
        if (expired.length) {
          this.release(expired);
          basket.items = basket.items.filter((i) => i.expiresAt > now);
        }
        for (const i of basket.items) next = Math.min(next, i.expiresAt);
      }
      if (!this.isActive(basket)) this.active.delete(basket);
    }
    this.nextDeadline = next;
  }

  private isActive(basket: Basket): boolean {
    return basket.state === 'submitted' || (basket.state === 'open' && basket.items.length > 0);
  }

  private track(basket: Basket): void {
    if (!this.isActive(basket)) {
      this.active.delete(basket);
      return;
    }
    this.active.add(basket);
    if (basket.state === 'submitted' && basket.paymentDeadline !== null) this.nextDeadline = Math.min(this.nextDeadline, basket.paymentDeadline);
    for (const i of basket.items) this.nextDeadline = Math.min(this.nextDeadline, i.expiresAt);
  }

  private release(items: Item[]): void {
    for (const item of items) {
      const state = this.state(item.perf);
      for (const s of item.seats) {
        if (state.holder.get(s) === item) {
          state.holder.delete(s);
          state.status[s] = FREE;
        }
      }
      state.version++;
    }
  }

  // ---------------------------------------------------------------- baskets

  createBasket(id: string): Basket {
    const basket: Basket = {
      id,
      state: 'open',
      items: [],
      order: null,
      paymentDeadline: null,
      bookingReference: null,
      transactionReference: null,
      bookedAt: null,
      barcodes: new Map(),
    };
    this.baskets.set(id.toLowerCase(), basket);
    return basket;
  }

  basket(id: string): Basket | undefined {
    return this.baskets.get(id.toLowerCase());
  }

  /** Tickets this basket still may add for a performance. */
  allowance(basket: Basket, perf: PerfRt): number {
    const held = basket.items.filter((i) => i.perf === perf).reduce((n, i) => n + i.seats.length, 0);
    return Math.max(0, MAX_TICKETS_PER_PERFORMANCE - held);
  }

  /** Whether a selection can be bought: every seat free, and no single empty seat left between taken ones. */
  checkSelection(perf: PerfRt, seats: number[]): SelectionCheck {
    for (const s of seats) if (!this.isFree(perf, s)) return { ok: false, reason: 'TicketNotAvailable', seat: s };
    if (perf.event.def.GeneralAdmission) return { ok: true };
    const chosen = new Set(seats);
    const taken = (i: number) => chosen.has(i) || !this.isFree(perf, i);
    for (const s of seats) {
      const def = perf.venue.seats[s];
      if (!def) continue;
      for (const dir of [-1, 1]) {
        const gap = s + dir;
        const beyond = s + 2 * dir;
        if (gap < def.rowStart || gap >= def.rowEnd || beyond < def.rowStart || beyond >= def.rowEnd) continue;
        if (!taken(gap) && taken(beyond)) return { ok: false, reason: 'TicketLeavesSingleSeat', seat: s };
      }
    }
    return { ok: true };
  }

  private lockedOutcome(basket: Basket): AddOutcome | null {
    return basket.state === 'open' ? null : { ok: false, reason: 'BasketIsLocked', status: 200 };
  }

  /** Add specific seats (all of one performance). */
  addSeats(basket: Basket, perf: PerfRt, seats: number[]): AddOutcome {
    const locked = this.lockedOutcome(basket);
    if (locked) return locked;
    if (!perf.bookable) return { ok: false, reason: 'TicketForNonBookablePerformance', status: 200 };
    if (perf.instant <= this.now()) return { ok: false, reason: 'TicketNotAvailable', status: 409 };
    const allowance = this.allowance(basket, perf);
    if (seats.length > allowance) return { ok: false, reason: 'BookableTicketsExceeded', status: 409, bookable: allowance };
    const check = this.checkSelection(perf, seats);
    if (!check.ok) return { ok: false, reason: check.reason, status: 409 };
    return { ok: true, items: this.reserve(basket, perf, seats) };
  }

  /** Seats of an area at a selling price that can be added now, front rows first. */
  freeAt(perf: PerfRt, area: AreaRt, price: number): number[] {
    const out: number[] = [];
    for (const row of area.rows) {
      for (let s = row.start; s < row.end; s++) {
        const selling = this.sellingPrice(perf, s);
        if (selling !== null && Math.abs(selling - price) < 0.005 && this.isFree(perf, s)) out.push(s);
      }
    }
    return out;
  }

  /**
   * Add the best `count` seats at a price among `areas` (one area when AreaId was given; every area
   * selling at that price, in the venue's order, when it was not): adjacent in one row when possible,
   * in the first area that can give the best kind of block, across areas only when no one area can.
   */
  addBest(basket: Basket, perf: PerfRt, areas: readonly AreaRt[], count: number, price: number): AddOutcome {
    const locked = this.lockedOutcome(basket);
    if (locked) return locked;
    if (!perf.bookable) return { ok: false, reason: 'TicketForNonBookablePerformance', status: 200 };
    if (perf.instant <= this.now()) return { ok: false, reason: 'TicketNotAvailable', status: 409 };
    const freeByArea = areas.map((area) => this.freeAt(perf, area, price));
    const free = freeByArea.flat();
    const allowance = this.allowance(basket, perf);
    if (count > allowance || count > free.length) {
      return { ok: false, reason: 'BookableTicketsExceeded', status: 409, bookable: Math.min(allowance, free.length) };
    }
    const enough = freeByArea.filter((seats) => seats.length >= count);
    if (perf.event.def.GeneralAdmission) return { ok: true, items: this.reserve(basket, perf, (enough[0] ?? free).slice(0, count)) };
    const picks = enough.length ? enough.map((seats) => this.pickBest(perf, seats, count)) : [this.pickBest(perf, free, count)];
    const best = picks.reduce((a, b) => (b.quality > a.quality ? b : a));
    return { ok: true, items: this.reserve(basket, perf, best.seats) };
  }

  /**
   * The best `count` of `free` (front rows first) and how good they are: 2, a block in one row that
   * leaves no single seat; 1, a block in one row; 0, the largest blocks there are.
   */
  private pickBest(perf: PerfRt, free: number[], count: number): { seats: number[]; quality: 0 | 1 | 2 } {
    // Runs of adjacent free seats within one row, in front-to-back order.
    const runs: number[][] = [];
    for (const s of free) {
      const last = runs[runs.length - 1];
      const prev = last?.[last.length - 1];
      const def = perf.venue.seats[s];
      if (last && prev === s - 1 && def && prev >= def.rowStart) last.push(s);
      else runs.push([s]);
    }
    // The front-most row with a block that leaves no single seat; in it, the block nearest the row's centre.
    let fallback: number[] | null = null;
    let best: { block: number[]; rowStart: number; distance: number } | null = null;
    for (const run of runs) {
      const first = run[0];
      const def = first === undefined ? undefined : perf.venue.seats[first];
      if (!def || run.length < count) continue;
      if (best && def.rowStart !== best.rowStart) break;
      const centre = (def.rowStart + def.rowEnd - 1) / 2;
      for (let o = 0; o + count <= run.length; o++) {
        const block = run.slice(o, o + count);
        fallback ??= block;
        const distance = Math.abs(((block[0] ?? 0) + (block[count - 1] ?? 0)) / 2 - centre);
        if ((!best || distance < best.distance) && this.checkSelection(perf, block).ok) best = { block, rowStart: def.rowStart, distance };
      }
    }
    if (best) return { seats: best.block, quality: 2 };
    if (fallback) return { seats: fallback, quality: 1 };
    // No row has enough adjacent seats: the largest blocks, front first.
    const bySize = [...runs].sort((a, b) => b.length - a.length);
    const picked: number[] = [];
    for (const run of bySize) {
      picked.push(...run.slice(0, count - picked.length));
      if (picked.length >= count) break;
    }
    return { seats: picked.sort((a, b) => a - b), quality: 0 };
  }

  /** Hold seats for a basket: one item per area, and the same seats of linked performances. No checks. */
  private reserve(basket: Basket, perf: PerfRt, seats: number[]): Item[] {
    const now = this.now();
    const expiresAt = now + this.options.reservationMinutes * 60_000;
    const group = this.nextItemId;
    const created: Item[] = [];
    for (const p of [perf, ...perf.linked]) {
      const byArea = new Map<AreaRt, number[]>();
      for (const s of seats) {
        const def = p.venue.seats[s];
        if (!def) continue;
        const list = byArea.get(def.area) ?? [];
        list.push(s);
        byArea.set(def.area, list);
      }
      for (const [area, areaSeats] of byArea) {
        const item: Item = { id: this.nextItemId++, basket, perf: p, area, seats: areaSeats.sort((a, b) => a - b), addedAt: now, expiresAt, group };
        const state = this.state(p);
        for (const s of item.seats) {
          state.status[s] = HELD;
          state.holder.set(s, item);
        }
        state.version++;
        created.push(item);
      }
    }
    basket.items.push(...created);
    this.track(basket);
    return created;
  }

  /** Remove one item (and the items added with it). False when the basket has no such item. */
  removeItem(basket: Basket, itemId: number): boolean {
    const item = basket.items.find((i) => i.id === itemId);
    if (!item) return false;
    const removed = basket.items.filter((i) => i.group === item.group);
    this.release(removed);
    basket.items = basket.items.filter((i) => i.group !== item.group);
    this.track(basket);
    return true;
  }

  removeAll(basket: Basket): void {
    this.release(basket.items);
    basket.items = [];
    this.track(basket);
  }

  // ---------------------------------------------------------------- orders and payment

  submit(basket: Basket, order: OrderInfo): void {
    basket.order = order;
    basket.state = 'submitted';
    basket.paymentDeadline = this.now() + this.options.paymentMinutes * 60_000;
    this.track(basket);
  }

  /** Payment succeeded, or an on-account order: the seats are sold for good. */
  book(basket: Basket, reference: string): void {
    const transaction = this.nextTransaction++;
    for (const item of basket.items) {
      const state = this.state(item.perf);
      for (const s of item.seats) {
        state.status[s] = BOOKED;
        state.holder.delete(s);
        const ticketId = this.ticketId(item.perf, s);
        basket.barcodes.set(ticketId, `${transaction}${String(ticketId).padStart(10, '0')}`);
      }
      state.version++;
    }
    basket.state = 'booked';
    basket.bookingReference = reference;
    basket.transactionReference = transaction;
    basket.bookedAt = this.now();
    basket.paymentDeadline = null;
    this.track(basket);
  }

  /** Payment declined: back to the reserved state; items past their own expiry are released now. */
  decline(basket: Basket): void {
    basket.state = 'open';
    basket.paymentDeadline = null;
    const now = this.now();
    const expired = basket.items.filter((i) => i.expiresAt <= now);
    this.release(expired);
    basket.items = basket.items.filter((i) => i.expiresAt > now);
    this.track(basket);
  }
}

function buildVenue(def: CatalogueVenue): VenueRt {
  const seats: SeatDef[] = [];
  const areas = new Map<number, AreaRt>();
  for (const a of def.Areas) {
    const area: AreaRt = { def: a, id: a.AreaId, name: a.AreaName, rows: [] };
    areas.set(a.AreaId, area);
    for (const row of a.Rows) {
      const start = seats.length;
      const end = start + row.Seats;
      const first = row.FirstSeat ?? 1;
      for (let k = 0; k < row.Seats; k++) {
        const number = first + k;
        const restricted = row.Restricted?.find((r) => r.Seats.includes(number));
        seats.push({
          area,
          row: row.Row,
          number,
          band: restricted?.Band ?? row.Band,
          restriction: restricted?.Description ?? null,
          rowStart: start,
          rowEnd: end,
        });
      }
      area.rows.push({ start, end });
    }
  }
  return { def, seats, areas };
}
