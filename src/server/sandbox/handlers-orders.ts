/**
 * The order handlers: checkout options and deliveries of a basket, submitting it (for payment or on
 * account), and what a booked basket answers (its summary and its e-tickets).
 */
import { type CheckoutNotice } from '../../api/types.ts';
import { basketNotFound, basketOf, invalidBasket, NO_CONTENT, type Handler, type Handlers, type OpRequest } from './handlers-common.ts';
import { parseOrder } from './orders.ts';
import { fail, isReply, ok, type Reply } from './reply.ts';
import type { Basket } from './store.ts';
import { basketDeliveries, basketItem, basketTotal, ticketCount } from './views.ts';

function submitGuard(req: OpRequest): Basket | Reply {
  const basket = basketOf(req);
  if (!basket) return invalidBasket(req, 'the basket does not exist.');
  if (basket.state === 'submitted') return invalidBasket(req, 'the basket was already submitted and awaits payment.');
  if (basket.state === 'booked') return invalidBasket(req, 'the basket is already booked.');
  if (basket.state === 'cancelled') return invalidBasket(req, 'the basket was cancelled.');
  if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
  return basket;
}

const availableDeliveries: Handler = (req) => {
  const basket = basketOf(req);
  if (!basket) return invalidBasket(req, 'the basket does not exist.');
  if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
  return ok({ DeliveryTypes: basketDeliveries(req.ctx, basket) });
};

export const orderHandlers = {
  getCheckoutOptions: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    const events = [...new Map(basket.items.map((i) => [i.perf.event.def.EventId, i.perf.event.def])).values()];
    const notices: CheckoutNotice[] = [
      { Message: 'Tickets cannot be exchanged or refunded unless refund protection is added.', RequiresCustomerConfirmation: true },
    ];
    for (const e of events) {
      if ((e.AgeRating ?? 0) >= 16) notices.push({ Message: `${e.Name}: ${e.MinimumAge}. Photo ID may be requested on entry.`, RequiresCustomerConfirmation: true });
      if (e.ImportantNotice) notices.push({ Message: `${e.Name}: ${e.ImportantNotice}`, RequiresCustomerConfirmation: false });
      if (e.ContentWarnings) notices.push({ Message: `${e.Name} contains: ${e.ContentWarnings}`, RequiresCustomerConfirmation: false });
    }
    return ok({
      CheckoutNotices: notices,
      ETicketNotices: events
        .filter((e) => e.PrintAtHomeTicketsEnabled)
        .map((e) => ({ EventId: e.EventId, Message: `E-tickets for ${e.Name} can be downloaded after payment and are sent by e-mail.` })),
      CustomerEmailIsMandatory: true,
    });
  },

  submitOrder: (req) => {
    const basket = submitGuard(req);
    if (isReply(basket)) return basket;
    const order = parseOrder(req.ctx, basket, req.body, 'payment');
    if (isReply(order)) return order;
    req.ctx.store.submit(basket, order);
    return ok({ Success: true, PaymentRedirectUrl: `${req.ctx.origin}/sandbox/pay/${basket.id}` });
  },

  submitOrderOnAccount: (req) => {
    if (!req.ctx.onAccountEnabled) {
      return fail(403, 'Submit Order on Account is not enabled for this account.', 'Start the sandbox with onAccountEnabled to allow it.');
    }
    const basket = submitGuard(req);
    if (isReply(basket)) return basket;
    const order = parseOrder(req.ctx, basket, req.body, 'account');
    if (isReply(order)) return order;
    basket.order = order;
    const reference = req.ctx.newBookingReference();
    req.ctx.store.book(basket, reference);
    return ok({ Success: true, BookingReference: reference });
  },

  getSubmittedBasketSummary: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    if (basket.state !== 'booked') return NO_CONTENT;
    return ok({
      TransactionReference: basket.transactionReference ?? 0,
      BasketId: basket.id,
      DeliveryInformation: basket.order?.delivery ?? null,
      BasketItems: basket.items.map((i) => basketItem(req.ctx, i, true)),
      BookingReference: basket.bookingReference ?? '',
      ProtectionInformation: basket.order?.requireTicketPlan
        ? { ProtectedTicketsCount: ticketCount(basket), TotalProtectionPrice: basketTotal(req.ctx, basket).protection }
        : null,
      DiscountInformation: null,
    });
  },

  getAvailableDeliveries: availableDeliveries,

  getBasketDeliveryTypes: availableDeliveries,

  getETickets: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    if (basket.state !== 'booked') return NO_CONTENT;
    const base = `${req.ctx.origin}/sandbox/etickets/${basket.id}`;
    return ok({
      Items: basket.items.flatMap((item) =>
        item.seats.map((seat) => {
          const id = req.ctx.store.ticketId(item.perf, seat);
          return {
            TicketId: id,
            ETickets: [
              { Type: 'PDF', DownloadUrl: `${base}/${id}.pdf` },
              { Type: 'AppleWallet', DownloadUrl: `${base}/${id}.pkpass` },
              { Type: 'GoogleWallet', DownloadUrl: `${base}/${id}.json` },
            ],
          };
        }),
      ),
    });
  },
} satisfies Handlers;
