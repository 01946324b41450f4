/**
 * An event card is a real link (issue "Part of the host's site"): to this page naming the event by
 * default, or to the host's own show page (`event-href`); a plain click still opens the detail here,
 * a modified click is left to the browser (a new tab), and a page opened at the link shows the detail.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { testBooking, withBooking } from './helpers/fake-api.ts';
import { twoShowsApi } from './helpers/two-shows.ts';

const api = twoShowsApi;

const cards = (el: EventList) => [...(el.shadowRoot as ShadowRoot).querySelectorAll<HTMLAnchorElement>('[part~="card-button"]')];
const heading = (el: EventList) => (el.shadowRoot as ShadowRoot).querySelector('[data-focus="detail"]');

async function list(template = html`<event-list></event-list>`, config = {}): Promise<EventList> {
  const el = await withBooking<EventList>(testBooking(api(), config), template);
  await waitUntil(() => cards(el).length === 2, 'list did not load');
  return el;
}

/** Clicks the card as the visitor would and says whether the page kept the browser from following it. */
function click(card: HTMLElement, init: MouseEventInit = {}): boolean {
  let prevented = false;
  // Never let the test page itself navigate: note the verdict, then stop the browser.
  const stop = (e: Event) => ((prevented = e.defaultPrevented), e.preventDefault());
  window.addEventListener('click', stop, { once: true });
  card.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true, button: 0, ...init }));
  return prevented;
}

describe('<event-list> cards are links', () => {
  const page = location.href;
  afterEach(() => {
    history.replaceState(null, '', page);
    resetSharedBookings();
  });

  it('link to this page naming the event, and a plain click opens the detail here with focus on its name', async () => {
    const el = await list();
    const [wicked] = cards(el);
    expect(wicked!.localName).to.equal('a');
    const href = new URL(wicked!.href);
    expect(href.origin + href.pathname).to.equal(new URL(page).origin + new URL(page).pathname);
    expect(href.searchParams.get('stagedoor-event')).to.equal('1042');
    expect(click(wicked!)).to.equal(true);
    await waitUntil(() => heading(el), 'detail did not open');
    expect(heading(el)!.textContent).to.equal('Wicked');
    expect(el.shadowRoot!.activeElement).to.equal(heading(el));
  });

  it('leave a Ctrl-, Cmd- or Shift-click and the middle button to the browser (a new tab or window)', async () => {
    const el = await list();
    const [wicked] = cards(el);
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      expect(click(wicked!, init), JSON.stringify(init)).to.equal(false);
    }
    await el.updateComplete;
    expect(heading(el)).to.equal(null);
    expect(cards(el)).to.have.length(2);
  });

  it("link to the host's show page from event-href, followed on a plain click; a configurable parameter otherwise", async () => {
    const el = await list(html`<event-list event-href="/shows/{EventId}?from=list"></event-list>`);
    expect(cards(el).map((a) => a.href)).to.deep.equal([new URL('/shows/1042?from=list', page).href, new URL('/shows/7?from=list', page).href]);
    expect(click(cards(el)[0]!)).to.equal(false);

    const named = await list(html`<event-list event-param="show"></event-list>`);
    expect(new URL(cards(named)[1]!.href).searchParams.get('show')).to.equal('7');
  });

  it("take the show page's pattern from the page configuration (eventHref), the attribute first", async () => {
    const el = await list(html`<event-list></event-list>`, { eventHref: 'https://theatre.example/whats-on/{EventId}/' });
    expect(cards(el)[1]!.href).to.equal('https://theatre.example/whats-on/7/');
    const own = await list(html`<event-list event-href="/shows/{EventId}"></event-list>`, { eventHref: 'https://theatre.example/whats-on/{EventId}/' });
    expect(cards(own)[1]!.href).to.equal(new URL('/shows/7', page).href);
  });

  it('refuse a pattern that is not a web address (or has no {EventId}) and link to this page instead', async () => {
    for (const pattern of ['javascript:alert(1)//{EventId}', 'data:text/html,{EventId}', '/shows/wicked']) {
      const el = await list(html`<event-list event-href=${pattern}></event-list>`);
      expect(new URL(cards(el)[0]!.href).searchParams.get('stagedoor-event'), pattern).to.equal('1042');
      expect(click(cards(el)[0]!), pattern).to.equal(true);
      resetSharedBookings();
    }
  });

  it('open the linked event when the page is opened at its link', async () => {
    history.replaceState(null, '', `${location.pathname}?stagedoor-event=7`);
    const el = await withBooking<EventList>(testBooking(api()), html`<event-list></event-list>`);
    await waitUntil(() => heading(el), 'the linked detail did not open');
    expect(heading(el)!.textContent).to.equal('Hamlet');
  });
});
