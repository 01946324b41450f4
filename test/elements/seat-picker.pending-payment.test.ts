/**
 * Back from the payment page without paying, the customer picks another show: while
 * that payment is open, <seat-picker> does not start a new basket beside it (one that
 * would hide it: the checkout showed only the new basket, and the customer could pay
 * twice or lose the seats still held). Add waits, says why and for how long, and leads
 * back to the same payment page; the checkout keeps showing the payment. Once the
 * payment is known released (or booked), Add works again.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { NOT_AVAILABLE_YET } from '../../src/api/client.ts';
import type { AddTicketsResult, FullTicketInfo } from '../../src/api/types.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { paymentDetails, pendingPayment } from '../../src/state/pending-payment.ts';
import { apiError, fakeApi, testBooking, withBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { basketContent, checkoutApi } from './helpers/checkout-data.ts';
import { BASKET_ID, basketWith, performance, ticket } from './helpers/seat-fixtures.ts';
import { root, seat, seatButtons } from './helpers/seat-picker-dom.ts';

const PAYMENT_URL = `https://pay.example/sandbox/pay/${BASKET_ID}`;
const NEW_BASKET = '7a1b2c3d-0000-4000-8000-00000000beef';
const TICKETS: FullTicketInfo[] = [ticket(1, 'Stalls', 'B', '10', 45), ticket(2, 'Stalls', 'B', '9', 45), ticket(3, 'Stalls', 'A', '1', 45)];
const PAID_FOR = [ticket(90, 'Circle', 'D', '4', 30), ticket(91, 'Circle', 'D', '5', 30)];

const $ = (el: Element, selector: string) => el.shadowRoot?.querySelector<HTMLElement>(selector) ?? null;
const textOf = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const added = (tickets: FullTicketInfo[], basketId = NEW_BASKET): AddTicketsResult => ({
  Success: true,
  FailureReason: 0,
  FailureReasonText: '',
  BookableTicketsCount: null,
  GetBasketContentResult: { ...basketWith(tickets), BasketId: basketId },
});

/**
 * A customer who sent a basket to payment five minutes ago and came back without paying:
 * the service still holds it (awaiting payment) until 20 minutes after the order.
 */
async function backFromPayment(extra: Handlers = {}): Promise<{ booking: BookingContextValue; api: FakeApi; handlers: Handlers }> {
  const handlers: Handlers = {
    getPerformance: ({ performanceId }) => performance(performanceId),
    getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: TICKETS }),
    getEvent: () => {
      throw apiError('getEvent', 404);
    },
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
    createBasket: () => ({ Success: true, BasketId: BASKET_ID }),
    addTickets: () => added(PAID_FOR, BASKET_ID),
    getSubmittedBasketSummary: () => NOT_AVAILABLE_YET,
    getBasket: ({ basketId }) => (basketId === BASKET_ID ? { ...basketWith(PAID_FOR), BasketId: BASKET_ID } : { ...basketWith([]), BasketId: basketId }),
    ...extra,
  };
  const api = fakeApi(handlers);
  const booking = testBooking(api);
  await booking.basket.add({ Tickets: [90, 91] });
  const content = booking.basket.value.content;
  if (!content) throw new Error('no basket to send to payment');
  const entries = { values: {}, deliveryTypeId: null, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [] };
  booking.basket.submitted(paymentDetails(content, { redirectUrl: PAYMENT_URL, submittedAt: api.clock.now() - 5 * 60_000, total: 60, entries }));
  // From here on, a new basket would be a new one.
  handlers.createBasket = () => ({ Success: true, BasketId: NEW_BASKET });
  handlers.addTickets = ({ body }) => added(TICKETS.filter((t) => body.Tickets?.includes(t.TicketId)));
  api.calls.length = 0;
  return { booking, api, handlers };
}

