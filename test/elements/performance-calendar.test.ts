import { expect, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { ServerClock } from '../../src/api/time.ts';
import type { EventPerformancesResult, PerformanceInfo } from '../../src/api/types.ts';
import '../../src/elements/performance-calendar/performance-calendar.ts';
import type { PerformanceCalendar } from '../../src/elements/performance-calendar/performance-calendar.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import type { BookingConfig } from '../../src/state/config.ts';
import { fakeApi, networkError, testBooking, withBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { performanceFixture, preliminaryFixture } from './helpers/catalogue-fixtures.ts';
import { blend, contrast, opacityOf, parse, resolve } from './helpers/contrast.ts';
import { describeBesideZones, resetVisitorPreference, visitorZones } from './helpers/engine.ts';

const visitor = await visitorZones(['Pacific/Auckland', 'America/Los_Angeles', 'Asia/Tokyo']);

/**
 * A December 2026 day as the browser's own Intl writes it in British English ("Sunday 6 December";
 * older ICU data, as in WebKitGTK's, has "Sunday, 6 December").
 */
const dayName = (day: number) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(Date.UTC(2026, 11, day));

/** 21 November 2026, noon in London. */
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

const PERFORMANCES: PerformanceInfo[] = [
  // A two-part show: part one is booked only together with part two.
  performanceFixture(101, '2026-12-05T14:30:00', { DirectlyBookablePerformance: false, PairedPerformances: [102] }),
  performanceFixture(102, '2026-12-05T19:30:00', { PairedPerformances: [101] }),
  performanceFixture(103, '2026-12-08T19:30:00', { TotalAvailableTickesCount: 0 }),
  performanceFixture(104, '2026-12-10T19:30:00', {
    TotalAvailableTickesCount: 3,
    ContainsDiscountOfferTickets: true,
    ContainsNoFeeOfferTickets: true,
    MinimumTicketPrice: 19.5,
  }),
  performanceFixture(105, '2026-12-12T19:30:00'),
  performanceFixture(106, '2026-12-31T23:30:00'),
  performanceFixture(107, '2027-01-09T19:30:00'),
];

type Args = { eventId: number; dateFrom?: string; dateTo?: string; minimumTicketsCount?: number };

/**
 * How the service may read a date-only dateTo (the sandbox's `dateToReading`): its whole day, or its first
 * instant (00:00), so that `dateFrom=D&dateTo=D+1` is the one day D. Real clients ask both ways.
 */
type DateToReading = 'whole-day' | 'midnight';

/** Answers like the service: the performances within dateFrom..dateTo with enough tickets. */
function performancesIn(all: PerformanceInfo[], args: Args, reading: DateToReading = 'whole-day'): EventPerformancesResult {
  const day = (p: PerformanceInfo) => p.PerformanceDate.slice(0, 10);
  const beforeEnd = (p: PerformanceInfo, dateTo: string) => (reading === 'whole-day' ? day(p) <= dateTo : p.PerformanceDate < `${dateTo}T00:00:01`);
  return {
    EventId: args.eventId,
    Performances: all.filter(
      (p) =>
        (!args.dateFrom || day(p) >= args.dateFrom) &&
        (!args.dateTo || beforeEnd(p, args.dateTo)) &&
        p.TotalAvailableTickesCount >= (args.minimumTicketsCount ?? 0),
    ),
  };
}

function handlers(all = PERFORMANCES, extra: Handlers = {}, reading: DateToReading = 'whole-day'): Handlers {
  return {
    getEventPerformances: (args) => performancesIn(all, args, reading),
    getPreliminaryBookingInfo: (args) => ({
      Performances: performancesIn(all, { ...args, minimumTicketsCount: args.nbOfTickets }, reading)
        .Performances.filter((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 0)
        .map((p) => preliminaryFixture(p, 30, 80)),
    }),
    ...extra,
  };
}

function setup(h: Handlers = handlers(), config: Partial<BookingConfig> = {}, now = NOW) {
  const api = fakeApi(h, { clock: new ServerClock(() => now) });
  const booking = testBooking(api, config);
  return { api, booking };
}

const sr = (el: PerformanceCalendar) => el.shadowRoot as ShadowRoot;
const q = <T extends Element = HTMLElement>(el: PerformanceCalendar, s: string) => sr(el).querySelector<T>(s);
const qa = <T extends Element = HTMLElement>(el: PerformanceCalendar, s: string) => [...sr(el).querySelectorAll<T>(s)];
const text = (n: Element | null | undefined) => (n?.textContent ?? '').replace(/\s+/g, ' ').trim();
const day = (el: PerformanceCalendar, d: number) => q<HTMLButtonElement>(el, `[part~="day-button"][data-day="${d}"]`) as HTMLButtonElement;
const label = (el: PerformanceCalendar, d: number) => text(day(el, d).querySelector('.visually-hidden'));
const focusedDay = (el: PerformanceCalendar) => (sr(el).activeElement as HTMLElement | null)?.dataset.day;
const lastPerformancesCall = (api: FakeApi) => api.callsTo('getEventPerformances').at(-1);

async function loaded(el: PerformanceCalendar): Promise<void> {
  await waitUntil(
    () => q(el, 'table')?.getAttribute('aria-busy') === 'false' && (qa(el, '[part~="has-performances"]').length || q(el, '[part~="empty"]') || q(el, '[role="alert"]')),
    'performances did not load',
  );
  await el.updateComplete;
}

async function render(booking: ReturnType<typeof setup>['booking'], template = html`<performance-calendar event-id="1" month="2026-12"></performance-calendar>`) {
  const el = await withBooking<PerformanceCalendar>(booking, template);
  await loaded(el);
  return el;
}

const ONE = [performanceFixture(201, '2026-12-12T19:30:00'), performanceFixture(202, '2026-12-31T23:30:00')];

/** The days with performances and their times, as shown. */
async function timesShown(config: Partial<BookingConfig>, performances = ONE) {
  const { booking } = setup(handlers(performances), config);
  const el = await render(booking);
  return qa(el, '[part~="has-performances"]').map((b) => `${b.dataset.day} ${text(b.querySelector('[part="day-times"]'))}`);
}

describe("<performance-calendar>: times are the venue wall clock, whatever the visitor's own zone", () => {
  afterEach(async () => {
    resetSharedBookings();
    await visitor.enter(undefined);
  });

  for (const visitorZone of visitor.zones) {
    it(`does not depend on the visitor's own zone (${visitorZone})`, async () => {
      await visitor.enter(visitorZone);
      expect(Intl.DateTimeFormat().resolvedOptions().timeZone).to.equal(visitorZone);
      expect(await timesShown({ timeZone: 'Europe/London' })).to.deep.equal(['12 19:30', '31 23:30']);
    });
  }
});

// Everything else, once per engine (not again in each of WebKit's zone browsers).
describeBesideZones(visitor)('<performance-calendar>', () => {
  afterEach(async () => {
    resetSharedBookings();
    await visitor.enter(undefined);
  });

  it('asks for exactly the visible month and moves a month at a time', async () => {
    const { api, booking } = setup();
    const el = await render(booking);
    // No ticket count chosen yet: every performance, and no price ranges to ask for.
    expect(api.callsTo('getEventPerformances')).to.deep.equal([{ eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01' }]);
    expect(api.callsTo('getPreliminaryBookingInfo')).to.deep.equal([]);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('December 2026');

    (q(el, '[part~="next"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.equal({ eventId: 1, dateFrom: '2027-01-01', dateTo: '2027-02-01' });
    expect(text(q(el, '[part="month-heading"]'))).to.equal('January 2027');
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['9']);

    (q(el, '[part~="next"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.equal({ eventId: 1, dateFrom: '2027-02-01', dateTo: '2027-03-01' });

    (q(el, '[part~="previous"]') as HTMLButtonElement).click();
    (q(el, '[part~="previous"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.equal({ eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01' });
  });

  for (const reading of ['whole-day', 'midnight'] as const) {
    it(`shows the month's own days whichever way the service reads a date-only dateTo (${reading})`, async () => {
      // The last evening of December, and a matinee on 1 January that belongs to January only.
      const edges = [...PERFORMANCES, performanceFixture(108, '2027-01-01T14:30:00')];
      const { booking } = setup(handlers(edges, {}, reading));
      const el = await render(booking);
      const days = qa(el, '[part~="has-performances"]').map((b) => b.dataset.day);
      expect(days).to.include('31', 'the 31st, asked as the day it is');
      expect(days).not.to.include('1', 'no day of December shows 1 January\'s matinee');
      (q(el, '[part~="next"]') as HTMLButtonElement).click();
      await loaded(el);
      expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['1', '9']);
    });
  }

  it("starts at this month in the service's time zone and cannot go back before it", async () => {
    // 31 December 23:30 UTC is already 1 January in Tokyo.
    const { api, booking } = setup(handlers(), { timeZone: 'Asia/Tokyo' }, Date.UTC(2026, 11, 31, 23, 30));
    const el = await render(booking, html`<performance-calendar event-id="1"></performance-calendar>`);
    expect(api.callsTo('getEventPerformances')[0]).to.deep.include({ dateFrom: '2027-01-01', dateTo: '2027-02-01' });
    expect((q(el, '[part~="previous"]') as HTMLButtonElement).disabled).to.equal(true);
    expect(day(el, 1).getAttribute('part')).to.contain('today');
  });

  it('opens on the month of the next performance when nothing is left to book in this one, and names its date', async () => {
    // 21 November: the show's first performance is on 5 December. An empty November would look sold out.
    const { api, booking } = setup();
    const el = await render(booking, html`<performance-calendar event-id="1"></performance-calendar>`);
    await waitUntil(() => text(q(el, '[part="month-heading"]')) === 'December 2026', 'opened on December');
    await loaded(el);
    // November, then the next month: the one more request it costs.
    expect(api.callsTo('getEventPerformances')).to.deep.equal([
      { eventId: 1, dateFrom: '2026-11-01', dateTo: '2026-12-01' },
      { eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01' },
    ]);
    const date = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(2026, 11, 5));
    const said = `Nothing left to book in November 2026: the next performance is on ${date}.`;
    expect(text(q(el, '[part="next-performance"]'))).to.equal(said);
    expect(text(q(el, '[part="status"]'))).to.contain(said);
    expect(q(el, '[part~="empty"]')).to.equal(null);
    // The focus day is the next performance's, one Tab away as ever.
    expect(day(el, 5).tabIndex).to.equal(0);
    await expect(el).to.be.accessible();

    // November is one step back, empty as it is; the note is gone once the visitor moves.
    (q(el, '[part~="previous"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('November 2026');
    expect(text(q(el, '[part~="empty"]'))).to.equal('No performances in November 2026.');
    expect(q(el, '[part="next-performance"]')).to.equal(null);
    expect(api.callsTo('getEventPerformances')).to.have.length(3);
  });

  it('moves on as well when every performance left this month is sold out, to the next one with tickets', async () => {
    const soldOut = { TotalAvailableTickesCount: 0 };
    const shows = [
      performanceFixture(701, '2026-11-20T19:30:00'),
      performanceFixture(702, '2026-11-28T19:30:00', soldOut),
      performanceFixture(703, '2027-01-08T19:30:00', soldOut),
      performanceFixture(704, '2027-01-15T19:30:00'),
    ];
    const { booking } = setup(handlers(shows));
    const el = await render(booking, html`<performance-calendar event-id="1"></performance-calendar>`);
    await waitUntil(() => text(q(el, '[part="month-heading"]')) === 'January 2027', 'opened on January');
    await loaded(el);
    expect(text(q(el, '[part="next-performance"]'))).to.contain('the next performance is on Friday');
    expect(text(q(el, '[part="next-performance"]'))).to.contain('15 January 2027');
    expect(day(el, 15).tabIndex).to.equal(0);
  });

  it('stays on this month, empty, when no performance comes in the next three months', async () => {
    const { api, booking } = setup(handlers([performanceFixture(601, '2027-06-12T19:30:00')]));
    const el = await render(booking, html`<performance-calendar event-id="1"></performance-calendar>`);
    // November, December, January, February: then back to November.
    await waitUntil(() => api.callsTo('getEventPerformances').length === 5, 'looked past November');
    await loaded(el);
    expect(api.callsTo('getEventPerformances').map((call) => (call as { dateFrom: string }).dateFrom)).to.deep.equal(['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01', '2026-11-01']);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('November 2026');
    expect(text(q(el, '[part~="empty"]'))).to.equal('No performances in November 2026.');
    expect(q(el, '[part="next-performance"]')).to.equal(null);
  });

  it('never moves on from a month the page asked for, or one the visitor chose', async () => {
    const { api, booking } = setup();
    const el = await render(booking, html`<performance-calendar event-id="1" month="2026-11"></performance-calendar>`);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('November 2026');
    expect(text(q(el, '[part~="empty"]'))).to.equal('No performances in November 2026.');
    expect(api.callsTo('getEventPerformances')).to.have.length(1);
  });

  it('offers nothing on days already gone at the venue', async () => {
    const november = [performanceFixture(501, '2026-11-20T19:30:00'), performanceFixture(502, '2026-11-21T19:30:00')];
    const { booking } = setup(handlers(november));
    const el = await render(booking, html`<performance-calendar event-id="1"></performance-calendar>`);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('November 2026');
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['21']);
    expect(day(el, 20).getAttribute('aria-disabled')).to.equal('true');
  });

  it('shows the month grid: days with performances, disabled days, times, availability', async () => {
    const { booking } = setup();
    const el = await render(booking);
    expect(q(el, 'table')?.getAttribute('role')).to.equal('grid');
    expect(qa(el, 'th').map((th) => th.getAttribute('abbr'))).to.deep.equal([
      'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday',
    ]);
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['5', '8', '10', '12', '31']);
    expect(day(el, 6).getAttribute('aria-disabled')).to.equal('true');
    expect(label(el, 6)).to.equal(`${dayName(6)}, no performances`);
    expect(day(el, 8).getAttribute('part')).to.contain('sold-out');
    expect(label(el, 8)).to.equal(`${dayName(8)}, sold out (19:30)`);
    expect(label(el, 10)).to.equal(`${dayName(10)}, few tickets left, 19:30`);
    expect(label(el, 12)).to.equal(`${dayName(12)}, 1 performance, 19:30`);
    expect(text(day(el, 12).querySelector('[part="day-times"]'))).to.equal('19:30');
    expect(text(q(el, '[part="status"]'))).to.equal('December 2026: 5 performances');
    await expect(el).to.be.accessible();
  });

  it("opens a day's performances with price, availability and badges", async () => {
    const { booking } = setup();
    const el = await render(booking);
    day(el, 10).click();
    await el.updateComplete;
    const panel = q(el, '[part="day-panel"]');
    expect(text(panel?.querySelector('h3'))).to.equal('Thursday, 10 December 2026');
    const perf = panel?.querySelector('[part~="performance-button"]') as HTMLButtonElement;
    expect(perf.getAttribute('part')).to.contain('few-left');
    expect(text(perf.querySelector('[part="time"]'))).to.equal('19:30');
    expect(text(perf.querySelector('[part="availability"]'))).to.equal('Few left');
    expect(text(perf.querySelector('[part="price"]'))).to.equal('From £19.50');
    expect(qa(el, '[part="day-panel"] [part~="badge"]').map((b) => b.getAttribute('part'))).to.deep.equal(['badge discount', 'badge no-fee']);
    expect(day(el, 10).closest('td')?.getAttribute('aria-selected')).to.equal('true');
    await expect(el).to.be.accessible();

    day(el, 8).click();
    await el.updateComplete;
    const soldOut = q<HTMLButtonElement>(el, '[part="day-panel"] [part~="performance-button"]') as HTMLButtonElement;
    expect(soldOut.disabled).to.equal(true);
    expect(text(soldOut.querySelector('[part="availability"]'))).to.equal('Sold out');
    expect(soldOut.querySelector('[part="price"]')).to.equal(null);

    // A day without performances opens nothing.
    day(el, 6).click();
    await el.updateComplete;
    expect(text(q(el, '[part="day-panel"] h3'))).to.equal('Tuesday, 8 December 2026');
  });

  it('shows the "from" price when PreliminaryBookingInfo has no range for a performance', async () => {
    const { api, booking } = setup(handlers(PERFORMANCES, { getPreliminaryBookingInfo: () => ({ Performances: [] }) }));
    const el = await render(booking, html`<performance-calendar event-id="1" month="2026-12" ticket-count="2"></performance-calendar>`);
    expect(api.callsTo('getPreliminaryBookingInfo')).to.deep.equal([
      { eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01', nbOfTickets: 2, consecutiveSeatsOnly: true },
    ]);
    day(el, 10).click();
    await el.updateComplete;
    expect(text(q(el, '[part="day-panel"] [part="price"]'))).to.equal('From £19.50');
  });

  it('still shows the performances when PreliminaryBookingInfo fails', async () => {
    const { booking } = setup(handlers(PERFORMANCES, { getPreliminaryBookingInfo: () => { throw networkError('getPreliminaryBookingInfo'); } }));
    const el = await render(booking, html`<performance-calendar event-id="1" month="2026-12" ticket-count="2"></performance-calendar>`);
    day(el, 12).click();
    await el.updateComplete;
    expect(text(q(el, '[part="day-panel"] [part="price"]'))).to.equal('From £25.00');
    expect(q(el, '[role="alert"]')).to.equal(null);
  });

  it('shows a performance that is not directly bookable only as part of its pair', async () => {
    const { booking } = setup();
    const el = await render(booking);
    expect(label(el, 5)).to.equal(`${dayName(5)}, 1 performance, 19:30`);
    day(el, 5).click();
    await el.updateComplete;
    const choices = qa(el, '[part="day-panel"] [part~="performance-button"]');
    expect(choices.length).to.equal(1);
    expect(choices[0]?.dataset.performanceId).to.equal('102');
    expect(text(choices[0]?.querySelector('[part="time"]'))).to.equal('Part 1 14:30 + Part 2 19:30');
    expect(q(el, '[data-performance-id="101"]')).to.equal(null);
  });

  it('keeps only performances with enough tickets for the chosen count, with their range for that count', async () => {
    const { api, booking } = setup();
    const el = await render(booking);
    const select = q<HTMLSelectElement>(el, '[part="count-select"]') as HTMLSelectElement;
    expect(select.value).to.equal('');
    expect(select.selectedOptions[0]?.textContent).to.equal('Any number');
    select.value = '4';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => (lastPerformancesCall(api) as Args | undefined)?.minimumTicketsCount === 4);
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.equal({ eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01', minimumTicketsCount: 4 });
    expect(api.callsTo('getPreliminaryBookingInfo')).to.deep.equal([
      { eventId: 1, dateFrom: '2026-12-01', dateTo: '2027-01-01', nbOfTickets: 4, consecutiveSeatsOnly: true },
    ]);
    // Only 3 tickets left on the 10th, none on the 8th.
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['5', '12', '31']);
    day(el, 12).click();
    await el.updateComplete;
    expect(text(q(el, '[part="day-panel"] [part="price"]'))).to.equal('£30.00–£80.00 each for 4 tickets');
    await expect(el).to.be.accessible();

    // Back to any number: every performance again, sold-out ones included.
    select.value = '';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => lastPerformancesCall(api) && !('minimumTicketsCount' in (lastPerformancesCall(api) as Args)));
    await loaded(el);
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['5', '8', '10', '12', '31']);
  });

  it('follows the ARIA date-grid pattern by keyboard: one tab stop, arrows, Home/End, PageUp/PageDown, Enter, Escape', async function () {
    // Fourteen keys, each a round trip to the driver, and a render after each (WebDriver's slowest).
    this.timeout(30_000);
    const { api, booking } = setup();
    const el = await render(booking);
    // One tab stop, on the first day with a performance.
    expect(qa(el, '[part~="day-button"][tabindex="0"]').map((b) => b.dataset.day)).to.deep.equal(['5']);
    day(el, 5).focus();
    await sendKeys({ press: 'ArrowRight' });
    expect(focusedDay(el)).to.equal('6');
    await sendKeys({ press: 'ArrowDown' });
    expect(focusedDay(el)).to.equal('13');
    await sendKeys({ press: 'Home' });
    expect(focusedDay(el)).to.equal('7');
    await sendKeys({ press: 'End' });
    expect(focusedDay(el)).to.equal('13');
    await sendKeys({ press: 'ArrowLeft' });
    await sendKeys({ press: 'ArrowUp' });
    expect(focusedDay(el)).to.equal('5');
    expect(qa(el, '[part~="day-button"][tabindex="0"]').map((b) => b.dataset.day)).to.deep.equal(['5']);

    await sendKeys({ press: 'PageDown' });
    await el.updateComplete;
    expect(text(q(el, '[part="month-heading"]'))).to.equal('January 2027');
    expect(focusedDay(el)).to.equal('5');
    expect(lastPerformancesCall(api)).to.deep.include({ dateFrom: '2027-01-01', dateTo: '2027-02-01' });
    await sendKeys({ press: 'PageUp' });
    await loaded(el);
    expect(text(q(el, '[part="month-heading"]'))).to.equal('December 2026');
    expect(focusedDay(el)).to.equal('5');

    // Past the end of the month into the next one.
    for (let i = 0; i < 4; i++) await sendKeys({ press: 'ArrowDown' });
    expect(focusedDay(el)).to.equal('2');
    expect(text(q(el, '[part="month-heading"]'))).to.equal('January 2027');
    await sendKeys({ press: 'PageUp' });
    await loaded(el);

    day(el, 2).focus();
    for (let i = 0; i < 10; i++) await sendKeys({ press: 'ArrowRight' });
    expect(focusedDay(el)).to.equal('12');
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const first = q(el, '[part="day-panel"] [part~="performance-button"]');
    expect(sr(el).activeElement).to.equal(first);
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(q(el, '[part="day-panel"]')).to.equal(null);
    expect(focusedDay(el)).to.equal('12');

    await sendKeys({ press: ' ' });
    await el.updateComplete;
    expect(sr(el).activeElement).to.equal(q(el, '[part="day-panel"] [part~="performance-button"]'));
  });

  it('choosing a performance sets the selection and the ticket count and fires booking-selection', async () => {
    const { booking } = setup();
    const el = await render(booking, html`<performance-calendar event-id="1" month="2026-12" ticket-count="2"></performance-calendar>`);
    day(el, 12).click();
    await el.updateComplete;
    const button = q<HTMLButtonElement>(el, '[data-performance-id="105"]') as HTMLButtonElement;
    const fired = oneEvent(el, 'booking-selection');
    button.click();
    const event = await fired;
    expect(event.detail).to.deep.equal({ kind: 'performance', eventId: 1, performanceId: 105 });
    expect(event.composed).to.equal(true);
    expect(booking.selection.value).to.deep.include({ eventId: 1, performanceId: 105, ticketCount: 2 });
    await el.updateComplete;
    expect(q(el, '[data-performance-id="105"]')?.getAttribute('aria-pressed')).to.equal('true');
    expect(day(el, 12).getAttribute('part')).to.contain('selected');
    await expect(el).to.be.accessible();
  });

  it('follows the event chosen in the shared selection, and asks for one when there is none', async () => {
    const { api, booking } = setup();
    const el = await withBooking<PerformanceCalendar>(booking, html`<performance-calendar month="2026-12"></performance-calendar>`);
    expect(text(q(el, '[part="empty"]'))).to.equal('Choose a show to see its dates.');
    expect(api.callsTo('getEventPerformances')).to.deep.equal([]);
    await expect(el).to.be.accessible();
    booking.selection.selectEvent(7);
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.include({ eventId: 7 });
  });

  it('shows a loading state, an empty month and an error with retry, all accessible', async () => {
    let release: () => void = () => undefined;
    let mode: 'wait' | 'fail' | 'ok' = 'wait';
    const { api, booking } = setup(
      handlers(PERFORMANCES, {
        getEventPerformances: (args) => {
          if (mode === 'fail') throw networkError('getEventPerformances');
          if (mode === 'wait') return new Promise((resolve) => { release = () => resolve(performancesIn(PERFORMANCES, args)); });
          return performancesIn(PERFORMANCES, args);
        },
      }),
    );
    const el = await withBooking<PerformanceCalendar>(booking, html`<performance-calendar event-id="1" month="2027-03"></performance-calendar>`);
    expect(q(el, 'table')?.getAttribute('aria-busy')).to.equal('true');
    expect(text(q(el, '[part="status"]'))).to.equal('Loading performances…');
    await expect(el).to.be.accessible();
    release();
    await loaded(el);
    expect(text(q(el, '[part="empty"]'))).to.equal('No performances in March 2027.');
    await expect(el).to.be.accessible();

    mode = 'fail';
    const reported = oneEvent(el, 'booking-error');
    (q(el, '[part~="previous"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(text(q(el, '[role="alert"]'))).to.contain('The performances could not be loaded.');
    expect((await reported).detail).to.deep.equal({ source: 'performance-calendar', message: 'The performances could not be loaded.', status: null });
    await expect(el).to.be.accessible();
    mode = 'ok';
    (q(el, '[part="retry-button"]') as HTMLButtonElement).click();
    await waitUntil(() => qa(el, '[part~="has-performances"]').length === 0 && !q(el, '[role="alert"]'));
    expect(api.callsTo('getEventPerformances').length).to.equal(3);
  });

  it('shows a list instead of the grid in a narrow container (container query)', async () => {
    const { booking } = setup();
    const el = await render(booking, html`<performance-calendar event-id="1" month="2026-12" style="width: 320px"></performance-calendar>`);
    const shown = (s: string) => getComputedStyle(q(el, s) as Element).display !== 'none';
    expect(shown('.list-view')).to.equal(true);
    expect(shown('.grid-view')).to.equal(false);
    const days = qa(el, '[part="list-day"] h3').map((h) => text(h));
    expect(days).to.deep.equal([5, 8, 10, 12, 31].map(dayName));
    await expect(el).to.be.accessible();
    const fired = oneEvent(el, 'booking-selection');
    (q(el, '.list-view [data-performance-id="106"]') as HTMLButtonElement).click();
    expect((await fired).detail.performanceId).to.equal(106);

    el.style.width = '800px';
    await waitUntil(() => shown('.grid-view') && !shown('.list-view'));
  });

  describe('sold out, and still readable', () => {
    afterEach(async () => {
      document.documentElement.style.removeProperty('color-scheme');
      document.documentElement.style.removeProperty('background');
      await resetVisitorPreference();
    });

    for (const scheme of ['light', 'dark'] as const) {
      it(`in the ${scheme} scheme: a sold-out performance's text is at least 4.5:1, struck through and labelled, never faded`, async () => {
        document.documentElement.style.colorScheme = scheme;
        document.documentElement.style.background = 'Canvas';
        const { booking } = setup();
        const el = await render(booking);
        const surface = resolve(el, '--_surface');
        /** What the eye gets: the text's colour, faded by every opacity above it, against what it is drawn on. */
        const seen = (node: Element, on: Element) => {
          const own = getComputedStyle(on).backgroundColor;
          const behind = /rgba\([^)]*,\s*0\)|transparent/.test(own) ? surface : own;
          const colour = blend(getComputedStyle(node).color, behind, opacityOf(node, el));
          return contrast(colour, blend(behind, surface, opacityOf(on, el)));
        };
        // The day in the grid.
        const soldOutDay = day(el, 8);
        expect(soldOutDay.getAttribute('part')).to.contain('sold-out');
        expect(seen(soldOutDay.querySelector('[part="day-number"]') as Element, soldOutDay), 'the day').to.be.at.least(4.5);
        // The performance in the day's panel: disabled, which must not mean faded.
        soldOutDay.click();
        await el.updateComplete;
        const button = q<HTMLButtonElement>(el, '[part="day-panel"] [part~="performance-button"][part~="sold-out"]') as HTMLButtonElement;
        expect(button.disabled).to.equal(true);
        const time = button.querySelector('[part="time"]') as HTMLElement;
        const availability = button.querySelector('[part="availability"]') as HTMLElement;
        expect(seen(time, button), `the time (${scheme})`).to.be.at.least(4.5);
        expect(seen(availability, button), `"Sold out" (${scheme})`).to.be.at.least(4.5);
        expect(text(availability)).to.equal('Sold out');
        expect(getComputedStyle(time).textDecorationLine).to.contain('line-through');
        const soldOutColour = getComputedStyle(time).color;
        // Told apart from a bookable one by more than colour: the strike, the words, no price.
        const bookable = (day(el, 10).click(), await el.updateComplete, q(el, '[part="day-panel"] [part~="performance-button"]') as HTMLElement);
        expect(getComputedStyle(bookable.querySelector('[part="time"]') as Element).textDecorationLine).not.to.contain('line-through');
        expect(parse(getComputedStyle(bookable.querySelector('[part="time"]') as Element).color)).not.to.deep.equal(parse(soldOutColour));
        await expect(el).to.be.accessible();
      });
    }
  });

  describe('times are the venue wall clock', () => {
    it('formats in the configured zone: the same service time reads the same in London and New York', async () => {
      expect(await timesShown({ timeZone: 'Europe/London' })).to.deep.equal(['12 19:30', '31 23:30']);
      expect(await timesShown({ timeZone: 'America/New_York' })).to.deep.equal(['12 19:30', '31 23:30']);
    });

    it("uses the configured zone's rules: 01:30 on 28 March 2027 does not exist in London (clocks go forward)", async () => {
      const gap = [performanceFixture(301, '2027-03-28T01:30:00')];
      const { booking: london } = setup(handlers(gap), { timeZone: 'Europe/London' });
      const a = await render(london, html`<performance-calendar event-id="1" month="2027-03"></performance-calendar>`);
      const { booking: newYork } = setup(handlers(gap), { timeZone: 'America/New_York' });
      const b = await render(newYork, html`<performance-calendar event-id="1" month="2027-03"></performance-calendar>`);
      expect(text(day(a, 28).querySelector('[part="day-times"]'))).to.equal('02:30');
      expect(text(day(b, 28).querySelector('[part="day-times"]'))).to.equal('01:30');
    });
  });

  it('leaves out performances whose date is not a service DateTime, and runs nothing', async () => {
    const hostile = [
      performanceFixture(401, '<img src=x onerror="window.__xss=true">'),
      performanceFixture(402, '2026-12-12T19:30:00'),
    ];
    const { booking } = setup(handlers(hostile));
    const el = await render(booking);
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['12']);
    expect(sr(el).querySelector('img')).to.equal(null);
    expect((window as Window & { __xss?: boolean }).__xss).to.equal(undefined);
  });

  it('survives being removed from the page and added again', async () => {
    const { api, booking } = setup();
    const el = await render(booking);
    const parent = el.parentElement as HTMLElement;
    el.remove();
    parent.append(el);
    await el.updateComplete;
    (q(el, '[part~="next"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(lastPerformancesCall(api)).to.deep.include({ dateFrom: '2027-01-01' });
    expect(qa(el, '[part~="has-performances"]').map((b) => b.dataset.day)).to.deep.equal(['9']);
  });
});
