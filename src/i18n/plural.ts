/**
 * Plural messages through Intl.PluralRules in the language of the text.
 *
 * @lit/localize has no plural syntax, so each plural form is a message of its
 * own and the rules of the active language choose one:
 *
 *   plural(n, {
 *     one: () => msg(str`${n} ticket`),
 *     other: () => msg(str`${n} tickets`),
 *   })
 *
 * Write the count as a placeholder in every form, `one` included: French
 * says "0 billet" (0 is "one" there), and a translation needs the number.
 * A category a language has but the source does not (Spanish, Italian and
 * French "many", for a million) takes the `other` form.
 */
import { activeTextLocale } from './locale.ts';

export type PluralForms = { other: () => string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'other'>, () => string>>;

const rules = new Map<string, Intl.PluralRules>();

function rulesFor(locale: string): Intl.PluralRules {
  let r = rules.get(locale);
  if (!r) {
    r = new Intl.PluralRules(locale);
    rules.set(locale, r);
  }
  return r;
}

/** The form of `forms` that the active language's plural rules choose for `count`. */
export function plural(count: number, forms: PluralForms): string {
  const category = rulesFor(activeTextLocale()).select(count);
  return (forms[category] ?? forms.other)();
}
