/**
 * One handler per operation of the table (the `Record<OperationName, …>` type
 * makes a missing one a compile error). A handler is synchronous: the router
 * has already parsed the body and validated path and query parameters with
 * src/api/match.ts, and the store's check-then-reserve runs without a break.
 */
import type { OperationName } from '../../api/operations.ts';
import type { ParamValue } from '../../api/match.ts';
import { daysInMonth, formatWallClock, parseServiceDateTime, serviceTimeToInstant } from '../../api/time.ts';
import {
  FailureReason,
  type AddTicketsResult,
  type AreaPriceGroup,
  type AvailablePerformanceInfo,
  type AvailableTicketInfo,
  type AvailableTicketsBlockInfo,
  type CheckoutNotice,
  type EventsPerformancesResult,
  type GeneratedPrintAtHomeTicket,
  type PrintAtHomeTicketsResult,
  type ReviewsResult,
  type TicketAreaInfo,
} from '../../api/types.ts';
import { parseOrder } from './orders.ts';
import { bookedTicket, ticketPdf } from './pages.ts';
import { fail, isObject, isReply, ok, type Reply } from './reply.ts';
import type { AddOutcome, Basket, PerfRt } from './store.ts';
import {
  absolute,
  basketContent,
  basketDeliveries,
  basketTotal,
  basketItem,
  EMPTY_CONTENT,
  eventInfo,
  fullTicketInfo,
  performanceInfo,
  seatNames,
  serviceTime,
  ticketCount,
  upcoming,
  venueInfo,
  type ViewContext,
} from './views.ts';

/** How a date-only `dateTo` is read (see dateParam). */
export type DateToReading = 'whole-day' | 'midnight';

export interface HandlerContext extends ViewContext {
  onAccountEnabled: boolean;
  dateToReading: DateToReading;
  newBasketId(): string;
  newBookingReference(): string;
}

export interface OpRequest {
  path: Record<string, ParamValue>;
  query: Record<string, ParamValue>;
  body: unknown;
  ctx: HandlerContext;
}

type Handler = (req: OpRequest) => Reply;
const NO_CONTENT: Reply = { status: 204 };

const int = (v: ParamValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: ParamValue | undefined): string => (typeof v === 'string' ? v : '');

// ---------------------------------------------------------------- lookups

function basketOf(req: OpRequest): Basket | undefined {
  return req.ctx.store.basket(str(req.path.basketId));
}

const basketNotFound = (req: OpRequest) => fail(404, `Basket ${str(req.path.basketId)} does not exist.`);
const invalidBasket = (req: OpRequest, why: string) => fail(403, `Invalid basket manipulation: ${why}`, `Basket ${str(req.path.basketId)}.`);

function performanceOf(req: OpRequest, id: number | undefined = int(req.path.performanceId)): PerfRt | undefined {
  return id === undefined ? undefined : req.ctx.store.performances.get(id);
}

const performanceNotFound = (id: unknown) => fail(404, `Performance ${String(id)} does not exist.`);

const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * A date query value as an instant. A date-only `dateTo` is read as the sandbox's `dateToReading` says
 * (createSandbox option): `'whole-day'` (default) includes that whole day, `'midnight'` ends at its first
 * instant (00:00), so `dateFrom=D&dateTo=D+1` is the one day D (and a show at exactly 00:00 of D+1).
 */
function dateParam(ctx: HandlerContext, value: ParamValue | undefined, endOfDay: boolean): number | undefined {
  if (typeof value !== 'string') return undefined;
  const instant = serviceTimeToInstant(value, ctx.timeZone);
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const wholeDay = endOfDay && dateOnly && ctx.dateToReading === 'whole-day';
  return wholeDay ? serviceTimeToInstant(nextDay(value.trim()), ctx.timeZone) - 1 : instant;
}

