/**
 * The checkout's customer fields: their specs (TEXT_FIELDS), values, the
 * service's names for them (SERVICE_FIELDS), and validation in the widget's
 * own words (the form's constraint validation, collected into problems).
 */
import { msg } from '../../i18n/msg.ts';
import type { ApiError } from '../../api/client.ts';
import type { Country } from '../../api/types.ts';
import { regionName } from '../../i18n/region-name.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BookingConfig } from '../../state/config.ts';

/** The customer fields of the form (their `name` attributes). */
export type CheckoutFieldName =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'addressLine1'
  | 'addressLine2'
  | 'company'
  | 'city'
  | 'zip'
  | 'country'
  | 'state';

type TextFieldName = Exclude<CheckoutFieldName, 'country' | 'state'>;

export interface TextFieldSpec {
  name: TextFieldName;
  label: () => string;
  type: 'text' | 'email' | 'tel';
  autocomplete: string;
  required: boolean;
  wide?: boolean;
  pattern?: string;
  /** Shown when the field is required and empty. */
  missing: () => string;
  /** Shown when the value does not match its type or pattern. */
  mismatch?: () => string;
}

export const TEXT_FIELDS: readonly TextFieldSpec[] = [
  { name: 'firstName', label: () => msg('First name'), type: 'text', autocomplete: 'given-name', required: true, missing: () => msg('Enter your first name.') },
  { name: 'lastName', label: () => msg('Last name'), type: 'text', autocomplete: 'family-name', required: true, missing: () => msg('Enter your last name.') },
  {
    name: 'email', label: () => msg('E-mail address'), type: 'email', autocomplete: 'email', required: true,
    missing: () => msg('Enter your e-mail address.'),
    mismatch: () => msg('Enter an e-mail address like name@example.com.'),
  },
  {
    name: 'phone', label: () => msg('Phone'), type: 'tel', autocomplete: 'tel', required: false,
    // Browsers compile `pattern` with the v flag: ( ) . - are escaped inside the class.
    pattern: '\\+?[0-9 \\(\\)\\.\\-]{6,24}',
    missing: () => msg('Enter your phone number.'),
    mismatch: () => msg('Enter a phone number using digits, spaces and an optional leading +.'),
  },
  { name: 'addressLine1', label: () => msg('Address line 1'), type: 'text', autocomplete: 'address-line1', required: false, wide: true, missing: () => msg('Enter the first line of your address.') },
  { name: 'addressLine2', label: () => msg('Address line 2'), type: 'text', autocomplete: 'address-line2', required: false, wide: true, missing: () => msg('Enter the second line of your address.') },
  { name: 'company', label: () => msg('Company'), type: 'text', autocomplete: 'organization', required: false, missing: () => msg('Enter your company.') },
  { name: 'city', label: () => msg('Town or city'), type: 'text', autocomplete: 'address-level2', required: false, missing: () => msg('Enter your town or city.') },
  { name: 'zip', label: () => msg('Postcode'), type: 'text', autocomplete: 'postal-code', required: false, missing: () => msg('Enter your postcode.') },
];

/** SubmitOrder body fields, as the service names them in its 400 messages, to the form field that holds them. */
const SERVICE_FIELDS: Readonly<Record<string, CheckoutFieldName>> = {
  Email: 'email',
  Name: 'firstName',
  LastName: 'lastName',
  Phone: 'phone',
  Mobile: 'phone',
  AddressLine1: 'addressLine1',
  AddressLine2: 'addressLine2',
  CompanyName: 'company',
  City: 'city',
  Zip: 'zip',
  Country: 'country',
  StateCode: 'state',
};

/** The form field a 400 from SubmitOrder is about, when its message says. */
export function fieldOfServiceError(error: ApiError): CheckoutFieldName | null {
  const detail = typeof error.body === 'object' && error.body !== null ? (error.body as { MessageDetail?: unknown }).MessageDetail : undefined;
  const text = [error.serviceMessage ?? '', typeof detail === 'string' ? detail : ''].join(' ');
  if (/phone|mobile/i.test(text)) return 'phone';
  for (const match of text.matchAll(/'(\w+)'/g)) {
    const field = SERVICE_FIELDS[match[1] ?? ''];
    if (field) return field;
  }
  return null;
}

