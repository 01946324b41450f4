import { expect, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import type { EventsResult } from '../../src/api/types.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { whenSanitizerReady } from '../../src/sanitize.ts';
import { apiError, fakeApi, networkError, testBooking, withBooking, type Handlers } from './helpers/fake-api.ts';
import {
  EVENT_TYPES,
  eventDetailFixture,
  eventFixture,
  reviewsFixture,
  reviewsPage,
  venueFixture,
} from './helpers/catalogue-fixtures.ts';

const root = (el: EventList) => el.shadowRoot as ShadowRoot;
const q = <T extends Element = HTMLElement>(el: EventList, selector: string) => root(el).querySelector<T>(selector);
const qa = <T extends Element = HTMLElement>(el: EventList, selector: string) => [...root(el).querySelectorAll<T>(selector)];
const cardNames = (el: EventList) => qa(el, '[part~="card-button"]').map((b) => b.textContent?.trim());
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const EVENTS = [
  eventFixture(1, { Name: 'Wicked', EventType: 1 }),
  eventFixture(2, { Name: 'Hamlet', EventType: 2, OfferPrice: 19.5, OfferLabel: 'Save 20%', AgeRating: null }),
  // The service repeats the current price as OfferPrice when nothing is on offer.
  eventFixture(3, { Name: 'Stand-up Night', EventType: 6, EventMinimumPrice: 0, CurrentPrice: 30, OfferPrice: 30 }),
  eventFixture(4, { Name: 'Family Fun', EventType: 3, OfferPrice: 45, OfferLabel: 'Family ticket' }),
];

function detailHandlers(extra: Handlers = {}, reviews = reviewsFixture(12)): Handlers {
  return {
    getEvents: (args) => ({ Events: args?.type === undefined ? EVENTS : EVENTS.filter((e) => e.EventType === args.type) }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Name: EVENTS.find((e) => e.EventId === eventId)?.Name ?? 'X' }) }),
    getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId) }),
    getEventReviews: (args) => reviewsPage(reviews, args),
    getEventTypes: () => ({ EventTypes: EVENT_TYPES }),
    ...extra,
  };
}

async function loaded(el: EventList): Promise<void> {
  await waitUntil(() => qa(el, '[part~="card-button"]').length > 0 || q(el, '[part~="empty"]') || q(el, '[role="alert"]'), 'list did not load');
  await el.updateComplete;
}

async function detailLoaded(el: EventList): Promise<void> {
  await waitUntil(() => q(el, '[part~="venue"]') && q(el, '[part~="rating"]'), 'detail did not load');
  await el.updateComplete;
}

