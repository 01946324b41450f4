/**
 * Elements scattered over a page share one basket with no common wrapper
 * (a CMS puts <basket-timer> in the header and the seat picker in an
 * article), whatever order they upgrade in; two endpoints share nothing.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { BasketTimer } from '../../src/elements/basket-timer/basket-timer.component.ts';
import { BookingElement } from '../../src/elements/booking-element.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { resetPageConfig } from '../../src/state/config.ts';
import { fakeApi, testBooking, type FakeApi } from './helpers/fake-api.ts';
import { fakeBasketService } from './helpers/fake-basket.ts';

/** The smallest basket-adding element: a button that adds one ticket. */
class TicketAdder extends BookingElement {
  static override properties = { ticket: { type: Number } };
  ticket = 1;

  override render() {
    return html`<button type="button" @click=${() => this.bookingController.booking.basket.add({ Tickets: [this.ticket] })}>
      Add ticket ${this.ticket}
    </button>`;
  }
}

let tagCount = 0;
/** Fresh tag names, each for a new subclass, so "insert first, define later" really happens every time. */
function freshTags(): { timer: string; adder: string } {
  tagCount += 1;
  return { timer: `scatter-timer-${tagCount}`, adder: `scatter-adder-${tagCount}` };
}

function defineTimer(tag: string): void {
  customElements.define(tag, class extends BasketTimer {});
}
function defineAdder(tag: string): void {
  customElements.define(tag, class extends TicketAdder {});
}

function endpointApi(endpoint: string): FakeApi {
  const service = fakeBasketService();
  return fakeApi(service.handlers, { endpoint });
}

/** A fresh ten-minute hold, a moment after it was made: 9:59 (never more than remains), or 9:58 after a slow second. */
const FRESH_HOLD = /^9:5[89]$/;

/** The m:ss a timer shows ('' when it shows none). */
function shown(timer: Element | null): string {
  return timer?.shadowRoot?.querySelector('[part~="time"] [aria-hidden="true"]')?.textContent?.trim() ?? '';
}

async function click(adder: Element | null): Promise<void> {
  if (!(adder instanceof TicketAdder)) throw new Error('adder not upgraded');
  await adder.updateComplete;
  adder.shadowRoot?.querySelector('button')?.click();
}

async function settle(...elements: (Element | null)[]): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    for (const el of elements) if (el instanceof BookingElement) await el.updateComplete;
  }
}

/** A page fragment with the two elements far apart, written before either tag is defined. */
function scatteredPage(tags: { timer: string; adder: string }, endpointAttr: string): HTMLElement {
  const page = document.createElement('div');
  page.innerHTML = `
    <header><div class="site-title">The Playhouse</div><nav><${tags.timer}${endpointAttr}></${tags.timer}></nav></header>
    <main><article><h1>What's on</h1><section><p>Book now.</p><${tags.adder}${endpointAttr}></${tags.adder}></section></article></main>`;
  document.body.append(page);
  return page;
}

const pages: HTMLElement[] = [];

/** Both tags defined, the elements far apart; the booking registered for `endpoint`; one click on add. */
async function addOnScatteredPage(endpoint: string, endpointAttr: string) {
  const tags = freshTags();
  const booking = testBooking(endpointApi(endpoint), { endpoint });
  const page = scatteredPage(tags, endpointAttr);
  pages.push(page);
  defineTimer(tags.timer);
  defineAdder(tags.adder);
  const timer = page.querySelector(tags.timer);
  await click(page.querySelector(tags.adder));
  await settle(timer);
  return { booking, timer };
}