export type Values = Record<CheckoutFieldName, string>;
export const EMPTY_VALUES: Values = {
  firstName: '', lastName: '', email: '', phone: '', addressLine1: '', addressLine2: '', company: '', city: '', zip: '', country: '', state: '',
};

export interface Problem {
  /** The control's id (inside the shadow root). */
  id: string;
  /** The control's name. */
  name: string;
  label: string;
  message: string;
}

export type FormControl = HTMLInputElement | HTMLSelectElement;

/** The form's inputs and selects, in order. */
export function formControls(form: HTMLFormElement | undefined): FormControl[] {
  if (!form) return [];
  return [...form.elements].filter((el): el is FormControl => el instanceof HTMLInputElement || el instanceof HTMLSelectElement);
}

/** The label of a control, by its name, for the error summary. */
export function labelOf(name: string): string {
  if (name === 'delivery') return msg('Delivery');
  if (name.startsWith('notice-')) return msg('Confirmation');
  if (name === 'country') return msg('Country');
  if (name === 'state') return msg('State');
  return TEXT_FIELDS.find((f) => f.name === name)?.label() ?? name;
}

/** The message for an invalid control, in the widget's words. */
export function messageOf(control: FormControl): string {
  const v = control.validity;
  if (v.customError) return control.validationMessage;
  if (control.name === 'delivery') return msg('Choose a delivery method.');
  if (control.name.startsWith('notice-')) return msg('Please tick to confirm you have read this.');
  if (control.name === 'country') return msg('Choose your country.');
  if (control.name === 'state') return msg('Choose your state.');
  const spec = TEXT_FIELDS.find((f) => f.name === control.name);
  if (v.valueMissing) return spec?.missing() ?? msg('This field is required.');
  if ((v.typeMismatch || v.patternMismatch) && spec?.mismatch) return spec.mismatch();
  return control.validationMessage || msg('Please check this field.');
}

/** Every invalid control, in the form's order (one entry per radio group). */
export function collectProblems(controls: readonly FormControl[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const control of controls) {
    if (!control.willValidate || control.checkValidity() || seen.has(control.name)) continue;
    seen.add(control.name);
    problems.push({ id: control.id || control.name, name: control.name, label: labelOf(control.name), message: messageOf(control) });
  }
  return problems;
}

/** The country of the locale's region (en-GB: the United Kingdom), else the service's first (by its Ordering). */
export function defaultCountry(countries: Country[], locale: string): Country | undefined {
  const region = regionOf(locale);
  return countries.find((c) => c.ISO3166.toUpperCase() === region) ?? countries.reduce<Country | undefined>((first, c) => (!first || c.Ordering < first.Ordering ? c : first), undefined);
}

/** The country a locale implies: its own region (`de-AT` → AT), else its language's likeliest (`de` → DE, `sv` → SE). */
function regionOf(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).maximize().region?.toUpperCase();
  } catch {
    return /[-_]([A-Za-z]{2})(?:$|[-_])/.exec(locale)?.[1]?.toUpperCase();
  }
}

export interface CountryOption {
  /** The service's ISO 3166 code: what the form holds and the order is matched on. */
  value: string;
  /** The name in the visitor's language. */
  label: string;
}

const countryOptionsCache = new WeakMap<readonly Country[], { locale: string; options: CountryOption[] }>();

/**
 * The country choices in the visitor's language ("Deutschland", "Vereinigtes Königreich"),
 * sorted as that language sorts (Intl.Collator: "Österreich" beside "Oman" in German); a code
 * Intl does not know keeps the service's name. Worked out once per list and language, not on
 * every keystroke's render.
 */
export function countryOptions(countries: readonly Country[], config: Pick<BookingConfig, 'locale'>): CountryOption[] {
  const locale = intlLocale(config.locale);
  const cached = countryOptionsCache.get(countries);
  if (cached?.locale === locale) return cached.options;
  const collator = new Intl.Collator(locale);
  const options = countries
    .map((c) => ({ value: c.ISO3166, label: regionName(c.ISO3166, c.CountryName, config) }))
    .sort((a, b) => collator.compare(a.label, b.label));
  countryOptionsCache.set(countries, { locale, options });
  return options;
}
