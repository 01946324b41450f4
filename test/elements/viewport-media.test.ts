/**
 * The narrow-screen layout follows the viewport, also for an element shown again after the
 * viewport changed while none was on the page (a phone turned meanwhile). WebKit kept the shared
 * stylesheet's old answer to its width query then (src/elements/booking-element.ts asks anew):
 * the checkout's hold line, sticky on a phone, stayed static.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { checkoutApi } from './helpers/checkout-data.ts';
import { setViewport } from './helpers/engine.ts';
import { testBooking, withBooking } from './helpers/fake-api.ts';

async function holdLine(): Promise<{ el: CheckoutForm; position: () => string }> {
  const booking = testBooking(checkoutApi());
  await booking.basket.add({ Tickets: [1001, 1002] });
  const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
  await waitUntil(() => el.shadowRoot?.querySelector('[part~="hold"]'), 'the hold line renders', { timeout: 5000 });
  const line = el.shadowRoot?.querySelector('[part~="hold"]') as HTMLElement;
  return { el, position: () => getComputedStyle(line).position };
}

describe('the narrow-screen layout after the viewport changed with no element on the page', () => {
  afterEach(async () => {
    resetSharedBookings();
    await setViewport({ width: 800, height: 600 });
  });

  it('the checkout shown on a wide screen, gone, the screen narrowed to 360 px, shown again: its hold line is sticky', async () => {
    await setViewport({ width: 800, height: 600 });
    const wide = await holdLine();
    expect(wide.position(), 'on a wide screen').to.equal('static');
    wide.el.remove();
    resetSharedBookings();
    await setViewport({ width: 360, height: 640 });
    const narrow = await holdLine();
    expect(narrow.position(), 'on a 360 px screen').to.equal('sticky');
  });
});
