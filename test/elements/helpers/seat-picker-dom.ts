/** Test helpers: the parts of a <seat-picker>'s shadow DOM a visitor meets (its seats by their names), and its painted map. */
import { html } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import type { FullTicketInfo } from '../../../src/api/types.ts';
import type { SeatPicker } from '../../../src/elements/seat-picker/seat-picker.component.ts';
import { apiError, fakeApi, testBooking, withBooking } from './fake-api.ts';
import { performance } from './seat-fixtures.ts';

export const root = (el: SeatPicker) => el.shadowRoot as ShadowRoot;
/** The seat buttons in place (the overlay over the painted map). */
export const seatButtons = (el: SeatPicker) => [...root(el).querySelectorAll<HTMLButtonElement>('.sizer button')];
/** The seat button whose accessible name starts with `name` ("Stalls, row A, seat 1,"). */
export const seat = (el: SeatPicker, name: string) => {
  const b = seatButtons(el).find((x) => x.getAttribute('aria-label')?.startsWith(name));
  if (!b) throw new Error(`no seat named ${name}`);
  return b;
};

/** A seat picker on performance 1 with these seats, its map drawn (every seat valid together). */
export async function seatedPicker(tickets: FullTicketInfo[]): Promise<SeatPicker> {
  const api = fakeApi({
    getPerformance: ({ performanceId }) => performance(performanceId),
    getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: tickets }),
    getEvent: () => {
      throw apiError('getEvent', 404);
    },
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
  });
  const el = await withBooking<SeatPicker>(testBooking(api), html`<seat-picker performance-id="1"></seat-picker>`);
  await waitUntil(() => seatButtons(el).length === tickets.length, 'the map is drawn', { timeout: 5000 });
  await el.updateComplete;
  return el;
}

/**
 * The canvas pixel at a point of a seat's painted shape (`at`: fractions of its button's box;
 * the default is a little off its mark), as `rgb(…)`, or `rgba(…)` with `alpha`.
 */
export function seatPixel(el: SeatPicker, label: string, at: { x: number; y: number } = { x: 0.3, y: 0.7 }, alpha = false): string {
  const button = seatButtons(el).find((b) => b.getAttribute('aria-label')?.includes(label));
  const canvas = root(el).querySelector('canvas');
  if (!button || !canvas) throw new Error(`no seat ${label}`);
  const b = button.getBoundingClientRect();
  const c = canvas.getBoundingClientRect();
  const scale = canvas.width / c.width;
  const [r, g, bl, a] = canvas.getContext('2d')?.getImageData(Math.round((b.left - c.left + b.width * at.x) * scale), Math.round((b.top - c.top + b.height * at.y) * scale), 1, 1).data ?? [];
  return alpha ? `rgba(${r}, ${g}, ${bl}, ${a})` : `rgb(${r}, ${g}, ${bl})`;
}
