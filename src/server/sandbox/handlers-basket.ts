/**
 * The basket handlers: create and read a basket, add tickets to it (Add Tickets v2 and v3, by ticket id or
 * best seats) and take them out again.
 */
import { FailureReason, type AddTicketsResult } from '../../api/types.ts';
import {
  basketNotFound,
  basketOf,
  int,
  invalidBasket,
  isPositiveInt,
  parseTicketIds,
  performanceNotFound,
  type HandlerContext,
  type Handlers,
  type OpRequest,
} from './handlers-common.ts';
import { created, fail, isObject, ok, type Reply } from './reply.ts';
import type { AddOutcome, AreaRt, Basket, PerfRt } from './store.ts';
import { basketContent, EMPTY_CONTENT } from './views.ts';

// ---------------------------------------------------------------- add tickets (v2 and v3)

/** A 200 or 409 add-result from the store's outcome. */
function addResult(ctx: HandlerContext, basket: Basket, outcome: AddOutcome): Reply {
  const body: AddTicketsResult = {
    Success: outcome.ok,
    FailureReason: outcome.ok ? FailureReason.None : FailureReason[outcome.reason],
    FailureReasonText: outcome.ok ? 'None' : outcome.reason,
    BookableTicketsCount: !outcome.ok && outcome.reason === 'BookableTicketsExceeded' ? (outcome.bookable ?? 0) : null,
    GetBasketContentResult: basketContent(ctx, basket),
  };
  return { status: outcome.ok ? 200 : outcome.status, body };
}

/** 502: the supplier's box office did not answer. Nothing was reserved; the request may be retried. */
function supplierFailure(ctx: HandlerContext, basket: Basket): Reply {
  return {
    status: 502,
    body: {
      Message: "The venue's box office system did not answer. Nothing was reserved; please try again.",
      Success: false,
      FailureReason: FailureReason.BoxOfficeApiUnavailable,
      FailureReasonText: 'BoxOfficeApiUnavailable',
      BookableTicketsCount: null,
      GetBasketContentResult: basketContent(ctx, basket),
    },
  };
}

/** `areaId` 0: not given (Json.NET's default for a missing AreaId): every area selling at that price. */
type AddRequest = { kind: 'tickets'; ids: number[] } | { kind: 'best'; performanceId: number; areaId: number; count: number; price: number };

/** The request bodies arrive bound (src/api/binding.ts): typed, PascalCase, missing fields absent. What is left is their meaning. */
function parseBest(value: Record<string, unknown>, performanceId: unknown): AddRequest | Reply {
  const { AreaId = 0, SeatsCount, Price } = value;
  if (!isPositiveInt(performanceId)) return fail(400, 'BestSeats.PerformanceId must be a performance id.');
  if (AreaId !== 0 && !isPositiveInt(AreaId)) return fail(400, 'AreaId must be an area id (a positive integer).');
  if (!isPositiveInt(SeatsCount)) return fail(400, 'SeatsCount must be a positive integer.');
  if (typeof Price !== 'number' || !Number.isFinite(Price) || Price < 0) return fail(400, 'Price must be a number (a price from Get Area prices).');
  return { kind: 'best', performanceId, areaId: AreaId, count: SeatsCount, price: Price };
}

function parseAddV2(body: unknown): AddRequest | Reply {
  if (!isObject(body)) return fail(400, 'The request body must be a JSON object with Tickets or BestSeats.');
  const hasTickets = body.Tickets !== undefined;
  const hasBest = body.BestSeats !== undefined;
  if (hasTickets && hasBest) return fail(400, 'Give either Tickets or BestSeats, not both.');
  if (!hasTickets && !hasBest) return fail(400, 'Either Tickets or BestSeats is required.');
  if (hasTickets) {
    const ids = parseTicketIds(body.Tickets, 'Tickets');
    return Array.isArray(ids) ? { kind: 'tickets', ids } : ids;
  }
  if (!isObject(body.BestSeats)) return fail(400, 'BestSeats must be an object with PerformanceId, AreaId, SeatsCount and Price.');
  return parseBest(body.BestSeats, body.BestSeats.PerformanceId);
}

function parseAddV3(body: unknown, performanceId: number): AddRequest | Reply {
  if (!isObject(body)) return fail(400, 'The request body must be a JSON object with TicketIds, or AreaId, SeatsCount and Price.');
  const hasIds = body.TicketIds !== undefined;
  const hasBest = ['AreaId', 'SeatsCount', 'Price'].some((k) => body[k] !== undefined);
  if (hasIds && hasBest) return fail(400, 'Give either TicketIds, or AreaId, SeatsCount and Price, not both.');
  if (!hasIds && !hasBest) return fail(400, 'Either TicketIds, or AreaId, SeatsCount and Price, is required.');
  if (hasIds) {
    const ids = parseTicketIds(body.TicketIds, 'TicketIds');
    return Array.isArray(ids) ? { kind: 'tickets', ids } : ids;
  }
  return parseBest(body, performanceId);
}

