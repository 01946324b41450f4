/**
 * Lookups started before they are asked for. When the visitor points at a
 * performance (hover, focus, touch), or the calendar's dates answer and the
 * day it opens on holds one performance to book (the likely next step: its
 * seats travel while the visitor reads the dates), its seats are asked for at
 * once: by the time the click has chosen it and <seat-picker> asks, the
 * answer is on its way or here. The picker's own request takes the one started ahead (once:
 * a later request, after an add or a conflict, asks the service again), so
 * there is never a second request for the same seats. The venue's seating
 * plan, shown below a seat map, leaves with its seats, not after them: the
 * event's detail, already read, names the venue, so the map and its plan
 * cost one round trip in a row, not two.
 *
 * Per api client (so per widget). A lookup started ahead is taken only within
 * `FRESH_MS` of its start (the proxy keeps seats 5 s; older seats are asked
 * for again); a failed one is forgotten at once (the picker asks itself and
 * shows its own error). Nothing here renders.
 */
import type { ApiClient } from '../api/client.ts';
import type { AreasPricesResult, EventInfo, FullAvailabilityResult, VenueDetailResult } from '../api/types.ts';
import { eventOnItsWay, knownEvent, readEvent } from './event-details.ts';
import { provideLookAhead } from './lookahead-slot.ts';

/** How long a lookup started ahead may be taken (ms from its start). */
export const FRESH_MS = 5000;

interface Ahead {
  promise: Promise<unknown>;
  at: number;
}

const ahead = new WeakMap<ApiClient, Map<string, Ahead>>();

function started(api: ApiClient): Map<string, Ahead> {
  let map = ahead.get(api);
  if (!map) ahead.set(api, (map = new Map()));
  return map;
}

/** Start `run` for `key` now, unless one started ahead is still fresh. */
function startAhead(api: ApiClient, key: string, run: () => Promise<unknown>, now: number): void {
  const map = started(api);
  const found = map.get(key);
  if (found && now - found.at < FRESH_MS) return;
  const entry: Ahead = { promise: run(), at: now };
  map.set(key, entry);
  entry.promise.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
}

/** Wait for `promise` unless `signal` aborts first (the lookup itself goes on). */
function until<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
  return Promise.race([promise, aborted]);
}

/** The lookup started ahead for `key` (taken: it answers once), or `run` now. */
function take<T>(api: ApiClient, key: string, run: () => Promise<T>, signal: AbortSignal | undefined, now = Date.now()): Promise<T> {
  const map = ahead.get(api);
  const found = map?.get(key);
  if (found && map) {
    map.delete(key);
    if (now - found.at < FRESH_MS) {
      // A taker that gives up (its task re-run at once with other arguments) leaves it for the next.
      signal?.addEventListener('abort', () => void (map.has(key) || map.set(key, found)), { once: true });
      return until(found.promise as Promise<T>, signal);
    }
  }
  return run();
}

/** Per client, the performance a look-ahead waits to ask for until its event's detail is in (the last wish only). */
const waiting = new WeakMap<ApiClient, string>();

const fullKey = (performanceId: number) => `FullAvailability:${performanceId}`;
const areasKey = (performanceId: number) => `AreasPrices:${performanceId}`;
const venueKey = (venueId: number) => `Venue:${venueId}`;

/**
 * A seat map's venue (its seating plan) asked for now, beside its seats: for
 * an event with a seat plan whose detail names its venue. The picker takes it
 * with `venue` once its seats have shown.
 */
export function seatingPlanAhead(api: ApiClient, event: EventInfo | null | undefined, now = Date.now()): void {
  const venueId = event?.SeatingPlanSupported === false ? 0 : (event?.VenueId ?? 0);
  if (venueId > 0) startAhead(api, venueKey(venueId), () => api.getVenue({ venueId }), now);
}

/**
 * The visitor points at a performance of this event, or the calendar offers
 * it first: ask for its seats now. Only once the event's detail is known on
 * this page (its SeatingPlanSupported says which lookup the picker will make:
 * FullAvailability for a seat map, AreasPrices for general admission), so
 * nothing is asked that the picker would not ask: a detail on its way is
 * waited for, and one not asked for yet is asked for now (the picker needs it
 * too, and takes it from event-details.ts). Whether a lookup is started, on
 * its way, or waits for the detail.
 */
export function lookAhead(api: ApiClient, performanceId: number, eventId: number | null): boolean {
  if (eventId === null || !Number.isInteger(performanceId) || performanceId <= 0) return false;
  const event = knownEvent(api, eventId);
  if (!event) {
    // Only the last performance pointed at (or offered) while the detail is on its way is asked for once it lands.
    const wish = `${eventId}:${performanceId}`;
    waiting.set(api, wish);
    const read = eventOnItsWay(api, eventId) ?? readEvent(api, eventId).catch(() => undefined);
    void read.then((found) => {
      if (waiting.get(api) !== wish) return;
      waiting.delete(api);
      if (found && knownEvent(api, eventId)) lookAhead(api, performanceId, eventId);
    });
    return true;
  }
  const now = Date.now();
  if (event.SeatingPlanSupported === false) startAhead(api, areasKey(performanceId), () => api.getAreasPrices({ performanceId }), now);
  else {
    startAhead(api, fullKey(performanceId), () => api.getFullAvailability({ performanceId }), now);
    seatingPlanAhead(api, event, now);
  }
  return true;
}

// <performance-calendar> asks through the slot (lookahead-slot.ts): it does not import this module.
provideLookAhead(lookAhead);

/** FullAvailability: the lookup started ahead when there is one, else asked now. */
export function fullAvailability(api: ApiClient, performanceId: number, signal?: AbortSignal): Promise<FullAvailabilityResult> {
  return take(api, fullKey(performanceId), () => api.getFullAvailability({ performanceId }, { signal }), signal);
}

/** The event's detail when known, or once the read on its way answers (one the look-ahead started), else undefined. */
export async function detailAhead(api: ApiClient, eventId: number, signal?: AbortSignal): Promise<EventInfo | undefined> {
  const onItsWay = eventOnItsWay(api, eventId);
  return knownEvent(api, eventId) ?? (onItsWay && (await until(onItsWay, signal)));
}

/** AreasPrices: the lookup started ahead when there is one, else asked now. */
export function areasPrices(api: ApiClient, performanceId: number, signal?: AbortSignal): Promise<AreasPricesResult> {
  return take(api, areasKey(performanceId), () => api.getAreasPrices({ performanceId }, { signal }), signal);
}

/** Get Venue: the lookup started ahead with the seats when there is one, else asked now. */
export function venue(api: ApiClient, venueId: number, signal?: AbortSignal): Promise<VenueDetailResult> {
  return take(api, venueKey(venueId), () => api.getVenue({ venueId }, { signal }), signal);
}
