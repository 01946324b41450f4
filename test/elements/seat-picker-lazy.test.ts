/**
 * What <seat-picker> fetches only once the visitor has chosen a seat: the seat check
 * (SeatsSelectionValidation, src/elements/seat-picker/selection-check.ts), so the walk to a map
 * ready for a tap pays for none of it; "Add" waits for its answer as before. (Its own file: a
 * module is fetched once per page, and no other import here may load it first.)
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { apiError, fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { performance as performanceFixture, ticket } from './helpers/seat-fixtures.ts';
import { root, seat, seatButtons } from './helpers/seat-picker-dom.ts';

/** Whether the page has asked for the seat check's code (its module, as the test server names it). */
const checkFetched = () => performance.getEntriesByType('resource').some((e) => /\/seat-picker\/selection-check\b/.test(e.name));
const addButton = (el: SeatPicker) => root(el).querySelector<HTMLButtonElement>('[part~="summary"] [part~="add-button"]');

describe('<seat-picker> fetches the seat check with the first seat chosen', () => {
  afterEach(() => resetSharedBookings());

  it('not for a map ready for a tap; then the choice is checked before it can be added', async () => {
    let answer: (() => void) | undefined;
    const api = fakeApi({
      getPerformance: ({ performanceId }) => performanceFixture(performanceId),
      getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [ticket(1, 'Stalls', 'A', '1', 45), ticket(2, 'Stalls', 'A', '2', 45)] }),
      getEvent: () => {
        throw apiError('getEvent', 404);
      },
      validateSeatsSelection: () =>
        new Promise((resolve) => {
          answer = () => resolve({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' });
        }),
    });
    const el = await withBooking<SeatPicker>(testBooking(api), html`<seat-picker performance-id="1"></seat-picker>`);
    await waitUntil(() => seatButtons(el).length === 2 && addButton(el), 'the map is not ready for a tap');
    await el.updateComplete;
    expect(checkFetched(), 'the seat check was fetched before any seat was chosen').to.equal(false);

    seat(el, 'Stalls, row A, seat 1').click();
    await el.updateComplete;
    expect(addButton(el)?.getAttribute('aria-disabled'), 'not addable while it is checked').to.equal('true');
    await waitUntil(() => answer, 'the choice was never checked');
    expect(checkFetched()).to.equal(true);
    answer?.();
    await waitUntil(() => addButton(el)?.getAttribute('aria-disabled') !== 'true', 'addable once the check answered');
    await expect(el).to.be.accessible();
  });
});
