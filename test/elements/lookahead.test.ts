/**
 * Seats asked for before the click: pointing at a performance in
 * <performance-calendar> (hover, focus), or the calendar offering one first
 * (the only one to book on the day it opens on), starts its availability lookup through
 * the state (src/state/lookahead.ts), and <seat-picker> takes that very
 * request when the click chooses the performance: one request, never two.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { nothing } from 'lit';
import { waitUntil } from './helpers/wait.ts';
import { ServerClock } from '../../src/api/time.ts';
import type { FullAvailabilityResult, FullTicketInfo } from '../../src/api/types.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { PerformanceCalendar } from '../../src/elements/performance-calendar/performance-calendar.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { readEvent } from '../../src/state/event-details.ts';
import { FRESH_MS, fullAvailability } from '../../src/state/lookahead.ts';
import { fakeApi, testBooking, type FakeApi } from './helpers/fake-api.ts';
import { eventDetailFixture, performanceFixture } from './helpers/catalogue-fixtures.ts';
import { performance, ticket } from './helpers/seat-fixtures.ts';
import { seatButtons } from './helpers/seat-picker-dom.ts';

/** 21 November 2026, noon in London. */
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const EVENT = 5;
const SEATED = performanceFixture(301, '2026-11-28T19:30:00', { EventId: EVENT });
/** A second performance on the 28th: a day of two, which predicts nothing, so the calendar asks ahead only when pointed at. */
const MATINEE = performanceFixture(302, '2026-11-28T14:30:00', { EventId: EVENT });
/** The only performance on the 30th. */
const LATER = performanceFixture(303, '2026-11-30T19:30:00', { EventId: EVENT });
const TICKETS: FullTicketInfo[] = [ticket(1, 'Stalls', 'A', '1', 40), ticket(2, 'Stalls', 'A', '2', 40)];

/** A deferred answer: the test decides when the service answers. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The page: the event's detail read first (as <event-list> does) unless `detail` is false; the seat
 * picker following the calendar's choice, given its own performance, or none; a performance `chosen`
 * already; Get Event answered once `eventHeld` resolves.
 */
async function page(
  seatPlan: boolean,
  performances = [MATINEE, SEATED],
  {
    detail = true,
    picker: kind = 'follows',
    chosen,
    eventHeld,
  }: { detail?: boolean; picker?: 'follows' | 'own' | 'none'; chosen?: number; eventHeld?: Promise<unknown> } = {},
) {
  const answer = deferred<FullAvailabilityResult>();
  const api: FakeApi = fakeApi(
    {
      getEvent: async ({ eventId }) => {
        await eventHeld;
        return { Event: eventDetailFixture(eventId, { SeatingPlanSupported: seatPlan }) };
      },
      getEventPerformances: () => ({ EventId: EVENT, Performances: performances }),
      getPreliminaryBookingInfo: () => ({ Performances: [] }),
      getPerformance: ({ performanceId }) => performance(performanceId, { EventId: EVENT }),
      getFullAvailability: () => answer.promise,
      getAreasPrices: () => ({ PerformanceId: SEATED.PerformanceId, AreasPrices: [] }),
    },
    { clock: new ServerClock(() => NOW) },
  );
  const booking = testBooking(api);
  // The visitor opened the event in <event-list>, which read its detail.
  if (detail) await readEvent(api, EVENT);
  booking.selection.selectEvent(EVENT);
  if (chosen) booking.selection.selectPerformance(chosen, EVENT);
  const seats =
    kind === 'follows' ? html`<seat-picker></seat-picker>` : kind === 'own' ? html`<seat-picker performance-id=${LATER.PerformanceId}></seat-picker>` : nothing;
  const provider = await fixture(html`<booking-provider .booking=${booking}>
    <performance-calendar></performance-calendar>
    ${seats}
  </booking-provider>`);
  const calendar = provider.querySelector('performance-calendar') as PerformanceCalendar;
  const picker = provider.querySelector('seat-picker') as SeatPicker;
  const choice = () => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`button[data-performance-id="${SEATED.PerformanceId}"]`) ?? null;
  await waitUntil(choice, 'the calendar shows the performance');
  const day = (n: number) => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`.grid-view button[data-day="${n}"]`) ?? null;
  return { api, picker, calendar, day, choice: choice() as HTMLButtonElement, seats: answer };
}

afterEach(() => resetSharedBookings());

