/**
 * Seats no one can hoard: a cap on the seats held at once, per performance, by one visitor and
 * by one client address, counted in seats (not requests), across every proxy sharing the store.
 *
 * - The visitor is the queue id a waiting room gives (the `Stagedoor-Queue-Id` request header,
 *   set by the room), else the basket; the address is the rate limiter's (an IPv6 one per /64).
 * - The performance is the one Add Tickets names (v3's path, v2's BestSeats.PerformanceId). A v2
 *   add of chosen seats (`Tickets`) names none: those adds are counted together, as one
 *   "performance" (`tickets`), so they are capped too (more strictly: across performances).
 * - Before an add is forwarded its seats are reserved under both subjects at once (a Lua script
 *   in Redis, the subjects of one performance in one hash slot), or refused when either would
 *   pass its cap: concurrent adds over any number of proxies can never pass it. The reservation
 *   becomes the basket items the service added (their ExpirationDate, read on the service's
 *   clock, is when their seats stop counting), or is dropped when the service refuses.
 * - Seats leave the count when their item is removed (Delete Basket Item, Delete All), leaves the
 *   basket as an answer shows it, or its hold expires. A submitted basket still holds its seats
 *   until their ExpirationDate: the proxy cannot tell a paid order from an unpaid one.
 * - The refusal is the service's own 409 of Add Tickets, BookableTicketsExceeded with
 *   BookableTicketsCount the seats that may still be added, so the widget and any other client
 *   already say "only N more can be booked"; `Message` and `SeatCap` say it is the proxy's cap.
 * - The shared store down: the caps fall back to this process's counts (each proxy caps on its
 *   own), as the rate limits do, rather than closing the sale for a store outage: a cap guards
 *   fairness, not safety, and the service still enforces its own limits.
 */
import type { OperationName } from '../../api/operations.ts';
import { DEFAULT_TIME_ZONE, serviceTimeToInstant } from '../../api/time.ts';
import { JSON_TYPE, type Reply } from './reply.ts';
import type { BasketHold, SeatCapSubject, SeatHoldEntry, SeatHoldStore } from './stores.ts';

export interface SeatCapOptions {
  /** Seats one visitor (queue id, else basket) may hold at once per performance. Default 10; `false`: no cap. */
  perVisitor?: number | false;
  /** Seats one client address (an IPv6 /64) may hold at once per performance. Default 20 (a family's or an office's NAT); `false`: no cap. */
  perAddress?: number | false;
}

export const DEFAULT_SEAT_CAPS: Readonly<{ perVisitor: number; perAddress: number }> = Object.freeze({ perVisitor: 10, perAddress: 20 });

/** The request header a waiting room sets to the visitor's queue id (letters, digits, `-_.:`, at most 128). */
export const QUEUE_ID_HEADER = 'Stagedoor-Queue-Id';
const QUEUE_ID = /^[\w.:-]{1,128}$/;

/** How long a basket's record of where its items are counted outlives its last change. */
const BASKET_RECORD_MS = 6 * 60 * 60_000;

type Body = Record<string, unknown>;
interface Item {
  BasketItemId?: unknown;
  Tickets?: unknown;
  Seats?: unknown;
  ExpirationDate?: unknown;
}

/** The performance an add names, and its seats. */
export function addedSeats(op: OperationName, path: Record<string, unknown>, body: unknown): { scope: string; seats: number } | null {
  const b = (body ?? {}) as Body;
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  if (op === 'addTicketsV3') {
    return { scope: `p${String(path.performanceId)}`, seats: b.TicketIds !== undefined ? count(b.TicketIds) : Number(b.SeatsCount ?? 0) };
  }
  if (op !== 'addTickets') return null;
  const best = b.BestSeats as Body | undefined;
  if (best) return { scope: `p${String(best.PerformanceId)}`, seats: Number(best.SeatsCount ?? 0) };
  return { scope: 'tickets', seats: count(b.Tickets) };
}

/** The visitor's queue id from the room's header: absent (null), valid, or invalid (false). */
export function queueIdOf(header: string | null): string | null | false {
  if (header === null) return null;
  return QUEUE_ID.test(header) ? header : false;
}

/** The 409 a capped add gets: the service's add-result, BookableTicketsExceeded, with how many may still be added. */
export function capRefusal(remaining: number, subject: string, cap: number): Reply {
  const who = subject.startsWith('v:') ? 'visitor' : 'address';
  const body = {
    Success: false,
    FailureReason: 8,
    FailureReasonText: 'BookableTicketsExceeded',
    BookableTicketsCount: remaining,
    GetBasketContentResult: null,
    Message: `At most ${cap} seats per ${who} may be held at once for this performance; ${remaining} more may be added.`,
    SeatCap: { per: who, cap, remaining },
  };
  return { status: 409, body: JSON.stringify(body), contentType: JSON_TYPE, date: null };
}

function parsed(reply: Reply): Body | null {
  if (reply.status !== 200 || reply.body === null) return null;
  try {
    const text = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body);
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Body) : null;
  } catch {
    return null;
  }
}

export interface SeatCapsDeps {
  caps: { perVisitor: number | false; perAddress: number | false };
  holds: () => SeatHoldStore;
  /** The proxy's clock. */
  now: () => number;
  /** The service's clock, as the proxy tracks it (clock.ts). */
  serviceNow: () => number;
  /** How long a reservation lasts without an answer (a proxy that died mid-add frees it then). */
  pendingMs: number;
  /** A hold whose ExpirationDate cannot be read lasts this long. */
  fallbackHoldMs: number;
}

