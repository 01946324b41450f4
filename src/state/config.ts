/**
 * The configuration a host page gives the widget: one place, with defaults.
 *
 * Sources, later ones winning: the defaults below; a page-level JSON block
 * `<script type="application/json" data-stagedoor-config>{...}</script>`;
 * the attributes of a `<booking-provider>` ancestor; an element's own
 * `endpoint` attribute.
 */
import { DEFAULT_TIME_ZONE } from '../api/time.ts';
import { FALLBACK_LOCALE, servedLocale } from '../i18n/locale.ts';

export interface BookingConfig {
  /** The proxy endpoint (same origin or CORS). Default `/api`. */
  endpoint: string;
  /** ISO 4217 code; the service never sends one. Default `GBP`. */
  currency: string;
  /**
   * BCP 47 locale for text, money and dates. Default: the page's `lang`, else `en-GB`.
   * A locale whose language the widget does not speak falls back by language (`de-AT`
   * keeps Austrian dates with the German text), then to `en-GB`; never an error.
   */
  locale: string;
  /** IANA zone of the service's DateTimes. Default `Europe/London`. */
  timeZone: string;
  /** Where the payment gateway sends the customer after paying. Default: this page with `?stagedoor=success`. */
  successUrl: string | null;
  /** Where it sends them when payment fails. Default: this page with `?stagedoor=failure`. */
  failureUrl: string | null;
  /** Offer booking on account (the proxy must allow it too). Default false. */
  onAccount: boolean;
  /** An external reference the host attaches to the order. */
  transactionReference: string | null;
  /**
   * Tell the theatre's analytics what visitors do (docs/analytics.md): `ga4` pushes GA4's
   * e-commerce events to `window.dataLayer` and fires `booking-analytics`; `events` fires
   * only `booking-analytics`. Default off: the analytics code is then never fetched (any other
   * value is refused, with a console warning, by that code: src/analytics/analytics.ts).
   */
  analytics?: string;
  /** Where event cards link: the host's show page, `{EventId}` standing for the id (`<event-list event-href>`). Default: this page. */
  eventHref: string | null;
  /**
   * The query parameter naming where the visitor is in the flow (`?stagedoor-event=1042-77001`,
   * src/state/flow-history.ts): read at start, written as they move. Default `stagedoor-event`
   * (`stagedoor`, the payment return's marker, is refused with a console warning).
   */
  eventParam?: string;
  /**
   * `off`: the page's address and history are left alone (a host that routes itself). Default on:
   * each step forward is a history entry, so Back and Forward move through the flow in the page.
   */
  history?: string;
}

export const DEFAULT_ENDPOINT = '/api';

export function defaultConfig(): BookingConfig {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
  return {
    endpoint: DEFAULT_ENDPOINT,
    currency: 'GBP',
    locale: lang || FALLBACK_LOCALE,
    timeZone: DEFAULT_TIME_ZONE,
    successUrl: null,
    failureUrl: null,
    onAccount: false,
    transactionReference: null,
    eventHref: null,
  };
}

const KEYS: (keyof BookingConfig)[] = [
  'endpoint', 'currency', 'locale', 'timeZone', 'successUrl', 'failureUrl', 'onAccount', 'transactionReference', 'analytics', 'eventHref', 'eventParam', 'history',
];

/** Keep only known keys of the right type; anything else is ignored (with a console warning). */
export function sanitizeConfig(input: unknown): Partial<BookingConfig> {
  const out: Partial<BookingConfig> = {};
  if (typeof input !== 'object' || input === null) return out;
  const record = input as Record<string, unknown>;
  for (const key of KEYS) {
    const v = record[key];
    if (v === undefined || v === null || v === '') continue;
    if (key === 'onAccount') {
      if (typeof v === 'boolean') out.onAccount = v;
      else console.warn(`stagedoor: config "${key}" must be a boolean`);
    } else if (typeof v === 'string') {
      (out as Record<string, unknown>)[key] = v;
    } else {
      console.warn(`stagedoor: config "${key}" must be a string`);
    }
  }
  if (out.currency && !/^[A-Za-z]{3}$/.test(out.currency)) {
    console.warn(`stagedoor: currency "${out.currency}" is not an ISO 4217 code; using GBP`);
    delete out.currency;
  }
  return out;
}

let pageConfig: Partial<BookingConfig> | undefined;

/** The page-level JSON configuration block, read once. */
export function readPageConfig(): Partial<BookingConfig> {
  if (pageConfig) return pageConfig;
  pageConfig = {};
  if (typeof document === 'undefined') return pageConfig;
  const block = document.querySelector('script[type="application/json"][data-stagedoor-config]');
  if (block?.textContent) {
    try {
      pageConfig = sanitizeConfig(JSON.parse(block.textContent));
    } catch {
      console.warn('stagedoor: the data-stagedoor-config block is not valid JSON; ignored');
    }
  }
  return pageConfig;
}

/** For tests: forget the page configuration read so far. */
export function resetPageConfig(): void {
  pageConfig = undefined;
}

export function resolveConfig(...layers: Partial<BookingConfig>[]): BookingConfig {
  const config = defaultConfig();
  for (const layer of layers) Object.assign(config, sanitizeConfig(layer));
  config.endpoint = config.endpoint.replace(/\/+$/, '') || DEFAULT_ENDPOINT;
  config.locale = servedLocale(config.locale);
  return config;
}

export { endpointKey } from '../api/endpoint.ts';
