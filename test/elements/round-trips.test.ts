/**
 * The requests in a row on the walk to a seat map: how many times the page
 * must wait for the service, one answer before it can ask the next, from the
 * event's click to a map ready for a tap with its venue's seating plan. On a
 * phone each of those waits is a round trip (about 560 ms on slow 4G), so the
 * depth of the chain, not the number of requests, is what the visitor feels.
 *
 * Counted with a network the test controls: every request is held, and the
 * held ones are answered together, one round at a time, once the page has
 * done all it can with what it has (no new request over a few frames). The
 * number of rounds is the chain's depth. The visitor acts between rounds, as
 * soon as what they tap shows. The lazy parts are imported here first, so a
 * round never waits on a module download (the bundle fetches those beside
 * the lookups: docs/development.md). The schema.org markup, for search
 * engines, is left out: it waits for the list to rest (a few seconds with no
 * step), which a walk does not give it, and should a slow run give it that,
 * the detail's lookup of the event's performances is answered at once (no
 * visitor waits for it).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { ServerClock } from '../../src/api/time.ts';
import type { OperationName } from '../../src/api/operations.ts';
import '../../src/elements/event-list/event-list.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.ts';
import '../../src/elements/event-list/event-detail.ts';
import '../../src/elements/seat-picker/seat-picker.later.ts';
import '../../src/markup/event-markup.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { fakeApi, testBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { eventDetailFixture, eventFixture, performanceFixture, reviewsFixture, reviewsPage, venueFixture } from './helpers/catalogue-fixtures.ts';
import { performance, ticket } from './helpers/seat-fixtures.ts';
import { seatButtons } from './helpers/seat-picker-dom.ts';

/** 21 November 2026, noon in London. */
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const EVENT = 5;
const VENUE = 10;
const SEATED = performanceFixture(301, '2026-11-28T19:30:00', { EventId: EVENT });
/** A second performance that day, so opening the day asks nothing ahead: the count is the click's. */
const MATINEE = performanceFixture(302, '2026-11-28T14:30:00', { EventId: EVENT });

/** A fake service whose answers the test releases a round at a time (or one operation's, `only`), the event's performances `performances`. */
function heldService(performances = [MATINEE, SEATED]): {
  api: FakeApi;
  hold: () => void;
  heldFrom: () => number;
  pending: () => number;
  release: (only?: OperationName) => void;
} {
  let held: { name: string; answer: () => void }[] = [];
  const handlers: Handlers = {
    getEvents: () => ({ Events: [eventFixture(EVENT, { VenueId: VENUE })] }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { VenueId: VENUE, SeatingPlanSupported: true }) }),
    getEventReviews: (args) => reviewsPage(reviewsFixture(0), args),
    getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId, { PlanLink: 'https://img.example/plan.png' }) }),
    getEventPerformances: () => ({ EventId: EVENT, Performances: performances }),
    getPreliminaryBookingInfo: () => ({ Performances: [] }),
    getPerformance: ({ performanceId }) => performance(performanceId, { EventId: EVENT }),
    getFullAvailability: ({ performanceId }) => ({ PerformanceId: performanceId, EventId: EVENT, AvailableTickets: [ticket(1, 'Stalls', 'A', '1', 40), ticket(2, 'Stalls', 'A', '2', 40)] }),
  };
  /** The detail's markup asks for the event's performances with no dates (src/markup/event-markup.ts); the calendar never does. */
  const forSearchEngines = (name: OperationName, args: Record<string, unknown>) => name === 'getEventPerformances' && args.dateFrom === undefined;
  let holding = false;
  let from = 0;
  const api = fakeApi(
    Object.fromEntries(
      Object.entries(handlers).map(([name, answer]) => [
        name,
        (args: Record<string, unknown>) =>
          !holding || forSearchEngines(name as OperationName, args)
            ? (answer as (a: unknown) => unknown)(args)
            : new Promise((resolve) => held.push({ name, answer: () => resolve((answer as (a: unknown) => unknown)(args)) })),
      ]),
    ) as Handlers,
    { clock: new ServerClock(() => NOW) },
  );
  return {
    api,
    hold: () => {
      holding = true;
      from = api.calls.length;
    },
    /** The first request held (its index in api.calls). */
    heldFrom: () => from,
    pending: () => held.length,
    release: (only) => {
      const round = held.filter((h) => !only || h.name === only);
      held = held.filter((h) => !round.includes(h));
      for (const { answer } of round) answer();
    },
  };
}