describe('seats asked for ahead of the click', () => {
  it('hovering a performance starts exactly one availability request, and the click reuses it', async () => {
    const { api, picker, choice, seats } = await page(true);
    expect(api.callsTo('getFullAvailability')).to.have.length(0);
    choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    // Hovering again, and focus, while it is on its way: no second request.
    choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'touch' }));
    choice.focus();
    expect(api.callsTo('getFullAvailability')).to.have.length(1);

    choice.click();
    await picker.updateComplete;
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    await waitUntil(() => seatButtons(picker).length > 0, 'the seat map shows the seats answered to the hover', { timeout: 5000 });
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it('the lookup started ahead is taken once: the picker asking again goes to the service', async () => {
    const { api, picker, choice, seats } = await page(true);
    choice.focus();
    choice.click();
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    await waitUntil(() => seatButtons(picker).length > 0, 'the seat map shows', { timeout: 5000 });
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
    // Fresh seats (after an add, a conflict): never the answer kept from before the click.
    picker.performanceId = 999;
    await picker.updateComplete;
    picker.performanceId = SEATED.PerformanceId;
    await waitUntil(() => api.callsTo('getFullAvailability').length === 3, 'each new lookup asks the service');
  });

  it('a lookup that gave up waiting (its task re-run at once) leaves the request started ahead to the next', async () => {
    const { api, choice, seats } = await page(true);
    choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    const gaveUp = new AbortController();
    const first = fullAvailability(api, SEATED.PerformanceId, gaveUp.signal);
    gaveUp.abort();
    await first.then(
      () => expect.fail('an aborted wait does not resolve'),
      () => undefined,
    );
    const next = fullAvailability(api, SEATED.PerformanceId, new AbortController().signal);
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    expect((await next).AvailableTickets).to.have.length(TICKETS.length);
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it('opening a day with one performance to book asks for its seats at once (a tap points at nothing first); a day with two does not', async () => {
    const { api, calendar, day } = await page(true, [MATINEE, SEATED, LATER]);
    day(28)?.click();
    await calendar.updateComplete;
    expect(calendar.shadowRoot?.querySelector('[part~="day-panel"]'), 'the day is open').to.not.equal(null);
    expect(api.callsTo('getFullAvailability'), 'two to choose from: nothing asked yet').to.have.length(0);
    day(30)?.click();
    await calendar.updateComplete;
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: LATER.PerformanceId }]);
  });

  it('the day the calendar opens on holds one performance to book: its seats are asked for with nothing pointed at, once, and the click takes them', async () => {
    const { api, calendar, picker, seats } = await page(true, [SEATED, LATER]);
    expect(api.callsTo('getFullAvailability'), 'the first day with tickets, the 28th, offers one').to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    // The calendar rendering again (a ticket count chosen) asks nothing more.
    calendar.ticketCount = 2;
    await calendar.updateComplete;
    const shown = () => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`button[data-performance-id="${SEATED.PerformanceId}"]`);
    await waitUntil(shown, 'the performance shown again');
    const choice = shown() as HTMLButtonElement;
    choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    choice.click();
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    await waitUntil(() => seatButtons(picker).length > 0, 'the seat map shows the seats asked ahead', { timeout: 5000 });
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it('the offered performance is asked for once: a re-render after the 5 s a lookup started ahead is taken for asks nothing again', async () => {
    const { api, calendar } = await page(true, [SEATED, LATER]);
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
    // The look-ahead's own window (FRESH_MS) past: only the calendar's "once" keeps it from asking again.
    const realNow = Date.now;
    Date.now = () => realNow() + FRESH_MS + 1000;
    try {
      calendar.requestUpdate();
      await calendar.updateComplete;
    } finally {
      Date.now = realNow;
    }
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it('nothing is offered ahead once the visitor has moved (the next month opens on a day of one performance)', async () => {
    const DECEMBER = performanceFixture(304, '2026-12-28T19:30:00', { EventId: EVENT });
    const { api, calendar } = await page(true, [MATINEE, SEATED, DECEMBER]);
    calendar.shadowRoot?.querySelector<HTMLButtonElement>('button[aria-label="Next month"]')?.click();
    await waitUntil(() => calendar.shadowRoot?.querySelector('[part~="day-button"][data-day="28"][part~="has-performances"]'), 'December shows its 28th');
    await calendar.updateComplete;
    expect(api.callsTo('getFullAvailability'), 'the visitor moved: the 28 December is not offered').to.have.length(0);
  });

  it('nothing is offered ahead with a performance already chosen (a choice restored): the picker asks for its seats, once', async () => {
    const { api, picker } = await page(true, [SEATED, LATER], { chosen: LATER.PerformanceId });
    await picker.updateComplete;
    await waitUntil(() => api.callsTo('getFullAvailability').length > 0, 'the picker asks for its seats');
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: LATER.PerformanceId }]);
  });

  it('asks nothing ahead for a seat picker given its own performance, or with no seat picker on the page (the npm build defines one anyway)', async () => {
    const own = await page(true, [SEATED, LATER], { picker: 'own' });
    await own.calendar.updateComplete;
    expect(own.api.callsTo('getFullAvailability').filter((c) => (c as { performanceId: number }).performanceId === SEATED.PerformanceId), 'its picker shows the 30th').to.deep.equal([]);
    resetSharedBookings();
    const none = await page(true, [SEATED, LATER], { picker: 'none' });
    none.choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    await none.calendar.updateComplete;
    expect(none.api.callsTo('getFullAvailability')).to.deep.equal([]);
  });

  it("a seat picker that comes after the dates (its chunk later than the calendar's answer): the performance offered first is asked for then, once", async () => {
    const { api, calendar } = await page(true, [SEATED, LATER], { picker: 'none' });
    await calendar.updateComplete;
    expect(api.callsTo('getFullAvailability'), 'no picker yet: nothing asked').to.deep.equal([]);
    calendar.parentElement?.append(document.createElement('seat-picker'));
    await waitUntil(() => api.callsTo('getFullAvailability').length > 0, 'the offered performance is asked for once a picker follows the choice');
    await calendar.updateComplete;
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
  });

  it("with no <event-list> to read the event's detail, the look-ahead reads it (once: the picker takes that read) and then asks for the seats", async () => {
    const { api, picker, choice, seats } = await page(true, [SEATED, LATER], { detail: false });
    await waitUntil(() => api.callsTo('getFullAvailability').length === 1, 'the offered performance asked for once the detail is in');
    expect(api.callsTo('getEvent')).to.deep.equal([{ eventId: EVENT }]);
    choice.click();
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    await waitUntil(() => seatButtons(picker).length > 0, 'the seat map shows', { timeout: 5000 });
    expect(api.callsTo('getEvent'), 'the picker took the detail read ahead').to.have.length(1);
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it("the visitor chooses while the look-ahead's read of the detail is still on its way: the picker waits for that read, no second one", async () => {
    const held = deferred<void>();
    const { api, picker, choice, seats } = await page(true, [SEATED, LATER], { detail: false, eventHeld: held.promise });
    await waitUntil(() => api.callsTo('getEvent').length === 1, 'the look-ahead reads the detail');
    choice.click();
    await picker.updateComplete;
    held.resolve();
    seats.resolve({ PerformanceId: SEATED.PerformanceId, EventId: EVENT, AvailableTickets: TICKETS });
    await waitUntil(() => seatButtons(picker).length > 0, 'the seat map shows', { timeout: 5000 });
    expect(api.callsTo('getEvent')).to.have.length(1);
    expect(api.callsTo('getFullAvailability')).to.have.length(1);
  });

  it('pointing at one performance, then another, while the detail is on its way: only the last is asked for once it lands', async () => {
    const held = deferred<void>();
    const { api, calendar } = await page(true, [MATINEE, SEATED], { detail: false, eventHeld: held.promise });
    const button = (id: number) => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`button[data-performance-id="${id}"]`);
    button(MATINEE.PerformanceId)?.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    button(SEATED.PerformanceId)?.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    expect(api.callsTo('getEvent'), 'one read of the detail').to.have.length(1);
    held.resolve();
    await waitUntil(() => api.callsTo('getFullAvailability').length > 0, 'the seats asked for once the detail is in');
    await calendar.updateComplete;
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
  });

  it('a general-admission show offered first: AreasPrices asked ahead, never FullAvailability', async () => {
    const { api } = await page(false, [SEATED]);
    expect(api.callsTo('getAreasPrices')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    expect(api.callsTo('getFullAvailability')).to.have.length(0);
  });

  it('for a general-admission show it asks AreasPrices, never FullAvailability (which would be refused)', async () => {
    const { api, choice } = await page(false);
    choice.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    expect(api.callsTo('getAreasPrices')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    expect(api.callsTo('getFullAvailability')).to.have.length(0);
  });
});
