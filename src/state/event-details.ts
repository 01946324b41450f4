/**
 * Event details already read on this page, per api client (so per widget): an
 * event's detail (Get Event) does not change while a visitor books, and the
 * elements ask for the same one in turn — <event-list> shows it when the
 * visitor chooses the event, then <seat-picker> needs its SeatingPlanSupported
 * and VenueId. Remembering it saves the picker a round trip before it can ask
 * for the seats (FullAvailability, or AreasPrices for general admission).
 * Only answers are kept (a failure is asked again); at most `LIMIT` events,
 * the oldest forgotten first.
 */
import type { ApiClient } from '../api/client.ts';
import type { EventInfo } from '../api/types.ts';

const LIMIT = 50;
const known = new WeakMap<ApiClient, Map<number, EventInfo>>();

/** The event's detail when this client has read it before on this page. */
export function knownEvent(api: ApiClient, eventId: number): EventInfo | undefined {
  return known.get(api)?.get(eventId);
}

/** Get Event through `api`, remembering the answer for the elements that ask next. */
export async function readEvent(api: ApiClient, eventId: number, signal?: AbortSignal): Promise<EventInfo> {
  const { Event } = await api.getEvent({ eventId }, { signal });
  if (Event) {
    let events = known.get(api);
    if (!events) known.set(api, (events = new Map()));
    events.delete(eventId);
    events.set(eventId, Event);
    if (events.size > LIMIT) events.delete(events.keys().next().value as number);
  }
  return Event;
}
