/**
 * In a browser without the HTML Sanitizer API (as Safari), DOMPurify is
 * loaded only when a field that may hold HTML is shown: a page that only
 * lists shows never downloads it. (Its own file: module state is per page.)
 * With the Sanitizer API it is never loaded (test/elements/sanitize.test.ts).
 */
import './helpers/without-sanitizer-api.ts';
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { purifierLoaded } from '../../src/sanitize.ts';
import { fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { eventDetailFixture, eventFixture, reviewsFixture, reviewsPage, venueFixture } from './helpers/catalogue-fixtures.ts';

describe('<event-list> loads the sanitizer lazily', () => {
  afterEach(() => resetSharedBookings());

  it('not for the cards, and on the first description shown', async () => {
    const api = fakeApi({
      getEvents: () => ({ Events: [eventFixture(1), eventFixture(2)] }),
      getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId) }),
      getVenue: () => ({ Venue: venueFixture() }),
      getEventReviews: (args) => reviewsPage(reviewsFixture(0), args),
    });
    const el = await withBooking<EventList>(testBooking(api), html`<event-list></event-list>`);
    const root = el.shadowRoot as ShadowRoot;
    await waitUntil(() => root.querySelectorAll('[part~="card-button"]').length === 2);
    expect(purifierLoaded()).to.equal(false);

    (root.querySelector('[part~="card-button"]') as HTMLButtonElement).click();
    await waitUntil(() => root.querySelector('[part="description"] em'), 'the description was not rendered as markup');
    expect(purifierLoaded()).to.equal(true);
  });
});
