/**
 * Submit Order / Submit Order on Account bodies: every field checked, a 400
 * naming the field for anything wrong, and the DeliveryInformation the basket
 * will carry.
 */
import { Language, type DeliveryInformation, type LanguageCode } from '../../api/types.ts';
import { fail, isObject, type Reply } from './reply.ts';
import type { Basket, OrderInfo } from './store.ts';
import { basketDeliveries, type ViewContext } from './views.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The sandbox's phone rule: 7 to 15 digits (E.164 allows at most 15), an
 * optional leading `+`, and spaces, dashes, dots and parentheses between them.
 */
export function isValidPhone(value: string): boolean {
  if (!/^\+?[\d\s\-().]+$/.test(value.trim())) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `{ City }` → `{ BillingCity }`. */
function prefixed<P extends string, T extends Record<string, string>>(prefix: P, fields: T): { [K in keyof T & string as `${P}${K}`]: T[K] } {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}${k}`, v])) as { [K in keyof T & string as `${P}${K}`]: T[K] };
}

/**
 * Check an order body, already bound to its typed fields (src/api/binding.ts: names in any case, numbers
 * and booleans from strings, BasketId filled in from the path). A number field left at Json.NET's default
 * 0 is "not given". `mode` picks the return URL fields (payment: Success/Failure, account: ReturnUrl).
 */
export function parseOrder(ctx: ViewContext, basket: Basket, body: unknown, mode: 'payment' | 'account'): OrderInfo | Reply {
  if (!isObject(body)) return fail(400, 'The request body must be a JSON object.');
  const required = (name: string): string | Reply => {
    const v = body[name];
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) return fail(400, `The field '${name}' is required.`);
    if (typeof v !== 'string') return fail(400, `The field '${name}' must be a string.`);
    return v.trim();
  };
  const optional = (name: string): string | Reply => {
    const v = body[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') return fail(400, `The field '${name}' must be a string.`);
    return v.trim();
  };
  const flag = (name: string): boolean | Reply => {
    const v = body[name];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') return fail(400, `The field '${name}' must be true or false.`);
    return v;
  };

  const basketId = required('BasketId');
  if (typeof basketId !== 'string') return basketId;
  if (basketId.toLowerCase() !== basket.id.toLowerCase()) return fail(400, "The field 'BasketId' must be the basket of the request path.");

  const email = required('Email');
  if (typeof email !== 'string') return email;
  if (!EMAIL.test(email)) return fail(400, "The field 'Email' is not a valid e-mail address.");
  const name = required('Name');
  if (typeof name !== 'string') return name;
  const lastName = required('LastName');
  if (typeof lastName !== 'string') return lastName;

  const strings: Record<string, string> = {};
  for (const field of ['AddressLine1', 'AddressLine2', 'CompanyName', 'City', 'Zip', 'Phone', 'Mobile', 'StateCode', 'TransactionReference']) {
    const v = optional(field);
    if (typeof v !== 'string') return v;
    strings[field] = v;
  }
  const phone = strings.Phone || strings.Mobile || '';
  for (const field of ['Phone', 'Mobile']) {
    const v = strings[field];
    if (v && !isValidPhone(v)) {
      return fail(400, 'Invalid phone number', `The field '${field}' must have 7 to 15 digits, optionally a leading +, spaces, dashes or parentheses.`);
    }
  }

  const system = ctx.store.catalogue.System;
  let countryCode = '';
  let countryName = '';
  if (body.Country !== undefined && body.Country !== null && body.Country !== 0) {
    const country = system.Countries.find((c) => c.CountryId === body.Country);
    if (!country) return fail(400, `The field 'Country' must be a CountryId from Get Countries.`);
    countryCode = country.ISO3166;
    countryName = country.CountryName;
  }
  let stateCode = '';
  if (countryCode === 'US' && strings.StateCode) {
    const state = system.USStates.find((s) => s.StateCode.toUpperCase() === strings.StateCode?.toUpperCase());
    if (!state) return fail(400, `The field 'StateCode' must be a state code from Get US States.`);
    stateCode = state.StateCode;
  }

  if (body.DeliveryType === undefined || body.DeliveryType === null || body.DeliveryType === 0) return fail(400, "The field 'DeliveryType' is required.");
  const delivery = basketDeliveries(ctx, basket).find((d) => d.DeliveryTypeId === body.DeliveryType);
  if (!delivery) return fail(400, `The field 'DeliveryType' must be one of the basket's available deliveries.`, `DeliveryType ${JSON.stringify(body.DeliveryType)} is not available.`);

  const ticketPlan = flag('RequireTicketPlan');
  if (typeof ticketPlan !== 'boolean') return ticketPlan;
  const confirmation = flag('SendConfirmationEmail');
  if (typeof confirmation !== 'boolean') return confirmation;

  const urls: { successUrl: string | null; failureUrl: string | null; returnUrl: string | null } = { successUrl: null, failureUrl: null, returnUrl: null };
  const fields: [keyof typeof urls, string][] = mode === 'payment' ? [['successUrl', 'SuccessReturnUrl'], ['failureUrl', 'FailureReturnUrl']] : [['returnUrl', 'ReturnUrl']];
  for (const [key, field] of fields) {
    const v = required(field);
    if (typeof v !== 'string') return v;
    if (!isAbsoluteHttpUrl(v)) return fail(400, `The field '${field}' must be an absolute http or https URL.`);
    urls[key] = v;
  }
  let language: LanguageCode = Language.English;
  if (mode === 'payment' && body.PaymentGateLanguage !== undefined && body.PaymentGateLanguage !== null && body.PaymentGateLanguage !== 0) {
    const lang = body.PaymentGateLanguage;
    if (typeof lang !== 'number' || !Number.isInteger(lang) || lang < 1 || lang > 9) {
      return fail(400, "The field 'PaymentGateLanguage' must be a Language value (1 to 9).");
    }
    language = lang;
  }

  // One address serves as billing and delivery address (the order has only one).
  const address = {
    FirstName: name,
    Surname: lastName,
    AddressLine1: strings.AddressLine1 ?? '',
    AddressLine2: strings.AddressLine2 ?? '',
    PostCode: strings.Zip ?? '',
    PhoneNumber: phone,
    City: strings.City ?? '',
    StateCode: stateCode,
    Country: countryCode,
    CountryName: countryName,
  };
  const info: DeliveryInformation = {
    DeliveryType: delivery.DeliveryTypeId,
    DeliveryPrice: delivery.DeliveryTypePrice,
    CustomerEmail: email,
    ...prefixed('Billing', address),
    ...prefixed('Delivery', address),
    DeliveryAddressSame: true,
  };
  return {
    delivery: info,
    requireTicketPlan: ticketPlan,
    ...urls,
    transactionReference: strings.TransactionReference || null,
    language,
  };
}
