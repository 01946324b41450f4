/**
 * A whole booking over HTTP, as the widget makes it, through one proxy or
 * several in turn (a load balancer's round robin): two neighbouring seats the
 * service accepts, a basket, the order, the payment on the sandbox's own page,
 * and the booking's summary. Each step says what the service answered, so a
 * test can compare outcomes.
 */
import assert from 'node:assert/strict';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import type { SubmitOrderBody } from '../../src/api/types.ts';

/** Round robin over proxy endpoints (`http://127.0.0.1:P/api`), every request with `headers`. */
export function rotation(endpoints: string[], headers: Record<string, string> = {}): () => ApiClient {
  const clients = endpoints.map((endpoint) => createApiClient({ endpoint, headers }));
  let next = 0;
  return () => {
    const client = clients[next++ % clients.length];
    if (!client) throw new Error('no endpoint');
    return client;
  };
}

/** Every directly bookable seated performance with its available tickets (two or more), event by event. */
export async function* seatedPerformances(api: ApiClient) {
  const { Events } = await api.getEvents();
  for (const event of Events) {
    const { Performances } = await api.getEventPerformances({ eventId: event.EventId });
    for (const performance of Performances) {
      if (!performance.DirectlyBookablePerformance) continue;
      const seats = await api.getAvailableTickets({ performanceId: performance.PerformanceId, requiredTicketsCount: 2 }).catch(() => null);
      if (seats) yield { event, performance, areas: seats.TicketAreas };
    }
  }
}

/** Two neighbouring seats of a seated performance that the service says may be booked together (the `skip`+1-th such pair). */
export async function findSeatPair(api: ApiClient, skip = 0): Promise<{ performanceId: number; tickets: [number, number] }> {
  let seen = 0;
  for await (const { performance, areas } of seatedPerformances(api)) {
    for (const area of areas) {
      for (let i = 0; i + 1 < area.Tickets.length; i++) {
        const [a, b] = [area.Tickets[i], area.Tickets[i + 1]];
        if (!a || !b || a.TicketName1 !== b.TicketName1) continue;
        const check = await api.validateSeatsSelection({ performanceId: performance.PerformanceId, body: { TicketIds: [a.TicketId, b.TicketId] } });
        if (!check.SelectionValid) continue;
        if (seen++ < skip) continue;
        return { performanceId: performance.PerformanceId, tickets: [a.TicketId, b.TicketId] };
      }
    }
  }
  throw new Error('the sandbox has no pair of neighbouring seats it accepts');
}

/** The site the orders of these tests return to: a proxy must allow it (`returnOrigins`, `--return-origin`). */
export const RETURN_ORIGIN = 'https://theatre.example';

export function orderFor(basketId: string): SubmitOrderBody {
  return {
    BasketId: basketId,
    Email: 'guest@example.com',
    Name: 'Ada',
    LastName: 'Lovelace',
    DeliveryType: 1,
    SuccessReturnUrl: `${RETURN_ORIGIN}/ok`,
    FailureReturnUrl: `${RETURN_ORIGIN}/ko`,
  };
}

export interface BookingOutcome {
  basketId: string;
  seats: string[];
  paymentRedirectUrl: string;
  bookingReference: string;
  bookedSeats: string[];
}

/**
 * Book `tickets` through `next()` (a new client, or the same, for every step):
 * create, add, read, submit, pay on the sandbox page, summary. `between` runs
 * after the named step (to stop a server mid-booking, say).
 */
export async function book(
  next: () => ApiClient,
  tickets: readonly number[],
  between: (step: 'created' | 'added' | 'read' | 'submitted' | 'paid') => Promise<void> = async () => undefined,
): Promise<BookingOutcome> {
  const { BasketId } = await next().createBasket();
  await between('created');
  const added = await next().addTickets({ basketId: BasketId, body: { Tickets: [...tickets] } });
  assert.equal(added.Success, true, `add: ${added.FailureReasonText}`);
  await between('added');
  const basket = await next().getBasket({ basketId: BasketId });
  const seats = basket.Items.flatMap((item) => item.Seats);
  await between('read');
  const submitted = await next().submitOrder({ basketId: BasketId, body: orderFor(BasketId) });
  assert.equal(submitted.Success, true);
  await between('submitted');
  const paid = await fetch(submitted.PaymentRedirectUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
  assert.equal(paid.status, 303, await paid.text());
  await between('paid');
  const summary = await next().getSubmittedBasketSummary({ basketId: BasketId });
  assert.ok(!('notAvailableYet' in summary), 'the summary is there once paid');
  return {
    basketId: BasketId,
    seats,
    paymentRedirectUrl: submitted.PaymentRedirectUrl,
    bookingReference: summary.BookingReference,
    bookedSeats: summary.BasketItems.flatMap((item) => item.Seats),
  };
}
