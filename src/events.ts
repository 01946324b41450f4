/**
 * Every public event of the widget, in one place. All bubble and are
 * composed (they cross shadow roots to the host page), all are prefixed
 * `booking-`, and all carry a typed `detail`.
 *
 * Who fires what: an event is fired by the element whose user action caused it
 * (the seat picker fires the basket change of its add); expiry events by
 * <basket-timer>; a change made in another tab, by one element of this tab
 * (`booking-remote-change`, src/state/basket-sync.ts).
 */
import type { BasketContent, BasketItem } from './api/types.ts';

export interface BookingEventDetails {
  /** An event, performance or seats were chosen. */
  'booking-selection': { kind: 'event' | 'performance'; eventId: number | null; performanceId: number | null };
  /** The basket changed by a visitor's action. */
  'booking-basket-change': { action: 'add' | 'remove' | 'clear'; basketId: string | null; basket: BasketContent | null };
  /** The hold is about to run out (`level` warning at the threshold, final at 30 s); `secondsLeft` is the time on screen then (120 at 2:00). */
  'booking-expiry-warning': { level: 'warning' | 'final'; secondsLeft: number };
  /** Holds ran out: these items were released. */
  'booking-expiry': { released: readonly BasketItem[] };
  /** The order went to payment. */
  'booking-checkout-submitted': { basketId: string; paymentRedirectUrl: string | null; total: number; currency: string };
  /** Back from payment with a booking. */
  'booking-order-completed': { basketId: string; bookingReference: string; total: number; currency: string; ticketCount: number };
  /** Back from payment without one. */
  'booking-payment-failed': { basketId: string | null };
  /** Something failed that the visitor was told about. */
  'booking-error': { source: string; message: string; status: number | null };
  /**
   * The basket changed in another tab or window of the site (this tab now shows it): seats
   * added or removed, emptied, a hold expired, a payment begun, a booking completed, a failed
   * payment's basket brought back. Fired once per change, by one element of this tab; the
   * change's own `booking-*` event fired only in the tab where it happened.
   */
  'booking-remote-change': {
    change: 'add' | 'remove' | 'clear' | 'expiry' | 'payment' | 'completed' | 'resumed';
    basketId: string | null;
  };
}

export type BookingEventName = keyof BookingEventDetails;
export type BookingEvent<K extends BookingEventName> = CustomEvent<BookingEventDetails[K]>;

/** Create a public event: bubbling, composed, typed. */
export function bookingEvent<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): BookingEvent<K> {
  return new CustomEvent(type, { detail, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'booking-selection': BookingEvent<'booking-selection'>;
    'booking-basket-change': BookingEvent<'booking-basket-change'>;
    'booking-expiry-warning': BookingEvent<'booking-expiry-warning'>;
    'booking-expiry': BookingEvent<'booking-expiry'>;
    'booking-checkout-submitted': BookingEvent<'booking-checkout-submitted'>;
    'booking-order-completed': BookingEvent<'booking-order-completed'>;
    'booking-payment-failed': BookingEvent<'booking-payment-failed'>;
    'booking-error': BookingEvent<'booking-error'>;
    'booking-remote-change': BookingEvent<'booking-remote-change'>;
  }
}