function nextDay(date: string): string {
  const f = parseServiceDateTime(date);
  if (!f) return date;
  const d = new Date(Date.UTC(f.year, f.month - 1, f.day + 1));
  return d.toISOString().slice(0, 10);
}

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

/** `areaId` 0: not given (Json.NET's default for a missing AreaId); a performance with one area means that one. */
type AddRequest = { kind: 'tickets'; ids: number[] } | { kind: 'best'; performanceId: number; areaId: number; count: number; price: number };

/** The request bodies arrive bound (src/api/binding.ts): typed, PascalCase, missing fields absent. What is left is their meaning. */
function parseTicketIds(value: unknown, field: string): number[] | Reply {
  if (!Array.isArray(value) || value.length === 0) return fail(400, `${field} must be a non-empty array of ticket ids.`);
  if (!value.every(isPositiveInt)) return fail(400, `${field} must contain ticket ids (positive integers) only.`);
  if (new Set(value).size !== value.length) return fail(400, `${field} names a ticket more than once.`);
  return value;
}

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
    // No AreaId (Json.NET leaves it 0): unambiguous only when the performance has one area on sale
    // (the one group Get Area prices lists), as a general-admission show often has.
    const areas = [...perf.venue.areas.values()].filter((a) => a.rows.some((r) => {
      for (let s = r.start; s < r.end; s++) if (store.sellingPrice(perf, s) !== null) return true;
      return false;
    }));
    if (parsed.areaId === 0 && areas.length !== 1) {
      return fail(400, `AreaId is required: performance ${perf.id} has ${areas.length} areas.`, 'Take AreaId from Get Area prices.');
    }
    const area = parsed.areaId === 0 ? areas[0] : perf.venue.areas.get(parsed.areaId);
    if (!area) return fail(400, `Area ${parsed.areaId} is not an area of performance ${perf.id}.`);
    const hasPrice = area.rows.some((r) => {
      for (let s = r.start; s < r.end; s++) if (Math.abs((store.sellingPrice(perf, s) ?? -1) - parsed.price) < 0.005) return true;
      return false;
    });
    if (!hasPrice) return fail(400, `Area ${area.name} of performance ${perf.id} has no tickets at the price ${parsed.price}.`);
    if (basket.state === 'open' && store.supplierFails(perf)) return supplierFailure(ctx, basket);
    return addResult(ctx, basket, store.addBest(basket, perf, area, parsed.count, parsed.price));
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

// ---------------------------------------------------------------- orders

function submitGuard(req: OpRequest): Basket | Reply {
  const basket = basketOf(req);
  if (!basket) return invalidBasket(req, 'the basket does not exist.');
  if (basket.state === 'submitted') return invalidBasket(req, 'the basket was already submitted and awaits payment.');
  if (basket.state === 'booked') return invalidBasket(req, 'the basket is already booked.');
  if (basket.state === 'cancelled') return invalidBasket(req, 'the basket was cancelled.');
  if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
  return basket;
}

// ---------------------------------------------------------------- the handlers

const REVIEW_SORTS: Record<number, (a: { Stars: number; CreatedAt: string }, b: { Stars: number; CreatedAt: string }) => number> = {
  0: (a, b) => b.CreatedAt.localeCompare(a.CreatedAt),
  1: (a, b) => a.CreatedAt.localeCompare(b.CreatedAt),
  2: (a, b) => b.Stars - a.Stars || b.CreatedAt.localeCompare(a.CreatedAt),
  3: (a, b) => a.Stars - b.Stars || b.CreatedAt.localeCompare(a.CreatedAt),
};

/** The instant two calendar months after a date query value (wall clock in the zone). */
function twoMonthsAfter(ctx: HandlerContext, value: ParamValue | undefined): number {
  const f = parseServiceDateTime(value);
  if (!f) return Number.POSITIVE_INFINITY;
  const month = f.month + 2;
  const year = f.year + Math.floor((month - 1) / 12);
  const m = ((month - 1) % 12) + 1;
  const day = Math.min(f.day, daysInMonth(year, m));
  return serviceTimeToInstant(formatWallClock({ ...f, year, month: m, day }), ctx.timeZone);
}

