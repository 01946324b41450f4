/**
 * Money, numbers, dates and lists for the visitor, through Intl in the
 * language the widget is showing (`intlLocale`: the configured locale, its
 * regional conventions included, unless the page's text is in another
 * language). Service DateTimes go through the time helper (venue wall-clock,
 * whatever the visitor's zone).
 */
import { formatServiceDateTime } from './api/time.ts';
import type { ServiceDateTime } from './api/types.ts';
import { FALLBACK_LOCALE, intlLocale } from './i18n/locale.ts';
import type { BookingConfig } from './state/config.ts';

const cache = new Map<string, { format(value: never): string }>();

/** One formatter per kind, locale and options; British English (and pounds) if Intl refuses them. */
function formatter<T extends { format(value: never): string }>(kind: string, locale: string, options: object, make: (locale: string, options: object) => T): T {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as T | undefined;
  if (!format) {
    try {
      format = make(locale, options);
    } catch {
      format = make(FALLBACK_LOCALE, kind === 'money' ? { style: 'currency', currency: 'GBP' } : {});
    }
    cache.set(key, format);
  }
  return format;
}

export function formatMoney(amount: number, config: Pick<BookingConfig, 'locale' | 'currency'>): string {
  const options = { style: 'currency', currency: config.currency };
  return formatter('money', intlLocale(config.locale), options, (l, o) => new Intl.NumberFormat(l, o)).format(amount);
}

/** A number in the visitor's language ("4,5" in German). */
export function formatNumber(value: number, config: Pick<BookingConfig, 'locale'>, options: Intl.NumberFormatOptions = {}): string {
  return formatter('number', intlLocale(config.locale), options, (l, o) => new Intl.NumberFormat(l, o)).format(value);
}

/** A list in the visitor's language: "A, B and C", "A, B und C". */
export function formatList(
  items: readonly string[],
  config: Pick<BookingConfig, 'locale'>,
  options: Intl.ListFormatOptions = { style: 'long', type: 'conjunction' },
): string {
  return formatter('list', intlLocale(config.locale), options, (l, o) => new Intl.ListFormat(l, o)).format(items);
}

/** A service DateTime as the venue's wall clock; falls back to the raw text when it is not a DateTime. */
export function formatDateTime(
  value: ServiceDateTime,
  config: Pick<BookingConfig, 'locale' | 'timeZone'>,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  try {
    return formatServiceDateTime(value, { ...options, locale: intlLocale(config.locale), timeZone: config.timeZone });
  } catch {
    return String(value);
  }
}
