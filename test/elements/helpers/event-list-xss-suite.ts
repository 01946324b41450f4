/**
 * Every hostile string in every field <event-list> renders: the HTML fields
 * (Description, LongOfferText, Venue Info) come out sanitized, every plain
 * field shows the string literally, and nothing runs. Run once per sanitizer
 * engine (event-list-xss.test.ts with the browser's Sanitizer API,
 * event-list-xss-dompurify.test.ts without it).
 */
import { expect, html, nextFrame } from '@open-wc/testing';
import { waitUntil } from './wait.ts';
import type { EventInfo } from '../../../src/api/types.ts';
import '../../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../../src/elements/event-list/event-list.ts';
import { resetSharedBookings } from '../../../src/state/booking.ts';
import { sanitizerEngine, whenSanitizerReady } from '../../../src/sanitize.ts';
import { fakeApi, testBooking, withBooking } from './fake-api.ts';
import { eventDetailFixture, eventFixture, venueFixture } from './catalogue-fixtures.ts';
import { XSS_PAYLOADS } from './xss-payloads.ts';
import { hasSanitizerApi, lacksSanitizerApi } from './sanitize-suite.ts';

type XssWindow = Window & { __xss?: boolean };
const flag = () => (window as XssWindow).__xss;
const sr = (el: EventList) => el.shadowRoot as ShadowRoot;
/** The text nodes directly inside an element (without Lit's markers or nested elements). */
const ownText = (node: Node | null | undefined) =>
  [...(node?.childNodes ?? [])].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.nodeValue).join('');
const part = (scope: ParentNode, name: string) => scope.querySelector<HTMLElement>(`[part~="${name}"]`);

const FORBIDDEN = 'script, iframe, object, embed, svg, math, style, template, noscript, form, input, button:not([part]), link, meta, base';

function hostileEvent(id: number, p: string): EventInfo {
  return eventDetailFixture(id, {
    VenueId: id,
    Name: p,
    TagLine: p,
    RunningTime: p,
    OfferLabel: p,
    OfferPrice: 10,
    ShortOfferText: p,
    Description: p,
    LongOfferText: p,
    ImportantNotice: p,
    MinimumAge: p,
    Accessibility: p,
    ContentWarnings: p,
    SmallImageUrl: p,
    MainImageUrl: p,
    DetailImageUrl: p,
    Images: [{ Width: 100, Height: 50, Url: p }, { Width: 200, Height: 100, Url: `https://img.example/a,b c.jpg` }],
    Cast: [
      {
        Name: p,
        Description: p,
        Nationality: p,
        ActorUrlPath: p,
        Image: { Width: 10, Height: 10, Url: p },
        BirthDate: null,
        ExternalLinks: [
          { ExternalLinkType: p, Link: p, DisplayTitle: p },
          { ExternalLinkType: p, Link: 'https://cast.example/page', DisplayTitle: p },
        ],
      },
    ],
  });
}

