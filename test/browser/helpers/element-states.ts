/**
 * Every element of the widget driven through its states, as scenarios a test
 * runs in any language: each scenario mounts what it needs on a fake service
 * (whose answers are recorded: the names the service sends), reaches a state,
 * and calls `snap(element)` wherever the state is worth looking at. The
 * every-language test reads the text at each snap; the phone layout test
 * measures the boxes.
 */
import { fixture, fixtureCleanup, html } from '@open-wc/testing';
import { waitUntil } from '../../elements/helpers/wait.ts';
import type { TemplateResult } from 'lit';
import { NOT_AVAILABLE_YET } from '../../../src/api/client.ts';
import type { RoomAnswer } from '../../../src/api/room.ts';
import { ServerClock } from '../../../src/api/time.ts';
import type { AddTicketsResult, FullTicketInfo, PerformanceResult, VenueInfo } from '../../../src/api/types.ts';
import '../../../src/index.ts';
import type { BasketTimer } from '../../../src/elements/basket-timer/basket-timer.ts';
import type { BookingContextValue } from '../../../src/state/booking.ts';
import type { BookingConfig } from '../../../src/state/config.ts';
import { paymentDetails } from '../../../src/state/pending-payment.ts';
import {
  EVENT_TYPES,
  eventDetailFixture,
  eventFixture,
  performanceFixture,
  preliminaryFixture,
  reviewsFixture,
  reviewsPage,
  venueFixture,
} from '../../elements/helpers/catalogue-fixtures.ts';
import { basketContent, checkoutApi, eTickets, submittedSummary } from '../../elements/helpers/checkout-data.ts';
import { apiError, fakeApi, networkError, testBooking, type FakeApi, type Handlers } from '../../elements/helpers/fake-api.ts';
import { fakeBasketService } from '../../elements/helpers/fake-basket.ts';
import { BASKET_ID, availableAreas, basketWith, performance, ticket } from '../../elements/helpers/seat-fixtures.ts';

/** The languages other than English (the source). */
export const LOCALES = ['de', 'es', 'it', 'sv', 'fr', 'nl', 'nb', 'da'] as const;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
/** Attributes whose text a person reads or hears. */
const TEXT_ATTRIBUTES = ['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'title', 'alt', 'placeholder', 'abbr'];

// ------------------------------------------------------------------ what a state shows

/** Every text segment under a node, through shadow roots. */
export function segments(root: Node, out: Set<string>): void {
  if (root.nodeType === Node.TEXT_NODE) {
    const t = (root.nodeValue ?? '').replace(/\s+/g, ' ').trim();
    if (t) out.add(t);
    return;
  }
  if (root instanceof Element) {
    if (root.localName === 'style' || root.localName === 'script') return;
    for (const name of TEXT_ATTRIBUTES) {
      const v = root.getAttribute(name)?.replace(/\s+/g, ' ').trim();
      if (v) out.add(v);
    }
    if (root.shadowRoot) segments(root.shadowRoot, out);
  }
  for (const child of Array.from(root.childNodes)) segments(child, out);
}

/** Every string in a service answer (what the widget shows as the service sends it). */
function strings(value: unknown, out: Set<string>, seen = new Set<unknown>()): void {
  if (typeof value === 'string') {
    if (value.trim()) out.add(value.trim());
    // A field that may hold HTML is shown as its text, piece by piece.
    if (value.includes('<')) segments(new DOMParser().parseFromString(value, 'text/html').body, out);
    return;
  }
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  for (const v of value instanceof Map ? value.values() : Object.values(value)) strings(v, out, seen);
}

export interface Run {
  locale: string;
  /** Text seen in this state (collected at each snap). */
  seen: Set<string>;
  /** Strings the fake service answered. */
  data: Set<string>;
  /** Look at the state: collect its text (and whatever the test asks for; awaited, so a look may take its time, as axe does). */
  snap(el: Element): Promise<void>;
  /** Handlers whose answers are recorded as service data. */
  record(handlers: Handlers): Handlers;
  api(handlers: Handlers, clock?: ServerClock): FakeApi;
  booking(api: FakeApi, config?: Partial<BookingConfig>): BookingContextValue;
  mount<T extends Element>(booking: BookingContextValue, template: TemplateResult): Promise<T>;
}

/**
 * A run for one scenario. The elements of an earlier run, and those of an earlier booking in this
 * one, are taken off the page when it mounts: each state is looked at alone (left on the page, they
 * kept their timers running and made every look slower, an axe look 25 ms at first and 330 ms by
 * the hundredth element).
 */
export function newRun(locale: string, look: (el: Element) => void | Promise<void> = () => undefined): Run {
  fixtureCleanup();
  let mountedFor: BookingContextValue | undefined;
  const run: Run = {
    locale,
    seen: new Set(),
    data: new Set(),
    snap: async (el) => {
      segments(el, run.seen);
      await look(el);
    },
    record: (handlers) =>
      Object.fromEntries(
        Object.entries(handlers).map(([name, handler]) => [
          name,
          async (args: unknown) => {
            try {
              const answer = await (handler as (a: unknown) => unknown)(args);
              strings(answer, run.data);
              return answer;
            } catch (error) {
              strings((error as { serviceMessage?: unknown }).serviceMessage, run.data);
              throw error;
            }
          },
        ]),
      ) as Handlers,
    api: (handlers, clock = new ServerClock(() => NOW)) => fakeApi(run.record(handlers), { clock }),
    booking: (api, config = {}) => testBooking(api, { locale, ...config }),
    mount: async <T extends Element>(booking: BookingContextValue, template: TemplateResult) => {
      // Another booking is another state; the same booking's elements are shown together.
      if (mountedFor && mountedFor !== booking) fixtureCleanup();
      mountedFor = booking;
      const provider = await fixture(html`<booking-provider .booking=${booking}>${template}</booking-provider>`);
      const el = provider.firstElementChild as T;
      await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      return el;
    },
  };
  return run;
}

const $ = (el: Element, selector: string) => el.shadowRoot?.querySelector<HTMLElement>(selector) ?? null;
const $$ = (el: Element, selector: string) => [...(el.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? [])];
const textOf = (el: Element) => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');
const never = <T>() => new Promise<T>(() => undefined);
async function settled(el: Element) {
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  }
}
function buttonNamed(el: Element, name: RegExp): HTMLButtonElement {
  const b = $$(el, 'button').find((x) => name.test(x.textContent ?? '') || name.test(x.getAttribute('aria-label') ?? ''));
  if (!b) throw new Error(`no button ${name} in <${el.localName}>: ${textOf(el)}`);
  return b as HTMLButtonElement;
}

// ------------------------------------------------------------------ the states of each element

export type Scenario = { state: string; run: (r: Run) => Promise<void> };