/** The page has done what it can with what it has: no new request over three frames in a row. */
async function settled(api: FakeApi): Promise<void> {
  let seen = api.calls.length;
  for (let still = 0; still < 3; ) {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    if (api.calls.length === seen) still += 1;
    else [seen, still] = [api.calls.length, 0];
  }
}

/** The map with its seats, the "Add" below it and the venue's seating plan. */
function ready(picker: SeatPicker): boolean {
  const root = picker.shadowRoot;
  return Boolean(seatButtons(picker).length && root?.querySelector('[part~="summary"] [part~="add-button"]') && root.querySelector('[part~="plan"]'));
}

/**
 * Answer a round at a time until `done`; `act` is the visitor, who taps what has shown (true: tapped).
 * Returns the rounds, and what was asked in each (from the first held request on).
 */
async function roundsUntil(service: ReturnType<typeof heldService>, done: () => boolean, act: () => boolean = () => false): Promise<{ rounds: number; log: string }> {
  let rounds = 0;
  let mark = service.heldFrom();
  const log: string[] = [];
  for (;;) {
    await settled(service.api);
    if (done()) return { rounds, log: log.join('; ') };
    if (act()) continue;
    const asked = service.api.calls.map((c) => c.name).join(', ');
    expect(service.pending(), `waiting with nothing asked (asked so far: ${asked})`).to.be.greaterThan(0);
    expect(rounds, `still not ready after ${rounds} rounds (asked: ${asked})`).to.be.lessThan(8);
    log.push(`round ${rounds + 1}: ${service.api.calls.slice(mark).map((c) => `${c.name}${JSON.stringify(c.args)}`).join(' ')}`);
    mark = service.api.calls.length;
    service.release();
    rounds += 1;
  }
}

/** The visitor for roundsUntil: opens the 28th once it can be, then chooses the seated performance once it shows. */
function choosing(calendar: HTMLElement): { act: () => boolean; chosen: () => boolean } {
  let opened = false;
  let chosen = false;
  const act = (): boolean => {
    if (chosen) return false;
    const choice = calendar.shadowRoot?.querySelector<HTMLElement>(`[data-performance-id="${SEATED.PerformanceId}"]`);
    const day = calendar.shadowRoot?.querySelector<HTMLElement>('.grid-view button[data-day="28"]');
    if (choice?.getClientRects().length) {
      choice.click();
      chosen = true;
      return true;
    }
    if (!opened && day && day.getAttribute('aria-disabled') !== 'true') {
      day.click();
      opened = true;
      return true;
    }
    return false;
  };
  return { act, chosen: () => chosen };
}

/** The flow page (list, calendar, seat picker), the list shown; every answer held from here on, and the visitor's click on the event's card made. */
async function flowPage(performances?: Parameters<typeof heldService>[0]) {
  const service = heldService(performances);
  const booking = testBooking(service.api);
  const provider = await fixture(html`<booking-provider .booking=${booking}>
    <event-list></event-list>
    <performance-calendar></performance-calendar>
    <seat-picker></seat-picker>
  </booking-provider>`);
  const list = provider.querySelector('event-list') as HTMLElement;
  const calendar = provider.querySelector('performance-calendar') as HTMLElement;
  const picker = provider.querySelector('seat-picker') as SeatPicker;
  const card = () => list.shadowRoot?.querySelector<HTMLElement>('[part~="card-button"]') ?? null;
  await waitUntil(card, 'the list shows its card');
  await settled(service.api);
  expect(service.pending()).to.equal(0);
  service.hold();
  card()?.click();
  return { service, list, calendar, picker };
}