/** Nothing executable inside the element's shadow root. */
function assertInert(el: EventList, payload: string): void {
  const root = sr(el);
  expect(root.querySelectorAll(FORBIDDEN).length, `forbidden element from ${payload}`).to.equal(0);
  for (const node of root.querySelectorAll('*')) {
    for (const attr of node.attributes) {
      expect(attr.name.startsWith('on'), `${attr.name} from ${payload}`).to.equal(false);
      if (attr.name === 'href') expect(attr.value, `href from ${payload}`).to.match(/^(https?:\/\/|mailto:)/i);
      if (attr.name === 'src') expect(attr.value, `src from ${payload}`).to.match(/^https?:\/\//i);
    }
  }
}

export function eventListXssSuite(engine: 'platform' | 'dompurify'): void {
if (engine === 'platform' && !hasSanitizerApi()) return lacksSanitizerApi('<event-list> against hostile content');
describe(`<event-list> against hostile content (${engine === 'platform' ? 'the Sanitizer API' : 'DOMPurify'})`, () => {
  beforeEach(() => {
    delete (window as XssWindow).__xss;
  });
  afterEach(() => resetSharedBookings());

  it(`sanitizes with ${engine === 'platform' ? "the browser's Sanitizer API" : 'DOMPurify'} in this page`, () => {
    expect(sanitizerEngine()).to.equal(engine);
  });

  it(`shows ${XSS_PAYLOADS.length} hostile strings literally in the cards' plain fields and runs none`, async () => {
    const events = XSS_PAYLOADS.map((p, i) => hostileEvent(i + 1, p));
    const api = fakeApi({
      getEvents: () => ({ Events: events }),
      getEventTypes: () => ({ EventTypes: XSS_PAYLOADS.map((p, i) => ({ EventTypeId: i + 1, EventTypeName: p })) }),
    });
    const el = await withBooking<EventList>(testBooking(api), html`<event-list show-type-filter></event-list>`);
    await waitUntil(() => sr(el).querySelectorAll('[part~="card-button"]').length === events.length);
    await waitUntil(() => (sr(el).querySelector('select')?.options.length ?? 0) === XSS_PAYLOADS.length + 1);
    const options = [...(sr(el).querySelector('select')?.options ?? [])].slice(1);
    // An <option> shows its text with whitespace collapsed; its text node holds the string as given.
    expect(options.map((o) => ownText(o))).to.deep.equal([...XSS_PAYLOADS]);
    expect(options.every((o) => o.children.length === 0)).to.equal(true);
    await nextFrame();
    const cards = [...sr(el).querySelectorAll<HTMLElement>('li[part~="card"]')];
    cards.forEach((card, i) => {
      const p = XSS_PAYLOADS[i] ?? '';
      expect(part(card, 'card-button')?.textContent).to.equal(p);
      expect(part(card, 'tag-line')?.textContent).to.equal(p);
      expect(part(card, 'running-time')?.textContent).to.contain(p);
      expect(part(card, 'offer')?.querySelector('.badge')?.textContent).to.equal(p);
      expect(card.querySelector('img')?.getAttribute('alt')).to.equal(p);
      // The unsafe image address is dropped; the safe one is encoded so it cannot split the srcset.
      expect(card.querySelector('img')?.getAttribute('srcset')).to.equal('https://img.example/a%2Cb%20c.jpg 200w');
      for (const name of ['card-button', 'tag-line', 'running-time']) {
        expect(part(card, name)?.children.length, `${name} got elements`).to.equal(0);
      }
    });
    assertInert(el, 'the list');
    await new Promise((resolve) => setTimeout(resolve));
    expect(flag()).to.equal(undefined);
  });

  it('sanitizes the HTML fields and shows the plain fields literally in the detail, for every hostile string', async function () {
    this.timeout(30_000); // a detail per hostile string: about 10 s in WebKit on a busy machine
    await whenSanitizerReady();
    let current = 0;
    const api = fakeApi({
      getEvent: ({ eventId }) => ({ Event: hostileEvent(eventId, XSS_PAYLOADS[eventId - 1] ?? '') }),
      getVenue: () => {
        const p = XSS_PAYLOADS[current - 1] ?? '';
        return { Venue: venueFixture(10, { Name: p, Info: p, Address: p, City: p, Postcode: p, NearestTube: p, Train: p, PlanLink: p }) };
      },
      getEventReviews: () => {
        const p = XSS_PAYLOADS[current - 1] ?? '';
        return {
          Reviews: [{ ConsumerName: p, Stars: 4, CreatedAt: p, Content: p }],
          ReviewsCount: 1,
          AverageRating: 4,
          HighestPossibleRating: 5,
          CurrentReviewsCount: 1,
          CurrentReviewsFrom: 0,
        };
      },
    });
    const booking = testBooking(api);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    const fieldOf = (sel: string) => sr(el).querySelector<HTMLElement>(sel);

    for (let i = 1; i <= XSS_PAYLOADS.length; i++) {
      const p = XSS_PAYLOADS[i - 1] ?? '';
      current = i;
      booking.selection.selectEvent(i);
      await waitUntil(
        () => fieldOf('h2')?.textContent === p && fieldOf('[part="venue"] h3')?.textContent === p && fieldOf('[part="review"]'),
        `detail ${i} did not render`,
      );
      await el.updateComplete;
      expect(fieldOf('[part="short-offer"]')?.textContent).to.equal(p);
      expect(fieldOf('[part="notice"]')?.textContent).to.equal(`Important: ${p}`);
      const facts = [...sr(el).querySelectorAll('[part="facts"] dd')].map((d) => d.textContent);
      expect(facts).to.deep.equal([p, p, p]);
      expect(fieldOf('.cast-name')?.textContent).to.equal(p);
      expect(fieldOf('[part="review"] strong')?.textContent).to.equal(p);
      expect(fieldOf('.review-content')?.textContent).to.equal(p);
      // A CreatedAt that is not a DateTime shows as text, not as markup.
      expect(fieldOf('[part="review"] .meta')?.textContent).to.equal(p);
      expect(fieldOf('.address')?.textContent).to.equal([p, p, p].join(', '));
      const travel = [...sr(el).querySelectorAll('[part="venue"] dd')].map((d) => d.textContent);
      expect(travel).to.deep.equal([p, p]);
      // The unsafe link is dropped; the safe one shows its hostile title as text.
      const castLinks = [...sr(el).querySelectorAll<HTMLAnchorElement>('[part="cast-link"]')];
      expect(castLinks.map((a) => a.getAttribute('href'))).to.deep.equal(['https://cast.example/page']);
      expect(ownText(castLinks[0])).to.equal(p);
      expect(fieldOf('[part="plan-link"]')).to.equal(null);
      for (const sel of ['h2', '[part="short-offer"] strong', '.cast-name', '[part="review"] strong', '.review-content', '.address']) {
        expect(fieldOf(sel)?.children.length, `${sel} got elements from ${p}`).to.equal(0);
      }
      assertInert(el, p);
    }
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve));
    expect(flag()).to.equal(undefined);
  });
});
}
