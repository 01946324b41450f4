/**
 * What the checkout loads (the System lists, the basket's checkout options and
 * deliveries) and the sums it shows and sends.
 */
import { msg } from '../../i18n/msg.ts';
import { isAbortError, type ApiClient } from '../../api/client.ts';
import { basketInvalidMessage, toFailure, type Failure } from '../../state/failure.ts';
import type { BasketContent, CheckoutOptions, Country, DeliveryType, USState } from '../../api/types.ts';

export interface SystemLists {
  countries: Country[];
  states: USState[];
  ticketPlanPrice: number | null;
}

export interface CheckoutData {
  options: CheckoutOptions;
  deliveries: DeliveryType[];
}

/** The visitor's choices that change the total. */
export interface PriceChoices {
  deliveryTypeId: number | null;
  requireTicketPlan: boolean;
}

/** Countries (named and sorted in the visitor's language when shown: countryOptions), US states by name, and the refund protection price per ticket (null: not offered). */
export async function loadSystemLists(api: ApiClient, signal: AbortSignal): Promise<SystemLists> {
  const [countries, states, plan] = await Promise.all([
    api.getCountries(undefined, { signal }),
    api.getUSStates(undefined, { signal }),
    // Refund protection is optional: the checkout goes on without it.
    api.getTicketPlanPrice(undefined, { signal }).catch((error: unknown) => {
      if (isAbortError(error)) throw error;
      return null;
    }),
  ]);
  const price = plan && Number.isFinite(plan.Price) && plan.Price > 0 ? plan.Price : null;
  return { countries: countries.Countries, states: [...states.USStates].sort((a, b) => a.StateName.localeCompare(b.StateName)), ticketPlanPrice: price };
}

/** The basket's checkout options and delivery types. */
export async function loadCheckout(api: ApiClient, basketId: string, signal: AbortSignal): Promise<CheckoutData> {
  const [options, deliveries] = await Promise.all([
    api.getCheckoutOptions({ basketId }, { signal }),
    api.getAvailableDeliveries({ basketId }, { signal }),
  ]);
  return { options, deliveries: deliveries.DeliveryTypes };
}

/**
 * The delivery chosen for the visitor until they choose: the cheapest (ties: the service's
 * order), so a free option is never passed over for one that costs money.
 */
export function cheapestDelivery(deliveries: readonly DeliveryType[]): DeliveryType | undefined {
  return deliveries.reduce<DeliveryType | undefined>((best, d) => (best === undefined || d.DeliveryTypePrice < best.DeliveryTypePrice ? d : best), undefined);
}

/** What the visitor is told when the checkout could not load (state/failure.ts). */
export function loadFailure(error: unknown): Failure {
  const notLoaded = () => msg('The checkout could not be loaded.');
  return toFailure(error, { otherwise: notLoaded, gone: basketInvalidMessage, refused: notLoaded });
}

export const ticketCount = (content: BasketContent | null) => (content?.Items ?? []).reduce((n, item) => n + item.Tickets.length, 0);

/** The tickets' price. */
export function subtotal(content: BasketContent): number {
  return content.Items.reduce((sum, item) => sum + item.PriceSubTotal, 0);
}

/** Refund protection for every ticket, when chosen (0 when not). */
export function protectionPrice(content: BasketContent, lists: SystemLists, choices: PriceChoices): number {
  if (!choices.requireTicketPlan || lists.ticketPlanPrice === null) return 0;
  return Math.round(lists.ticketPlanPrice * ticketCount(content) * 100) / 100;
}

/** Tickets, the chosen delivery and refund protection. */
export function orderTotal(content: BasketContent, deliveries: DeliveryType[], lists: SystemLists, choices: PriceChoices): number {
  const delivery = deliveries.find((d) => d.DeliveryTypeId === choices.deliveryTypeId)?.DeliveryTypePrice ?? 0;
  return Math.round((subtotal(content) + delivery + protectionPrice(content, lists, choices)) * 100) / 100;
}
