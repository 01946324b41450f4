/**
 * Bookings the theatre can count: the widget's public `booking-*` events told
 * again as GA4's e-commerce events. Loaded only when the configuration switches
 * it on (`"analytics": "ga4"` or `"events"`, src/state/booking.ts): a page
 * without it never fetches this file.
 *
 * - The list of shows, each time it shows (`booking-list-shown`), is `view_item_list`: <event-list>
 *   starts this (through this chunk) before it tells its first list, so that one is heard too.
 * - Every fact goes out as one `booking-analytics` DOM event (`{ name, ecommerce }`,
 *   src/events.ts), for any tool; with `ga4` it is also pushed to the host's
 *   `window.dataLayer`, after `{ ecommerce: null }` as Google asks.
 * - Items are per performance and price (`item_id` the event, `item_variant` the
 *   performance's date as the service writes it), so `value` is the sum of
 *   `price × quantity`. Nothing about the customer (name, e-mail, phone, address)
 *   is ever read: only the basket's shows, seats' prices and the booking reference.
 * - `purchase` goes out once per booking reference, whatever reloads, tabs and
 *   payment returns happen: the references sent are kept in localStorage per
 *   endpoint. The basket's items are kept there too when the order goes to
 *   payment, since the basket is gone when the customer comes back.
 * - One page, one listener: the first booking that switches analytics on listens
 *   on the document (the public events carry no endpoint).
 */
import type { BasketContent, BasketItem } from '../api/types.ts';
import { bookingEvent, type AnalyticsEcommerce, type AnalyticsItem, type AnalyticsName, type BookingEventDetails } from '../events.ts';
import type { BookingContextValue } from '../state/booking.ts';
import { endpointKey } from '../state/config.ts';

const KEEP_SENT = 50;
let running: AbortController | null = null;
/** Values refused (and said so once). */
const refused = new Set<string | undefined>();

interface Memory {
  /** Booking references whose `purchase` went out. */
  sent: string[];
  /** What each basket held when it went to payment, by basket id. */
  pending: Record<string, AnalyticsEcommerce>;
}

const cents = (n: number): number => Math.round(n * 100) / 100;

/** The basket's tickets as GA4 items, one per performance and price (only tickets passing `keep`). */
export function itemsOf(items: readonly BasketItem[], keep: (ticketId: number) => boolean = () => true): AnalyticsItem[] {
  const out = new Map<string, AnalyticsItem>();
  for (const item of items) {
    for (const ticket of item.Tickets) {
      if (!keep(ticket.TicketId)) continue;
      const price = cents(ticket.SellingPrice);
      const key = `${item.EventId}|${item.PerformanceDate}|${price}`;
      const found = out.get(key);
      if (found) found.quantity = (found.quantity ?? 0) + 1;
      else out.set(key, { item_id: String(item.EventId), item_name: item.EventName, item_variant: item.PerformanceDate, item_category: item.VenueName, price, quantity: 1 });
    }
  }
  return [...out.values()];
}

const ticketIds = (content: BasketContent | null): Set<number> =>
  new Set((content?.Items ?? []).flatMap((item) => item.Tickets.map((t) => t.TicketId)));

