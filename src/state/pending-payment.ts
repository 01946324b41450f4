/**
 * A payment this tab started and has not come back from: the customer left
 * for the payment page and came back without paying or declining (the
 * browser's Back button, a reload, the page restored from the back/forward
 * cache). The service still holds the basket "awaiting payment" until the
 * payment timeout (interface §3, default 20 minutes from Submit Order), and
 * refuses to change it (403 on Delete from Basket and Delete all from Basket),
 * so the widget must not forget it: it offers to continue to the same payment
 * page for as long as the payment stays open.
 *
 * The record (BasketStore.pendingRecord, localStorage per endpoint: every tab sees it) keeps the
 * payment page's address, when the order was sent (server clock), what it
 * holds (for the customer to recognise) and the customer's entries (restored
 * on a failed-payment return). What the service says decides the state:
 * booked (SubmittedBasketSummary answers), still awaiting payment (the basket
 * still has its items), or released (empty or gone: the record is dropped).
 *
 * No rendering; the DOM only through `location` and `pageshow`.
 */
import { isNotAvailableYet } from '../api/client.ts';
import { isBasketGone } from './failure.ts';
import type { BasketContent } from '../api/types.ts';
import { safeUrl } from '../safe-url.ts';
import type { BasketStore } from './basket-store.ts';
import { PAYMENT_TIMEOUT_MS } from './basket-record.ts';
import { providePendingPayment } from './basket-sync.ts';
import { returnMarker } from './return-page.ts';
import { Store } from './store.ts';

export { PAYMENT_TIMEOUT_MS };

/** What the customer sees of an item of the basket that went to payment. */
export interface PendingItem {
  name: string;
  /** PerformanceDate, a service DateTime. */
  date: string;
  venue: string;
  seats: string[];
}

/** The checkout's entries, restored after a failed payment. */
export interface SavedEntries {
  values: Record<string, string>;
  deliveryTypeId: number | null;
  requireTicketPlan: boolean;
  sendConfirmationEmail: boolean;
  confirmed: number[];
}

/** What is kept when a basket goes to payment (besides its id). */
export interface PaymentDetails {
  /** The payment page (PaymentRedirectUrl); none when the order was taken but its answer was lost (order.ts). */
  redirectUrl?: string;
  /** When the order was accepted, by the server's clock (ms since epoch). */
  submittedAt: number;
  total: number;
  items: PendingItem[];
  entries: SavedEntries;
}

export type PendingRecord = { basketId: string; returned?: boolean } & Partial<PaymentDetails>;

export type PendingStatus =
  /** No payment in progress from this tab (or this page is its return). */
  | 'none'
  /** Asking the service what became of it. */
  | 'checking'
  /** Still awaiting payment: the customer can continue to the payment page. */
  | 'awaiting'
  /** Paid: the booking is confirmed. */
  | 'booked'
  /** The payment timed out (or the basket is gone): the seats were released. */
  | 'released'
  /** The service could not be asked (network, 5xx): try again. */
  | 'unchecked';

export interface PendingState {
  status: PendingStatus;
  record: PendingRecord | null;
  /** When the payment stops being open (server clock, ms since epoch), when known. */
  deadline: number | null;
  /** Bumped each time the page is shown again from the back/forward cache. */
  visit: number;
  /** The booking reference, once booked (when known). */
  reference?: string | null;
}

/** The details to keep for a basket going to payment: what it holds, and when. */
export function paymentDetails(
  content: BasketContent,
  details: { redirectUrl?: string; submittedAt: number; total: number; entries: SavedEntries },
): PaymentDetails {
  return {
    ...details,
    items: content.Items.map((item) => ({ name: item.EventName, date: item.PerformanceDate, venue: item.VenueName, seats: [...item.Seats] })),
  };
}

/** The customer's entries kept for this basket (after a failed payment brought it back), if any. */
export function savedEntries(basket: BasketStore, basketId: string | null): SavedEntries | null {
  const record = basket.pendingRecord as PendingRecord | null;
  return basketId && record?.basketId === basketId && record.entries ? record.entries : null;
}

