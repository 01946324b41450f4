/**
 * Focus handed to the basket (after "Add to basket" in <seat-picker>) lands on
 * something the customer can see (WCAG 2.4.11): the added item is in the
 * viewport, below the host page's sticky header, even when what the checkout
 * renders after it (the checkout's options, arriving later) makes a sticky
 * sidebar grow and would push the item above the top of the page.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { focusBasketItem } from '../../src/state/focus-handoff.ts';
import { checkoutApi, DELIVERIES } from './helpers/checkout-data.ts';
import { testBooking, withBooking } from './helpers/fake-api.ts';

const HEADER = 80;

describe('<checkout-form>: the focused basket item is in view', () => {
  afterEach(() => {
    document.documentElement.style.removeProperty('scroll-padding-top');
    window.scrollTo(0, 0);
    resetSharedBookings();
  });

  it('after an add, in a sticky sidebar that grows once the checkout loads, under a sticky header', async () => {
    let release = (): void => undefined;
    const deliveriesArrive = new Promise<void>((resolve) => (release = resolve));
    const api = checkoutApi({
      getAvailableDeliveries: async () => {
        await deliveriesArrive;
        return { DeliveryTypes: DELIVERIES };
      },
    });
    const booking = testBooking(api);
    // The demo's layout: a sticky header the page declares with scroll-padding, a tall seat picker
    // beside a sticky sidebar holding the checkout.
    document.documentElement.style.scrollPaddingTop = `${HEADER}px`;
    const page = await withBooking<HTMLElement>(
      booking,
      html`<div>
        <header style="position: sticky; top: 0; height: ${HEADER}px; z-index: 1; background: #fff">Theatre</header>
        <div style="display: grid; grid-template-columns: 1fr 1fr; align-items: start">
          <div style="height: 3000px">the seat picker</div>
          <aside style="position: sticky; top: ${HEADER + 8}px"><checkout-form></checkout-form></aside>
        </div>
      </div>`,
    );
    const el = page.querySelector('checkout-form') as CheckoutForm;
    // The customer is at the bottom of the seat picker, where "Add to basket" is.
    window.scrollTo(0, 2400);
    await booking.basket.add({ Tickets: [1001, 1002] });
    expect(await focusBasketItem(booking.basket, 11)).to.equal(true);
    const item = el.shadowRoot?.querySelector('[part~="item"][data-item-id="11"]') as HTMLElement;
    expect(el.shadowRoot?.activeElement).to.equal(item);
    // The checkout's options arrive: the form renders below the items and the sidebar grows.
    release();
    await waitUntil(() => el.shadowRoot?.querySelector('form [part~="submit-button"]'), 'the checkout renders');
    await waitUntil(() => {
      const r = item.getBoundingClientRect();
      return r.top >= HEADER && r.bottom <= window.innerHeight;
    }, 'the focused item is brought into view, below the header', { timeout: 2000 }).catch(() => undefined);
    const rect = item.getBoundingClientRect();
    expect(el.shadowRoot?.activeElement, 'the item still has the focus').to.equal(item);
    expect(rect.top, `the item's top (${rect.top}) is below the sticky header`).to.be.at.least(HEADER);
    expect(rect.bottom, `the item's bottom (${rect.bottom}) is within the viewport (${window.innerHeight})`).to.be.at.most(window.innerHeight);
  });
});
