/**
 * What starts the flow in the page's address (flow-history.ts, a chunk of its own): the elements
 * whose choices are the flow's steps (<event-list>, <performance-calendar>) call it with their
 * booking. The chunk is fetched with the visitor's first step, or at once when the address may name
 * one or the entry is ours (a reload, Back into the page). Not in the core: a page holding neither
 * (a timer in a header) carries none of it. Nothing unless the booking's `history` is on (a booking
 * made with an injected client has it off: src/state/booking.ts).
 */
import type { BookingContextValue } from './booking.ts';

/** Keep the flow of `booking` in the page's history (each element asks as its booking changes: startHistory runs once a page). */
export function keepFlowInHistory(booking: BookingContextValue): void {
  const { config } = booking;
  if (config.history === 'off') return;
  const start = (first?: Event) => void import('./flow-history.ts').then((m) => m.startHistory(booking, first));
  if (location.search.includes(`${config.eventParam ?? 'stagedoor-event'}=`) || (history.state as { stagedoor?: 1 } | null)?.stagedoor) start();
  else document.addEventListener('booking-selection', start, { once: true });
}
