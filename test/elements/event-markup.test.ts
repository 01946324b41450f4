/**
 * <event-list> puts schema.org JSON-LD for what it shows into its light DOM:
 * checked by the structured-data validator (Google's Event fields, schema.org's vocabulary).
 * Its chunk is fetched once the list has rested (MARKUP_QUIET_MS), never during a visitor's walk.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import { MARKUP_QUIET_MS } from '../../src/elements/event-list/event-list.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import sinon from 'sinon';
import { fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { eventDetailFixture, eventFixture, performanceFixture, reviewsFixture, reviewsPage, venueFixture } from './helpers/catalogue-fixtures.ts';
import { validateJsonLd } from './helpers/structured-data.ts';

const scripts = (el: Element) => [...el.querySelectorAll('script[type="application/ld+json"][data-stagedoor-markup]')];
const items = (el: Element) => scripts(el).flatMap((s) => [JSON.parse(s.textContent ?? '')].flat()) as Array<Record<string, any>>;

async function schemaOrg() {
  return (await fetch(new URL('/node_modules/schemaorg-jsd/dist/schemaorg.jsonld', location.href))).json();
}

function api() {
  return fakeApi({
    getEvents: () => ({ Events: [eventFixture(1), eventFixture(2, { Name: 'Ends </script><script>window.__x=1</script> here' })] }),
    getEvent: ({ eventId }) => ({ Event: eventDetailFixture(eventId, { Description: '<p>A <em>dazzling</em> musical.</p><script>no</script></script>' }) }),
    getVenue: () => ({ Venue: venueFixture() }),
    getEventReviews: (args) => reviewsPage(reviewsFixture(0), args),
    getEventPerformances: ({ eventId }) => ({
      EventId: eventId,
      Performances: [
        performanceFixture(12, '2026-07-02T19:30:00'),
        performanceFixture(11, '2026-12-01T19:30:00', { TotalAvailableTickesCount: 0 }),
        ...Array.from({ length: 12 }, (_, i) => performanceFixture(100 + i, `2027-01-${String(10 + i)}T14:30:00`)),
      ],
    }),
  });
}

/** Whether the page has asked for the markup's code (its module, as the test server names it). */
const markupFetched = () => performance.getEntriesByType('resource').some((e) => /\/markup\/event-markup\b/.test(e.name));

describe('<event-list> JSON-LD for search engines', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  afterEach(() => {
    clock?.restore();
    clock = undefined;
    resetSharedBookings();
  });

  /**
   * Until `check` holds: the controlled clock's due timers run, moved on by `step` ms each time (0: not
   * moved), real frames between (the network's answers).
   */
  async function until(check: () => unknown, what: string, step = 0): Promise<void> {
    for (let frame = 0; frame < 300; frame++) {
      await clock!.tickAsync(step);
      if (check()) return;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    throw new Error(what);
  }

  // First in this file: the page has not fetched the markup's code yet (once it has, changes are marked sooner).
  it('fetches nothing for it while the visitor walks on within the quiet time; the page at rest, what it shows then is marked', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', ...('requestIdleCallback' in window ? (['requestIdleCallback', 'cancelIdleCallback'] as const) : [])] });
    const el = await withBooking<EventList>(testBooking(api()), html`<event-list></event-list>`);
    await until(() => el.shadowRoot!.querySelector('[part~="card-button"]'), 'the list did not show');
    await clock.tickAsync(MARKUP_QUIET_MS - 100);
    expect(markupFetched(), 'markup fetched while the list had not rested').to.equal(false);

    // The visitor's step, before the quiet time is up: the time starts again from what it shows.
    (el.shadowRoot!.querySelector('[part~="card-button"]') as HTMLButtonElement).click();
    await until(() => el.shadowRoot!.querySelector('[data-focus="detail"]'), 'the detail did not show');
    await clock.tickAsync(MARKUP_QUIET_MS - 100);
    expect(markupFetched(), 'markup fetched within the quiet time after a step').to.equal(false);
    expect(scripts(el)).to.have.length(0);

    // At rest (an engine may still render the detail a little later: the time counts from its last change).
    await until(() => items(el).length === 10, 'no JSON-LD for the detail once the page rested', 50);
    expect(items(el)[0]).to.deep.include({ '@type': 'TheaterEvent', startDate: '2026-07-02T19:30:00+01:00' });
  });

  it('gives the list, then the detail\'s next performances, one script replaced, valid for the search engine', async () => {
    const el = await withBooking<EventList>(testBooking(api()), html`<event-list></event-list>`);
    await waitUntil(() => items(el).length === 2, 'no JSON-LD for the list');
    expect(scripts(el)).to.have.length(1);
    // No field can close the script: < is written \u003c.
    expect(scripts(el)[0]!.textContent).not.to.include('<');
    expect(items(el)[1]!.name).to.equal('Ends </script><script>window.__x=1</script> here');
    expect((window as { __x?: number }).__x).to.equal(undefined);

    (el.shadowRoot!.querySelector('[part~="card-button"]') as HTMLButtonElement).click();
    await waitUntil(() => items(el).length === 10, 'no JSON-LD for the detail');
    expect(scripts(el)).to.have.length(1);
    const [first, second] = items(el);
    expect(first).to.deep.include({ '@type': 'TheaterEvent', startDate: '2026-07-02T19:30:00+01:00', description: 'A dazzling musical.' });
    expect(second!.startDate).to.equal('2026-12-01T19:30:00+00:00');
    expect(first!.location).to.deep.equal({
      '@type': 'Place', name: 'The Playhouse',
      address: { '@type': 'PostalAddress', streetAddress: '1 Stage Street', addressLocality: 'London', postalCode: 'WC2N 5DU' },
    });
    expect(first!.offers).to.deep.include({ price: 25, priceCurrency: 'GBP', availability: 'https://schema.org/InStock', url: location.href.replace(/#.*/, '') });
    expect(second!.offers.availability).to.equal('https://schema.org/SoldOut');

    const issues = await validateJsonLd(items(el), await schemaOrg());
    expect(issues.filter((i) => i.severity === 'ERROR')).to.deep.equal([]);
    // What the service does not give: an end time and the day sales opened.
    expect([...new Set(issues.flatMap((i) => i.fieldNames ?? []))].sort()).to.deep.equal(['endDate', 'offers.validFrom']);

    el.remove();
    expect(document.querySelectorAll('script[data-stagedoor-markup]')).to.have.length(0);
  });
});