async function pickerAndCheckout(booking: BookingContextValue): Promise<{ el: SeatPicker; checkout: CheckoutForm }> {
  const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id="1"></seat-picker><checkout-form .navigate=${() => undefined}></checkout-form>`);
  const checkout = el.parentElement?.querySelector('checkout-form') as CheckoutForm;
  await waitUntil(() => seatButtons(el).length > 1, 'the map did not render', { timeout: 5000 });
  return { el, checkout };
}

/** Choose seats and wait until the service's seat check has answered for them (Add no longer waits for it). */
async function choose(el: SeatPicker, api: FakeApi, names: string[]): Promise<HTMLButtonElement> {
  for (const name of names) seat(el, name).click();
  await waitUntil(() => api.callsTo('validateSeatsSelection').length > 0 && !textOf(root(el).querySelector('#checking-note')), 'the seat check did not answer', { timeout: 4000 });
  await el.updateComplete;
  return root(el).querySelector<HTMLButtonElement>('[part~="summary"] [part~="add-button"]') as HTMLButtonElement;
}

const announced = (el: SeatPicker) => textOf(root(el).querySelector('[part~="status"]'));

describe('<seat-picker> while a payment from this tab is open', () => {
  afterEach(() => {
    resetSharedBookings();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('refuses Add with a note saying why and for how long, leading back to the payment page; sends nothing; the checkout keeps showing the payment', async () => {
    const { booking, api } = await backFromPayment();
    const { el, checkout } = await pickerAndCheckout(booking);
    await waitUntil(() => $(checkout, '#pending-heading'), 'the checkout shows the unfinished payment');
    const add = await choose(el, api, ['Stalls, row B, seat 9', 'Stalls, row B, seat 10']);
    await waitUntil(() => root(el).querySelector('#payment-note'), 'the note beside Add');
    const note = root(el).querySelector<HTMLElement>('#payment-note') as HTMLElement;
    // The payment timeout counts from the order (five minutes ago): 14:5x left, never more than remains.
    expect(textOf(note)).to.match(/^You have a payment in progress\. Finish it or let it lapse \(14:5\d\) before choosing more seats\./);
    const link = note.querySelector<HTMLAnchorElement>('a[part~="continue-button"]') as HTMLAnchorElement;
    expect(textOf(link)).to.equal('Continue to payment');
    expect(link.href).to.equal(PAYMENT_URL);
    // The seat check said yes: only the open payment holds Add back, and Add says so.
    expect(add.getAttribute('aria-disabled')).to.equal('true');
    expect(add.getAttribute('aria-describedby')?.split(' ')).to.include('payment-note');
    add.focus();
    add.click();
    await el.updateComplete;
    expect(announced(el)).to.match(/^You have a payment in progress\. Finish it or let it lapse \(14 minutes, \d+ seconds\) before choosing more seats\./);
    expect(root(el).activeElement).to.equal(add);
    // Nothing asked of the service: no new basket, no tickets.
    expect(api.callsTo('createBasket')).to.deep.equal([]);
    expect(api.callsTo('addTickets')).to.deep.equal([]);
    expect(booking.basket.value.basketId).to.equal(null);
    // The checkout still shows the payment, with its way back.
    await checkout.updateComplete;
    expect(textOf($(checkout, '[part~="pending"]'))).to.contain("Your payment isn't finished");
    expect(($(checkout, '[part~="continue-button"]') as HTMLAnchorElement).href).to.equal(PAYMENT_URL);
    await expect(el).to.be.accessible();
  });

  it('best available waits too: its Add is refused, nothing is sent', async () => {
    const areas = { PerformanceId: 1, EventId: 5, TicketAreas: [{ AreaId: 1, AreaName: 'Balcony', SellingPrice: 25, Tickets: [ticket(200, 'Balcony', 'M', '1', 25), ticket(201, 'Balcony', 'M', '2', 25)] }] };
    const { booking, api } = await backFromPayment({ getAvailableTickets: () => areas as never });
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id="1" mode="best-available"></seat-picker>`);
    await waitUntil(() => root(el).querySelector('[part~="option"]') && root(el).querySelector('#payment-note'), 'the options and the note');
    const add = root(el).querySelector<HTMLButtonElement>('[part~="option"] [part~="add-button"]') as HTMLButtonElement;
    expect(add.getAttribute('aria-disabled')).to.equal('true');
    expect(add.getAttribute('aria-describedby')?.split(' ')).to.include('payment-note');
    add.click();
    await el.updateComplete;
    expect(announced(el)).to.contain('You have a payment in progress.');
    expect(api.callsTo('createBasket')).to.deep.equal([]);
    expect(api.callsTo('addTickets')).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('once the payment is known released (timed out), Add works again', async () => {
    const { booking, api, handlers } = await backFromPayment();
    const { el, checkout } = await pickerAndCheckout(booking);
    await waitUntil(() => root(el).querySelector('#payment-note'), 'the note beside Add');
    // The payment timed out: the service released its basket.
    handlers.getBasket = ({ basketId }) => ({ ...basketWith([]), BasketId: basketId });
    await pendingPayment(booking.basket).check();
    await waitUntil(() => $(checkout, '[part~="start-again-button"]'), 'the checkout says the seats were released');
    const add = await choose(el, api, ['Stalls, row B, seat 9', 'Stalls, row B, seat 10']);
    expect(root(el).querySelector('#payment-note')).to.equal(null);
    expect(add.getAttribute('aria-disabled')).to.equal('false');
    add.click();
    await waitUntil(() => api.callsTo('addTickets').length === 1, 'the tickets were added');
    expect(api.callsTo('addTickets')).to.deep.equal([{ basketId: NEW_BASKET, body: { Tickets: [2, 1] } }]);
    await waitUntil(() => /2 tickets added to your basket/.test(textOf(root(el) as unknown as Element)), 'the add is confirmed');
  });
});

