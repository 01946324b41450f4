/**
 * Back from the payment page without paying (the browser's Back button: the page
 * restored from the back/forward cache, or loaded again): <checkout-form> and
 * <basket-timer> show the payment in progress instead of "Your basket is empty",
 * and what became of it (booked, timed out). After a declined payment the
 * customer's entries come back with the basket. The seat picker's "added" notice
 * goes when the basket empties.
 */
import { expect, html } from '@open-wc/testing';
import sinon from 'sinon';
import { ORDER_RETRY_DELAYS_MS } from '../../src/state/order-retry.ts';
import { waitUntil } from './helpers/wait.ts';
import { render } from 'lit';
import { NOT_AVAILABLE_YET } from '../../src/api/client.ts';
import '../../src/elements/basket-timer/basket-timer.ts';
import '../../src/elements/booking-confirmation/booking-confirmation.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { PAYMENT_TIMEOUT_MS } from '../../src/state/pending-payment.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { renderPending } from '../../src/elements/checkout-form/checkout-pending.ts';
import { apiError, testBooking, withBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { BASKET_ID, basketContent, checkoutApi, submittedSummary } from './helpers/checkout-data.ts';

/** One endpoint for the page before and after the payment page (its session record is per endpoint). */
const ENDPOINT = '/pending-payment-test';
const $ = (el: Element, selector: string) => el.shadowRoot?.querySelector<HTMLElement>(selector) ?? null;
const textOf = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function fill(el: Element, name: string, value: string): void {
  const control = $(el, `[name="${name}"]`) as HTMLInputElement;
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** A customer who filled in the checkout and went to the payment page from it (navigation caught). */
async function submittedFromForm(overrides: Handlers = {}): Promise<{ el: CheckoutForm; booking: BookingContextValue; api: FakeApi; navigated: string[] }> {
  const filled = await filledForm(overrides);
  ($(filled.el, '[part~="submit-button"]') as HTMLButtonElement).click();
  await waitUntil(() => filled.navigated.length === 1, 'went to the payment page');
  return filled;
}

/** A customer who filled in the checkout, about to send it (navigation caught). */
async function filledForm(overrides: Handlers = {}): Promise<{ el: CheckoutForm; booking: BookingContextValue; api: FakeApi; navigated: string[] }> {
  const api = checkoutApi({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET, ...overrides });
  const booking = testBooking(api, { endpoint: ENDPOINT });
  await booking.basket.add({ Tickets: [1001, 1002] });
  const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
  const navigated: string[] = [];
  el.navigate = (url) => navigated.push(url);
  await waitUntil(() => $(el, 'form [part~="submit-button"]') && $(el, '[name="notice-1"]'), 'the checkout form renders');
  fill(el, 'firstName', 'Ada');
  fill(el, 'lastName', 'Lovelace');
  fill(el, 'email', 'ada@example.com');
  ($(el, '[name="notice-1"]') as HTMLInputElement).click();
  await el.updateComplete;
  return { el, booking, api, navigated };
}

/** The page shown again from the back/forward cache. */
function restoredFromCache(): void {
  window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
}

describe('<checkout-form> back from the payment page without paying', () => {
  afterEach(() => {
    resetSharedBookings();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('restored from the back/forward cache: says the payment is unfinished, with seats, total and time left; focus and announcement; Continue goes to the same payment page', async () => {
    const { el, navigated } = await submittedFromForm();
    restoredFromCache();
    await waitUntil(() => $(el, '#pending-heading'), `the unfinished payment is shown: ${textOf(el.shadowRoot as unknown as Element)}`);
    await el.updateComplete;
    const panel = textOf($(el, '[part~="pending"]'));
    expect(panel).to.contain("Your payment isn't finished");
    expect(panel).to.contain('The Lantern Keeper');
    expect(panel).to.contain('Seats A12 and A13');
    expect(panel).to.match(/Total: £\d+\.\d\d/);
    expect(panel).to.contain('To change your seats, let this payment lapse or finish it.');
    // The payment timeout counts from submit: 19:59 at most (never more than remains).
    expect(textOf($(el, '[part~="time-left"]'))).to.match(/19:5\d/);
    expect(textOf(el.shadowRoot?.querySelector('[role="status"][aria-live]') ?? null)).to.contain("Your payment isn't finished");
    expect(el.shadowRoot?.activeElement?.id).to.equal('pending-heading');
    expect(el.shadowRoot?.querySelector('form, [part~="remove-button"], [part~="empty-button"]')).to.equal(null);
    await expect(el).to.be.accessible();
    ($(el, '[part~="continue-button"]') as HTMLAnchorElement).click();
    expect(navigated).to.deep.equal([`https://pay.example/sandbox/pay/${BASKET_ID}`, `https://pay.example/sandbox/pay/${BASKET_ID}`]);
  });

  it('loaded again (a reload, or Back without the cache): the same state, and the timer counts the payment down', async () => {
    await submittedFromForm();
    resetSharedBookings();
    const api = checkoutApi({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET });
    const booking = testBooking(api, { endpoint: ENDPOINT });
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await waitUntil(() => $(el, '#pending-heading'), 'the unfinished payment is shown');
    const timer = await withBooking<HTMLElement>(booking, html`<basket-timer></basket-timer>`);
    await waitUntil(() => $(timer, '[part~="payment"]'), 'the timer shows the payment');
    expect(textOf($(timer, '[part~="payment"]'))).to.match(/Payment open for 19:5\d/);
    await expect(timer).to.be.accessible();
  });

  it('paid meanwhile: shows the confirmation, as the return page does', async () => {
    await submittedFromForm();
    resetSharedBookings();
    const booking = testBooking(checkoutApi({ getSubmittedBasketSummary: () => submittedSummary() }), { endpoint: ENDPOINT });
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await waitUntil(() => {
      const confirmation = el.shadowRoot?.querySelector('booking-confirmation');
      return confirmation && /your booking is confirmed/i.test(confirmation.shadowRoot?.textContent ?? '');
    }, 'the confirmation is shown');
    expect(booking.basket.awaitingPayment).to.equal(null);
  });

  it('timed out: says the seats were released, offers to start again, and forgets the payment', async () => {
    await submittedFromForm();
    resetSharedBookings();
    const booking = testBooking(checkoutApi({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET, getBasket: () => { throw apiError('getBasket', 404); } }), { endpoint: ENDPOINT });
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await waitUntil(() => $(el, '[part~="start-again-button"]'), 'the released state is shown');
    expect(textOf($(el, '[part~="pending"]'))).to.contain('The time to pay ran out, so your seats were released.');
    expect(el.shadowRoot?.activeElement?.id).to.equal('pending-heading');
    expect(booking.basket.pendingRecord).to.equal(null);
    await expect(el).to.be.accessible();
    ($(el, '[part~="start-again-button"]') as HTMLButtonElement).click();
    await waitUntil(() => $(el, '[part="empty"]'), 'the empty basket');
  });

  it('times out while shown: asks the service again at the deadline and says the seats were released', async () => {
    let held = true;
    const { el, api } = await submittedFromForm({ getBasket: () => basketContent(held ? undefined : []) });
    restoredFromCache();
    await waitUntil(() => $(el, '#pending-heading'));
    // The service's clock moves past the payment timeout, and the service released the basket.
    held = false;
    api.clock.offset += PAYMENT_TIMEOUT_MS + 5_000;
    restoredFromCache();
    await waitUntil(() => $(el, '[part~="start-again-button"]'), 'the released state is shown');
  });

  it('after a declined payment the basket comes back with what the customer typed and ticked', async () => {
    await submittedFromForm();
    resetSharedBookings();
    const booking = testBooking(checkoutApi(), { endpoint: ENDPOINT });
    // The failed-payment return brings the basket back (payment-return.ts).
    expect(await booking.basket.resumeAfterFailedPayment()).to.equal(true);
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await waitUntil(() => $(el, '[name="firstName"]'), 'the form is back');
    await el.updateComplete;
    expect(($(el, '[name="firstName"]') as HTMLInputElement).value).to.equal('Ada');
    expect(($(el, '[name="lastName"]') as HTMLInputElement).value).to.equal('Lovelace');
    expect(($(el, '[name="email"]') as HTMLInputElement).value).to.equal('ada@example.com');
    expect(($(el, '[name="notice-1"]') as HTMLInputElement).checked).to.equal(true);
    // Emptying the basket forgets them.
    await booking.basket.clear();
    expect(booking.basket.pendingRecord).to.equal(null);
  });

  it('after a declined payment, Continue to payment sends the order again and goes to the payment page (the basket is not dropped)', async () => {
    await submittedFromForm();
    resetSharedBookings();
    const api = checkoutApi({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET });
    const booking = testBooking(api, { endpoint: ENDPOINT });
    expect(await booking.basket.resumeAfterFailedPayment()).to.equal(true);
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    const navigated: string[] = [];
    el.navigate = (url) => navigated.push(url);
    await waitUntil(() => $(el, 'form [part~="submit-button"]') && ($(el, '[name="firstName"]') as HTMLInputElement | null)?.value === 'Ada', 'the form is back, filled in');
    ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
    await waitUntil(() => navigated.length === 1, `went to the payment page again: ${textOf(el.shadowRoot as unknown as Element)}`);
    expect(api.callsTo('submitOrder'), 'the order was sent again').to.have.length(1);
    expect(navigated).to.deep.equal([`https://pay.example/sandbox/pay/${BASKET_ID}`]);
    expect(textOf(el.shadowRoot as unknown as Element)).not.to.contain('Your basket is empty');
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
  });

  it('an order the box office took whose answer was lost (502, then the repeat refused 403): says it waits for payment and how it goes on, never that the basket is no longer valid', async () => {
    let calls = 0;
    const { el, booking, api, navigated } = await filledForm({
      submitOrder: () => {
        calls += 1;
        throw calls === 1 ? apiError('submitOrder', 502) : apiError('submitOrder', 403, { Message: 'Invalid basket manipulation: the basket was already submitted and awaits payment.' });
      },
    });
    // The pause before the order is sent again, on a controlled clock (the timers already running are the page's own).
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      ($(el, '[part~="submit-button"]') as HTMLButtonElement).click();
      await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
      for (let i = 0; i < 40 && !$(el, '[part~="time-left"]'); i += 1) {
        await clock.tickAsync(50);
        await el.updateComplete;
      }
    } finally {
      clock.restore();
    }
    expect(api.callsTo('submitOrder'), 'sent, and sent again once its answer was lost').to.have.length(2);
    const shown = textOf(el.shadowRoot as unknown as Element);
    expect(shown).not.to.contain('no longer valid');
    const panel = textOf($(el, '[part~="pending"]'));
    expect(panel).to.contain('Your order is waiting for payment');
    expect(panel).to.contain('The box office has your order, but the address of its payment page was lost on the way to us, so we cannot take you there.');
    expect(panel).to.contain('The Lantern Keeper');
    expect(panel).to.contain('Your seats stay held for this order until the time to pay runs out. Then they are released, and you can book them again here.');
    expect(textOf($(el, '[part~="time-left"]'))).to.match(/Your payment stays open for 19:5\d/);
    expect($(el, '[part~="continue-button"]'), 'no payment page to go to').to.equal(null);
    expect(el.shadowRoot?.querySelector('form'), 'no second order for a basket awaiting payment').to.equal(null);
    expect(textOf(el.shadowRoot?.querySelector('[role="status"][aria-live]') ?? null)).to.equal('Your order is waiting for payment. Your seats are still held.');
    expect(el.shadowRoot?.activeElement?.id).to.equal('pending-heading');
    expect(navigated).to.deep.equal([]);
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
    await expect(el).to.be.accessible();
  });

  it('counts the time to pay down never showing more than remains, and says it is up only at the deadline', () => {
    const deadline = Date.UTC(2026, 6, 1, 17, 20, 0);
    const shownAt = (now: number) => {
      const host = document.createElement('div');
      const noop = () => undefined;
      render(
        renderPending({ pending: { status: 'awaiting', record: null, deadline, visit: 0 }, config: resolveConfig({}), now, continueUrl: null, onContinue: noop, onStartAgain: noop, onRetry: noop }),
        host,
      );
      const timer = host.querySelector('[part~="time-left"] [role="timer"]');
      // What the eye sees, and what a screen reader reads.
      return timer ? `${textOf(timer.querySelector('[aria-hidden="true"]'))} (${textOf(timer.querySelector('.visually-hidden'))})` : textOf(host.querySelector('[part~="time-left"]'));
    };
    // Each value stays up until the next second mark (the ticks fall on them): what holds until then.
    expect(shownAt(deadline - PAYMENT_TIMEOUT_MS)).to.equal('19:59 (19 minutes, 59 seconds)');
    expect(shownAt(deadline - 2_000)).to.equal('0:01 (1 second)');
    expect(shownAt(deadline - 1_000)).to.equal('0:00 (0 seconds)');
    expect(shownAt(deadline - 1)).to.equal('0:00 (0 seconds)');
    expect(shownAt(deadline)).to.equal('The time to pay is up. Checking your payment…');
  });
});