export const handlers: Record<OperationName, Handler> = {
  // ------------------------------------------------------------ Baskets
  createBasket: ({ ctx }) => {
    const basket = ctx.store.createBasket(ctx.newBasketId());
    return ok({ Success: true, BasketId: basket.id });
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

  getAvailableDeliveries: (req) => {
    const basket = basketOf(req);
    if (!basket) return invalidBasket(req, 'the basket does not exist.');
    if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
    return ok({ DeliveryTypes: basketDeliveries(req.ctx, basket) });
  },

  getBasketDeliveryTypes: (req) => handlers.getAvailableDeliveries(req),

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

  deleteBasketItem: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    if (basket.state !== 'open') return invalidBasket(req, `the basket is ${basket.state === 'submitted' ? 'awaiting payment' : basket.state}.`);
    const itemId = int(req.path.basketItemId) ?? -1;
    if (!req.ctx.store.removeItem(basket, itemId)) return fail(404, `Basket item ${itemId} is not in basket ${basket.id}.`);
    return ok({ Success: true, GetBasketContentResult: basketContent(req.ctx, basket) });
  },

  getPrintAtHomeTickets: (req) => {
    const basket = basketOf(req);
    if (!basket) return basketNotFound(req);
    if (basket.state !== 'booked') return NO_CONTENT;
    // Requested: every ticket of the basket; generated: those of events with print-at-home tickets.
    const requested = basket.items.flatMap((item) => item.seats.map((seat) => ({ item, seat })));
    const generated: GeneratedPrintAtHomeTicket[] = [];
    for (const { item, seat } of requested) {
      if (!item.perf.event.def.PrintAtHomeTicketsEnabled) continue;
      const id = req.ctx.store.ticketId(item.perf, seat);
      const ticket = bookedTicket(req.ctx, req.ctx.store, basket, id);
      if (!ticket) continue;
      const names = seatNames(item.perf, seat);
      generated.push({
        Ticket: { TicketId: id, TicketName1: names.name1, TicketName2: names.name2 },
        FileSize: ticketPdf(ticket).byteLength,
        DownloadUrl: `${req.ctx.origin}/sandbox/etickets/${basket.id}/${id}.pdf`,
      });
    }
    const result: PrintAtHomeTicketsResult = {
      AllTicketsGenerated: generated.length === requested.length,
      RequestedTicketsCount: requested.length,
      GeneratedTicketsCount: generated.length,
      GeneratedTickets: generated,
    };
    return ok(result);
  },

  deleteAllFromBasket: (req) => {
    const basket = basketOf(req);
    if (!basket) return invalidBasket(req, 'the basket does not exist.');
    if (basket.state !== 'open') return invalidBasket(req, `the basket is ${basket.state === 'submitted' ? 'awaiting payment' : basket.state}.`);
    if (!basket.items.length) return invalidBasket(req, 'the basket is empty.');
    req.ctx.store.removeAll(basket);
    return ok({ Success: true, GetBasketContentResult: EMPTY_CONTENT(basket.id) });
  },

  // ------------------------------------------------------------ Events
  getEvents: ({ ctx, query }) => {
    const type = int(query.type);
    const events = [...ctx.store.events.values()].filter((e) => type === undefined || e.def.EventType === type);
    return ok({ Events: events.map((e) => eventInfo(ctx, e, 'list')) });
  },

  getEvent: ({ ctx, path }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`, 'The show is no longer available.');
    return ok({ Event: eventInfo(ctx, event, 'detail') });
  },

  getEventsPerformances: ({ ctx, path, query }) => {
    const from = dateParam(ctx, query.dateFrom, false) ?? Number.NEGATIVE_INFINITY;
    const to = dateParam(ctx, query.dateTo, true) ?? Number.POSITIVE_INFINITY;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    const ids = [...new Set(str(path.eventIds).split(',').map(Number))];
    // Events not on sale are left out (the answer lists the events it knows), as Get Events lists only LIVE ones.
    const events: EventsPerformancesResult['Events'] = [];
    for (const id of ids) {
      const event = ctx.store.events.get(id);
      if (!event) continue;
      events.push({
        EventId: event.def.EventId,
        Performances: upcoming(ctx, event)
          .filter((p) => p.instant >= from && p.instant <= to)
          .map((p) => ({ PerformanceId: p.id, PerformanceDate: serviceTime(ctx, p.instant), IsUnreserved: event.def.GeneralAdmission })),
      });
    }
    return ok({ Events: events });
  },

  getEventPerformances: ({ ctx, path, query }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`);
    const from = dateParam(ctx, query.dateFrom, false) ?? Number.NEGATIVE_INFINITY;
    const to = dateParam(ctx, query.dateTo, true) ?? Number.POSITIVE_INFINITY;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    const minimumCount = int(query.minimumTicketsCount) ?? 0;
    const performances = upcoming(ctx, event)
      .filter((p) => p.instant >= from && p.instant <= to)
      .map((p) => performanceInfo(ctx, p))
      .filter((p) => p.TotalAvailableTickesCount >= minimumCount);
    return ok({ EventId: event.def.EventId, Performances: performances });
  },

  getPreliminaryBookingInfo: ({ ctx, path, query }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`);
    const from = dateParam(ctx, query.dateFrom, false) ?? 0;
    const to = dateParam(ctx, query.dateTo, true) ?? 0;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    const count = int(query.nbOfTickets) ?? 0;
    if (count < 1) return fail(400, 'nbOfTickets must be at least 1.');
    const consecutive = query.consecutiveSeatsOnly === true && !event.def.GeneralAdmission;
    const { store } = ctx;
    const performances = upcoming(ctx, event)
      .filter((p) => p.instant >= from && p.instant <= to && p.bookable)
      .flatMap((perf) => {
        // Per area and price: can `count` tickets be had (in one row when consecutive)?
        const groups = new Map<string, number[]>();
        for (const s of store.freeSeats(perf)) {
          const def = perf.venue.seats[s];
          const price = store.sellingPrice(perf, s);
          if (!def || price === null) continue;
          const key = `${def.area.id}:${price}`;
          const list = groups.get(key) ?? [];
          list.push(s);
          groups.set(key, list);
        }
        const prices: number[] = [];
        for (const [key, seats] of groups) {
          const enough = consecutive ? store.maxConsecutive(perf, seats) >= count : seats.length >= count;
          if (enough) prices.push(Number(key.split(':')[1]));
        }
        if (!prices.length) return [];
        return [{
          PerformanceId: perf.id,
          PerformanceDate: performanceInfo(ctx, perf).PerformanceDate,
          // One price per area and price band: a handful of values.
          MinimalTicketPrice: Math.min(...prices),
          MaximalTicketPrice: Math.max(...prices),
        }];
      });
    return ok({ Performances: performances });
  },

  getEventAvailableTickets: ({ ctx, path, query }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`);
    const from = dateParam(ctx, query.dateFrom, false) ?? ctx.store.now();
    // Without dateTo, the coming week: every ticket of every performance would be megabytes.
    const to = dateParam(ctx, query.dateTo, true) ?? from + EVENT_TICKETS_DEFAULT_DAYS * 86_400_000;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    const infos: AvailablePerformanceInfo[] = upcoming(ctx, event)
      .filter((p) => p.instant >= from && p.instant <= to)
      .map((perf) => availablePerformance(ctx, perf));
    return ok({ AvailableEvent: { EventName: event.def.Name, EventId: event.def.EventId, AvailablePerformanceInfos: infos } });
  },

  getEventReviews: ({ ctx, path, query }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`);
    const order = int(query.order) ?? 0;
    const sort = REVIEW_SORTS[order];
    if (!sort) return fail(400, 'order must be 0 (DateDescending), 1 (DateAscending), 2 (StarsDescending) or 3 (StarsAscending).');
    const count = int(query.count) ?? 10;
    const from = int(query.from) ?? 0;
    const all = [...event.def.Reviews].sort(sort);
    const page = all.slice(from, from + count);
    const average = all.length ? Math.round((all.reduce((s, r) => s + r.Stars, 0) / all.length) * 10) / 10 : 0;
    const result: ReviewsResult = {
      Reviews: page,
      ReviewsCount: all.length,
      AverageRating: average,
      HighestPossibleRating: 5,
      CurrentReviewsCount: page.length,
      CurrentReviewsFrom: from,
    };
    return ok(result);
  },

  // ------------------------------------------------------------ Venues
  getVenues: ({ ctx }) => ok({ Venues: [...ctx.store.venues.values()].map((v) => venueInfo(ctx, v)) }),

  getVenue: ({ ctx, path }) => {
    const venue = ctx.store.venues.get(int(path.venueId) ?? -1);
    return venue ? ok({ Venue: venueInfo(ctx, venue) }) : fail(404, `Venue ${String(path.venueId)} does not exist.`);
  },

  getVenueEvents: ({ ctx, path }) => {
    const venue = ctx.store.venues.get(int(path.venueId) ?? -1);
    if (!venue) return fail(404, `Venue ${String(path.venueId)} does not exist.`);
    const events = [...ctx.store.events.values()].filter((e) => e.venue === venue);
    return ok({ Events: events.map((e) => eventInfo(ctx, e, 'venue')) });
  },

  // ------------------------------------------------------------ Performances
  getPerformance: (req) => {
    const perf = performanceOf(req);
    return perf ? ok({ Performance: performanceInfo(req.ctx, perf) }) : performanceNotFound(req.path.performanceId);
  },

  getAvailableTickets: (req) => {
    const perf = performanceOf(req);
    if (!perf) return performanceNotFound(req.path.performanceId);
    if (perf.event.def.GeneralAdmission) return generalAdmissionRefusal(perf);
    const required = int(req.query.requiredTicketsCount) ?? 0;
    if (required < 1) return fail(400, 'requiredTicketsCount must be at least 1.');
    const { store } = req.ctx;
    const groups = new Map<string, TicketAreaInfo>();
    for (const s of store.freeSeats(perf)) {
      const full = fullTicketInfo(req.ctx, perf, s);
      const key = `${full.AreaName}|${full.FaceValue}|${full.SellingPrice}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          AreaName: full.AreaName,
          SellingPrice: full.SellingPrice,
          FaceValue: full.FaceValue,
          TicketName1: full.TicketName1,
          Tickets: [],
          SingleItemBookLink: absolute(`/sandbox/book/${perf.id}?area=${encodeURIComponent(full.AreaName)}&price=${full.SellingPrice}`, req.ctx.origin),
        };
        groups.set(key, group);
      }
      // RestrictionDescription as the DTO library's TicketInfo has it (the interface's table leaves it out):
      // a restricted-view ticket says what restricts it, here as in FullAvailability's Description.
      group.Tickets.push({
        TicketId: full.TicketId,
        TicketName1: full.TicketName1,
        TicketName2: full.TicketName2,
        IsRestrictedView: full.RestrictedView,
        RestrictionDescription: full.Description,
      });
    }
    return ok({
      PerformanceId: perf.id,
      EventId: perf.event.def.EventId,
      TicketAreas: [...groups.values()].filter((g) => g.Tickets.length >= required),
    });
  },

  getFullAvailability: (req) => {
    const perf = performanceOf(req);
    if (!perf) return performanceNotFound(req.path.performanceId);
    if (perf.event.def.GeneralAdmission) return generalAdmissionRefusal(perf);
    return ok({
      PerformanceId: perf.id,
      EventId: perf.event.def.EventId,
      AvailableTickets: req.ctx.store.freeSeats(perf).map((s) => fullTicketInfo(req.ctx, perf, s)),
    });
  },

  getPerformancesByDate: ({ ctx, query }) => {
    const from = dateParam(ctx, query.dateFrom, false) ?? 0;
    const to = dateParam(ctx, query.dateTo, true) ?? 0;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    if (to >= twoMonthsAfter(ctx, query.dateFrom)) return fail(400, 'The date range must be less than two months.');
    const now = ctx.store.now();
    const perfs = [...ctx.store.performances.values()]
      .filter((p) => p.instant > now && p.instant >= from && p.instant <= to)
      .sort((a, b) => a.instant - b.instant || a.id - b.id);
    return ok({ Performances: perfs.map((p) => performanceInfo(ctx, p)) });
  },

  getAreasPrices: (req) => {
    const perf = performanceOf(req);
    if (!perf) return performanceNotFound(req.path.performanceId);
    // Answered for a seated performance too: the interface says the operation is *for* general admission
    // shows, but lists no error for it (its Errors table names none), and a seated house has areas and
    // prices just the same; clients that show prices per area ask it for every show.
    const { store } = req.ctx;
    const groups: AreaPriceGroup[] = [];
    for (const area of perf.venue.areas.values()) {
      const prices = new Map<number, { Price: number; FaceValue: number; AvailableSeatsCount: number }>();
      for (const row of area.rows) {
        for (let s = row.start; s < row.end; s++) {
          const price = store.sellingPrice(perf, s);
          const face = store.faceValue(perf, s);
          if (price === null || face === null) continue;
          const entry = prices.get(price) ?? { Price: price, FaceValue: face, AvailableSeatsCount: 0 };
          if (store.isFree(perf, s)) entry.AvailableSeatsCount++;
          prices.set(price, entry);
        }
      }
      if (prices.size) groups.push({ AreaId: area.id, AreaName: area.name, Prices: [...prices.values()].sort((a, b) => b.Price - a.Price) });
    }
    return ok({ PerformanceId: perf.id, AreasPrices: groups });
  },

  getSeatingPlan: (req) => {
    const perf = performanceOf(req);
    if (!perf) return performanceNotFound(req.path.performanceId);
    return ok({ SeatingPlanUrl: absolute(`/sandbox/seating-plan/${perf.id}.svg`, req.ctx.origin) });
  },

  getTicketAvailability: ({ ctx, path }) => {
    const ticketId = int(path.ticketId) ?? 0;
    const decoded = ctx.store.decodeTicket(ticketId);
    // An unknown ticket is simply not available (a client checking a stale id learns just that).
    const available = decoded !== null && decoded.perf.instant > ctx.store.now() && ctx.store.isFree(decoded.perf, decoded.seat);
    return ok({ TicketId: ticketId, IsAvailable: available });
  },

  validateSeatsSelection: (req) => {
    const perf = performanceOf(req);
    if (!perf) return performanceNotFound(req.path.performanceId);
    if (!isObject(req.body)) return fail(400, 'The request body must be a JSON object with TicketIds.');
    const ids = parseTicketIds(req.body.TicketIds, 'TicketIds');
    if (!Array.isArray(ids)) return ids;
    const seats: number[] = [];
    for (const id of ids) {
      const decoded = req.ctx.store.decodeTicket(id);
      if (!decoded || decoded.perf !== perf) return fail(400, `Ticket ${id} is not a ticket of performance ${perf.id}.`);
      seats.push(decoded.seat);
    }
    const check = req.ctx.store.checkSelection(perf, seats);
    if (check.ok) return ok({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' });
    const label = seatNames(perf, check.seat).label;
    const single = check.reason === 'TicketLeavesSingleSeat';
    return ok({
      SelectionValid: false,
      DisableBooking: true,
      ErrorMessagePlan: single ? `Choosing seat ${label} would leave a single empty seat. Please choose seats next to each other.` : `Seat ${label} is no longer available.`,
      ErrorMessageBasket: single ? 'Your selection leaves a single empty seat between taken seats. Please change it.' : 'A seat you chose is no longer available. Please choose again.',
      InvalidSeatID: String(req.ctx.store.ticketId(perf, check.seat)),
    });
  },

  // ------------------------------------------------------------ System
  getCountries: ({ ctx }) => ok({ Countries: [...ctx.store.catalogue.System.Countries].sort((a, b) => a.Ordering - b.Ordering) }),
  getUSStates: ({ ctx }) => ok({ USStates: ctx.store.catalogue.System.USStates }),
  getEventTypes: ({ ctx }) => ok({ EventTypes: ctx.store.catalogue.System.EventTypes }),
  getDeliveryTypes: ({ ctx }) => ok({ DeliveryTypes: ctx.store.catalogue.System.DeliveryTypes }),
  getTicketPlanPrice: ({ ctx }) => ok({ Price: ctx.store.catalogue.System.TicketPlanPrice }),
  getHeartBeat: () => ok(true),
};

/** Days of performances in an event's AvailableTickets when the request names no dateTo. */
const EVENT_TICKETS_DEFAULT_DAYS = 7;

/**
 * One performance of an event's AvailableTickets: every free ticket with its venue, and the same tickets per
 * area and price. Seats next to each other in a row (both free) share an AdjacencyIndex. A general-admission
 * performance has no tickets to name (it is booked with BestSeats): its lists are empty.
 */
function availablePerformance(ctx: HandlerContext, perf: PerfRt): AvailablePerformanceInfo {
  const info = performanceInfo(ctx, perf);
  const tickets: AvailableTicketInfo[] = [];
  const blocks = new Map<string, AvailableTicketsBlockInfo>();
  if (!perf.event.def.GeneralAdmission) {
    const venue = perf.venue.def;
    let adjacency = 0;
    let previous = -2;
    for (const s of ctx.store.freeSeats(perf)) {
      const full = fullTicketInfo(ctx, perf, s);
      const def = perf.venue.seats[s];
      if (!(def && s === previous + 1 && s > def.rowStart)) adjacency++;
      previous = s;
      const ticket: AvailableTicketInfo = {
        VenueId: venue.VenueId,
        VenueName: venue.Name,
        VenueAddress: venue.Address,
        VenueCity: venue.City,
        TicketName1: full.TicketName1,
        TicketName2: full.TicketName2,
        AdjacencyIndex: adjacency,
        FaceValue: full.FaceValue,
        SellingPrice: full.SellingPrice,
        DirectBookingUrl: absolute(`/sandbox/book/${perf.id}?ticket=${full.TicketId}`, ctx.origin),
        TicketArea: full.AreaName,
        TicketId: full.TicketId,
        IsRestrictedView: full.RestrictedView,
        RestrictionDescription: full.Description,
      };
      tickets.push(ticket);
      const key = `${full.AreaName}|${full.FaceValue}|${full.SellingPrice}`;
      const block = blocks.get(key) ?? { AreaName: full.AreaName, FacePrice: full.FaceValue, SellingPrice: full.SellingPrice, AvailableTicketsInfos: [] };
      block.AvailableTicketsInfos.push(ticket);
      blocks.set(key, block);
    }
  }
  return {
    PerformanceId: perf.id,
    PerformanceDate: info.PerformanceDate,
    MinimumTicketPrice: info.MinimumTicketPrice,
    AvailableTicketInfos: tickets,
    AvailableTicketsBlockInfos: [...blocks.values()],
  };
}

function generalAdmissionRefusal(perf: PerfRt): Reply {
  return fail(
    400,
    `Performance ${perf.id} is general admission: it has no seat map.`,
    'Use Get Area prices and add tickets with BestSeats (AreaId, SeatsCount, Price).',
  );
}