export class PendingPayment extends Store<PendingState> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private checking: Promise<void> | undefined;

  constructor(private readonly basket: BasketStore) {
    super({ status: 'none', record: null, deadline: null, visit: 0, reference: null });
  }

  /**
   * Whether a payment from this tab is open, or may be: awaiting it, asking the service, or
   * not able to ask. Then the service holds its seats and refuses changes to its basket, and
   * no new basket is started beside it (one that would hide it: the customer could pay twice,
   * or lose the seats they think they have). Not once it is known booked or released.
   */
  get open(): boolean {
    const status = this.value.status;
    return status === 'checking' || status === 'awaiting' || status === 'unchecked';
  }

  /** The payment page to continue to, when it is a web address. */
  get continueUrl(): string | null {
    return safeUrl(this.value.record?.redirectUrl ?? null);
  }

  /** Ask the service what became of the payment in progress (at most one question at a time). */
  check(): Promise<void> {
    this.checking ??= this.ask().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** The page came back from the back/forward cache: the payment may have moved on meanwhile. */
  shownAgain(): void {
    this.patch({ visit: this.value.visit + 1 });
    void this.check();
  }

  /** The customer read that the payment timed out: nothing more to show. */
  dismiss(): void {
    if (this.value.status === 'released') this.patch({ status: 'none', record: null, deadline: null });
  }

  /** Another tab completed the booking of the payment this tab showed (basket-sync.ts). */
  bookedElsewhere(booking: { basketId: string; bookingReference: string }): void {
    this.dispose();
    const record = this.value.record?.basketId === booking.basketId ? this.value.record : { basketId: booking.basketId };
    this.patch({ status: 'booked', record, deadline: null, reference: booking.bookingReference || null });
  }

  /** Stop the timer (the last element showing it left the page). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async ask(): Promise<void> {
    this.dispose();
    const raw = this.basket.pendingRecord;
    // A return page: the confirmation handles the outcome (payment-return.ts).
    if (!raw || raw.returned || returnMarker()) {
      this.patch({ status: 'none', record: null, deadline: null });
      return;
    }
    const record = raw as PendingRecord;
    const deadline = typeof record.submittedAt === 'number' ? record.submittedAt + PAYMENT_TIMEOUT_MS : null;
    this.patch({ status: this.value.status === 'awaiting' ? 'awaiting' : 'checking', record, deadline });
    const api = this.basket.api;
    try {
      const summary = await api.getSubmittedBasketSummary({ basketId: record.basketId });
      if (!isNotAvailableYet(summary)) {
        // Paid (in another tab, or the return never reached this page): the confirmation shows it.
        this.patch({ status: 'booked', reference: summary.BookingReference || null });
        return;
      }
      const content = await api.getBasket({ basketId: record.basketId });
      if (content.Items.length === 0) {
        this.released();
        return;
      }
      this.patch({ status: 'awaiting' });
      this.schedule(deadline);
    } catch (error) {
      if (isBasketGone(error)) {
        this.released();
        return;
      }
      this.patch({ status: 'unchecked' });
    }
  }

  private released(): void {
    this.basket.dropPending();
    this.patch({ status: 'released' });
  }

  /** Ask again when the payment should have timed out; while the service still holds it past then, back off. */
  private schedule(deadline: number | null): void {
    if (deadline === null) return;
    const until = deadline - this.basket.api.clock.now();
    let delay: number;
    if (until > 0) {
      this.attempts = 0;
      delay = Math.min(until + 1000, 2 ** 31 - 1);
    } else {
      delay = Math.min(2000 * 2 ** this.attempts, 30_000);
      this.attempts++;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, delay);
  }
}

const stores = new WeakMap<BasketStore, PendingPayment>();

/**
 * The basket's payment in progress (one per basket store, shared by every element showing it),
 * checked with the service the first time it is asked for, and again when the page is shown
 * from the back/forward cache.
 */
export function pendingPayment(basket: BasketStore): PendingPayment {
  let store = stores.get(basket);
  if (!store) {
    const created = new PendingPayment(basket);
    store = created;
    stores.set(basket, created);
    if (typeof window !== 'undefined') {
      window.addEventListener('pageshow', (event) => {
        if (event.persisted && !basket.disposed) created.shownAgain();
      });
    }
    if (basket.pendingRecord) void created.check();
  }
  return store;
}

// The cross-tab sync takes a change about a payment in at once from now on (basket-sync.ts).
providePendingPayment(pendingPayment);

/**
 * Before an order is sent: whether another tab already sent this basket to payment (its
 * record is kept for every tab, basket-sync.ts). Then this tab takes that in (its basket is the one awaiting
 * payment) and offers to continue that payment: no second order for one basket.
 */
export function paymentBegunElsewhere(store: BasketStore, basketId: string): boolean {
  // Not a payment that came back declined (its record is kept, `returned`, for the entries): that one may be paid again.
  if (store.awaitingPayment !== basketId) return false;
  store.forget();
  void pendingPayment(store).check();
  return true;
}
