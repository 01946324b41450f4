/**
 * A fake api with two shows, for the tests of links and the flow in the address. Apart from
 * catalogue-fixtures.ts: fake-api.ts registers the real <booking-provider>, which a test of the
 * order of registration (context-root.test.ts) must be able to do itself.
 */
import { eventDetailFixture, eventFixture, reviewsFixture, reviewsPage, venueFixture } from './catalogue-fixtures.ts';
import { fakeApi } from './fake-api.ts';

/** A catalogue of two shows, Wicked (1042) and Hamlet (7), with their details, venue and no reviews. */
export const twoShowsApi = () =>
  fakeApi({
    getEvents: () => ({ Events: [eventFixture(1042, { Name: 'Wicked' }), eventFixture(7, { Name: 'Hamlet' })] }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Name: eventId === 7 ? 'Hamlet' : 'Wicked' }) }),
    getVenue: ({ venueId }) => ({ Venue: venueFixture(venueId) }),
    getEventReviews: (args) => reviewsPage(reviewsFixture(0), args),
  });