function runAdd(req: OpRequest, parsed: AddRequest | Reply, pathPerformance?: number): Reply {
  if (!('kind' in parsed)) return parsed;
  const { ctx } = req;
  const { store } = ctx;
  const basket = basketOf(req);
  if (!basket) return basketNotFound(req);
  if (pathPerformance !== undefined && !store.performances.has(pathPerformance)) return performanceNotFound(pathPerformance);
  if (parsed.kind === 'best') {
    const perf = store.performances.get(parsed.performanceId);
    if (!perf) return fail(400, `Performance ${parsed.performanceId} does not exist.`);
    // Whether an area sells seats of this performance at the price asked (sold or free: a price that exists).
    const sellsAt = (area: AreaRt) =>
      area.rows.some((r) => {
        for (let s = r.start; s < r.end; s++) if (Math.abs((store.sellingPrice(perf, s) ?? -1) - parsed.price) < 0.005) return true;
        return false;
      });
    // No AreaId (Json.NET leaves it 0): the best seats over every area selling at that price, as the
    // operation's name promises (a published client sends none on a seated show with several areas).
    let areas: AreaRt[];
    if (parsed.areaId === 0) {
      areas = [...perf.venue.areas.values()].filter(sellsAt);
      if (!areas.length) return fail(400, `Performance ${perf.id} has no tickets at the price ${parsed.price}.`, 'Take the prices from Get Area prices.');
    } else {
      const area = perf.venue.areas.get(parsed.areaId);
      if (!area) return fail(400, `Area ${parsed.areaId} is not an area of performance ${perf.id}.`);
      if (!sellsAt(area)) return fail(400, `Area ${area.name} of performance ${perf.id} has no tickets at the price ${parsed.price}.`);
      areas = [area];
    }
    if (basket.state === 'open' && store.supplierFails(perf)) return supplierFailure(ctx, basket);
    return addResult(ctx, basket, store.addBest(basket, perf, areas, parsed.count, parsed.price));
  }
  const seats: number[] = [];
  let perf: PerfRt | undefined;
  for (const id of parsed.ids) {
    const decoded = store.decodeTicket(id);
    if (!decoded) return fail(400, `Ticket ${id} does not exist.`);
    if (perf && decoded.perf !== perf) return fail(400, 'All tickets of one request must be for one performance.');
    if (pathPerformance !== undefined && decoded.perf.id !== pathPerformance) {
      return fail(400, `Ticket ${id} is not a ticket of performance ${pathPerformance}.`);
    }
    perf = decoded.perf;
    seats.push(decoded.seat);
  }
  if (!perf) return fail(400, 'No tickets given.');
  if (basket.state === 'open' && store.supplierFails(perf)) return supplierFailure(ctx, basket);
  return addResult(ctx, basket, store.addSeats(basket, perf, seats));
}

export const basketHandlers = {
  createBasket: ({ ctx }) => {
    const basket = ctx.store.createBasket(ctx.newBasketId());
    return created({ Success: true, BasketId: basket.id });
  },

  addTickets: (req) => runAdd(req, parseAddV2(req.body)),

  addTicketsV3: (req) => {
    const performanceId = int(req.path.performanceId) ?? 0;
    return runAdd(req, parseAddV3(req.body, performanceId), performanceId);
  },

  getBasket: (req) => {
    const basket = basketOf(req);
    return basket ? ok(basketContent(req.ctx, basket)) : basketNotFound(req);
  },

  deleteBasketItem: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    if (basket.state !== 'open') return invalidBasket(req, `the basket is ${basket.state === 'submitted' ? 'awaiting payment' : basket.state}.`);
    const itemId = int(req.path.basketItemId) ?? -1;
    if (!req.ctx.store.removeItem(basket, itemId)) return fail(404, `Basket item ${itemId} is not in basket ${basket.id}.`);
    return ok({ Success: true, GetBasketContentResult: basketContent(req.ctx, basket) });
  },

  deleteAllFromBasket: (req) => {
    const basket = basketOf(req);
    if (!basket) return invalidBasket(req, 'the basket does not exist.');
    if (basket.state !== 'open') return invalidBasket(req, `the basket is ${basket.state === 'submitted' ? 'awaiting payment' : basket.state}.`);
    if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
    req.ctx.store.removeAll(basket);
    return ok({ Success: true, GetBasketContentResult: EMPTY_CONTENT(basket.id) });
  },
} satisfies Handlers;