const EVENTS = [
  eventFixture(1, { Name: 'Wicked', EventType: 1 }),
  eventFixture(2, { Name: 'Hamlet', EventType: 2, OfferPrice: 19.5, OfferLabel: 'Save 20%', AgeRating: null }),
];

const eventList: Scenario[] = [
  {
    state: 'loading',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api({ getEvents: never, getEventTypes: never })), html`<event-list show-type-filter></event-list>`);
      await waitUntil(() => $(el, '[part~="skeleton"]'));
      await r.snap(el);
    },
  },
  {
    state: 'cards with a type filter',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api({ getEvents: () => ({ Events: EVENTS }), getEventTypes: () => ({ EventTypes: EVENT_TYPES }) })), html`<event-list show-type-filter></event-list>`);
      await waitUntil(() => $$(el, '[part~="card-button"]').length === 2 && $$(el, 'option').length > 1);
      await r.snap(el);
    },
  },
  {
    state: 'one show; no shows; no match',
    run: async (r) => {
      const one = await r.mount(r.booking(r.api({ getEvents: () => ({ Events: EVENTS.slice(0, 1) }) })), html`<event-list></event-list>`);
      await waitUntil(() => $$(one, '[part~="card-button"]').length === 1);
      await r.snap(one);
      const none = await r.mount(r.booking(r.api({ getEvents: () => ({ Events: [] }) })), html`<event-list></event-list>`);
      await waitUntil(() => $(none, '[part="empty"]'));
      await r.snap(none);
      const typed = await r.mount(r.booking(r.api({ getEvents: () => ({ Events: [] }) })), html`<event-list event-type="6"></event-list>`);
      await waitUntil(() => $(typed, '[part="empty"]'));
      await r.snap(typed);
    },
  },
  {
    state: 'errors: the list and the types',
    run: async (r) => {
      const el = await r.mount(
        r.booking(r.api({ getEvents: () => { throw networkError('getEvents'); }, getEventTypes: () => { throw apiError('getEventTypes', 500); } })),
        html`<event-list show-type-filter></event-list>`,
      );
      await waitUntil(() => $$(el, '[role="alert"]').length === 2);
      await r.snap(el);
    },
  },
  {
    state: 'detail: loading, then everything (offer, notice, facts, cast, reviews, venue)',
    run: async (r) => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const el = await r.mount(
        r.booking(r.api({
          getEvents: () => ({ Events: EVENTS }),
          getEvent: async ({ eventId }) => {
            await gate;
            return { Event: eventDetailFixture(eventId, { Name: 'Wicked' }) };
          },
          getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId) }),
          getEventReviews: (args) => reviewsPage(reviewsFixture(12), args),
        })),
        html`<event-list></event-list>`,
      );
      await waitUntil(() => $$(el, '[part~="card-button"]').length === 2);
      ($$(el, '[part~="card-button"]')[0] as HTMLButtonElement).click();
      await waitUntil(() => $(el, '[part~="detail"][part~="loading"]'));
      await r.snap(el);
      release();
      await waitUntil(() => $(el, '[part~="venue"]') && $(el, '[part~="rating"]'));
      await r.snap(el);
    },
  },
  {
    state: 'detail: reviews and venue still loading',
    run: async (r) => {
      const el = await r.mount(
        r.booking(r.api({ getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId) }), getVenue: never, getEventReviews: never })),
        html`<event-list event-id="3"></event-list>`,
      );
      await waitUntil(() => $(el, '[part~="reviews"][aria-busy="true"]') && $(el, '[part~="detail"]:not([part~="loading"])'));
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'detail: one review; no reviews; the show gone (404); reviews and venue failing',
    run: async (r) => {
      const single = await r.mount(
        r.booking(r.api({ getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId) }), getVenue: () => ({ Venue: venueFixture() }), getEventReviews: (a) => reviewsPage(reviewsFixture(1), a) })),
        html`<event-list event-id="3"></event-list>`,
      );
      await waitUntil(() => $(single, '[part~="rating"]'));
      await r.snap(single);
      const none = await r.mount(
        r.booking(r.api({ getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId) }), getVenue: () => ({ Venue: venueFixture() }), getEventReviews: (a) => reviewsPage([], a) })),
        html`<event-list event-id="3"></event-list>`,
      );
      await waitUntil(() => $(none, '[part~="venue"]') && textOf(none).length > 200 && !$(none, '[part~="reviews"][aria-busy="true"]'));
      await r.snap(none);
      const gone = await r.mount(r.booking(r.api({ getEvents: () => ({ Events: EVENTS }), getEvent: () => { throw apiError('getEvent', 404); } })), html`<event-list></event-list>`);
      await waitUntil(() => $$(gone, '[part~="card-button"]').length === 2);
      ($$(gone, '[part~="card-button"]')[1] as HTMLButtonElement).click();
      await waitUntil(() => $(gone, '[part~="unavailable"]'));
      await r.snap(gone);
      const failing = await r.mount(
        r.booking(r.api({
          getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Cast: [] }) }),
          getVenue: () => { throw networkError('getVenue'); },
          getEventReviews: () => { throw apiError('getEventReviews', 500); },
        })),
        html`<event-list event-id="3"></event-list>`,
      );
      await waitUntil(() => $$(failing, '[role="alert"]').length === 2);
      await r.snap(failing);
      const broken = await r.mount(r.booking(r.api({ getEvent: () => { throw networkError('getEvent'); } })), html`<event-list event-id="4"></event-list>`);
      await waitUntil(() => $(broken, '[role="alert"]'));
      await r.snap(broken);
    },
  },
];

const PERFORMANCES = [
  performanceFixture(101, '2026-12-05T14:30:00', { DirectlyBookablePerformance: false, PairedPerformances: [102] }),
  performanceFixture(102, '2026-12-05T19:30:00', { PairedPerformances: [101] }),
  performanceFixture(103, '2026-12-08T19:30:00', { TotalAvailableTickesCount: 0 }),
  performanceFixture(104, '2026-12-10T19:30:00', { TotalAvailableTickesCount: 3, ContainsDiscountOfferTickets: true, ContainsNoFeeOfferTickets: true }),
  performanceFixture(105, '2026-12-12T19:30:00'),
  performanceFixture(106, '2026-12-19T14:30:00'),
  performanceFixture(107, '2026-12-19T19:30:00'),
  performanceFixture(108, '2026-12-22T19:30:00', { PairedPerformances: [999] }),
];

