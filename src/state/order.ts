/**
 * The order: the basket sent to the box office, beside the basket store.
 *
 * - On account when configured; a refusal (Success false, or a 403 from a
 *   proxy or account that does not allow it) falls back to payment.
 * - Sent again while its answer is lost (order-retry.ts): the proxy answers a
 *   repeat with the accepted order's answer.
 * - Taken, its answer lost before any proxy kept it (between the proxy and the
 *   service): a repeat is refused (403, the basket is submitted). After a lost
 *   answer a refusal is not taken at its word: what the service says the basket
 *   is decides. Booked: as booked. Still holding its seats: it awaits payment,
 *   kept as the unfinished payment with no payment page (pending-payment.ts
 *   follows it to its end). Else the refusal stands.
 * - Once at a time: a second submit while one is in flight joins it (the same
 *   promise, no second request).
 * - Accepted: the basket store starts afresh and keeps the unfinished payment
 *   (`BasketStore.submitted`, read back by pending-payment.ts): the payment
 *   page, when it was sent, what it holds and the customer's entries. Booked on
 *   account: the basket is kept as submitted and the confirmation's claim reset.
 * - Refused or failed: the basket is left as it was, and the error is given
 *   back for the element to tell (it owns the words). An order the site's own
 *   setup refused (`isSiteRefusal`) is told as such: never the operator's message.
 *
 * No rendering. Elements dispatch `submit` and render what it answers.
 */
import { ApiError, isNotAvailableYet } from '../api/client.ts';
import { refusalOf, SITE_REFUSAL } from '../api/refusal.ts';
import type { BasketContent, SubmitOrderBody } from '../api/types.ts';
import { intlLocale } from '../i18n/locale.ts';
import { safeUrl } from '../safe-url.ts';
import type { BasketStore } from './basket-store.ts';
import type { BookingConfig } from './config.ts';
import { isBasketGone } from './failure.ts';
import { isLostAnswer, ORDER_RETRY_DELAYS_MS, sendUntilAnswered } from './order-retry.ts';
import { paymentGateLanguage, resetClaim, returnUrls } from './payment-return.ts';
import { paymentDetails, pendingPayment, type SavedEntries } from './pending-payment.ts';
import { Store } from './store.ts';

/** The order fields both ways of booking send (the form's; the return addresses and language are added here). */
export type OrderFields = Omit<SubmitOrderBody, 'SuccessReturnUrl' | 'FailureReturnUrl' | 'PaymentGateLanguage'>;

/** What the checkout dispatches. */
export interface OrderRequest {
  /** The widget's configuration (on account, locale, return addresses). */
  config: BookingConfig;
  /** The order from the form (its BasketId is the basket's). */
  fields: OrderFields;
  /** The basket's content as the customer saw it (kept with an unfinished payment). */
  content: BasketContent;
  /** The order's total, with delivery and extras. */
  total: number;
  /** The customer's entries, restored after a failed payment. */
  entries: SavedEntries;
}

export type OrderOutcome =
  /** Booked on account: no payment. */
  | { kind: 'booked'; basketId: string; reference: string }
  /** To the payment page (kept as the unfinished payment); `refusedOnAccount` when on account was configured but refused. */
  | { kind: 'payment'; basketId: string; url: string; refusedOnAccount: boolean }
  /** Taken, but the payment page's address was lost with its answer: the basket awaits payment (kept as the unfinished payment, pending-payment.ts). */
  | { kind: 'awaiting'; basketId: string }
  /** The service answered without a usable payment page: the basket is kept. */
  | { kind: 'not-accepted' }
  /** The order could not be sent, or was refused (400, 403...): the basket is kept; `error` says why. */
  | { kind: 'failed'; error: unknown };

export type OrderStatus = 'idle' | 'sending' | OrderOutcome['kind'];

export interface OrderState {
  status: OrderStatus;
}

/** What sending answered, before the basket is handed over. */
type Sent = { kind: 'booked'; reference: string } | { kind: 'payment'; url: string; refusedOnAccount: boolean } | { kind: 'awaiting' } | { kind: 'not-accepted' };

export class OrderStore extends Store<OrderState> {
  private inflight: Promise<OrderOutcome> | undefined;
  /** Baskets whose order lost an answer on this page (it may have been taken), and when that order was sent (server clock). */
  private readonly lost = new Map<string, number>();

  constructor(
    private readonly basket: BasketStore,
    /** Waits before each new attempt while the answer is lost (order-retry.ts). */
    private readonly retryDelays: readonly number[] = ORDER_RETRY_DELAYS_MS,
  ) {
    super({ status: 'idle' });
  }

  /** Whether an order is on its way. */
  get sending(): boolean {
    return this.inflight !== undefined;
  }

