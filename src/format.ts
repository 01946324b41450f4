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

const cache = new Map<string, Intl.NumberFormat | Intl.ListFormat>();

function cached<T extends Intl.NumberFormat | Intl.ListFormat>(key: string, make: () => T, fallback: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (!format) {
    try {
      format = make();
    } catch {
      format = fallback();
    }
    cache.set(key, format);
  }
  return format;
}

export function formatMoney(amount: number, config: Pick<BookingConfig, 'locale' | 'currency'>): string {
  const locale = intlLocale(config.locale);
  return cached(
    `money|${locale}|${config.currency}`,
    () => new Intl.NumberFormat(locale, { style: 'currency', currency: config.currency }),
    () => new Intl.NumberFormat(FALLBACK_LOCALE, { style: 'currency', currency: 'GBP' }),
  ).format(amount);
}

/** A number in the visitor's language ("4,5" in German). */
export function formatNumber(value: number, config: Pick<BookingConfig, 'locale'>, options: Intl.NumberFormatOptions = {}): string {
  const locale = intlLocale(config.locale);
  return cached(
    `number|${locale}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
    () => new Intl.NumberFormat(FALLBACK_LOCALE, options),
  ).format(value);
}

/** A list in the visitor's language: "A, B and C", "A, B und C". */
export function formatList(
  items: readonly string[],
  config: Pick<BookingConfig, 'locale'>,
  options: Intl.ListFormatOptions = { style: 'long', type: 'conjunction' },
): string {
  const locale = intlLocale(config.locale);
  return cached(
    `list|${locale}|${options.style}|${options.type}`,
    () => new Intl.ListFormat(locale, options),
    () => new Intl.ListFormat(FALLBACK_LOCALE, options),
  ).format(items);
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