function calendarHandlers(all = PERFORMANCES): Handlers {
  return {
    getEventPerformances: ({ eventId, minimumTicketsCount }) => ({ EventId: eventId, Performances: all.filter((p) => p.TotalAvailableTickesCount >= (minimumTicketsCount ?? 0)) }),
    getPreliminaryBookingInfo: ({ nbOfTickets }) => ({
      Performances: all.filter((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount >= nbOfTickets).map((p) => preliminaryFixture(p, 30, p.PerformanceId === 105 ? 30 : 80)),
    }),
  };
}

const calendarLoaded = (el: Element) => waitUntil(() => $(el, 'table')?.getAttribute('aria-busy') === 'false' && ($$(el, '[part~="has-performances"]').length || $(el, '[part="empty"]') || $(el, '[role="alert"]')));

async function chooseCount(el: Element, value: string) {
  const select = $(el, '[part="count-select"]') as HTMLSelectElement;
  select.value = value;
  select.dispatchEvent(new Event('change'));
  await waitUntil(() => $(el, 'table')?.getAttribute('aria-busy') === 'false');
  await settled(el);
}

const performanceCalendar: Scenario[] = [
  {
    state: 'no show chosen; loading',
    run: async (r) => {
      const idle = await r.mount(r.booking(r.api({})), html`<performance-calendar></performance-calendar>`);
      await r.snap(idle);
      const loading = await r.mount(r.booking(r.api({ getEventPerformances: never })), html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`);
      await waitUntil(() => $(loading, '[part="status"]')?.textContent?.trim());
      await r.snap(loading);
    },
  },
  {
    state: 'a month: grid and list, every kind of day, a day opened',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(calendarHandlers())), html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`);
      await calendarLoaded(el);
      await r.snap(el);
      for (const day of [5, 10, 19, 22]) {
        ($(el, `[part~="day-button"][data-day="${day}"]`) as HTMLButtonElement).click();
        await settled(el);
        await r.snap(el);
      }
      // A performance chosen: pressed, in the accent (Highlight in forced colours), its availability and price on it.
      for (const day of [10, 22]) {
        ($(el, `[part~="day-button"][data-day="${day}"]`) as HTMLButtonElement).click();
        await settled(el);
        const bookable = $$(el, '.performance').find((b) => !(b as HTMLButtonElement).disabled && b.getAttribute('aria-disabled') !== 'true');
        bookable?.click();
        await settled(el);
        if (bookable) await waitUntil(() => bookable.getAttribute('aria-pressed') === 'true', 'the performance is chosen');
        await r.snap(el);
      }
    },
  },
  {
    state: 'a ticket count: price ranges for one and for several',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(calendarHandlers())), html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`);
      await calendarLoaded(el);
      for (const count of ['1', '2']) {
        await chooseCount(el, count);
        for (const day of [12, 19]) {
          ($(el, `[part~="day-button"][data-day="${day}"]`) as HTMLButtonElement).click();
          await settled(el);
          await r.snap(el);
        }
      }
    },
  },
  {
    state: 'nothing left this month: opened on the next performance, named',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(calendarHandlers())), html`<performance-calendar event-id="1"></performance-calendar>`);
      await waitUntil(() => $(el, '[part="next-performance"]'), 'moved on to the next performance');
      await calendarLoaded(el);
      await r.snap(el);
    },
  },
  {
    state: 'an empty month, with and without a count; an error',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(calendarHandlers([]))), html`<performance-calendar event-id="1" month="2027-02"></performance-calendar>`);
      await calendarLoaded(el);
      await r.snap(el);
      await chooseCount(el, '1');
      await r.snap(el);
      await chooseCount(el, '3');
      await r.snap(el);
      const broken = await r.mount(r.booking(r.api({ getEventPerformances: () => { throw networkError('getEventPerformances'); } })), html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`);
      await calendarLoaded(broken);
      await r.snap(broken);
    },
  },
];

const SEATS: FullTicketInfo[] = [
  ticket(1, 'Stalls', 'A', '1', 45),
  ticket(2, 'Stalls', 'A', '2', 45),
  ticket(3, 'Stalls', 'A', '3', 45),
  ticket(4, 'Stalls', 'B', '1', 30),
  ticket(6, 'Dress Circle', 'C', '14', 62.5, true, 'Pillar'),
  ticket(7, 'Dress Circle', 'C', '13', 62.5, true),
];

function seatHandlers(extra: Handlers = {}): Handlers {
  return {
    getPerformance: ({ performanceId }) => performance(performanceId),
    getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: SEATS }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { VenueId: 9 }) }),
    getVenue: ({ venueId }) => ({ Venue: { VenueId: venueId, Name: 'The Lyric', PlanLink: 'https://plans.example/lyric.png' } as VenueInfo }),
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
    createBasket: () => ({ Success: true, BasketId: BASKET_ID }),
    addTickets: ({ body }) => ({ Success: true, FailureReason: 0, FailureReasonText: '', BookableTicketsCount: null, GetBasketContentResult: basketWith(SEATS.filter((s) => body.Tickets?.includes(s.TicketId))) }),
    ...extra,
  };
}

const seatButtons = (el: Element) => $$(el, '.sizer button') as HTMLButtonElement[];
async function mapReady(el: Element) {
  await waitUntil(() => seatButtons(el).length >= 4 && $(el, '[part~="legend"]'), 'the map did not render');
  await settled(el);
}
/** A seat's button by area, row and seat, whatever the language ("Stalls, Reihe B, Platz 1, …"). */
function seatButton(el: Element, name: string): HTMLButtonElement {
  const [area, row, seat] = name.split('/');
  const found = seatButtons(el).find((b) => new RegExp(`^${area}, \\S+ ${row}, \\S+ ${seat},`).test(b.getAttribute('aria-label') ?? ''));
  if (!found) throw new Error(`no seat ${name}: ${seatButtons(el).map((b) => b.getAttribute('aria-label')).join(' | ')}`);
  return found;
}

/** Choose seats ("Stalls/A/1") and press Add once the seat check has answered (its pause passes for real). */
async function addSeats(el: Element, names: string[], until: () => unknown) {
  for (const name of names) {
    seatButton(el, name).click();
    await settled(el);
  }
  await waitUntil(() => $(el, '[part~="summary"] [part~="add-button"][aria-disabled="false"]'), 'Add was never enabled', { timeout: 4000 });
  ($(el, '[part~="summary"] [part~="add-button"]') as HTMLButtonElement).click();
  await waitUntil(until, 'the add did not answer', { timeout: 4000 });
  await settled(el);
}

