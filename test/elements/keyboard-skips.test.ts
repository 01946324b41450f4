/**
 * The keyboard's way to the seats, in the browser: a show's detail skips to its dates, a
 * performance chosen by keyboard hands the focus to its seats, and in the map PageDown/PageUp (and
 * Ctrl+arrows) jump from one block of free seats side by side to the next, saying how many.
 */
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { ServerClock } from '../../src/api/time.ts';
import '../../src/elements/event-list/event-list.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { EventList } from '../../src/elements/event-list/event-list.component.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { eventDetailFixture, eventFixture, performanceFixture, reviewsFixture, reviewsPage, venueFixture } from './helpers/catalogue-fixtures.ts';
import { chord } from './helpers/engine.ts';
import { fakeApi, testBooking, withBooking, type Handlers } from './helpers/fake-api.ts';
import { performance, ticket } from './helpers/seat-fixtures.ts';
import { root, seat, seatedPicker } from './helpers/seat-picker-dom.ts';
import { waitUntil } from './helpers/wait.ts';

/** The page's focused element, through every shadow root. */
const focused = (): Element | null => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
};
const focusedLabel = () => focused()?.getAttribute('aria-label') ?? '';
/** Wait for an element of a shadow root to show, and return it. */
async function shows<T extends Element>(host: Element, css: string, what: string): Promise<T> {
  await waitUntil(() => host.shadowRoot?.querySelector(css), what);
  return host.shadowRoot?.querySelector(css) as T;
}
const status = (el: SeatPicker) => root(el).querySelector('[part="status"]')?.textContent?.trim() ?? '';

