/**
 * The show the visitor was booking survives the round trip to the payment
 * page: the shared selection (event, performance, ticket count) is kept in
 * this tab's sessionStorage per endpoint as it changes, and put back when the
 * page is a payment return (`?stagedoor=success|failure`), so the list, the
 * calendar and the seat map show that performance again. Anywhere else a new
 * page starts with no choice, as before. Storage refused: nothing is kept.
 *
 * Started by the elements whose choices it keeps (<event-list>, <performance-calendar>,
 * <seat-picker>) as their booking reaches them, before their first render: not in the core, so a
 * page holding none of them (a timer in a header) carries none of it.
 *
 * No rendering; the DOM only through `location` (read).
 */
import { endpointKey } from '../api/endpoint.ts';
import { safeSessionStorage, type KeyValueStorage } from './basket-record.ts';
import type { BookingContextValue } from './booking.ts';
import { returnMarker } from './return-page.ts';
import type { Selection, SelectionStore } from './selection.ts';

const id = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);

/** The selections kept already (each element of a booking asks). */
const kept = new WeakSet<SelectionStore>();

/** Keep the booking's selection for the return from payment, and restore it on a return page (once per booking). */
export function keepChosenShow({ selection, config }: BookingContextValue, storage: KeyValueStorage = safeSessionStorage()): void {
  if (kept.has(selection)) return;
  kept.add(selection);
  const name = `stagedoor:show:${endpointKey(config.endpoint)}`;
  if (returnMarker()) {
    try {
      const kept = JSON.parse(storage.getItem(name) ?? 'null') as Partial<Selection> | null;
      const performanceId = id(kept?.performanceId);
      const eventId = id(kept?.eventId);
      if (eventId !== null) selection.selectPerformance(performanceId, eventId);
      const count = id(kept?.ticketCount);
      if (count !== null) selection.setTicketCount(count);
    } catch {
      /* nothing usable kept */
    }
  }
  selection.subscribe((value) => {
    if (value.eventId === null && value.performanceId === null) storage.removeItem(name);
    else storage.setItem(name, JSON.stringify(value));
  });
}