const seatPicker: Scenario[] = [
  {
    state: 'no performance; loading; sold out; failed to load',
    run: async (r) => {
      await r.snap(await r.mount(r.booking(r.api({})), html`<seat-picker></seat-picker>`));
      const loading = await r.mount(r.booking(r.api({ getPerformance: never, getFullAvailability: never })), html`<seat-picker performance-id="1"></seat-picker>`);
      await waitUntil(() => $(loading, '[part="loading"]'));
      await r.snap(loading);
      const soldOut = await r.mount(
        r.booking(r.api(seatHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [] }), getAreasPrices: () => ({ PerformanceId: 1, AreasPrices: [] }) }))),
        html`<seat-picker performance-id="1"></seat-picker>`,
      );
      await waitUntil(() => $(soldOut, '[part="empty"]'));
      await r.snap(soldOut);
      const broken = await r.mount(r.booking(r.api(seatHandlers({ getFullAvailability: () => { throw networkError('getFullAvailability'); } }))), html`<seat-picker performance-id="1"></seat-picker>`);
      await waitUntil(() => $(broken, '[part="error"]'));
      await r.snap(broken);
    },
  },
  {
    state: 'the map: legend, plan, the list path, one seat and two chosen, the limit reached, cleared',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(seatHandlers())), html`<seat-picker performance-id="1" max-seats="2"></seat-picker>`);
      await mapReady(el);
      await waitUntil(() => $(el, '[part~="plan"]'));
      await r.snap(el);
      const list = $(el, '[part~="list"]') as HTMLDetailsElement;
      list.open = true;
      list.dispatchEvent(new Event('toggle'));
      await waitUntil(() => $$(el, '[part~="list"] select').length === 2);
      await r.snap(el);
      for (const name of ['Stalls/A/1', 'Stalls/A/2', 'Stalls/A/3']) {
        seatButton(el, name).click();
        await settled(el);
        await r.snap(el);
      }
      seatButton(el, 'Stalls/A/2').click();
      await settled(el);
      await r.snap(el);
      buttonNamed(el, /./).focus();
      const clear = $$(el, '[part~="summary"] button').at(-1) as HTMLButtonElement;
      clear.click();
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'adding: one ticket, two tickets, seats in the basket',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(seatHandlers())), html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      await addSeats(el, ['Stalls/B/1'], () => $(el, '[part~="result"]'));
      await r.snap(el);
      seatButton(el, 'Stalls/B/1').click(); // a seat already in the basket
      await settled(el);
      await r.snap(el);
      await addSeats(el, ['Stalls/A/1', 'Stalls/A/2'], () => $$(el, '[part~="result"]').some((n) => /2/.test(n.textContent ?? '')));
      await r.snap(el);
    },
  },
  {
    state: 'adding in flight',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(seatHandlers({ addTickets: never }))), html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      await addSeats(el, ['Stalls/A/1'], () => $(el, '[part~="summary"] [part~="add-button"][aria-disabled="true"]'));
      await r.snap(el);
    },
  },
  {
    state: 'taken while choosing: the map reloads without them, the rest kept or nothing left',
    run: async (r) => {
      for (const lose of [[1], [1, 2]]) {
        let taken = false;
        const el = await r.mount(
          r.booking(r.api(seatHandlers({
            getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: taken ? SEATS.filter((t) => !lose.includes(t.TicketId)) : SEATS }),
            addTickets: () => {
              taken = true;
              throw Object.assign(apiError('addTickets', 409), { addResult: { Success: false, FailureReason: 1, FailureReasonText: 'TicketNotAvailable', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) } });
            },
          }))),
          html`<seat-picker performance-id="1"></seat-picker>`,
        );
        await mapReady(el);
        await addSeats(el, ['Stalls/A/1', 'Stalls/A/2'], () => taken && /\(|:/.test($(el, '[part~="notice"]')?.textContent ?? '') && seatButtons(el).length < SEATS.length);
        await waitUntil(() => ($(el, '[part~="notice"]')?.textContent ?? '').length > 60, 'no notice of the lost seats');
        await r.snap(el);
      }
    },
  },
  {
    state: 'every reason the service gives for refusing an add',
    run: async (r) => {
      const refusals: [number, string, number | null][] = [
        [2, 'BasketIsLocked', null], [3, 'TicketsLimitExceeded', null], [4, 'TicketsLimitSubceeded', null], [6, 'BoxOfficeApiUnavailable', null],
        [7, 'TicketForNonBookablePerformance', null], [8, 'BookableTicketsExceeded', null], [8, 'BookableTicketsExceeded', 0], [8, 'BookableTicketsExceeded', 1], [99, 'SomethingNew', null],
      ];
      let next = 0;
      const failures: (() => never)[] = [
        () => { throw apiError('addTickets', 429); },
        () => { throw new TypeError('boom'); },
        () => { throw networkError('addTickets'); },
      ];
      const el = await r.mount(
        r.booking(r.api(seatHandlers({
          addTickets: () => {
            const i = next++;
            const refusal = refusals[i];
            if (refusal) return { Success: false, FailureReason: refusal[0], FailureReasonText: refusal[1], BookableTicketsCount: refusal[2], GetBasketContentResult: basketWith([]) };
            return (failures[i - refusals.length] ?? failures[0] ?? (() => { throw new Error('none'); }))();
          },
        }))),
        html`<seat-picker performance-id="1"></seat-picker>`,
      );
      await mapReady(el);
      for (let i = 0; i < refusals.length + failures.length; i++) {
        await addSeats(el, i === 0 ? ['Stalls/A/1', 'Stalls/A/2', 'Stalls/A/3'] : [], () => next > i && $(el, '[part~="notice"]'));
        await r.snap(el);
      }
    },
  },
  {
    state: 'refusals: taken (409), fewer bookable (one and several), supplier down (502), not bookable together',
    run: async (r) => {
      const outcomes: (() => AddTicketsResult)[] = [
        () => { throw Object.assign(apiError('addTickets', 409), { addResult: { Success: false, FailureReason: 1, FailureReasonText: 'TicketNotAvailable', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) } }); },
        () => ({ Success: false, FailureReason: 8, FailureReasonText: 'BookableTicketsExceeded', BookableTicketsCount: 1, GetBasketContentResult: basketWith([]) }),
        () => { throw apiError('addTickets', 502); },
        () => ({ Success: false, FailureReason: 5, FailureReasonText: 'TicketLeavesSingleSeat', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) }),
      ];
      let next = 0;
      const el = await r.mount(r.booking(r.api(seatHandlers({ addTickets: () => (outcomes[next++] ?? outcomes[3] ?? (() => { throw new Error('no outcome'); }))() }))), html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      for (let i = 0; i < outcomes.length; i++) {
        await addSeats(el, i === 0 ? ['Stalls/A/1', 'Stalls/A/2'] : [], () => next > i && $(el, '[part~="notice"]'));
        await r.snap(el);
        if (i === 0) await mapReady(el);
      }
      const invalid = await r.mount(
        r.booking(r.api(seatHandlers({ validateSeatsSelection: () => ({ SelectionValid: false, DisableBooking: true, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '1' }) }))),
        html`<seat-picker performance-id="1"></seat-picker>`,
      );
      await mapReady(invalid);
      // The seat the service names (InvalidSeatID) is marked on the map, in the legend and in the list.
      const list = $(invalid, '[part~="list"]') as HTMLDetailsElement;
      list.open = true;
      list.dispatchEvent(new Event('toggle'));
      await waitUntil(() => $$(invalid, '[part~="list"] select').length === 2);
      seatButton(invalid, 'Stalls/A/1').click();
      await waitUntil(() => $(invalid, '[part~="validation"]') && $(invalid, '[part~="list-seat"][part~="invalid"]'), 'the seat check did not answer', { timeout: 4000 });
      await settled(invalid);
      await r.snap(invalid);
    },
  },
  {
    state: 'the seat check in flight: Add not yet enabled, and why',
    run: async (r) => {
      const el = await r.mount(r.booking(r.api(seatHandlers({ validateSeatsSelection: never }))), html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      seatButton(el, 'Stalls/A/1').click();
      await waitUntil(() => ($(el, '#checking-note')?.textContent ?? '').trim().length > 0, 'the seat check did not start', { timeout: 4000 });
      ($(el, '[part~="summary"] [part~="add-button"]') as HTMLButtonElement).click(); // said aloud: still checking
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'best available: options, none left, a failure; fewer bookable offers to continue',
    run: async (r) => {
      const el = await r.mount(
        r.booking(r.api(seatHandlers({
          getAvailableTickets: ({ requiredTicketsCount }) => availableAreas(requiredTicketsCount),
          addTickets: () => ({ Success: false, FailureReason: 8, FailureReasonText: 'BookableTicketsExceeded', BookableTicketsCount: 3, GetBasketContentResult: basketWith([]) }),
        }))),
        html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`,
      );
      await waitUntil(() => $(el, '[part~="option"]'));
      await r.snap(el);
      const select = $(el, '[part="best"] select') as HTMLSelectElement;
      select.value = '1';
      select.dispatchEvent(new Event('change'));
      await waitUntil(() => textOf(el).includes(', 1 ') || $$(el, '[part~="option"]').length > 0);
      await settled(el);
      await r.snap(el);
      select.value = '4';
      select.dispatchEvent(new Event('change'));
      await settled(el);
      ($$(el, '[part~="option"] [part~="add-button"]')[0] as HTMLButtonElement).click();
      await waitUntil(() => $(el, '[part~="notice"]'));
      await r.snap(el);
      const finding = await r.mount(r.booking(r.api(seatHandlers({ getAvailableTickets: never }))), html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`);
      await waitUntil(() => $(finding, '[part="loading"]'));
      await r.snap(finding);
      const none = await r.mount(r.booking(r.api(seatHandlers({ getAvailableTickets: () => ({ PerformanceId: 1, EventId: 5, TicketAreas: [] }) }))), html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`);
      await waitUntil(() => $(none, '[part="empty"]'));
      await r.snap(none);
      const broken = await r.mount(r.booking(r.api(seatHandlers({ getAvailableTickets: () => { throw networkError('getAvailableTickets'); } }))), html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`);
      await waitUntil(() => $(broken, '[part="error"]'));
      await r.snap(broken);
    },
  },
  {
    state: 'general admission: areas and prices, one ticket and several',
    run: async (r) => {
      const el = await r.mount(
        r.booking(r.api(seatHandlers({
          getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [] }),
          getAreasPrices: () => ({ PerformanceId: 1, AreasPrices: [{ AreaId: 11, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 40 }, { Price: 15, FaceValue: 15, AvailableSeatsCount: 1 }] }] }),
        }))),
        html`<seat-picker performance-id="1"></seat-picker>`,
      );
      await waitUntil(() => $(el, '[part~="general"]'));
      await r.snap(el);
      const count = $(el, '[part~="general"] select') as HTMLSelectElement;
      count.value = '1';
      count.dispatchEvent(new Event('change'));
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'a two-part show: the pair explained, and a part that is booked only with its pair',
    run: async (r) => {
      for (const [first, second] of <[PerformanceResult, PerformanceResult][]>[
        [performance(1, { PairedPerformances: [2] }), performance(2, { PerformanceDate: '2026-12-05T14:30:00', DirectlyBookablePerformance: false, PairedPerformances: [1] })],
        [performance(1, { PairedPerformances: [2], DirectlyBookablePerformance: false }), performance(2, { PerformanceDate: '2026-12-03T19:30:00', PairedPerformances: [1] })],
      ]) {
        const el = await r.mount(r.booking(r.api(seatHandlers({ getPerformance: ({ performanceId }) => (performanceId === 1 ? first : second) }))), html`<seat-picker performance-id="1"></seat-picker>`);
        await waitUntil(() => $(el, '[part~="paired"]'), 'no pair notice');
        await settled(el);
        await r.snap(el);
      }
      // The other part cannot be looked up: its date is not known.
      const unknown = await r.mount(
        r.booking(r.api(seatHandlers({ getPerformance: ({ performanceId }) => { if (performanceId === 1) return performance(1, { PairedPerformances: [2] }); throw apiError('getPerformance', 404); } }))),
        html`<seat-picker performance-id="1"></seat-picker>`,
      );
      await waitUntil(() => $(unknown, '[part~="paired"]'), 'no pair notice');
      await settled(unknown);
      await r.snap(unknown);
    },
  },
  {
    state: 'a payment from this tab still open: Add waits, with why, for how long and the way back to it (said when Add is pressed)',
    run: async (r) => {
      const api = r.api(seatHandlers({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET, getBasket: () => basketWith(SEATS.slice(0, 2)), getAvailableTickets: ({ requiredTicketsCount }) => availableAreas(requiredTicketsCount) }));
      const booking = r.booking(api);
      await booking.basket.add({ Tickets: [1, 2] });
      const content = booking.basket.value.content;
      if (!content) throw new Error('no basket');
      const entries = { values: {}, deliveryTypeId: null, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [] };
      booking.basket.submitted(paymentDetails(content, { redirectUrl: `https://pay.example/sandbox/pay/${BASKET_ID}`, submittedAt: api.clock.now(), total: 90, entries }));
      const el = await r.mount(booking, html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      await waitUntil(() => $(el, '#payment-note'), 'the note beside Add');
      await r.snap(el);
      ($(el, '[part~="summary"] [part~="add-button"]') as HTMLButtonElement).click();
      await waitUntil(() => $(el, '[part~="status"]')?.textContent?.trim(), 'Add said why it waits');
      await r.snap(el);
      const best = await r.mount(booking, html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`);
      await waitUntil(() => $(best, '#payment-note') && $(best, '[part~="option"]'), 'the note beside best available');
      await r.snap(best);
    },
  },
  {
    state: 'the waiting room: joining, the countdown before the on-sale, waiting with progress, paused, catching up, unreachable',
    run: async (r) => {
      const refused = () => {
        throw apiError('getFullAvailability', 428, { Message: 'This performance is behind a waiting room: join it to get a pass.', Room: { id: 'hot-show', join: '/api/stagedoor/room/hot-show' }, Pass: 'missing' });
      };
      /** A picker whose room answers `answers` in turn (the last again). */
      const inRoom = async (status: string, ...answers: (Partial<RoomAnswer> | Error | 'no answer')[]) => {
        let i = 0;
        const joinRoom = () => {
          const next = answers[Math.min(i++, answers.length - 1)];
          if (next === 'no answer') return never<RoomAnswer>();
          if (next instanceof Error) throw next;
          const now = Date.now();
          return { room: 'hot-show', status: 'waiting', opensAt: new Date(now + 300_000).toISOString(), now: new Date(now).toISOString(), position: null, ahead: null, ratePerMinute: 60, waitSeconds: null, pollSeconds: 1, ...next } as RoomAnswer;
        };
        const el = await r.mount(r.booking(r.api(seatHandlers({ getFullAvailability: refused, joinRoom }))), html`<seat-picker performance-id="1"></seat-picker>`);
        await waitUntil(() => $(el, `[part~="queue"][data-status="${status}"]`), `the waiting view, ${status}`, { timeout: 5000 });
        await settled(el);
        return el;
      };
      await r.snap(await inRoom('joining', 'no answer'));
      await r.snap(await inRoom('before', { status: 'before' }));
      // An estimate in hours: Intl's "7–10 minutes" is French too, and would read here as English left behind.
      const waiting = await inRoom('waiting', { position: 9000, ahead: 8999, waitSeconds: { low: 5400, high: 7000 } }, { position: 8000, ahead: 7999, waitSeconds: { low: 4800, high: 6100 } });
      await waitUntil(() => $(waiting, '[part~="queue-progress"]'), 'the progress', { timeout: 5000 });
      await r.snap(waiting);
      await r.snap(await inRoom('paused', { status: 'paused', position: 40, ahead: 39 }));
      await r.snap(await inRoom('catching-up', apiError('joinRoom', 503, { Message: 'The waiting room is catching up; your place is kept.', Room: { id: 'hot-show' }, retrySeconds: 5 })));
      await r.snap(await inRoom('offline', networkError('joinRoom' as never)));
    },
  },
];

const basketTimer: Scenario[] = [
  {
    state: 'normal with items, warning, final, the hold running out for one item and then all',
    run: async (r) => {
      let now = NOW;
      const clock = new ServerClock(() => now);
      const service = fakeBasketService({ clock, holdMs: 10 * 60_000 });
      const booking = r.booking(r.api(service.handlers, clock));
      await booking.basket.add({ Tickets: [41] });
      now += 1000; // 9 min 59 s left (a whole number of minutes reads the same in French and English)
      const el = await r.mount<BasketTimer>(booking, html`<basket-timer show-items></basket-timer>`);
      await r.snap(el);
      now += 10 * 60_000 - 100_000; // 1 min 40 s left: the warning
      el.requestUpdate();
      await settled(el);
      await r.snap(el);
      now += 75_000; // 25 s left: final
      el.requestUpdate();
      await settled(el);
      await r.snap(el);
      await booking.basket.add({ Tickets: [42] }); // a second item, held longer
      now += 30_000; // the first item's hold ran out
      await booking.basket.checkExpiry();
      await waitUntil(() => $(el, '[part~="released"]'));
      await settled(el);
      await r.snap(el);
      now += 10 * 60_000; // and the second's
      el.requestUpdate();
      await booking.basket.checkExpiry();
      await waitUntil(() => $(el, '[part~="whole"]'));
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'zero reached while the basket cannot be read',
    run: async (r) => {
      let now = NOW;
      const clock = new ServerClock(() => now);
      const service = fakeBasketService({ clock });
      const api = r.api(service.handlers, clock);
      const booking = r.booking(api);
      await booking.basket.add({ Tickets: [43] });
      const el = await r.mount<BasketTimer>(booking, html`<basket-timer></basket-timer>`);
      // From now on the service cannot be reached.
      Object.assign(api, { getBasket: async () => { throw networkError('getBasket'); } });
      now += 11 * 60_000;
      el.requestUpdate();
      await waitUntil(() => $(el, '[part~="expired"]'));
      await settled(el);
      await r.snap(el);
    },
  },
];

/** The checkout's fake service, every answer recorded as service data. */
function recordedCheckoutApi(r: Run, overrides: Handlers = {}): FakeApi {
  const api = checkoutApi(overrides);
  const methods = Object.entries(api).filter(([name, v]) => typeof v === 'function' && name !== 'callsTo');
  return Object.assign(api, r.record(Object.fromEntries(methods) as Handlers));
}

async function checkoutMount(r: Run, overrides: Handlers = {}, config: Partial<BookingConfig> = {}, template = html`<checkout-form .navigate=${() => undefined}></checkout-form>`) {
  const api = recordedCheckoutApi(r, overrides);
  const booking = r.booking(api, config);
  await booking.basket.add({ Tickets: [1001] });
  const el = await r.mount(booking, template);
  return { el, booking, api };
}
const formReady = (el: Element) => waitUntil(() => $(el, '[part~="form"]') && $$(el, '[part~="delivery-option"]').length > 0, 'the checkout did not load');

function fill(el: Element, name: string, value: string) {
  const control = $(el, `[name="${name}"]`) as HTMLInputElement | HTMLSelectElement;
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

const checkoutForm: Scenario[] = [
  {
    state: 'an empty basket; loading the basket',
    run: async (r) => {
      const empty = await r.mount(r.booking(recordedCheckoutApi(r)), html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(empty, '[part="empty"]'));
      await r.snap(empty);
      const { el } = await checkoutMount(r, { getCheckoutOptions: never });
      await waitUntil(() => $(el, '[part="status"]'));
      await r.snap(el);
      // A basket being created by an add still in flight.
      const adding = r.booking(recordedCheckoutApi(r, { addTickets: never }));
      void adding.basket.add({ Tickets: [1001] });
      const early = await r.mount(adding, html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(early, '[part="status"]'));
      await r.snap(early);
    },
  },
  {
    state: 'the basket and the form: notices, deliveries, details with hints, refund protection, totals; a US address',
    run: async (r) => {
      const { el } = await checkoutMount(r);
      await formReady(el);
      await r.snap(el);
      fill(el, 'country', 'US');
      (($(el, 'input[name="ticketPlan"]')) as HTMLInputElement).click();
      await settled(el);
      await r.snap(el);
      const optional = await checkoutMount(r, { getCheckoutOptions: () => ({ CheckoutNotices: [], ETicketNotices: [], CustomerEmailIsMandatory: false }) }, { onAccount: true });
      await formReady(optional.el);
      await r.snap(optional.el);
    },
  },
  {
    state: 'validation: every problem listed, the count left after a fix; one problem; an e-mail that is not one; none left',
    run: async (r) => {
      const { el } = await checkoutMount(r, {}, {}, html`<checkout-form></checkout-form>`);
      await formReady(el);
      fill(el, 'country', 'US');
      await settled(el);
      ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
      await waitUntil(() => $(el, '[part~="error-summary"]'));
      await settled(el);
      await r.snap(el);
      // One fixed: the count left, said politely.
      fill(el, 'firstName', 'Ada');
      await settled(el);
      await r.snap(el);
      for (const [name, value] of [['firstName', 'Ada'], ['lastName', 'Lovelace'], ['email', 'not-an-address'], ['phone', 'abc'], ['state', 'NY']] as const) fill(el, name, value);
      ($(el, 'input[name="notice-1"]') as HTMLInputElement).click();
      await settled(el);
      ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
      await settled(el);
      await r.snap(el);
      fill(el, 'phone', '');
      await settled(el);
      await r.snap(el); // one problem left
      fill(el, 'email', '');
      await settled(el);
      ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
      await settled(el);
      await r.snap(el);
      fill(el, 'email', 'ada@example.com');
      await settled(el);
      await r.snap(el); // none left
      // No country to choose from.
      const { el: stateless } = await checkoutMount(r, { getCountries: () => ({ Countries: [] }) }, {}, html`<checkout-form></checkout-form>`);
      await formReady(stateless);
      ($(stateless, '[part~="submit-button"]') as HTMLButtonElement).click();
      await waitUntil(() => $(stateless, '[part~="error-summary"]'));
      await r.snap(stateless);
    },
  },
  {
    state: 'removing one item, emptying the basket (with its question)',
    run: async (r) => {
      const { el } = await checkoutMount(r);
      await formReady(el);
      ($$(el, '[part~="remove-button"]')[1] as HTMLButtonElement).click();
      await waitUntil(() => $$(el, '[part~="remove-button"]').length === 1);
      await settled(el);
      await r.snap(el);
      ($(el, '[part~="empty-button"]') as HTMLButtonElement).click();
      await settled(el);
      await r.snap(el);
      ($(el, '[part~="confirm-empty-button"]') as HTMLButtonElement).click();
      await waitUntil(() => $(el, '[part="empty"]'));
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: 'the hold ran out: the basket empty, and why',
    run: async (r) => {
      let held = true;
      const items = basketContent().Items;
      const { el, booking, api } = await checkoutMount(r, { getBasket: () => basketContent(held ? items : []) });
      await waitUntil(() => $(el, '[part~="item"]'));
      // The service's clock is past the hold (ExpirationDate 2026-12-01T10:10 London), which it released.
      api.clock.offset = Date.parse('2026-12-01T10:11:00Z') - Date.now();
      held = false;
      await booking.basket.refresh();
      await waitUntil(() => $(el, '[part="empty"]'));
      await settled(el);
      await r.snap(el);
    },
  },
  {
    state: "sending: to payment; booked on account; on account refused; refusals (400 phone, 403, network, the site's setup, other)",
    run: async (r) => {
      const fillAll = (el: Element) => {
        for (const [name, value] of [['firstName', 'Ada'], ['lastName', 'Lovelace'], ['email', 'ada@example.com'], ['phone', '+44 20 7946 0000']] as const) fill(el, name, value);
        ($(el, 'input[name="notice-1"]') as HTMLInputElement).click();
      };
      const outcomes: [Handlers, Partial<BookingConfig>][] = [
        [{ submitOrder: never }, {}],
        [{}, {}],
        [{ submitOrderOnAccount: () => ({ Success: true, BookingReference: 'SD-ACC-1' }) }, { onAccount: true }],
        [{ submitOrderOnAccount: () => { throw apiError('submitOrderOnAccount', 403); } }, { onAccount: true }],
        [{ submitOrder: () => { throw apiError('submitOrder', 400, { Message: 'The phone number is invalid.' }); } }, {}],
        [{ submitOrder: () => { throw apiError('submitOrder', 400, { Message: "The field 'City' is wrong." }); } }, {}],
        [{ submitOrder: () => { throw apiError('submitOrder', 400, {}); } }, {}],
        [{ submitOrder: () => { throw apiError('submitOrder', 403); } }, {}],
        [{ submitOrder: () => { throw networkError('submitOrder'); } }, {}],
        // The site's own setup refused it (the proxy behind a front server that hides the site).
        [{ submitOrder: () => { throw apiError('submitOrder', 500, { Message: 'This site cannot take orders right now; nothing was charged.', Refusal: 'site-origin' }); } }, {}],
        [{ submitOrder: () => { throw apiError('submitOrder', 500); } }, {}],
        [{ submitOrder: () => ({ Success: false, PaymentRedirectUrl: '' }) }, {}],
      ];
      for (const [handlers, config] of outcomes) {
        const { el } = await checkoutMount(r, handlers, config);
        await formReady(el);
        fillAll(el);
        await settled(el);
        ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
        await settled(el);
        await settled(el);
        await r.snap(el);
      }
    },
  },
  {
    state: 'failures to load: the checkout, the basket; no delivery method',
    run: async (r) => {
      const { el } = await checkoutMount(r, { getCheckoutOptions: () => { throw networkError('getCheckoutOptions'); } });
      await waitUntil(() => $(el, '[role="alert"]'));
      await r.snap(el);
      const gone = await checkoutMount(r, { getAvailableDeliveries: () => { throw apiError('getAvailableDeliveries', 403); } });
      await waitUntil(() => $(gone.el, '[role="alert"]'));
      await r.snap(gone.el);
      const other = await checkoutMount(r, { getCountries: () => { throw apiError('getCountries', 500); } });
      await waitUntil(() => $(other.el, '[role="alert"]'));
      await r.snap(other.el);
      const none = await checkoutMount(r, { getAvailableDeliveries: () => ({ DeliveryTypes: [] }) });
      await waitUntil(() => $(none.el, '[part~="delivery"] [role="alert"]'));
      await r.snap(none.el);
    },
  },
  {
    state: 'back from the payment page without paying: the payment still open (checkout and timer), checking it, not checked, timed out; an order taken whose payment page was lost',
    run: async (r) => {
      const unfinished = async (overrides: Handlers, redirectUrl: string | undefined = `https://pay.example/sandbox/pay/${BASKET_ID}`) => {
        const api = recordedCheckoutApi(r, { getSubmittedBasketSummary: () => NOT_AVAILABLE_YET, ...overrides });
        const booking = r.booking(api);
        await booking.basket.add({ Tickets: [1001, 1002] });
        const content = booking.basket.value.content;
        if (!content) throw new Error('no basket');
        const entries = { values: { firstName: 'Ada' }, deliveryTypeId: 1, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [1] };
        booking.basket.submitted(paymentDetails(content, { redirectUrl, submittedAt: api.clock.now(), total: 125, entries }));
        return booking;
      };
      const open = await unfinished({});
      const el = await r.mount(open, html`<checkout-form .navigate=${() => undefined}></checkout-form>`);
      const timer = await r.mount(open, html`<basket-timer></basket-timer>`);
      await waitUntil(() => $(el, '#pending-heading') && $(timer, '[part~="payment"]'));
      await r.snap(el);
      await r.snap(timer);
      const checking = await r.mount(await unfinished({ getSubmittedBasketSummary: never }), html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(checking, '[part="status"]'));
      await r.snap(checking);
      const unchecked = await r.mount(await unfinished({ getSubmittedBasketSummary: () => { throw networkError('getSubmittedBasketSummary'); } }), html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(unchecked, '[part~="retry-button"]'));
      await r.snap(unchecked);
      const released = await r.mount(await unfinished({ getBasket: () => { throw apiError('getBasket', 404); } }), html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(released, '[part~="start-again-button"]'));
      await r.snap(released);
      const lost = await r.mount(await unfinished({}, undefined), html`<checkout-form></checkout-form>`);
      await waitUntil(() => $(lost, '#pending-heading'));
      await r.snap(lost);
    },
  },
];