/** Start listening (again: nothing). */
export function startAnalytics(booking: BookingContextValue): void {
  if (running || typeof document === 'undefined') return;
  const value = booking.config.analytics;
  if (value !== 'ga4' && value !== 'events') {
    if (!refused.has(value)) console.warn(`stagedoor: analytics "${value}" is not "ga4" or "events"; off`);
    refused.add(value);
    return;
  }
  const { signal } = (running = new AbortController());
  const { config, basket } = booking;
  const storageKey = `stagedoor.analytics:${endpointKey(config.endpoint)}`;
  const currency = config.currency.toUpperCase();

  const read = (): Memory => {
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as Partial<Memory> | null;
      return { sent: Array.isArray(stored?.sent) ? stored.sent : [], pending: stored?.pending && typeof stored.pending === 'object' ? stored.pending : {} };
    } catch {
      return { sent: [], pending: {} };
    }
  };
  const write = (memory: Memory): void => {
    try {
      localStorage.setItem(storageKey, JSON.stringify(memory));
    } catch {
      // Storage full or refused: the events still go out.
    }
  };

  const ecommerce = (items: AnalyticsItem[], extra: Partial<AnalyticsEcommerce> = {}): AnalyticsEcommerce => ({
    currency,
    value: cents(items.reduce((sum, i) => sum + (i.price ?? 0) * (i.quantity ?? 0), 0)),
    ...extra,
    items,
  });

  const send = (from: EventTarget | null, name: AnalyticsName, data: AnalyticsEcommerce): void => {
    if (config.analytics === 'ga4') {
      const page = window as unknown as { dataLayer?: unknown[] };
      const layer = (page.dataLayer ??= []);
      layer.push({ ecommerce: null });
      layer.push({ event: name, ecommerce: data });
    }
    (from instanceof Element ? from : document).dispatchEvent(bookingEvent('booking-analytics', { name, ecommerce: data }));
  };

  // The basket as it was before its latest change: what an add or a removal is measured against.
  let before: BasketContent | null = basket.value.content;
  let now: BasketContent | null = basket.value.content;
  // The latest basket with tickets in it: the one an order takes to payment (the store lets it go as the payment begins).
  let held: BasketContent | null = now?.Items.length ? now : null;
  const unsubscribe = basket.subscribe((value) => {
    if (value.content === now) return;
    if (value.content?.Items.length) held = value.content;
    before = now;
    now = value.content;
  });
  signal.addEventListener('abort', unsubscribe);

  const on = <K extends keyof BookingEventDetails>(type: K, handle: (detail: BookingEventDetails[K], target: EventTarget | null) => void): void => {
    document.addEventListener(type, (event) => handle((event as CustomEvent<BookingEventDetails[K]>).detail, event.target), { signal });
  };

  const listShown = (d: BookingEventDetails['booking-list-shown'], target: EventTarget | null): void => {
    const items = d.events.map(({ eventId, name }, index): AnalyticsItem => ({ item_id: String(eventId), item_name: name, index }));
    send(target, 'view_item_list', { item_list_id: 'events', item_list_name: 'events', items });
  };
  on('booking-list-shown', listShown);

  on('booking-selection', (d, target) => {
    if (d.eventId === null) return;
    const item: AnalyticsItem = { item_id: String(d.eventId) };
    if (d.kind === 'event') send(target, 'select_item', { item_list_id: 'events', item_list_name: 'events', items: [item] });
    else if (d.performanceId !== null) send(target, 'view_item', { items: [{ ...item, performance_id: String(d.performanceId) }] });
  });

  on('booking-basket-change', (d, target) => {
    const after = d.basket ?? null;
    const old = after === now ? before : now;
    if (d.action === 'add') {
      const had = ticketIds(old);
      const items = itemsOf(after?.Items ?? [], (id) => !had.has(id));
      if (items.length) send(target, 'add_to_cart', ecommerce(items));
    } else {
      const left = ticketIds(after);
      const items = itemsOf(old?.Items ?? [], (id) => !left.has(id));
      if (items.length) send(target, 'remove_from_cart', ecommerce(items));
    }
  });

  on('booking-checkout-submitted', (d, target) => {
    const content = held?.BasketId === d.basketId ? held : basket.value.content;
    const items = itemsOf(content?.Items ?? []);
    const data = ecommerce(items, { value: cents(d.total) });
    const memory = read();
    memory.pending = { [d.basketId]: data };
    write(memory);
    send(target, 'begin_checkout', data);
    const delivery = content?.DeliveryInformation?.DeliveryType;
    send(target, 'add_shipping_info', { ...data, ...(delivery ? { shipping_tier: String(delivery) } : {}) });
    send(target, 'add_payment_info', { ...data, payment_type: d.paymentRedirectUrl === null ? 'on account' : 'card' });
  });

  on('booking-order-completed', (d, target) => {
    const memory = read();
    if (memory.sent.includes(d.bookingReference)) return;
    memory.sent = [...memory.sent, d.bookingReference].slice(-KEEP_SENT);
    const kept = memory.pending[d.basketId];
    delete memory.pending[d.basketId];
    write(memory);
    send(target, 'purchase', {
      ...(kept ?? ecommerce([])),
      transaction_id: d.bookingReference,
      value: cents(d.total),
      currency: d.currency.toUpperCase(),
    });
  });
}

/** For tests (and a page that wants it off): stop listening; the next booking with analytics on starts again. */
export function stopAnalytics(): void {
  running?.abort();
  running = null;
}
