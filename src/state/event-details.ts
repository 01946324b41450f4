/**
 * Event details already read on this page, per api client (so per widget): an
 * event's detail (Get Event) does not change while a visitor books, and the
 * elements ask for the same one in turn — <event-list> shows it when the
 * visitor chooses the event, then <seat-picker> needs its SeatingPlanSupported
 * and VenueId. Remembering it saves the picker a round trip before it can ask
 * for the seats (FullAvailability, or AreasPrices for general admission).
 * Only answers are kept (a failure is asked again); at most `LIMIT` events,
 * the oldest forgotten first.
 *
 * The same for performances: the calendar's answer for a month lists each
 * performance whole (the record Get Performance answers), so the seat picker
 * takes the chosen one, and its paired parts' dates, from there instead of
 * asking again beside its seats (at most `LIMIT * 10`).
 *
 * A read on its way is known too, so a look-ahead made before its answer
 * (the calendar's dates can answer first) waits for it instead of giving up.
 */
import type { ApiClient } from '../api/client.ts';
import type { EventInfo, PerformanceInfo } from '../api/types.ts';

const LIMIT = 50;
const known = new WeakMap<ApiClient, Map<number, EventInfo>>();
const performances = new WeakMap<ApiClient, Map<number, PerformanceInfo>>();

/** Keep `value` under `id` in this client's map, the oldest forgotten past `limit`. */
function keep<T>(maps: WeakMap<ApiClient, Map<number, T>>, api: ApiClient, id: number, value: T, limit: number): void {
  let map = maps.get(api);
  if (!map) maps.set(api, (map = new Map()));
  map.delete(id);
  map.set(id, value);
  if (map.size > limit) map.delete(map.keys().next().value as number);
}

/** A performance as this client last read it on this page (a month's performances, or Get Performance). */
export function knownPerformance(api: ApiClient, performanceId: number): PerformanceInfo | undefined {
  return performances.get(api)?.get(performanceId);
}

/** Remember performances read through `api` (the calendar's month), for the seat picker that shows one next. */
export function rememberPerformances(api: ApiClient, list: readonly PerformanceInfo[]): void {
  for (const p of list) if (p && Number.isInteger(p.PerformanceId)) keep(performances, api, p.PerformanceId, p, LIMIT * 10);
}

/** The event's detail when this client has read it before on this page. */
export function knownEvent(api: ApiClient, eventId: number): EventInfo | undefined {
  return known.get(api)?.get(eventId);
}

/** Get Event reads on their way, per client: what is asked ahead of the detail waits for it (state/lookahead.ts). */
const reading = new WeakMap<ApiClient, Map<number, Promise<EventInfo>>>();

/** The event's detail once the read on its way answers (a failed read: undefined), or undefined when none is. */
export function eventOnItsWay(api: ApiClient, eventId: number): Promise<EventInfo | undefined> | undefined {
  return reading.get(api)?.get(eventId)?.catch(() => undefined);
}

/** Get Event through `api`, remembering the answer for the elements that ask next. */
export async function readEvent(api: ApiClient, eventId: number, signal?: AbortSignal): Promise<EventInfo> {
  let map = reading.get(api);
  if (!map) reading.set(api, (map = new Map()));
  const read = api.getEvent({ eventId }, { signal }).then(({ Event }) => {
    if (Event) keep(known, api, eventId, Event, LIMIT);
    return Event;
  });
  map.set(eventId, read);
  const done = () => void (map.get(eventId) === read && map.delete(eventId));
  read.then(done, done);
  return read;
}
