/**
 * The order from the form (the SubmitOrder fields), and what the visitor is told
 * when sending fails. Sending it is the state's: src/state/order.ts.
 */
import { msg } from '../../i18n/msg.ts';
import { toFailure, type FailureWords } from '../../state/failure.ts';
import { isSiteRefusal, type OrderFields } from '../../state/order.ts';
import type { SystemLists } from './checkout-data.ts';
import type { FormState } from './checkout-details.ts';
import type { CheckoutFieldName } from './checkout-fields.ts';

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
  // The site's own setup refused it (the operator's reason is in the proxy's log, never shown here).
  server: (f) => (isSiteRefusal(f.error) ? msg('This site cannot take orders right now; nothing was charged.') : notSent()),
};