describe('<event-list>', () => {
  afterEach(() => resetSharedBookings());

  it('renders a card per live event from Get Events, with its image, name, tag line, running time, prices and age', async () => {
    const api = fakeApi(detailHandlers());
    const el = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    await loaded(el);

    expect(api.callsTo('getEvents')).to.deep.equal([{}]);
    expect(cardNames(el)).to.deep.equal(['Wicked', 'Hamlet', 'Stand-up Night', 'Family Fun']);
    const [wicked, hamlet, standUp, family] = qa(el, '[part~="card"]');
    expect(text(wicked?.querySelector('[part="tag-line"]'))).to.equal('The tag line of show 1');
    expect(text(wicked?.querySelector('[part="running-time"]'))).to.contain('2 hours 30 minutes');
    expect(text(wicked?.querySelector('[part="price"]'))).to.equal('From £25.00');
    expect(text(wicked?.querySelector('[part="age-rating"]'))).to.equal('Age 12+');
    expect(wicked?.querySelector('[part="offer"]')).to.equal(null);
    // The offer price with its label; no age rating when the service gives none.
    expect(text(hamlet?.querySelector('[part="offer"]'))).to.equal('Save 20% Offer £19.50, usually £45.00');
    expect(hamlet?.querySelector('[part="age-rating"]')).to.equal(null);
    // No minimum price: the current price is the "from" price.
    expect(text(standUp?.querySelector('[part="price"]'))).to.equal('From £30.00');
    expect(standUp?.querySelector('[part="offer"]')).to.equal(null);
    // A label without a lower price is still shown, without a price.
    expect(text(family?.querySelector('[part="offer"]'))).to.equal('Family ticket');

    const img = wicked?.querySelector('img') as HTMLImageElement;
    expect(img.getAttribute('srcset')).to.equal(
      'https://img.example/1/320.jpg 320w, https://img.example/1/640.jpg 640w, https://img.example/1/1280.jpg 1280w',
    );
    expect(img.getAttribute('sizes')).to.be.a('string').and.not.equal('');
    expect(img.getAttribute('loading')).to.equal('lazy');
    expect(img.alt).to.equal('Wicked');
    expect(img.getAttribute('src')).to.equal('https://img.example/1/small.jpg');
    expect(text(q(el, '[part="status"]'))).to.equal('4 shows');
    await expect(el).to.be.accessible();
  });

  it('shows skeleton cards of the same size as the loaded cards while loading', async () => {
    const pending = deferred<EventsResult>();
    const api = fakeApi({ getEvents: () => pending.promise });
    const el = await withBooking<EventList>(testBooking(api), html`<event-list style="width: 700px"></event-list>`);
    const skeletons = qa(el, '[part~="card"][part~="skeleton"]');
    expect(skeletons.length).to.be.greaterThan(0);
    expect(q(el, '[part~="list"]')?.getAttribute('aria-busy')).to.equal('true');
    expect(text(q(el, '[part="status"]'))).to.equal('Loading shows…');
    await expect(el).to.be.accessible();
    const before = skeletons[0]?.getBoundingClientRect();
    const beforeMedia = skeletons[0]?.querySelector('[part="card-media"]')?.getBoundingClientRect();

    pending.resolve({ Events: [eventFixture(1, { Name: 'Wicked' }), eventFixture(2, { Name: 'Hamlet' })] });
    await loaded(el);
    const card = qa(el, '[part~="card"]')[0];
    const after = card?.getBoundingClientRect();
    const afterMedia = card?.querySelector('[part="card-media"]')?.getBoundingClientRect();
    expect(after?.width).to.equal(before?.width);
    expect(after?.height).to.equal(before?.height);
    expect(afterMedia?.height).to.equal(beforeMedia?.height);
    expect(after?.top).to.equal(before?.top);
  });

  it('says so when there are no shows (empty state)', async () => {
    const api = fakeApi({ getEvents: () => ({ Events: [] }) });
    const el = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    await loaded(el);
    expect(text(q(el, '[part~="empty"]'))).to.equal('There are no shows on sale just now.');
    await expect(el).to.be.accessible();
  });

  it('shows an error with role="alert" and loads again on retry', async () => {
    let fail = true;
    const api = fakeApi({
      getEvents: () => {
        if (fail) throw networkError('getEvents');
        return { Events: EVENTS };
      },
    });
    const reported = oneEvent(document, 'booking-error');
    const el = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    await loaded(el);
    const alert = q(el, '[role="alert"]');
    expect(text(alert)).to.contain('The shows could not be loaded.');
    // The event says what the visitor was told (state/failure.ts: no answer adds "Check your connection.").
    expect((await reported).detail).to.deep.equal({ source: 'event-list', message: 'The shows could not be loaded. Check your connection.', status: null });
    await expect(el).to.be.accessible();
    fail = false;
    (alert?.querySelector('button') as HTMLButtonElement).click();
    await waitUntil(() => cardNames(el).length === 4);
    expect(api.callsTo('getEvents').length).to.equal(2);
    expect(q(el, '[role="alert"]')).to.equal(null);
  });

  it('shows one type of event with event-type', async () => {
    const api = fakeApi(detailHandlers());
    const el = await withBooking<EventList>(testBooking(api), html`<event-list event-type="2"></event-list>`);
    await loaded(el);
    expect(api.callsTo('getEvents')).to.deep.equal([{ type: 2 }]);
    expect(cardNames(el)).to.deep.equal(['Hamlet']);
    expect(q(el, 'select')).to.equal(null);
  });

  it('offers a type filter built from the System event types when show-type-filter is set', async () => {
    const api = fakeApi(detailHandlers());
    const el = await withBooking<EventList>(testBooking(api), html`<event-list show-type-filter></event-list>`);
    await loaded(el);
    await waitUntil(() => (q<HTMLSelectElement>(el, 'select')?.options.length ?? 0) > 1);
    const select = q<HTMLSelectElement>(el, 'select') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent?.trim())).to.deep.equal(['All shows', 'Musical', 'Play', 'Comedy']);
    await expect(el).to.be.accessible();

    select.value = '6';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => cardNames(el).length === 1);
    expect(cardNames(el)).to.deep.equal(['Stand-up Night']);
    expect(api.callsTo('getEvents').at(-1)).to.deep.equal({ type: 6 });

    select.value = '';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => cardNames(el).length === 4);
    expect(api.callsTo('getEvents').at(-1)).to.deep.equal({});
  });

  it('starts the filter at event-type and says when a type has no shows', async () => {
    const api = fakeApi(detailHandlers());
    const el = await withBooking<EventList>(testBooking(api), html`<event-list show-type-filter event-type="2"></event-list>`);
    await loaded(el);
    await waitUntil(() => (q<HTMLSelectElement>(el, 'select')?.options.length ?? 0) > 1);
    const select = q<HTMLSelectElement>(el, 'select') as HTMLSelectElement;
    expect(select.value).to.equal('2');
    api.calls.length = 0;
    select.value = '1';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => cardNames(el)[0] === 'Wicked');
    expect(api.callsTo('getEvents')).to.deep.equal([{ type: 1 }]);
  });

  it("shows one venue's events with venue-id", async () => {
    const api = fakeApi({
      getVenueEvents: ({ venueId }) => ({ Events: venueId === 7 ? [EVENTS[1] ?? eventFixture(9)] : [] }),
    });
    const el = await withBooking<EventList>(testBooking(api), html`<event-list venue-id="7"></event-list>`);
    await loaded(el);
    expect(api.callsTo('getVenueEvents')).to.deep.equal([{ venueId: 7 }]);
    expect(api.callsTo('getEvents')).to.deep.equal([]);
    expect(cardNames(el)).to.deep.equal(['Hamlet']);
  });

  it('selecting a card by keyboard sets the selection, fires booking-selection and shows the detail', async () => {
    const api = fakeApi(detailHandlers());
    const booking = testBooking(api);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await loaded(el);
    const button = qa(el, '[part~="card-button"]')[1] as HTMLButtonElement;
    button.focus();
    const fired = oneEvent(el, 'booking-selection');
    await sendKeys({ press: 'Enter' });
    const event = await fired;
    expect(event.detail).to.deep.equal({ kind: 'event', eventId: 2, performanceId: null });
    expect(event.bubbles && event.composed).to.equal(true);
    expect(booking.selection.value.eventId).to.equal(2);

    await detailLoaded(el);
    expect(api.callsTo('getEvent')).to.deep.equal([{ eventId: 2 }]);
    const heading = q(el, 'h2');
    expect(text(heading)).to.equal('Hamlet');
    expect(root(el).activeElement).to.equal(heading);
  });

  it('keeps focus on a loading heading while the detail loads, then moves it to the show', async () => {
    const pending = deferred<{ Event: ReturnType<typeof eventDetailFixture> }>();
    const api = fakeApi(detailHandlers({ getEvent: () => pending.promise }));
    const el = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    await loaded(el);
    (qa(el, '[part~="card-button"]')[0] as HTMLButtonElement).click();
    await waitUntil(() => q(el, '[part="detail loading"]'));
    await el.updateComplete;
    expect(text(root(el).activeElement)).to.equal('Loading the show…');
    expect(text(q(el, '[part="status"]'))).to.equal('Loading the show…');
    await expect(el).to.be.accessible();
    pending.resolve({ Event: eventDetailFixture(1, { Name: 'Wicked' }) });
    await detailLoaded(el);
    expect(root(el).activeElement).to.equal(q(el, 'h2'));
    expect(text(q(el, '[part="status"]'))).to.equal('Wicked');
  });

  it('shows the detail: sanitized description and offer, notices, cast with links, venue', async () => {
    const api = fakeApi(detailHandlers());
    const booking = testBooking(api);
    booking.selection.selectEvent(1);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await detailLoaded(el);
    await whenSanitizerReady();
    await waitUntil(() => q(el, '[part="description"] em'), 'description markup');
    await el.updateComplete;

    expect(text(q(el, '[part="description"]'))).to.equal('A dazzling musical. More');
    const more = q<HTMLAnchorElement>(el, '[part="description"] a') as HTMLAnchorElement;
    expect(more.getAttribute('href')).to.equal('https://shows.example/about');
    expect(more.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(more.getAttribute('target')).to.equal('_blank');
    expect(q(el, '[part="long-offer"] li')).to.not.equal(null);
    expect(text(q(el, '[part="short-offer"]'))).to.equal('Tuesday saver');
    expect(text(q(el, '[part="notice"]'))).to.equal('Important: Latecomers will not be admitted.');
    const facts = qa(el, '[part="facts"] > div').map((d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))]);
    expect(facts).to.deep.equal([
      ['Minimum age', 'Under 5s not admitted'],
      ['Accessibility', 'Step-free access to the stalls.'],
      ['Content warnings', 'Strobe lighting.'],
    ]);

    const member = q(el, '[part="cast-member"]');
    expect(text(member)).to.contain('Ada Lovelace');
    expect(member?.querySelector('img')?.getAttribute('src')).to.equal('https://img.example/cast/ada.jpg');
    const links = [...(member?.querySelectorAll('a') ?? [])];
    // The javascript: link is dropped; the website stays.
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://ada.example/']);

    const venue = q(el, '[part="venue"]');
    expect(text(venue)).to.contain('The Playhouse');
    expect(text(venue)).to.contain('1 Stage Street, London, WC2N 5DU');
    const travel = [...(venue?.querySelectorAll('dl > div') ?? [])].map((d) => [text(d.querySelector('dt')), text(d.querySelector('dd'))]);
    expect(travel).to.deep.equal([['Nearest Tube', 'Embankment'], ['Train', 'Charing Cross']]);
    expect(q<HTMLAnchorElement>(el, '[part="plan-link"]')?.getAttribute('href')).to.equal('https://img.example/plans/playhouse.png');
    await waitUntil(() => q(el, '[part="venue-info"] b'));
    expect(api.callsTo('getVenue')).to.deep.equal([{ venueId: 10 }]);
    await expect(el).to.be.accessible();
  });

  it('pages the reviews with from/count and shows the average and the count', async () => {
    const api = fakeApi(detailHandlers({}, reviewsFixture(12)));
    const booking = testBooking(api);
    booking.selection.selectEvent(1);
    const el = await withBooking<EventList>(booking, html`<event-list reviews-per-page="5"></event-list>`);
    await detailLoaded(el);

    expect(api.callsTo('getEventReviews')).to.deep.equal([{ eventId: 1, from: 0, count: 5 }]);
    expect(text(q(el, '[part="rating"]'))).to.equal('Average rating 2.8 out of 5, from 12 reviews');
    const names = () => qa(el, '[part="review"] strong').map((s) => s.textContent);
    expect(names()).to.deep.equal(['Reviewer 1', 'Reviewer 2', 'Reviewer 3', 'Reviewer 4', 'Reviewer 5']);
    const [newer, older] = qa<HTMLButtonElement>(el, '[part="reviews-pager"] button');
    expect(newer?.disabled).to.equal(true);

    older?.click();
    await waitUntil(() => names()[0] === 'Reviewer 6');
    expect(api.callsTo('getEventReviews').at(-1)).to.deep.equal({ eventId: 1, from: 5, count: 5 });
    expect(text(q(el, '[part="reviews-pager"]'))).to.contain('Reviews 6–10 of 12');

    qa<HTMLButtonElement>(el, '[part="reviews-pager"] button')[1]?.click();
    await waitUntil(() => names()[0] === 'Reviewer 11');
    expect(names()).to.deep.equal(['Reviewer 11', 'Reviewer 12']);
    expect(qa<HTMLButtonElement>(el, '[part="reviews-pager"] button')[1]?.disabled).to.equal(true);
    const stars = q(el, '[part="review-stars"]');
    expect(stars?.getAttribute('aria-label')).to.equal('1 out of 5 stars');
    await expect(el).to.be.accessible();

    qa<HTMLButtonElement>(el, '[part="reviews-pager"] button')[0]?.click();
    await waitUntil(() => names()[0] === 'Reviewer 6');
    expect(api.callsTo('getEventReviews').at(-1)).to.deep.equal({ eventId: 1, from: 5, count: 5 });
  });

  it('says the show is no longer available when Get Event detail answers 404', async () => {
    const api = fakeApi(detailHandlers({ getEvent: () => { throw apiError('getEvent', 404); } }));
    const booking = testBooking(api);
    booking.selection.selectEvent(99);
    const reported = oneEvent(document, 'booking-error');
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await waitUntil(() => q(el, '[role="alert"]'));
    expect((await reported).detail).to.deep.equal({ source: 'event-list', message: 'Sorry, this show is no longer available.', status: 404 });
    expect(text(q(el, '[role="alert"]'))).to.equal('Sorry, this show is no longer available.');
    expect(q(el, '[part~="detail"]')?.getAttribute('part')).to.equal('detail unavailable');
    await expect(el).to.be.accessible();
  });

  it('shows a retryable error when the detail fails for another reason', async () => {
    let fail = true;
    const api = fakeApi(detailHandlers({
      getEvent: ({ eventId }) => {
        if (fail) throw apiError('getEvent', 500);
        return { Event: eventDetailFixture(eventId) };
      },
    }));
    const booking = testBooking(api);
    booking.selection.selectEvent(1);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await waitUntil(() => q(el, '[role="alert"] button'));
    expect(text(q(el, '[role="alert"]'))).to.contain('The show could not be loaded.');
    fail = false;
    (q(el, '[role="alert"] button') as HTMLButtonElement).click();
    await detailLoaded(el);
    expect(text(q(el, 'h2'))).to.equal('Show 1');
  });

  it('goes back to all shows: clears the selection, fires the event, focuses the card', async () => {
    const api = fakeApi(detailHandlers());
    const booking = testBooking(api);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await loaded(el);
    (qa(el, '[part~="card-button"]')[2] as HTMLButtonElement).click();
    await detailLoaded(el);
    await expect(el).to.be.accessible();

    const fired = oneEvent(el, 'booking-selection');
    (q(el, '[part="back-button"]') as HTMLButtonElement).click();
    expect((await fired).detail).to.deep.equal({ kind: 'event', eventId: null, performanceId: null });
    expect(booking.selection.value.eventId).to.equal(null);
    await loaded(el);
    // The list was not fetched again, and focus is back where the visitor left.
    expect(api.callsTo('getEvents').length).to.equal(1);
    expect((root(el).activeElement as HTMLElement | null)?.textContent?.trim()).to.equal('Stand-up Night');
  });

  it('with event-id shows that event only: no list, no back control', async () => {
    const api = fakeApi(detailHandlers());
    const el = await withBooking<EventList>(testBooking(api), html`<event-list event-id="3"></event-list>`);
    await detailLoaded(el);
    expect(api.callsTo('getEvents')).to.deep.equal([]);
    expect(api.callsTo('getEvent')).to.deep.equal([{ eventId: 3 }]);
    expect(q(el, '[part="back-button"]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('follows the shared selection made elsewhere', async () => {
    const api = fakeApi(detailHandlers());
    const booking = testBooking(api);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await loaded(el);
    booking.selection.selectEvent(2);
    await detailLoaded(el);
    expect(text(q(el, 'h2'))).to.equal('Hamlet');
  });

  it('survives being removed from the page and added again', async () => {
    const api = fakeApi(detailHandlers());
    const booking = testBooking(api);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await loaded(el);
    const parent = el.parentElement as HTMLElement;
    el.remove();
    booking.selection.selectEvent(1);
    parent.append(el);
    await detailLoaded(el);
    expect(text(q(el, 'h2'))).to.equal('Wicked');
    (q(el, '[part="back-button"]') as HTMLButtonElement).click();
    await loaded(el);
    expect(cardNames(el)).to.deep.equal(['Wicked', 'Hamlet', 'Stand-up Night', 'Family Fun']);
  });
});
