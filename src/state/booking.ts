/**
 * The booking context: configuration, api client, basket store and selection,
 * shared by every element of one widget.
 *
 * Elements find it through @lit/context when a <booking-provider> is an
 * ancestor; otherwise from the page registry, keyed by endpoint, so elements
 * scattered over a CMS page (timer in the header, seat picker in an article)
 * share one basket in any order of upgrade, and two widgets on two endpoints
 * share nothing.
 */
import { createContext } from '@lit/context';
import { createApiClient, type ApiClient } from '../api/client.ts';
import { setLocale } from '../i18n/locale.ts';
import { BasketStore } from './basket-store.ts';
import { syncBasket } from './basket-sync.ts';
import { endpointKey, type BookingConfig } from './config.ts';
import { SelectionStore } from './selection.ts';

export interface BookingContextValue {
  readonly config: BookingConfig;
  readonly api: ApiClient;
  readonly basket: BasketStore;
  readonly selection: SelectionStore;
}

export const bookingContext = createContext<BookingContextValue | undefined>(Symbol('stagedoor-booking'));

export interface CreateBookingOptions {
  /** Inject a client (tests use a fake). */
  api?: ApiClient;
  /** Restore a stored basket at once (default true). */
  restore?: boolean;
  /** Keep the basket in step with the site's other tabs (default: yes, unless a client is injected). */
  sync?: boolean;
  /** Keep the flow in the page's history (default: yes, unless a client is injected or the configuration's `history` is `off`); false makes the booking's `config.history` `off`. */
  history?: boolean;
}

/**
 * A booking for a configuration. Its locale becomes the page's language (one
 * language per page: the latest booking created, e.g. by a <booking-provider>
 * whose `locale` changed, sets it for every element).
 */
export function createBooking(config: BookingConfig, options: CreateBookingOptions = {}): BookingContextValue {
  void setLocale(config.locale);
  const api = options.api ?? createApiClient({ endpoint: config.endpoint });
  const key = endpointKey(config.endpoint);
  const basket = new BasketStore({ api, storageKey: key, timeZone: config.timeZone, restore: options.restore });
  if (options.sync ?? !options.api) syncBasket(basket, key);
  const selection = new SelectionStore();
  // The flow in the page's address and history (src/state/flow-history-start.ts, started by the elements whose choices
  // are its steps): off for a booking with an injected client unless asked for.
  const kept = options.history ?? !options.api ? config : { ...config, history: 'off' };
  const booking = Object.freeze({ config: Object.freeze({ ...kept }), api, basket, selection });
  // Analytics only when switched on: its own chunk, never fetched otherwise.
  if (config.analytics) void import('../analytics/analytics.ts').then((m) => m.startAnalytics(booking));
  return booking;
}

const registry = new Map<string, BookingContextValue>();

/** The page's one booking for this endpoint (created on first use; the first configuration wins). */
export function sharedBooking(config: BookingConfig): BookingContextValue {
  const key = endpointKey(config.endpoint);
  let booking = registry.get(key);
  if (!booking) {
    booking = createBooking(config);
    registry.set(key, booking);
  }
  return booking;
}

/** Register a booking for its endpoint (tests inject one with a fake api). */
export function registerSharedBooking(booking: BookingContextValue): void {
  registry.set(endpointKey(booking.config.endpoint), booking);
}

/** For tests: forget every shared booking. */
export function resetSharedBookings(): void {
  for (const booking of registry.values()) booking.basket.dispose();
  registry.clear();
}
