/**
 * The hand-over to the payment gateway and the way back.
 *
 * - Return URLs: by default the current page with a marker
 *   (`?stagedoor=success` / `?stagedoor=failure`), keeping the page's other
 *   query parameters; the host may configure both (config.successUrl/failureUrl).
 * - The payment gate's language from the configured locale (Language enum).
 * - What happens on the return page happens ONCE per basket store, however many
 *   confirmation elements the page holds and however often they are
 *   disconnected and reconnected: the awaiting basket id is claimed once, a
 *   failed payment resumes the basket once, a completed order is announced once,
 *   and not again when the page is reloaded (the last completed booking is kept
 *   for the session and shown again without an announcement).
 * - The outcome marker and which confirmations the page holds are in
 *   return-page.ts (what an element needs before it shows anything).
 *
 * No rendering; the DOM only through `location` (read, never written).
 */
import { Language, type LanguageCode } from '../api/types.ts';
import type { BasketStore } from './basket-store.ts';
import type { BookingConfig } from './config.ts';
import { currentHref, RETURN_PARAM, type ReturnOutcome } from './return-page.ts';

/** `href` with the marker set (other query parameters kept, fragment dropped). */
export function withReturnMarker(outcome: ReturnOutcome, href: string = currentHref()): string {
  const url = new URL(href);
  url.searchParams.set(RETURN_PARAM, outcome);
  url.hash = '';
  return url.href;
}

/** The return URLs to send with an order: the configured ones, else this page with a marker. */
export function returnUrls(
  config: Pick<BookingConfig, 'successUrl' | 'failureUrl'>,
  href: string = currentHref(),
): { success: string; failure: string } {
  const absolute = (value: string) => new URL(value, href).href;
  return {
    success: config.successUrl ? absolute(config.successUrl) : withReturnMarker('success', href),
    failure: config.failureUrl ? absolute(config.failureUrl) : withReturnMarker('failure', href),
  };
}

const LANGUAGE_BY_SUBTAG: Readonly<Record<string, LanguageCode>> = {
  en: Language.English,
  de: Language.German,
  es: Language.Spanish,
  it: Language.Italian,
  sv: Language.Swedish,
  fr: Language.French,
  nl: Language.Dutch,
  no: Language.Norwegian,
  nb: Language.Norwegian,
  nn: Language.Norwegian,
  da: Language.Danish,
};

/** The payment gate's language for a BCP 47 locale; English when the gate has none for it. */
export function paymentGateLanguage(locale: string): LanguageCode {
  const primary = locale.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return LANGUAGE_BY_SUBTAG[primary] ?? Language.English;
}

// ------------------------------------------------------------------ once per basket store

export interface FailedPaymentResult {
  /** The basket that went to payment, if this tab sent one. */
  basketId: string | null;
  /** Whether the basket is still held and back in the store. */
  resumed: boolean;
  /** False when the service could not be asked (network, 5xx): `resumed` then means nothing. */
  checked: boolean;
}

interface ReturnRecord {
  claimed: boolean;
  basketId: string | null;
  failure?: Promise<FailedPaymentResult>;
  announced: Set<string>;
}

const records = new WeakMap<BasketStore, ReturnRecord>();

function recordOf(basket: BasketStore): ReturnRecord {
  let record = records.get(basket);
  if (!record) {
    record = { claimed: false, basketId: null, announced: new Set() };
    records.set(basket, record);
  }
  return record;
}

/**
 * The basket that went to payment from this tab, read once: later calls (a
 * second element, a reconnect, after `basket.completed()`) get the same id.
 * With `orCompleted` (the success page), when none awaits payment: the last
 * booking completed from this tab (a reload of that page), or one completed
 * in another tab of the site just now, to be shown again, already announced.
 */
export function claimAwaitingBasket(basket: BasketStore, options: { orCompleted?: boolean } = {}): string | null {
  const record = recordOf(basket);
  if (!record.claimed) {
    record.claimed = true;
    record.basketId = basket.awaitingPayment;
    // Else the last booked here, or one another tab of the site just completed (basket-sync.ts): its event fired there.
    const done = record.basketId || !options.orCompleted ? null : (lastCompletedBooking(basket) ?? basket.bookedElsewhere);
    if (done) {
      record.basketId = done.basketId;
      record.announced.add(done.basketId); // its booking-order-completed fired when it was first shown
    }
  }
  return record.basketId;
}

/** A booking completed from this tab: what its confirmation needs to be shown again. */
export interface CompletedBooking {
  basketId: string;
  bookingReference: string;
}

/** The order is complete and shown: kept as the endpoint's last completed booking for the session. */
export function completeBooking(basket: BasketStore, booking: CompletedBooking): void {
  basket.completed(JSON.stringify(booking));
}

/** The last booking completed from this tab on the basket's endpoint (this session), if any. */
export function lastCompletedBooking(basket: BasketStore): CompletedBooking | null {
  try {
    const value = JSON.parse(basket.lastCompleted ?? 'null') as Partial<CompletedBooking> | null;
    return typeof value?.basketId === 'string' && value.basketId
      ? { basketId: value.basketId, bookingReference: typeof value.bookingReference === 'string' ? value.bookingReference : '' }
      : null;
  } catch {
    return null;
  }
}

/** Bring the basket back after a failed payment, once per store. */
export function resumeAfterFailureOnce(basket: BasketStore): Promise<FailedPaymentResult> {
  const record = recordOf(basket);
  if (!record.failure) {
    const basketId = claimAwaitingBasket(basket);
    record.failure = basketId
      ? basket.resumeAfterFailedPayment().then((resumed) => ({ basketId, resumed: resumed === true, checked: resumed !== null }))
      : Promise.resolve({ basketId: null, resumed: false, checked: true });
  }
  return record.failure;
}

/** True the first time it is asked for a basket id: announce a completed order once. */
export function firstAnnouncement(basket: BasketStore, basketId: string): boolean {
  const record = recordOf(basket);
  if (record.announced.has(basketId)) return false;
  record.announced.add(basketId);
  return true;
}

/** A basket went to payment again (e.g. on account from this page): its id may be claimed afresh. */
export function resetClaim(basket: BasketStore): void {
  const record = recordOf(basket);
  record.claimed = false;
  record.basketId = null;
  record.failure = undefined;
}
