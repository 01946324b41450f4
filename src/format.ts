/**
 * Money and dates for the visitor: money through Intl.NumberFormat in the
 * configured currency, service DateTimes through the time helper (venue
 * wall-clock, whatever the visitor's zone).
 */
import { formatServiceDateTime } from './api/time.ts';
import type { ServiceDateTime } from './api/types.ts';
import type { BookingConfig } from './state/config.ts';

const moneyFormats = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, config: Pick<BookingConfig, 'locale' | 'currency'>): string {
  const key = `${config.locale}|${config.currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(config.locale, { style: 'currency', currency: config.currency });
    } catch {
      format = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
    }
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}

/** A service DateTime as the venue's wall clock; falls back to the raw text when it is not a DateTime. */
export function formatDateTime(
  value: ServiceDateTime,
  config: Pick<BookingConfig, 'locale' | 'timeZone'>,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  try {
    return formatServiceDateTime(value, { ...options, locale: config.locale, timeZone: config.timeZone });
  } catch {
    return String(value);
  }
}
