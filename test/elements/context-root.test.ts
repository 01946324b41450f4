/**
 * An element upgraded before its <booking-provider> (a host that imports
 * `stagedoor/elements/<tag>` or registers our classes under its own tags, and
 * defines the provider later or not first) must still take the provider's
 * booking as soon as the provider upgrades, without being re-attached: the
 * provider's endpoint and currency, never the page-wide fallback.
 *
 * Each test registers the real classes (the package's class exports) under
 * tags of its own, so the order of definition is the test's to choose.
 */
import { expect, fixture } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { unsafeStatic, html as staticHtml } from 'lit/static-html.js';
import { BasketTimer, BookingElement, BookingProvider, EventList } from '../../src/exports.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { eventFixture } from './helpers/catalogue-fixtures.ts';

let n = 0;
const fresh = (name: string) => `${name}-${(n += 1)}-${Math.random().toString(36).slice(2, 8)}`;

/** The booking an element uses: what its api client calls and what its money is in. */
const bookingOf = (el: Element) => (el as unknown as { bookingController: { booking: { config: { endpoint: string; currency: string }; api: { endpoint: string } } } }).bookingController.booking;

const elementClasses: Record<string, typeof BookingElement> = { 'basket-timer': BasketTimer, 'event-list': EventList };

async function page(elementTag: string, providerTag: string) {
  const root = await fixture(staticHtml`<div>
    <${unsafeStatic(providerTag)} endpoint="/from-provider" currency="EUR">
      <section><${unsafeStatic(elementTag)}></${unsafeStatic(elementTag)}></section>
    </${unsafeStatic(providerTag)}>
  </div>`);
  return root.querySelector(elementTag) as HTMLElement;
}

function expectProviderBooking(el: Element) {
  const booking = bookingOf(el);
  expect(`${booking.config.endpoint} ${booking.config.currency}`).to.equal('/from-provider EUR');
  expect(booking.api.endpoint).to.equal('/from-provider');
}

describe('an element and its <booking-provider>, defined in either order', () => {
  beforeEach(() => {
    // The page-wide fallback differs from the provider in both endpoint and currency.
    const config = document.createElement('script');
    config.type = 'application/json';
    config.dataset.stagedoorConfig = '';
    config.textContent = JSON.stringify({ endpoint: '/api', currency: 'GBP' });
    config.id = 'page-config';
    document.head.append(config);
  });
  afterEach(() => {
    document.getElementById('page-config')?.remove();
    resetSharedBookings();
  });

  for (const [name, Klass] of Object.entries(elementClasses)) {
    it(`<${name}> defined before the provider takes the provider's endpoint and currency once the provider upgrades`, async () => {
      const elementTag = fresh(name);
      const providerTag = fresh('booking-provider');
      const el = await page(elementTag, providerTag);
      customElements.define(elementTag, class extends Klass {});
      await (el as BasketTimer).updateComplete;
      // Until there is a provider, the page-wide booking is all there is.
      expect(bookingOf(el).config.endpoint).to.equal('/api');

      customElements.define(providerTag, class extends BookingProvider {});
      await (el as BasketTimer).updateComplete;
      expectProviderBooking(el);
    });

    it(`<${name}> defined after the provider takes the provider's endpoint and currency`, async () => {
      const elementTag = fresh(name);
      const providerTag = fresh('booking-provider');
      const el = await page(elementTag, providerTag);
      customElements.define(providerTag, class extends BookingProvider {});
      customElements.define(elementTag, class extends Klass {});
      await (el as BasketTimer).updateComplete;
      expectProviderBooking(el);
    });
  }

  it('<event-list> registered before the provider in the same script asks only the provider for its events', async () => {
    // import 'stagedoor/elements/event-list'; import 'stagedoor/elements/booking-provider';
    const elementTag = fresh('event-list');
    const providerTag = fresh('booking-provider');
    const asked: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return Promise.resolve(new Response(JSON.stringify({ Events: [] }), { headers: { 'content-type': 'application/json' } }));
    };
    try {
      const el = await page(elementTag, providerTag);
      customElements.define(elementTag, class extends EventList {});
      customElements.define(providerTag, class extends BookingProvider {});
      await (el as EventList).updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(asked.length).to.be.greaterThan(0);
      expect(asked.filter((path) => !path.startsWith('/from-provider/'))).to.deep.equal([]);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('<event-list> that already showed the page-wide endpoint\'s events shows its provider\'s once the provider upgrades', async () => {
    const elementTag = fresh('event-list');
    const providerTag = fresh('booking-provider');
    const catalogue: Record<string, string> = { '/api': 'From the page config', '/from-provider': 'From the provider' };
    const realFetch = window.fetch;
    window.fetch = (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : String(input), location.href).pathname;
      const endpoint = Object.keys(catalogue).find((e) => path.startsWith(`${e}/`)) ?? '';
      const events = catalogue[endpoint] ? [eventFixture(1, { Name: catalogue[endpoint] })] : [];
      return Promise.resolve(new Response(JSON.stringify({ Events: events }), { headers: { 'content-type': 'application/json' } }));
    };
    const cardNames = (el: Element) => [...(el.shadowRoot?.querySelectorAll('h3') ?? [])].map((h) => h.textContent?.trim());
    try {
      const el = (await page(elementTag, providerTag)) as EventList;
      customElements.define(elementTag, class extends EventList {});
      await waitUntil(() => cardNames(el).length > 0, 'the list shows the page-wide events');
      expect(cardNames(el)).to.deep.equal(['From the page config']);

      customElements.define(providerTag, class extends BookingProvider {});
      await waitUntil(() => cardNames(el).includes('From the provider'), "the list shows the provider's events");
      expect(cardNames(el)).to.deep.equal(['From the provider']);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('stagedoor/elements/basket-timer imported before stagedoor/elements/booking-provider: the timer takes the provider\'s booking', async () => {
    expect(customElements.get('basket-timer'), 'nothing in this file registered the tags').to.equal(undefined);
    expect(customElements.get('booking-provider')).to.equal(undefined);
    const el = await page('basket-timer', 'booking-provider');
    await import('../../src/elements/basket-timer/basket-timer.ts');
    await (el as BasketTimer).updateComplete;
    expect(bookingOf(el).config.endpoint).to.equal('/api');
    await import('../../src/elements/booking-provider/booking-provider.ts');
    await (el as BasketTimer).updateComplete;
    expectProviderBooking(el);
  });

  it('a provider defined later also reaches an element inside another shadow root', async () => {
    const elementTag = fresh('basket-timer');
    const providerTag = fresh('booking-provider');
    customElements.define(elementTag, class extends BasketTimer {});
    const provider = await fixture(staticHtml`<${unsafeStatic(providerTag)} endpoint="/from-provider" currency="EUR"><div></div></${unsafeStatic(providerTag)}>`);
    const host = provider.querySelector('div') as HTMLDivElement;
    const shadow = host.attachShadow({ mode: 'open' });
    const el = document.createElement(elementTag) as BasketTimer;
    shadow.append(el);
    await el.updateComplete;
    expect(bookingOf(el).config.endpoint).to.equal('/api');
    customElements.define(providerTag, class extends BookingProvider {});
    await el.updateComplete;
    expectProviderBooking(el);
  });
});