  /**
   * Send the basket's order. While one is in flight, a second submit (a double click, Enter
   * and click) joins it: the same answer, one request.
   */
  submit(request: OrderRequest): Promise<OrderOutcome> {
    this.inflight ??= this.run(request).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async run(request: OrderRequest): Promise<OrderOutcome> {
    const basketId = request.fields.BasketId;
    this.set({ status: 'sending' });
    let outcome: OrderOutcome;
    try {
      const sent = await this.send(request);
      if (sent.kind === 'booked') {
        this.basket.submitted();
        resetClaim(this.basket);
        outcome = { ...sent, basketId };
      } else if (sent.kind === 'payment') {
        const { content, total, entries } = request;
        this.basket.submitted(paymentDetails(content, { redirectUrl: sent.url, submittedAt: this.basket.api.clock.now(), total, entries }));
        outcome = { ...sent, basketId };
      } else if (sent.kind === 'awaiting') {
        // Its payment window opened when it was taken: at the earliest, when the lost attempt was sent.
        const { content, total, entries } = request;
        this.basket.submitted(paymentDetails(content, { submittedAt: this.lost.get(basketId) ?? this.basket.api.clock.now(), total, entries }));
        void pendingPayment(this.basket).check();
        outcome = { kind: 'awaiting', basketId };
      } else {
        outcome = sent;
      }
    } catch (error) {
      outcome = { kind: 'failed', error };
    }
    this.set({ status: outcome.kind });
    return outcome;
  }

  /** On account when configured (falling back to payment when refused), else to payment; lost answers sent again. */
  private async send(request: OrderRequest): Promise<Sent> {
    const basketId = request.fields.BasketId;
    try {
      const sent = await this.sendOnce(request, <T>(call: () => Promise<T>) => () => {
        const at = this.basket.api.clock.now();
        return call().catch((error: unknown) => {
          if (isLostAnswer(error) && !this.lost.has(basketId)) this.lost.set(basketId, at);
          throw error;
        });
      });
      if (sent.kind !== 'not-accepted') this.lost.delete(basketId);
      return sent;
    } catch (error) {
      // Refused after an answer was lost: that order may be the reason.
      if (this.lost.has(basketId) && isBasketGone(error)) return this.taken(basketId, error);
      throw error;
    }
  }

  /**
   * What the service says a basket is whose order may have been taken: booked (its summary),
   * awaiting payment (it still holds its seats), or neither (the refusal stands).
   */
  private async taken(basketId: string, refusal: unknown): Promise<Sent> {
    const api = this.basket.api;
    const summary = await api.getSubmittedBasketSummary({ basketId });
    if (!isNotAvailableYet(summary)) return { kind: 'booked', reference: summary.BookingReference };
    const content = await api.getBasket({ basketId });
    if (content.Items.length > 0) return { kind: 'awaiting' };
    this.lost.delete(basketId);
    throw refusal;
  }

  /** One order: each request through `watch` (which notes a lost answer). */
  private async sendOnce({ config, fields }: OrderRequest, watch: <T>(call: () => Promise<T>) => () => Promise<T>): Promise<Sent> {
    const api = this.basket.api;
    const basketId = fields.BasketId;
    const urls = returnUrls(config);
    let refusedOnAccount = false;
    if (config.onAccount) {
      try {
        const result = await sendUntilAnswered(watch(() => api.submitOrderOnAccount({ basketId, body: { ...fields, ReturnUrl: urls.success } })), this.retryDelays);
        if (result.Success && result.BookingReference) return { kind: 'booked', reference: result.BookingReference };
        refusedOnAccount = true;
      } catch (error) {
        // 403 from on-account: this proxy or account does not allow it. Pay instead (a 403 there too means the basket is invalid).
        if (!(error instanceof ApiError && error.status === 403)) throw error;
        refusedOnAccount = true;
      }
    }
    const body: SubmitOrderBody = {
      ...fields,
      SuccessReturnUrl: urls.success,
      FailureReturnUrl: urls.failure,
      // The language the visitor is reading now (the page's, when it differs from this widget's configuration).
      PaymentGateLanguage: paymentGateLanguage(intlLocale(config.locale)),
    };
    // Sent again while its answer is lost: the proxy answers a repeat with the accepted order's redirect.
    const result = await sendUntilAnswered(watch(() => api.submitOrder({ basketId, body })), this.retryDelays);
    const paymentUrl = safeUrl(result.PaymentRedirectUrl);
    if (!result.Success || !paymentUrl) return { kind: 'not-accepted' };
    return { kind: 'payment', url: paymentUrl, refusedOnAccount };
  }
}

/**
 * Whether the proxy refused the order because of the site's own setup (a front server that hides
 * the site from it: src/server/proxy/return-addresses.ts). The customer hears that the site cannot
 * take orders and nothing was charged, never the operator's message; trying again will not help.
 */
export function isSiteRefusal(error: unknown): boolean {
  return error instanceof ApiError && refusalOf(error.body) === SITE_REFUSAL;
}

const stores = new WeakMap<BasketStore, OrderStore>();

/** The order of this basket (one per basket store, shared by every element that checks it out). */
export function orderStore(basket: BasketStore): OrderStore {
  let store = stores.get(basket);
  if (!store) {
    store = new OrderStore(basket);
    stores.set(basket, store);
  }
  return store;
}
