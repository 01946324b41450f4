/**
 * Seats asked for before the click: pointing at a performance in
 * <performance-calendar> (hover, focus), or the calendar offering one first
 * (the only one to book on the day it opens on), starts its availability lookup through
 * the state (src/state/lookahead.ts), and <seat-picker> takes that very
 * request when the click chooses the performance: one request, never two.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { ServerClock } from '../../src/api/time.ts';
import type { FullAvailabilityResult, FullTicketInfo } from '../../src/api/types.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { PerformanceCalendar } from '../../src/elements/performance-calendar/performance-calendar.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { readEvent } from '../../src/state/event-details.ts';
import { fullAvailability } from '../../src/state/lookahead.ts';
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

async function page(seatPlan: boolean, performances = [MATINEE, SEATED]) {
  const seats = deferred<FullAvailabilityResult>();
  const api: FakeApi = fakeApi(
    {
      getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { SeatingPlanSupported: seatPlan }) }),
      getEventPerformances: () => ({ EventId: EVENT, Performances: performances }),
      getPreliminaryBookingInfo: () => ({ Performances: [] }),
      getPerformance: ({ performanceId }) => performance(performanceId, { EventId: EVENT }),
      getFullAvailability: () => seats.promise,
      getAreasPrices: () => ({ PerformanceId: SEATED.PerformanceId, AreasPrices: [] }),
    },
    { clock: new ServerClock(() => NOW) },
  );
  const booking = testBooking(api);
  // The visitor opened the event in <event-list>, which read its detail.
  await readEvent(api, EVENT);
  booking.selection.selectEvent(EVENT);
  const provider = await fixture(html`<booking-provider .booking=${booking}>
    <performance-calendar></performance-calendar>
    <seat-picker></seat-picker>
  </booking-provider>`);
  const calendar = provider.querySelector('performance-calendar') as PerformanceCalendar;
  const picker = provider.querySelector('seat-picker') as SeatPicker;
  const choice = () => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`button[data-performance-id="${SEATED.PerformanceId}"]`) ?? null;
  await waitUntil(choice, 'the calendar shows the performance');
  const day = (n: number) => calendar.shadowRoot?.querySelector<HTMLButtonElement>(`.grid-view button[data-day="${n}"]`) ?? null;
  return { api, picker, calendar, day, choice: choice() as HTMLButtonElement, seats };
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
