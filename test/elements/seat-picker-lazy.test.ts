/**
 * What <seat-picker> fetches only once the visitor has acted on a seat map: the seat check
 * (SeatsSelectionValidation, src/elements/seat-picker/selection-check.ts) with the first seat
 * chosen, and best available (seat-picker.by-count.ts) when they switch to it, so the walk to a
 * map ready for a tap pays for none of it; "Add" waits for the check's answer as before. (Its own
 * file: a module is fetched once per page, and no other import here may load it first.)
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { apiError, fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { availableAreas, performance as performanceFixture, ticket } from './helpers/seat-fixtures.ts';
import { root, seat, seatButtons } from './helpers/seat-picker-dom.ts';

/** Whether the page has asked for the seat check's code (its module, as the test server names it). */
const fetched = (module: RegExp) => performance.getEntriesByType('resource').some((e) => module.test(e.name));
const checkFetched = () => fetched(/\/seat-picker\/selection-check\b/);
const bestFetched = () => fetched(/\/seat-picker\/(best-available|seat-picker\.by-count)\b/);
const text = (el: SeatPicker) => root(el).textContent?.replace(/\s+/g, ' ') ?? '';
const addButton = (el: SeatPicker) => root(el).querySelector<HTMLButtonElement>('[part~="summary"] [part~="add-button"]');

describe('<seat-picker> fetches the seat check with the first seat chosen', () => {
  afterEach(() => resetSharedBookings());

  it('not for a map ready for a tap; then the choice is checked before it can be added, and best available shows once chosen', async () => {
    let answer: (() => void) | undefined;
    const api = fakeApi({
      getPerformance: ({ performanceId }) => performanceFixture(performanceId),
      getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [ticket(1, 'Stalls', 'A', '1', 45), ticket(2, 'Stalls', 'A', '2', 45)] }),
      getEvent: () => {
        throw apiError('getEvent', 404);
      },
      getAvailableTickets: ({ requiredTicketsCount }) => availableAreas(requiredTicketsCount),
      validateSeatsSelection: () =>
        new Promise((resolve) => {
          answer = () => resolve({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' });
        }),
    });
    const el = await withBooking<SeatPicker>(testBooking(api), html`<seat-picker performance-id="1"></seat-picker>`);
    await waitUntil(() => seatButtons(el).length === 2 && addButton(el), 'the map is not ready for a tap');
    await el.updateComplete;
    expect(checkFetched(), 'the seat check was fetched before any seat was chosen').to.equal(false);
    expect(bestFetched(), 'best available was fetched before the visitor chose it').to.equal(false);

    // A page hidden meanwhile (the runner's other pages in front) makes no frames: there the check is
    // asked for at once (frames.ts), so the order below is checked only for a page shown throughout.
    let hidden = document.visibilityState !== 'visible';
    const onVisibility = () => void (hidden = true);
    document.addEventListener('visibilitychange', onVisibility);
    seat(el, 'Stalls, row A, seat 1').click();
    // The frame that shows the seat chosen: the check's code is asked for only as it begins, so its
    // arrival and compiling (at once on a fast network) never hold that frame back.
    const frame = await new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
    document.removeEventListener('visibilitychange', onVisibility);
    expect(seat(el, 'Stalls, row A, seat 1').getAttribute('aria-pressed')).to.equal('true');
    await el.updateComplete;
    expect(addButton(el)?.getAttribute('aria-disabled'), 'not addable while it is checked').to.equal('true');
    await waitUntil(() => answer, 'the choice was never checked');
    expect(checkFetched()).to.equal(true);
    const asked = performance.getEntriesByType('resource').find((e) => /\/seat-picker\/selection-check\b/.test(e.name))?.startTime ?? 0;
    if (!hidden) expect(asked, `the seat check was asked for at ${asked} ms, before the frame showing the seat chosen (${frame} ms)`).to.be.at.least(frame);
    answer?.();
    await waitUntil(() => addButton(el)?.getAttribute('aria-disabled') !== 'true', 'addable once the check answered');
    await expect(el).to.be.accessible();

    const best = [...root(el).querySelectorAll<HTMLInputElement>('[part~="mode-switch"] input')].find((i) => i.parentElement?.textContent?.includes('Best available'));
    best!.click();
    await waitUntil(() => root(el).querySelector('[part~="best"]') && text(el).includes('Stalls'), 'best available did not show once chosen');
    expect(bestFetched()).to.equal(true);
    await expect(el).to.be.accessible();
  });
});
