/**
 * The six operations the interface leaves out, taken from the service's DTO library (docs/service-operations.md):
 * several events' Performances, an event's and several events' AvailableTickets, SeatingPlan,
 * TicketAvailability and PrintAtHomeTickets, answered over the same house as the rest.
 */
import {
  type AvailableEventInfo,
  type AvailablePerformanceInfo,
  type AvailableTicketInfo,
  type AvailableTicketsBlockInfo,
  type EventsPerformancesResult,
  type GeneratedPrintAtHomeTicket,
  type PrintAtHomeTicketsResult,
} from '../../api/types.ts';
import {
  basketNotFound,
  basketOf,
  dateParam,
  int,
  NO_CONTENT,
  performanceNotFound,
  performanceOf,
  str,
  type HandlerContext,
  type Handlers,
  type OpRequest,
} from './handlers-common.ts';
import { bookedTicket, ticketPdf } from './pages.ts';
import { fail, ok } from './reply.ts';
import type { EventRt, PerfRt } from './store.ts';
import { absolute, fullTicketInfo, performanceInfo, seatNames, serviceTime, upcoming } from './views.ts';

export const dtoHandlers = {
  getEventsPerformances: ({ ctx, path, query }) => {
    const from = dateParam(ctx, query.dateFrom, false) ?? Number.NEGATIVE_INFINITY;
    const to = dateParam(ctx, query.dateTo, true) ?? Number.POSITIVE_INFINITY;
    if (from > to) return fail(400, 'dateFrom must not be after dateTo.');
    const events: EventsPerformancesResult['Events'] = eventsOf(ctx, path).map((event) => ({
      EventId: event.def.EventId,
      Performances: upcoming(ctx, event)
        .filter((p) => p.instant >= from && p.instant <= to)
        .map((p) => ({ PerformanceId: p.id, PerformanceDate: serviceTime(ctx, p.instant), IsUnreserved: event.def.GeneralAdmission })),
    }));
    return ok({ Events: events });
  },

  getEventAvailableTickets: ({ ctx, path, query }) => {
    const event = ctx.store.events.get(int(path.eventId) ?? -1);
    if (!event) return fail(404, `Event ${String(path.eventId)} is not available.`);
    const range = ticketRange(ctx, query);
    if (!range) return fail(400, 'dateFrom must not be after dateTo.');
    return ok({ AvailableEvent: availableEvent(ctx, event, range) });
  },

  getEventsAvailableTickets: ({ ctx, path, query }) => {
    const range = ticketRange(ctx, query);
    if (!range) return fail(400, 'dateFrom must not be after dateTo.');
    // As several events' Performances: each id once, events not on sale left out.
    const events = eventsOf(ctx, path);
    return ok({ AvailableEvents: events.map((event) => availableEvent(ctx, event, range)) });
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
} satisfies Handlers;

/**
 * The events a list of ids (`{eventIds}`, `1,2`) names, each once, in the order asked. Events not on sale
 * are left out (the answer lists the events it knows), as Get Events lists only LIVE ones.
 */
function eventsOf(ctx: HandlerContext, path: OpRequest['path']): EventRt[] {
  const ids = [...new Set(str(path.eventIds).split(',').map(Number))];
  return ids.flatMap((id) => ctx.store.events.get(id) ?? []);
}

/** Days of performances in an event's AvailableTickets when the request names no dateTo. */
const EVENT_TICKETS_DEFAULT_DAYS = 7;

/** The instants an event's AvailableTickets covers: from `dateFrom` (or now), to `dateTo` (or a week on); null when reversed. */
function ticketRange(ctx: HandlerContext, query: OpRequest['query']): { from: number; to: number } | null {
  const from = dateParam(ctx, query.dateFrom, false) ?? ctx.store.now();
  // Without dateTo, the coming week: every ticket of every performance would be megabytes.
  const to = dateParam(ctx, query.dateTo, true) ?? from + EVENT_TICKETS_DEFAULT_DAYS * 86_400_000;
  return from > to ? null : { from, to };
}

/** One event of AvailableTickets: its performances in the range, each with every free ticket. */
function availableEvent(ctx: HandlerContext, event: EventRt, { from, to }: { from: number; to: number }): AvailableEventInfo {
  const infos = upcoming(ctx, event)
    .filter((p) => p.instant >= from && p.instant <= to)
    .map((perf) => availablePerformance(ctx, perf));
  return { EventName: event.def.Name, EventId: event.def.EventId, AvailablePerformanceInfos: infos };
}

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
