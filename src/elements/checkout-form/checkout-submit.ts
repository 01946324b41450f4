/**
 * Sending the order: the SubmitOrder body from the form, booking on account
 * when configured (paying instead when that is refused), and what the visitor
 * is told when sending fails.
 */
import { msg } from '../../i18n/msg.ts';
import { ApiError, type ApiClient } from '../../api/client.ts';
import { toFailure, type FailureWords } from '../../state/failure.ts';
import type { SubmitOrderBody } from '../../api/types.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BookingConfig } from '../../state/config.ts';
import { sendUntilAnswered } from '../../state/order-retry.ts';
import { paymentGateLanguage, type returnUrls } from '../../state/payment-return.ts';
import { safeUrl } from '../../safe-url.ts';
import type { SystemLists } from './checkout-data.ts';
import type { FormState } from './checkout-details.ts';
import type { CheckoutFieldName } from './checkout-fields.ts';

/** The order fields both ways of booking send. */
export type OrderFields = Omit<SubmitOrderBody, 'SuccessReturnUrl' | 'FailureReturnUrl' | 'PaymentGateLanguage'>;

/** The object without its undefined members: optional order fields the visitor left empty are not sent at all. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The order from the form: trimmed values, optional ones left out when empty, the state only for the United States. */
export function orderFields(basketId: string, lists: SystemLists, form: FormState): OrderFields {
  const { values, config } = form;
  const country = lists.countries.find((c) => c.ISO3166 === values.country);
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return withoutUndefined({
    BasketId: basketId,
    Email: values.email.trim(),
    Name: values.firstName.trim(),
    LastName: values.lastName.trim(),
    AddressLine1: optional(values.addressLine1),
    AddressLine2: optional(values.addressLine2),
    CompanyName: optional(values.company),
    City: optional(values.city),
    Country: country?.CountryId,
    Zip: optional(values.zip),
    Phone: optional(values.phone),
    StateCode: country?.ISO3166 === 'US' ? optional(values.state) : undefined,
    DeliveryType: form.deliveryTypeId ?? 0,
    RequireTicketPlan: lists.ticketPlanPrice !== null && form.requireTicketPlan,
    SendConfirmationEmail: form.sendConfirmationEmail,
    TransactionReference: config.transactionReference ?? undefined,
  });
}

export type SendOutcome =
  /** Booked on account: no payment. */
  | { kind: 'booked'; reference: string }
  /** To the payment page; `refusedOnAccount` when booking on account was configured but refused. */
  | { kind: 'payment'; url: string; refusedOnAccount: boolean }
  /** The service answered without a usable payment page. */
  | { kind: 'not-accepted' };

/**
 * Send the order, again while its answer is lost (order-retry.ts): on account when
 * configured (a refusal, or a 403 from a proxy or account that does not allow it,
 * falls back to payment), else to payment.
 * `urls` are the return addresses (`returnUrls`). Other failures are thrown (see `sendFailure`).
 */
export async function sendOrder(
  api: ApiClient,
  config: BookingConfig,
  basketId: string,
  fields: OrderFields,
  urls: ReturnType<typeof returnUrls>,
): Promise<SendOutcome> {
  let refusedOnAccount = false;
  if (config.onAccount) {
    try {
      const result = await sendUntilAnswered(() => api.submitOrderOnAccount({ basketId, body: { ...fields, ReturnUrl: urls.success } }));
      if (result.Success && result.BookingReference) return { kind: 'booked', reference: result.BookingReference };
      refusedOnAccount = true;
    } catch (error) {
      // 403 from on-account: this proxy or account does not allow it. Pay instead (a 403 there too means the basket is invalid).
      if (!(error instanceof ApiError && error.status === 403)) throw error;
      refusedOnAccount = true;
    }
  }
  const body: SubmitOrderBody = {
    ...fields,
    SuccessReturnUrl: urls.success,
    FailureReturnUrl: urls.failure,
    // The language the visitor is reading now (the page's, when it differs from this widget's configuration).
    PaymentGateLanguage: paymentGateLanguage(intlLocale(config.locale)),
  };
  // Sent again while its answer is lost: the proxy answers a repeat with the accepted order's redirect.
  const result = await sendUntilAnswered(() => api.submitOrder({ basketId, body }));
  const paymentUrl = safeUrl(result.PaymentRedirectUrl);
  if (!result.Success || !paymentUrl) return { kind: 'not-accepted' };
  return { kind: 'payment', url: paymentUrl, refusedOnAccount };
}

/** What the visitor is told when the box office refused one field. */
export function fieldRefusal(field: CheckoutFieldName): string {
  return field === 'phone'
    ? msg('The box office did not accept this phone number. Check it, or leave it out.')
    : msg('The box office did not accept this. Please check it.');
}

/** What the visitor is told when the order could not be sent (not about one field); `refresh`: the basket must be read again. */
export function sendFailure(error: unknown): { text: string; status: number | null; refresh: boolean } {
  const failure = toFailure(error, SEND_WORDS);
  return { text: failure.message, status: failure.status, refresh: failure.kind === 'gone' };
}

/** The order's own sentences beside the common ones (state/failure.ts). */
const notSent = () => msg('The order could not be sent. Your details are kept: please try again.');
const SEND_WORDS: FailureWords = {
  otherwise: notSent,
  refused: (f) => f.serviceMessage ?? (f.status === 400 ? msg('The box office did not accept the order. Please check your details.') : notSent()),
  gone: () => msg('Your basket is no longer valid: its tickets may have been released. It has been refreshed.'),
  network: () => msg('We could not reach the box office. Your details are kept: please try again.'),
};
