/**
 * @lit/localize's runtime, loaded only when a language other than English is
 * wanted (a lazy chunk, fetched alongside that language's own): configures
 * @lit/localize once and switches it to a language.
 */
import { configureLocalization } from '@lit/localize/init/runtime.js';
import type { LocaleModule } from '@lit/localize/internal/types.js';
import { sourceLocale, targetLocales } from './locale-codes.ts';

interface Localization {
  getLocale(): string;
  setLocale(locale: string): Promise<void>;
}

let localization: Localization | null | undefined;
let load: (locale: string) => Promise<LocaleModule> = () => Promise.reject(new Error('no language loader'));

/**
 * Switch the page's text to `locale`, loading its module with `loader`.
 * Rejects when it cannot (the module did not load, or the page configured
 * @lit/localize itself): the text then stays as it was.
 */
export async function switchTo(locale: string, loader: (locale: string) => Promise<LocaleModule>): Promise<void> {
  load = loader;
  if (localization === undefined) {
    try {
      localization = configureLocalization({ sourceLocale, targetLocales, loadLocale: (l) => load(l) });
    } catch {
      // The npm package shares @lit/localize with the host: a host that configured it for its own
      // components owns it, and the widget's text stays English.
      localization = null;
    }
  }
  if (!localization) throw new Error('@lit/localize is already configured on this page');
  const before = localization.getLocale();
  try {
    await localization.setLocale(locale);
  } catch (error) {
    // @lit/localize keeps a failed language as "loading": settle it on the one shown, so asking again retries.
    await localization.setLocale(before).catch(() => undefined);
    throw error;
  }
}