export class SeatCaps {
  constructor(private readonly deps: SeatCapsDeps) {}

  /** The subjects capped for this add. */
  subjects(visitor: string, address: string): SeatCapSubject[] {
    const { perVisitor, perAddress } = this.deps.caps;
    const list: SeatCapSubject[] = [];
    if (perVisitor !== false) list.push({ subject: `v:${visitor}`, cap: perVisitor });
    if (perAddress !== false) list.push({ subject: `a:${address}`, cap: perAddress });
    return list;
  }

  /**
   * Reserve an add's seats: a refusal to answer with, or the function that settles the
   * reservation with the service's answer (always call it, whatever the answer).
   */
  async reserve(basketId: string, scope: string, seats: number, subjects: SeatCapSubject[]): Promise<{ refusal: Reply } | { settle: (reply: Reply) => Promise<void> }> {
    const now = this.deps.now();
    const entry: SeatHoldEntry = { field: `r:${crypto.randomUUID()}`, seats, expiresAt: now + this.deps.pendingMs };
    const decision = await this.deps.holds().reserve(scope, subjects, entry, now);
    if (!decision.allowed) {
      const cap = subjects.find((s) => s.subject === decision.subject)?.cap ?? 0;
      return { refusal: capRefusal(decision.remaining, decision.subject ?? '', cap) };
    }
    const names = subjects.map((s) => s.subject);
    return {
      settle: async (reply) => {
        const body = parsed(reply);
        const added = body?.Success === true;
        await this.sync(basketId, added ? body.GetBasketContentResult : undefined, { scope, subjects: names, released: entry.field });
      },
    };
  }

  /** After Delete Basket Item or Delete All: the items gone stop counting. */
  async removed(op: OperationName, basketId: string, path: Record<string, unknown>, reply: Reply): Promise<void> {
    if (reply.status < 200 || reply.status > 299) return;
    const content = parsed(reply)?.GetBasketContentResult;
    if (content) return this.sync(basketId, content);
    const known = await this.deps.holds().basket(basketId);
    const gone = op === 'deleteAllFromBasket' ? Object.keys(known) : [String(path.basketItemId)].filter((id) => id in known);
    await this.release(basketId, known, gone);
  }

  /** The instant (proxy's clock) an item's hold ends. */
  #expiry(item: Item): number {
    const now = this.deps.now();
    const serviceNow = this.deps.serviceNow();
    try {
      const at = serviceTimeToInstant(String(item.ExpirationDate), DEFAULT_TIME_ZONE, { near: serviceNow });
      if (at > 0) return at - (serviceNow - now);
    } catch {
      // Unreadable: the fallback below.
    }
    return now + this.deps.fallbackHoldMs;
  }

  /**
   * Bring the counts in line with a basket as the service just showed it: its items' seats and
   * expiries, new items counted under `added` (the add that made them), items gone released.
   */
  async sync(basketId: string, content: unknown, added?: { scope: string; subjects: string[]; released: string }): Promise<void> {
    const holds = this.deps.holds();
    const now = this.deps.now();
    const known = await holds.basket(basketId);
    const items = Array.isArray((content as { Items?: unknown } | undefined)?.Items) ? ((content as { Items: Item[] }).Items) : null;
    const byScope = new Map<string, { subjects: readonly string[]; entries: SeatHoldEntry[] }>();
    const put = (hold: { scope: string; subjects: readonly string[] }, entry: SeatHoldEntry) => {
      const key = `${hold.scope}\n${hold.subjects.join('\n')}`;
      let group = byScope.get(key);
      if (!group) byScope.set(key, (group = { subjects: hold.subjects, entries: [] }));
      group.entries.push(entry);
    };
    if (added) put(added, { field: added.released, seats: 0, expiresAt: 0 });
    const record: Record<string, BasketHold | null> = {};
    if (items) {
      const present = new Set<string>();
      for (const item of items) {
        const id = String(item.BasketItemId);
        present.add(id);
        const seats = Array.isArray(item.Tickets) && item.Tickets.length ? item.Tickets.length : Array.isArray(item.Seats) ? item.Seats.length : 0;
        const hold = known[id] ?? (added ? { scope: added.scope, subjects: added.subjects, seats } : null);
        if (!hold) continue;
        put(hold, { field: `i:${basketId}:${id}`, seats, expiresAt: this.#expiry(item) });
        record[id] = { scope: hold.scope, subjects: hold.subjects, seats };
      }
      for (const id of Object.keys(known)) if (!present.has(id)) record[id] = null;
      for (const [id, hold] of Object.entries(known)) if (!present.has(id)) put(hold, { field: `i:${basketId}:${id}`, seats: 0, expiresAt: 0 });
    }
    await Promise.all([...byScope.entries()].map(([key, group]) => holds.settle(key.split('\n')[0] ?? '', group.subjects, group.entries, now)));
    if (Object.keys(record).length) await holds.setBasket(basketId, record, BASKET_RECORD_MS);
  }

  async release(basketId: string, known: Record<string, BasketHold>, ids: string[]): Promise<void> {
    const holds = this.deps.holds();
    const now = this.deps.now();
    await Promise.all(ids.map((id) => holds.settle(known[id]!.scope, known[id]!.subjects, [{ field: `i:${basketId}:${id}`, seats: 0, expiresAt: 0 }], now)));
    if (ids.length) await holds.setBasket(basketId, Object.fromEntries(ids.map((id) => [id, null])), BASKET_RECORD_MS);
  }
}
