/**
 * Countries named in the visitor's language from their ISO 3166 code. A module
 * of its own, not in format.ts: only the checkout's form and the confirmation
 * name countries, and format.ts is in the core every page downloads.
 */
import { intlLocale } from './locale.ts';
import type { BookingConfig } from '../state/config.ts';

const regionNames = new Map<string, Intl.DisplayNames | null>();

/**
 * A country's name in the visitor's language ("Deutschland" for DE in German), from its
 * ISO 3166 code; `fallback` (the service's own name) when Intl does not know the code.
 */
export function regionName(code: string, fallback: string, config: Pick<BookingConfig, 'locale'>): string {
  const locale = intlLocale(config.locale);
  let names = regionNames.get(locale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(locale, { type: 'region', fallback: 'none' });
    } catch {
      names = null;
    }
    regionNames.set(locale, names);
  }
  try {
    return names?.of(code.trim().toUpperCase()) ?? fallback;
  } catch {
    return fallback; // not a region code at all ("", "GBR")
  }
}