describe('a basket started beside an open payment', () => {
  afterEach(() => {
    resetSharedBookings();
    sessionStorage.clear();
    localStorage.clear();
  });

  it('does not drop what was kept for the payment; the checkout shows the payment above the new basket, also after a reload', async () => {
    const endpoint = `/pending-beside-${Math.random().toString(36).slice(2)}`;
    let nextBasket = BASKET_ID;
    const api = checkoutApi({
      getSubmittedBasketSummary: () => NOT_AVAILABLE_YET,
      createBasket: () => ({ Success: true, BasketId: nextBasket }),
      addTickets: ({ basketId }) => ({ Success: true, FailureReason: 0, FailureReasonText: 'None', BookableTicketsCount: null, GetBasketContentResult: { ...basketContent(), BasketId: basketId } }),
      getBasket: ({ basketId }) => ({ ...basketContent(), BasketId: basketId }),
    });
    const first = testBooking(api, { endpoint });
    await first.basket.add({ Tickets: [1001, 1002] });
    const content = first.basket.value.content;
    if (!content) throw new Error('no basket');
    const entries = { values: {}, deliveryTypeId: null, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [] };
    first.basket.submitted(paymentDetails(content, { redirectUrl: PAYMENT_URL, submittedAt: api.clock.now(), total: 125, entries }));
    // A basket from elsewhere than the picker (the page's own script through the store).
    nextBasket = NEW_BASKET;
    await first.basket.add({ Tickets: [1003] });
    expect(first.basket.value.basketId).to.equal(NEW_BASKET);
    expect(first.basket.awaitingPayment).to.equal(content.BasketId);
    const shows = async (booking: BookingContextValue) => {
      const checkout = await withBooking<CheckoutForm>(booking, html`<checkout-form .navigate=${() => undefined}></checkout-form>`);
      await waitUntil(() => $(checkout, '#pending-heading') && $(checkout, '[part~="item"]'), `the payment and the basket: ${textOf(checkout.shadowRoot as unknown as Element)}`);
      expect(textOf($(checkout, '[part~="pending"]'))).to.contain("Your payment isn't finished");
      expect(($(checkout, '[part~="continue-button"]') as HTMLAnchorElement).href).to.equal(PAYMENT_URL);
    };
    await shows(first);
    // A reload: the same tab's storage, a new page.
    resetSharedBookings();
    const again = testBooking(api, { endpoint });
    await again.basket.refresh();
    expect(again.basket.awaitingPayment).to.equal(content.BasketId);
    await shows(again);
  });
});