async function paidBooking(r: Run, overrides: Handlers) {
  const api = recordedCheckoutApi(r, overrides);
  const booking = r.booking(api);
  await booking.basket.add({ Tickets: [1001, 1002] });
  booking.basket.submitted();
  return booking;
}

const bookingConfirmation: Scenario[] = [
  {
    state: 'the booking with its e-tickets; loading it; one protected ticket',
    run: async (r) => {
      const single = await paidBooking(r, { getSubmittedBasketSummary: () => ({ ...submittedSummary(), ProtectionInformation: { ProtectedTicketsCount: 1, TotalProtectionPrice: 2.5 } }), getETickets: () => eTickets() });
      const one = await r.mount(single, html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await waitUntil(() => $(one, '[part~="summary"]'));
      await r.snap(one);
      const booking = await paidBooking(r, { getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => eTickets(), getDeliveryTypes: () => ({ DeliveryTypes: [] }) });
      const el = await r.mount(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await r.snap(el);
      await waitUntil(() => $$(el, '[part~="eticket-link"]').length > 0);
      await r.snap(el);
    },
  },
  {
    state: 'not available yet: waiting (one second, several), given up; e-tickets not yet; e-tickets failing; the booking failing',
    run: async (r) => {
      for (const delay of [1000, 3000]) {
        const waiting = await r.mount(
          await paidBooking(r, { getSubmittedBasketSummary: () => NOT_AVAILABLE_YET }),
          html`<booking-confirmation outcome="success" retry-delay=${delay} retry-limit="1"></booking-confirmation>`,
        );
        await waitUntil(() => $(waiting, '[part~="waiting"]'));
        await r.snap(waiting);
      }
      const given = await r.mount(await paidBooking(r, { getSubmittedBasketSummary: () => NOT_AVAILABLE_YET }), html`<booking-confirmation outcome="success" retry-limit="0"></booking-confirmation>`);
      await waitUntil(() => $(given, '[part~="retry-button"]'));
      await r.snap(given);
      for (const delay of [1000, 3000]) {
        const eWaiting = await r.mount(
          await paidBooking(r, { getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => NOT_AVAILABLE_YET }),
          html`<booking-confirmation outcome="success" retry-delay=${delay} retry-limit="1"></booking-confirmation>`,
        );
        await waitUntil(() => $(eWaiting, '[part~="waiting"]') && $(eWaiting, '[part~="summary"]'));
        await r.snap(eWaiting);
      }
      const eGiven = await r.mount(await paidBooking(r, { getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => NOT_AVAILABLE_YET }), html`<booking-confirmation outcome="success" retry-limit="0"></booking-confirmation>`);
      await waitUntil(() => $(eGiven, '[part~="summary"] [part~="retry-button"]') || $$(eGiven, '[part~="retry-button"]').length > 0);
      await r.snap(eGiven);
      const eBroken = await r.mount(await paidBooking(r, { getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => { throw networkError('getETickets'); } }), html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await waitUntil(() => $(eBroken, '[role="alert"]'));
      await r.snap(eBroken);
      for (const error of [networkError('getSubmittedBasketSummary'), apiError('getSubmittedBasketSummary', 500)]) {
        const broken = await r.mount(await paidBooking(r, { getSubmittedBasketSummary: () => { throw error; } }), html`<booking-confirmation outcome="success"></booking-confirmation>`);
        await waitUntil(() => $(broken, '[role="alert"]'));
        await r.snap(broken);
      }
    },
  },
  {
    state: 'a failed payment: checking, seats still held, released, unknown; nothing sent from this tab',
    run: async (r) => {
      const held = await r.mount(await paidBooking(r, {}), html`<booking-confirmation outcome="failure"></booking-confirmation>`);
      await r.snap(held);
      await waitUntil(() => !/…/.test(textOf(held)));
      await r.snap(held);
      const released = await r.mount(await paidBooking(r, { getBasket: () => { throw apiError('getBasket', 404); } }), html`<booking-confirmation outcome="failure"></booking-confirmation>`);
      await waitUntil(() => !/…/.test(textOf(released)));
      await r.snap(released);
      const unknown = await r.mount(await paidBooking(r, { getBasket: () => { throw networkError('getBasket'); } }), html`<booking-confirmation outcome="failure"></booking-confirmation>`);
      await waitUntil(() => $(unknown, '[part~="retry-button"]'));
      await r.snap(unknown);
      const nothing = await r.mount(r.booking(recordedCheckoutApi(r)), html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await r.snap(nothing);
      const nothingFailed = await r.mount(r.booking(recordedCheckoutApi(r)), html`<booking-confirmation outcome="failure"></booking-confirmation>`);
      await waitUntil(() => !/…/.test(textOf(nothingFailed)));
      await r.snap(nothingFailed);
    },
  },
];

/** The scenarios of each element, by tag. */
export const ELEMENTS: Record<string, Scenario[]> = {
  'event-list': eventList,
  'performance-calendar': performanceCalendar,
  'seat-picker': seatPicker,
  'basket-timer': basketTimer,
  'checkout-form': checkoutForm,
  'booking-confirmation': bookingConfirmation,
};