describe('shared booking across a page', () => {
  afterEach(() => {
    for (const page of pages.splice(0)) page.remove();
    resetSharedBookings();
  });

  for (const order of [['timer', 'adder'], ['adder', 'timer']] as const) {
    it(`elements in unrelated subtrees share one basket when the ${order[0]} upgrades first (tags defined after the page)`, async () => {
      const tags = freshTags();
      const endpoint = `/scatter-${tagCount}`;
      const api = endpointApi(endpoint);
      const booking = testBooking(api, { endpoint });
      const page = scatteredPage(tags, ` endpoint="${endpoint}"`);
      pages.push(page);
      const timer = page.querySelector(tags.timer);
      const adder = page.querySelector(tags.adder);
      expect(timer).to.not.be.instanceOf(BasketTimer);

      for (const which of order) (which === 'timer' ? defineTimer : defineAdder)(tags[which]);
      expect(timer).to.be.instanceOf(BasketTimer);
      await settle(timer, adder);
      expect(shown(timer)).to.equal('');
      expect(api.calls).to.deep.equal([]);

      await click(adder);
      await settle(timer, adder);
      expect(api.callsTo('addTickets')).to.have.length(1);
      expect(booking.basket.value.content?.Items).to.have.length(1);
      expect(shown(timer)).to.match(FRESH_HOLD);
    });
  }

  it('works with no configuration at all: both elements use the default endpoint /api', async () => {
    const { booking, timer } = await addOnScatteredPage('/api', '');
    expect(booking.basket.value.content?.Items).to.have.length(1);
    expect(shown(timer)).to.match(FRESH_HOLD);
  });

  it('uses the page-level JSON configuration block', async () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.dataset.stagedoorConfig = '';
    block.textContent = JSON.stringify({ endpoint: '/from-page-config', currency: 'EUR' });
    document.head.append(block);
    resetPageConfig();
    try {
      const { booking, timer } = await addOnScatteredPage('/from-page-config', '');
      expect(booking.basket.value.content?.Items).to.have.length(1);
      expect(shown(timer)).to.match(FRESH_HOLD);
    } finally {
      block.remove();
      resetPageConfig();
    }
  });

  it('a timer inside a <booking-provider> and a loose adder on the same endpoint share the basket', async () => {
    const tags = freshTags();
    defineTimer(tags.timer);
    defineAdder(tags.adder);
    const api = endpointApi('/provider-and-loose');
    testBooking(api, { endpoint: '/provider-and-loose' });
    const page = scatteredPage(tags, ' endpoint="/provider-and-loose"');
    pages.push(page);
    const nav = page.querySelector('nav');
    const provider = document.createElement('booking-provider');
    provider.setAttribute('endpoint', '/provider-and-loose');
    const timer = document.createElement(tags.timer);
    provider.append(timer);
    nav?.replaceChildren(provider);
    await click(page.querySelector(tags.adder));
    await settle(timer);
    expect(shown(timer)).to.match(FRESH_HOLD);
  });

  it('two endpoints on one page share nothing', async () => {
    const tags = freshTags();
    defineTimer(tags.timer);
    defineAdder(tags.adder);
    const apiA = endpointApi('/box-office-a');
    const apiB = endpointApi('/box-office-b');
    const a = testBooking(apiA, { endpoint: '/box-office-a' });
    const b = testBooking(apiB, { endpoint: '/box-office-b' });
    const root = await fixture(html`<div></div>`);
    root.innerHTML = `
      <header><${tags.timer} id="timer-a" endpoint="/box-office-a"></${tags.timer}><${tags.timer} id="timer-b" endpoint="/box-office-b"></${tags.timer}></header>
      <article><${tags.adder} id="adder-b" endpoint="/box-office-b"></${tags.adder}></article>`;
    const timerA = root.querySelector('#timer-a');
    const timerB = root.querySelector('#timer-b');
    await click(root.querySelector('#adder-b'));
    await settle(timerA, timerB);
    expect(shown(timerB)).to.match(FRESH_HOLD);
    expect(shown(timerA)).to.equal('');
    expect(apiA.calls).to.deep.equal([]);
    expect(a.basket.value.basketId).to.equal(null);
    expect(b.basket.value.basketId).to.be.a('string');
    expect(a.basket).to.not.equal(b.basket);
  });
});
