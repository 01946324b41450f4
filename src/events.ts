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
  /** An event or a performance was chosen, or the visitor went on to a show's dates (`dates`: a day opened in the calendar). */
  'booking-selection': { kind: 'event' | 'dates' | 'performance'; eventId: number | null; performanceId: number | null };
  /**
   * The visitor moved to another step of the flow, and the page's address is about to name it
   * (`url`, pushed to the history). Cancelable: `preventDefault()` leaves the address and the
   * history alone, for a single-page app that routes itself. Fired by the element whose choice
   * moved them, only when the configuration's `history` is not `off` (docs/embedding.md).
   */
  'booking-navigate': { step: 'list' | 'detail' | 'dates' | 'seats'; eventId: number | null; performanceId: number | null; url: string };
  /** The list of shows was shown (each time it shows, once): the shows in their order. */
  'booking-list-shown': { events: { eventId: number; name: string }[] };
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
  /**
   * A fact the theatre's analytics can count, in GA4's e-commerce shape, fired when the
   * configuration's `analytics` is on (docs/analytics.md): `view_item_list`, `select_item`, `view_item`,
   * `add_to_cart`, `remove_from_cart`, `begin_checkout`, `add_shipping_info`,
   * `add_payment_info`, `purchase` (once per booking reference). Never personal data.
   */
  'booking-analytics': { name: AnalyticsName; ecommerce: AnalyticsEcommerce };
  /**
   * Where the visitor stands in the proxy's waiting room changed (docs/waiting-room.md): fired by
   * the `<seat-picker>` showing the waiting view, when the status, place, people ahead or estimate
   * changed (not on a poll that changed nothing). `status`: `before` (the pre-queue, before the
   * on-sale), `waiting`, `paused`, `proof` (proving work to join), `catching-up` (the room's store
   * is down; the place is kept), `offline` (the room cannot be reached; asked again).
   */
  'booking-queue-change': {
    room: string;
    status: 'before' | 'waiting' | 'paused' | 'proof' | 'catching-up' | 'offline';
    position: number | null;
    ahead: number | null;
    waitSeconds: { low: number; high: number } | null;
  };
  /** The visitor was admitted from the waiting room: the pass lasts until `expiresAt` (ISO); the seats show. */
  'booking-queue-admitted': { room: string; expiresAt: string };
}

export type AnalyticsName =
  | 'view_item_list' | 'select_item' | 'view_item' | 'add_to_cart' | 'remove_from_cart'
  | 'begin_checkout' | 'add_shipping_info' | 'add_payment_info' | 'purchase';

/** One GA4 item: a performance of an event (`item_id` the event's id) at one price. */
export interface AnalyticsItem {
  item_id: string;
  item_name?: string;
  /** Its place in a list (`view_item_list`), from 0. */
  index?: number;
  /** The performance's date and time as the service writes it. */
  item_variant?: string;
  /** The venue. */
  item_category?: string;
  performance_id?: string;
  price?: number;
  quantity?: number;
}

/** GA4's `ecommerce` object. */
export interface AnalyticsEcommerce {
  items: AnalyticsItem[];
  currency?: string;
  value?: number;
  transaction_id?: string;
  item_list_id?: string;
  item_list_name?: string;
  shipping_tier?: string;
  payment_type?: string;
}

export type BookingEventName = keyof BookingEventDetails;
export type BookingEvent<K extends BookingEventName> = CustomEvent<BookingEventDetails[K]>;

/** Create a public event: bubbling, composed, typed; `booking-navigate` alone is cancelable. */
export function bookingEvent<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): BookingEvent<K> {
  return new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: type === 'booking-navigate' });
}

declare global {
  interface HTMLElementEventMap {
    'booking-selection': BookingEvent<'booking-selection'>;
    'booking-navigate': BookingEvent<'booking-navigate'>;
    'booking-list-shown': BookingEvent<'booking-list-shown'>;
    'booking-basket-change': BookingEvent<'booking-basket-change'>;
    'booking-expiry-warning': BookingEvent<'booking-expiry-warning'>;
    'booking-expiry': BookingEvent<'booking-expiry'>;
    'booking-checkout-submitted': BookingEvent<'booking-checkout-submitted'>;
    'booking-order-completed': BookingEvent<'booking-order-completed'>;
    'booking-payment-failed': BookingEvent<'booking-payment-failed'>;
    'booking-error': BookingEvent<'booking-error'>;
    'booking-remote-change': BookingEvent<'booking-remote-change'>;
    'booking-analytics': BookingEvent<'booking-analytics'>;
    'booking-queue-change': BookingEvent<'booking-queue-change'>;
    'booking-queue-admitted': BookingEvent<'booking-queue-admitted'>;
  }
}