afterEach(() => resetSharedBookings());

describe('round trips in a row to a seat map', () => {
  it("from the event's click, its detail with its venue and its dates: one round trip", async () => {
    const { service, list, calendar } = await flowPage();
    const { rounds, log } = await roundsUntil(
      service,
      () => Boolean(list.shadowRoot?.querySelector('[part~="description"] p') && list.shadowRoot.querySelector('[part~="venue"]') && calendar.shadowRoot?.querySelector('[part~="day-button"][part~="has-performances"]')),
    );
    expect(rounds, `round trips in a row from the click to the detail, its venue and its dates (${log})`).to.equal(1);
  });

  it("from the event's click: its detail and dates in one round trip, the seats and the venue's plan in the next", async () => {
    const { service, calendar, picker } = await flowPage();
    const visitor = choosing(calendar);
    const { rounds, log } = await roundsUntil(service, () => ready(picker), visitor.act);
    expect(visitor.chosen(), 'the visitor chose the performance').to.equal(true);
    expect(service.api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    // The calendar's month listed the performance whole: the picker asks for it no more.
    expect(service.api.callsTo('getPerformance'), 'Get Performance beside the seats').to.deep.equal([]);
    expect(rounds, `round trips in a row from the click to the map ready with its plan (${log})`).to.equal(2);
  });

  it('the day the calendar opens on holds one performance to book: its seats leave once the dates answer, before the visitor chooses it', async () => {
    const { service, calendar, picker } = await flowPage([SEATED]);
    await settled(service.api);
    expect(service.api.callsTo('getFullAvailability'), 'nothing asked for seats before the dates answer').to.deep.equal([]);
    service.release(); // the detail, its venue and reviews, the dates
    await settled(service.api);
    expect(service.api.callsTo('getFullAvailability'), 'the offered performance, asked for with nothing chosen').to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
    expect(calendar.shadowRoot?.querySelector('[part~="day-panel"]'), 'no day opened').to.equal(null);
    service.release(); // its seats and the venue's plan, while the visitor reads the dates
    await settled(service.api);
    // The visitor opens the day and chooses the performance: the map is ready with no answer more to wait for.
    const visitor = choosing(calendar);
    const { rounds, log } = await roundsUntil(service, () => ready(picker), visitor.act);
    expect(visitor.chosen(), 'the visitor chose the performance').to.equal(true);
    expect(rounds, `round trips after the choice (${log})`).to.equal(0);
    expect(service.api.callsTo('getFullAvailability'), 'the picker took the seats asked ahead: no second request').to.have.length(1);
  });

  it("the dates answer before the detail: the offered performance's seats are asked for once the detail is in", async () => {
    const { service } = await flowPage([SEATED]);
    await settled(service.api);
    service.release('getEventPerformances');
    await settled(service.api);
    // Without the detail the picker's lookup is not known (a seat map or general admission): nothing yet.
    expect(service.api.callsTo('getFullAvailability').concat(service.api.callsTo('getAreasPrices'))).to.deep.equal([]);
    service.release('getEvent');
    await settled(service.api);
    expect(service.api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: SEATED.PerformanceId }]);
  });

  it('a seat picker given only its performance: the seats and the plan together, after the performance and its event', async () => {
    const service = heldService();
    service.hold(); // every answer held from the start
    const booking = testBooking(service.api);
    const provider = await fixture(html`<booking-provider .booking=${booking}><seat-picker performance-id=${SEATED.PerformanceId}></seat-picker></booking-provider>`);
    const picker = provider.querySelector('seat-picker') as SeatPicker;
    const { rounds, log } = await roundsUntil(service, () => ready(picker));
    // Get Performance (its event), Get Event (a seat plan or not), then FullAvailability with Get Venue.
    expect(rounds, log).to.equal(3);
  });
});
