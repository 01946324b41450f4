/**
 * iOS Safari zooms the whole page into a focused text field whose text is under 16 px, and leaves
 * it zoomed. On a touch screen the elements' fields are never under 16 px, whatever the host
 * page's font size; with a mouse they keep the page's size. Chromium emulates a touch screen;
 * Firefox and WebKit cannot, and check the mouse side.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { checkoutApi } from './helpers/checkout-data.ts';
import { visitorPointers } from './helpers/engine.ts';
import { testBooking, withBooking } from './helpers/fake-api.ts';

const pointers = await visitorPointers();

describe('text fields on touch screens (no iOS zoom on focus)', () => {
  afterEach(async () => {
    await pointers.use(false);
    resetSharedBookings();
  });

  for (const touch of pointers.touch) {
    it(`on a page set in 14 px, with ${touch ? 'a touch screen: every field and select is 16 px' : 'a mouse: fields keep the page\'s 14 px'}`, async () => {
      await pointers.use(touch);
      expect(matchMedia('(pointer: coarse)').matches, 'the screen').to.equal(touch);
      const booking = testBooking(checkoutApi());
      await booking.basket.add({ Tickets: [1001, 1002] });
      const wrapper = await withBooking<HTMLElement>(booking, html`<div style="font-size: 14px"><checkout-form></checkout-form></div>`);
      const el = wrapper.querySelector('checkout-form') as CheckoutForm;
      await waitUntil(() => el.shadowRoot?.querySelector('form [part~="submit-button"]'), 'the checkout form renders', { timeout: 5000 });
      const fields = [...(el.shadowRoot?.querySelectorAll<HTMLElement>('input:not([type="checkbox"], [type="radio"]), select, textarea') ?? [])];
      expect(fields.length, 'the form has text fields').to.be.greaterThan(3);
      for (const field of fields) {
        const size = Number.parseFloat(getComputedStyle(field).fontSize);
        expect(size, `${field.getAttribute('name')}'s text`).to.equal(touch ? 16 : 14);
      }
    });
  }
});
