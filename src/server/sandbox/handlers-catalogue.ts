/**
 * The catalogue handlers: what the house has to offer, read-only. Events (with their performances, booking
 * previews and reviews), venues, performances (availability, prices, seating, a seat selection's check) and
 * the system lists.
 */
import type { ParamValue } from '../../api/match.ts';
import { daysInMonth, formatWallClock, parseServiceDateTime, serviceTimeToInstant } from '../../api/time.ts';
import { type AreaPriceGroup, type ReviewsResult, type TicketAreaInfo } from '../../api/types.ts';
import {
  dateParam,
  int,
  parseTicketIds,
  performanceNotFound,
  performanceOf,
  type HandlerContext,
  type Handlers,
} from './handlers-common.ts';
import { fail, isObject, ok, type Reply } from './reply.ts';
import type { PerfRt } from './store.ts';
import { absolute, eventInfo, fullTicketInfo, performanceInfo, seatNames, upcoming, venueInfo } from './views.ts';

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

export const catalogueHandlers = {
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
} satisfies Handlers;

function generalAdmissionRefusal(perf: PerfRt): Reply {
  return fail(
    400,
    `Performance ${perf.id} is general admission: it has no seat map.`,
    'Use Get Area prices and add tickets with BestSeats (AreaId, SeatsCount, Price).',
  );
}