describe('the keyboard to the seats', () => {
  afterEach(() => resetSharedBookings());

  it('in the map, PageDown/PageUp and Ctrl+arrows jump between blocks of free seats side by side, and say how many', async () => {
    const el = await seatedPicker([
      // Row A: 1–3, then 5–6 (4 is sold). Row B: 1 alone, then 3–6.
      ...['1', '2', '3', '5', '6'].map((n, i) => ticket(10 + i, 'Stalls', 'A', n, 40)),
      ...['1', '3', '4', '5', '6'].map((n, i) => ticket(20 + i, 'Stalls', 'B', n, 30)),
    ]);
    seat(el, 'Stalls, row A, seat 1,').focus();
    // Each jump: where the focus lands, and what the live region says (the jumps' code comes with the first).
    const jump = async (keys: () => Promise<void>, to: RegExp, said: string) => {
      await keys();
      await waitUntil(() => to.test(focusedLabel()) && status(el).replace(/\u00a0$/, '') === said, `${to}: "${said}" (focus ${focusedLabel()}, said "${status(el)}")`);
    };
    await jump(() => sendKeys({ press: 'PageDown' }), /^Stalls, row A, seat 5,/, '2 free seats side by side.');
    await jump(() => sendKeys({ press: 'PageDown' }), /^Stalls, row B, seat 1,/, '1 free seat on its own.');
    // A chosen seat is not free: it ends a block.
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await jump(() => sendKeys({ press: 'PageUp' }), /^Stalls, row B, seat 1,/, '1 free seat on its own.');
    await jump(() => chord(['Control'], 'ArrowRight'), /^Stalls, row B, seat 4,/, '3 free seats side by side.');
    // No block further: the focus stays.
    await jump(() => sendKeys({ press: 'PageDown' }), /^Stalls, row B, seat 4,/, 'No more free seats that way.');
    await jump(() => chord(['Control'], 'ArrowLeft'), /^Stalls, row B, seat 1,/, '1 free seat on its own.');
    await expect(el).to.be.accessible();
  });

  const now = Date.UTC(2026, 10, 21, 12);
  const catalogue: Handlers = {
    getEvents: () => ({ Events: [eventFixture(1, { Name: 'Wicked' })] }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Name: 'Wicked' }) }),
    getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId) }),
    getEventReviews: (args) => reviewsPage(reviewsFixture(3), args),
    getEventPerformances: ({ eventId }) => ({ EventId: eventId, Performances: [performanceFixture(7, '2026-11-25T19:30:00')] }),
    getPerformance: ({ performanceId }) => performance(performanceId, { EventId: 1 }),
    getFullAvailability: () => ({ PerformanceId: 7, EventId: 1, AvailableTickets: [ticket(1, 'Stalls', 'A', '1', 40), ticket(2, 'Stalls', 'A', '2', 40)] }),
  };

  /** The three elements of the way to the seats, sharing one booking (`eventId`: a show already chosen). */
  async function page(eventId: number | null = null, handlers: Handlers = catalogue) {
    const booking = testBooking(fakeApi(handlers, { clock: new ServerClock(() => now) }));
    if (eventId !== null) booking.selection.selectEvent(eventId);
    const list = await withBooking<EventList>(booking, html`<event-list></event-list><performance-calendar></performance-calendar><seat-picker></seat-picker>`);
    const provider = list.parentElement as HTMLElement;
    return { list, calendar: provider.querySelector('performance-calendar') as HTMLElement, picker: provider.querySelector('seat-picker') as SeatPicker };
  }

  it("a show's detail skips to its dates: Enter on it puts the focus on the first day with a performance", async () => {
    const { list, calendar } = await page();
    const card = await shows<HTMLButtonElement>(list, '[part~="card-button"]', 'the list shows');
    card.focus();
    await sendKeys({ press: 'Enter' });
    const skip = await shows<HTMLButtonElement>(list, '[part~="dates-button"]', 'the detail offers a skip to its dates');
    expect(skip.textContent?.trim()).to.equal('Choose a date');
    await expect(list).to.be.accessible();
    // From the detail's heading (where the focus went), the skip is the next stop.
    await sendKeys({ press: 'Tab' });
    expect(focused()).to.equal(skip);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => focused()?.matches('[part~="day-button"][data-day="25"]'), 'the focus is on the first day with a performance');
    expect(calendar.shadowRoot?.contains(focused())).to.equal(true);
  });

  it('a performance chosen by Enter gives the focus to its seats in the map, ready for the arrows', async () => {
    const { calendar, picker } = await page(1);
    const day = await shows<HTMLButtonElement>(calendar, '[part~="day-button"][data-day="25"][part~="has-performances"]', 'the calendar shows its day');
    day.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => focused()?.matches('[part~="performance-button"]'), 'the day opens on its performance');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => picker.shadowRoot?.contains(focused()) && focused()?.matches('[part~="seat-button"]'), 'the seats take the focus');
    expect(focusedLabel()).to.match(/^Stalls, row A, seat 1,/);
    await sendKeys({ press: 'ArrowRight' });
    expect(focusedLabel()).to.match(/^Stalls, row A, seat 2,/);
    await expect(picker).to.be.accessible();
  });

  it('the focus put elsewhere before the seats are drawn stays there: the seats do not take it back', async () => {
    let draw: (value: unknown) => void = () => undefined;
    const drawn = new Promise((resolve) => { draw = resolve; });
    const seats = catalogue.getFullAvailability;
    if (!seats) throw new Error('the catalogue has no seats');
    const slowMap: Handlers = { ...catalogue, getFullAvailability: async (args) => { await drawn; return seats(args); } };
    const { calendar, picker } = await page(1, slowMap);
    const day = await shows<HTMLButtonElement>(calendar, '[part~="day-button"][data-day="25"][part~="has-performances"]', 'the calendar shows its day');
    day.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => focused()?.matches('[part~="performance-button"]'), 'the day opens on its performance');
    await sendKeys({ press: 'Enter' });
    // Before the map comes, something else takes the focus (the visitor, or an unfinished payment's heading).
    const elsewhere = document.createElement('button');
    elsewhere.textContent = 'Search the site';
    document.body.append(elsewhere);
    try {
      elsewhere.focus();
      draw(undefined);
      await waitUntil(() => root(picker).querySelector('[part~="seat-button"]'), 'the map is drawn');
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await picker.updateComplete;
      expect(focused(), 'the focus stays where it was put').to.equal(elsewhere);
    } finally {
      elsewhere.remove();
    }
  });

  it('after the map, "Add" is the next stop (the venue\'s plan comes after it)', async () => {
    const { calendar, picker } = await page(1);
    const day = await shows<HTMLButtonElement>(calendar, '[part~="day-button"][data-day="25"][part~="has-performances"]', 'the calendar shows its day');
    day.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => focused()?.matches('[part~="performance-button"]'), 'the day opens on its performance');
    (focused() as HTMLButtonElement).click();
    await shows(picker, '[part="plan"] summary', 'the venue plan is offered');
    seat(picker, 'Stalls, row A, seat 1,').focus();
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: 'Tab' });
    expect(focused()?.matches('[part~="add-button"]'), `the stop after the map: ${focused()?.textContent?.trim()}`).to.equal(true);
  });

  it('offers no skip to the dates on a page with no calendar', async () => {
    const api = fakeApi({
      getEvents: () => ({ Events: [eventFixture(1, { Name: 'Wicked' })] }),
      getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Name: 'Wicked' }) }),
      getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId) }),
      getEventReviews: (args) => reviewsPage(reviewsFixture(3), args),
    });
    const list = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    (await shows<HTMLButtonElement>(list, '[part~="card-button"]', 'the list shows')).click();
    await waitUntil(() => list.shadowRoot?.querySelector('[part~="venue"]'), 'the detail shows');
    expect(list.shadowRoot?.querySelector('[part~="dates-button"]')).to.equal(null);
  });
});
