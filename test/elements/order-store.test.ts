/**
 * The order through state (src/state/order.ts): what is sent, the unfinished payment kept with
 * the basket store, a lost answer sent again (a refusal never), booking on account and its
 * fallback, and a second submit while one is in flight joining it. With a controlled clock.
 */
import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import type { SubmitOrderBody, SubmitOrderResult } from '../../src/api/types.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import type { BookingConfig } from '../../src/state/config.ts';
import { orderStore, type OrderRequest } from '../../src/state/order.ts';
import { ORDER_RETRY_DELAYS_MS } from '../../src/state/order-retry.ts';
import type { PendingRecord } from '../../src/state/pending-payment.ts';
import { NOT_AVAILABLE_YET } from '../../src/api/client.ts';
import { BASKET_ID, basketContent, checkoutApi, submittedSummary } from './helpers/checkout-data.ts';
import { apiError, networkError, testBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { deferred } from './helpers/fake-basket.ts';

const PAY = 'https://pay.example/sandbox/pay/' + BASKET_ID;
const ENTRIES = { values: { email: 'ada@example.com' }, deliveryTypeId: 5, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [0] };

/** A booking whose basket holds the checkout fixtures' items. */
async function withBasket(handlers: Handlers = {}, config: Partial<BookingConfig> = {}): Promise<{ api: FakeApi; booking: BookingContextValue }> {
  const api = checkoutApi(handlers);
  const booking = testBooking(api, { currency: 'GBP', ...config });
  const added = await booking.basket.add({ Tickets: [1001] });
  expect(added.ok, 'the basket has its items').to.equal(true);
  return { api, booking };
}

function request(booking: BookingContextValue): OrderRequest {
  const content = booking.basket.value.content;
  if (!content) throw new Error('no basket');
  return {
    config: booking.config,
    fields: { BasketId: BASKET_ID, Email: 'ada@example.com', Name: 'Ada', LastName: 'Lovelace', DeliveryType: 5, RequireTicketPlan: false, SendConfirmationEmail: true },
    content,
    total: 124,
    entries: ENTRIES,
  };
}

describe('order store', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    clock.restore();
    resetSharedBookings();
  });

  it('sends the order with the return addresses, and keeps the unfinished payment with the basket store', async () => {
    const { api, booking } = await withBasket();
    const order = orderStore(booking.basket);
    expect(orderStore(booking.basket), 'one per basket').to.equal(order);
    const outcome = await order.submit(request(booking));
    expect(outcome).to.deep.equal({ kind: 'payment', basketId: BASKET_ID, url: PAY, refusedOnAccount: false });
    const body = (api.callsTo('submitOrder')[0] as { basketId: string; body: SubmitOrderBody }).body;
    expect(body).to.include({ BasketId: BASKET_ID, Email: 'ada@example.com', DeliveryType: 5 });
    expect(new URL(body.SuccessReturnUrl).searchParams.get('stagedoor')).to.equal('success');
    expect(new URL(body.FailureReturnUrl).searchParams.get('stagedoor')).to.equal('failure');
    // Handed over: the store starts afresh, the payment is kept for the return (pending-payment.ts).
    expect(booking.basket.value.basketId).to.equal(null);
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
    const record = booking.basket.pendingRecord as PendingRecord;
    expect(record).to.include({ basketId: BASKET_ID, redirectUrl: PAY, total: 124 });
    expect(record.entries).to.deep.equal(ENTRIES);
    expect(record.items?.map((i) => i.name)).to.deep.equal(['The Lantern Keeper', 'Comedy Night']);
    expect(order.value.status).to.equal('payment');
  });

  it('sends an order whose answer was lost again, after the pause, and goes on to payment', async () => {
    let calls = 0;
    const { api, booking } = await withBasket({
      submitOrder: () => {
        calls += 1;
        if (calls === 1) throw networkError('submitOrder');
        if (calls === 2) throw apiError('submitOrder', 504);
        return { Success: true, PaymentRedirectUrl: PAY };
      },
    });
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(0);
    expect(api.callsTo('submitOrder'), 'before the first pause').to.have.length(1);
    expect(booking.basket.value.basketId, 'the basket is kept while its answer is awaited').to.equal(BASKET_ID);
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
    expect(api.callsTo('submitOrder')).to.have.length(2);
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS[1] ?? 0);
    expect((await sent).kind).to.equal('payment');
    expect(api.callsTo('submitOrder')).to.have.length(3);
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
  });

  it('never sends a refused order again, and leaves the basket as it was', async () => {
    const { api, booking } = await withBasket({ submitOrder: () => { throw apiError('submitOrder', 403); } });
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(10_000);
    const outcome = await sent;
    expect(outcome.kind).to.equal('failed');
    expect(outcome.kind === 'failed' && (outcome.error as { status?: number }).status).to.equal(403);
    expect(api.callsTo('submitOrder')).to.have.length(1);
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    expect(booking.basket.value.content?.Items).to.have.length(2);
    expect(booking.basket.pendingRecord).to.equal(null);
  });

  it('keeps the basket when every attempt lost its answer, and gives the last error back', async () => {
    const { api, booking } = await withBasket({ submitOrder: () => { throw networkError('submitOrder'); } });
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    const outcome = await sent;
    expect(outcome.kind).to.equal('failed');
    expect(api.callsTo('submitOrder')).to.have.length(ORDER_RETRY_DELAYS_MS.length + 1);
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    expect(booking.basket.pendingRecord).to.equal(null);
  });

  it('an order taken whose answer was lost, its repeat refused (403): asks the service, and keeps the basket as awaiting payment with no payment page', async () => {
    let calls = 0;
    const { api, booking } = await withBasket({
      submitOrder: () => {
        calls += 1;
        throw calls === 1 ? networkError('submitOrder') : apiError('submitOrder', 403);
      },
      getSubmittedBasketSummary: () => NOT_AVAILABLE_YET,
    });
    const sentAt = booking.api.clock.now();
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
    const outcome = await sent;
    expect(outcome).to.deep.equal({ kind: 'awaiting', basketId: BASKET_ID });
    expect(api.callsTo('submitOrder')).to.have.length(2);
    expect(api.callsTo('getSubmittedBasketSummary')).to.have.length.greaterThan(0);
    expect(booking.basket.value.basketId, 'handed over').to.equal(null);
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
    const record = booking.basket.pendingRecord as PendingRecord;
    expect(record.redirectUrl).to.equal(undefined);
    expect(record.entries).to.deep.equal(ENTRIES);
    expect(record.submittedAt).to.be.within(sentAt, sentAt + 1000);
  });

  it('an order whose answer was lost, its repeat refused, of a basket no longer holding seats: the refusal stands, the basket is left as it was', async () => {
    let calls = 0;
    const { booking } = await withBasket({
      submitOrder: () => {
        calls += 1;
        throw calls === 1 ? apiError('submitOrder', 504) : apiError('submitOrder', 403);
      },
      getSubmittedBasketSummary: () => NOT_AVAILABLE_YET,
      getBasket: () => basketContent([]),
    });
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
    const outcome = await sent;
    expect(outcome.kind).to.equal('failed');
    expect(outcome.kind === 'failed' && (outcome.error as { status?: number }).status).to.equal(403);
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    expect(booking.basket.pendingRecord).to.equal(null);
  });

  it('on account, an order taken whose answer was lost: booked, with the reference the service gives', async () => {
    let calls = 0;
    const { api, booking } = await withBasket(
      {
        submitOrderOnAccount: () => {
          calls += 1;
          throw calls === 1 ? apiError('submitOrderOnAccount', 502) : apiError('submitOrderOnAccount', 403);
        },
        submitOrder: () => { throw apiError('submitOrder', 403); },
        getSubmittedBasketSummary: () => ({ ...submittedSummary(), BookingReference: 'ACC-LOST' }),
      },
      { onAccount: true },
    );
    const sent = orderStore(booking.basket).submit(request(booking));
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
    expect(await sent).to.deep.equal({ kind: 'booked', basketId: BASKET_ID, reference: 'ACC-LOST' });
    expect(api.callsTo('submitOrderOnAccount')).to.have.length(2);
    expect(booking.basket.value.basketId).to.equal(null);
  });

  it('joins a second submit while the first is in flight: one request, one answer', async () => {
    const answer = deferred<SubmitOrderResult>();
    const { api, booking } = await withBasket({ submitOrder: () => answer.promise });
    const order = orderStore(booking.basket);
    const first = order.submit(request(booking));
    const second = order.submit(request(booking));
    expect(second).to.equal(first);
    expect(order.sending).to.equal(true);
    expect(order.value.status).to.equal('sending');
    await clock.tickAsync(0);
    answer.resolve({ Success: true, PaymentRedirectUrl: PAY });
    const [a, b] = await Promise.all([first, second]);
    expect(a).to.deep.equal(b);
    expect(api.callsTo('submitOrder')).to.have.length(1);
    expect(order.sending).to.equal(false);
  });

  it('does not take a payment page that is not a web address: the basket is kept', async () => {
    const { booking } = await withBasket({ submitOrder: () => ({ Success: true, PaymentRedirectUrl: 'javascript:alert(1)' }) });
    const outcome = await orderStore(booking.basket).submit(request(booking));
    expect(outcome).to.deep.equal({ kind: 'not-accepted' });
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    expect(booking.basket.pendingRecord).to.equal(null);
  });

  it('books on account when configured, with no payment kept', async () => {
    const { api, booking } = await withBasket({ submitOrderOnAccount: () => ({ Success: true, BookingReference: 'ACC-991' }) }, { onAccount: true });
    const outcome = await orderStore(booking.basket).submit(request(booking));
    expect(outcome).to.deep.equal({ kind: 'booked', basketId: BASKET_ID, reference: 'ACC-991' });
    expect(api.callsTo('submitOrder')).to.have.length(0);
    expect(booking.basket.value.basketId).to.equal(null);
    expect(booking.basket.pendingRecord?.redirectUrl).to.equal(undefined);
  });

  it('pays instead when booking on account is refused (403), and says it was refused', async () => {
    const { api, booking } = await withBasket({ submitOrderOnAccount: () => { throw apiError('submitOrderOnAccount', 403); } }, { onAccount: true });
    const outcome = await orderStore(booking.basket).submit(request(booking));
    expect(outcome).to.deep.equal({ kind: 'payment', basketId: BASKET_ID, url: PAY, refusedOnAccount: true });
    expect(api.callsTo('submitOrderOnAccount')).to.have.length(1);
    expect(api.callsTo('submitOrder')).to.have.length(1);
  });
});
