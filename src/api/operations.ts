/**
 * ONE table of every operation of the ticket service (39 of them): the 33 the
 * interface document describes, and 6 it leaves out whose request and answer
 * shapes the service publishes in its own DTO library (`source: 'dto-library'`,
 * the public GitHub repository LondonTheatreDirect/api-v2-dto-classes):
 * SeatingPlan, an event's and several events' AvailableTickets, several events' Performances,
 * TicketAvailability and PrintAtHomeTickets. Real clients call them.
 *
 * The api client (client.ts), the proxy's allowlist (src/server/proxy) and the
 * sandbox's router (src/server/sandbox) are all derived from this table: a new
 * operation is one row here. Paths are written exactly as in the interface.
 *
 * Browser-safe: no DOM, no Node.
 */
import type {
  AddTicketsResult,
  AddTicketsV2Body,
  AddTicketsV3Body,
  AreasPricesResult,
  AvailableTicketsResult,
  BasketChangeResult,
  BasketContent,
  CheckoutOptions,
  CountriesResult,
  CreateBasketResult,
  EventAvailableTicketsResult,
  EventsAvailableTicketsResult,
  EventsPerformancesResult,
  PrintAtHomeTicketsResult,
  SeatingPlanResult,
  TicketAvailabilityResult,
  DeliveryTypesResult,
  EventDetailResult,
  EventPerformancesResult,
  EventsResult,
  EventTypesResult,
  ETicketsResult,
  FullAvailabilityResult,
  PerformanceResult,
  PerformancesResult,
  PreliminaryBookingInfoResult,
  ReviewsResult,
  SeatsSelectionValidationBody,
  SeatsSelectionValidationResult,
  SubmitOrderBody,
  SubmitOrderOnAccountBody,
  SubmitOrderOnAccountResult,
  SubmitOrderResult,
  SubmittedBasketSummary,
  TicketPlanPriceResult,
  USStatesResult,
  VenueDetailResult,
  VenuesResult,
} from './types.ts';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * Parameter types as the wire carries them. `datetime` accepts a date only (yyyy-MM-dd) or a full service
 * DateTime; `intlist` is several integers joined by commas in one path segment (`Events/1,2/Performances`).
 */
export type ParamType = 'int' | 'guid' | 'datetime' | 'bool' | 'intlist';

export interface QueryParamSpec {
  type: ParamType;
  required: boolean;
}

/**
 * What an operation touches, which decides caching and rate limits in the proxy:
 * - `basket`: booking state, never cached;
 * - `catalogue`: events, venues, reviews (minutes);
 * - `availability`: performances and seats (seconds);
 * - `system`: reference lists (long);
 * - `health`: the liveness check, never cached.
 */
export type OperationKind = 'basket' | 'catalogue' | 'availability' | 'system' | 'health';

/** Service area, as the interface groups operations. */
export type OperationArea = 'Baskets' | 'Events' | 'Venues' | 'Performances' | 'System';

/** The answer of an operation that may reply 204 ("tickets are not available yet"). */
export interface NotAvailableYet {
  readonly notAvailableYet: true;
}

/** Where an operation is described: the interface document, or only the service's published DTO library. */
export type OperationSource = 'interface' | 'dto-library';

export interface OperationRow {
  readonly name: string;
  readonly source: OperationSource;
  readonly area: OperationArea;
  readonly method: HttpMethod;
  /** The path template exactly as in the interface, e.g. `/rest/v2/Baskets/{basketId}`. */
  readonly path: string;
  /** Path parameters in template order, with their types. */
  readonly pathParams: Readonly<Record<string, ParamType>>;
  readonly query: Readonly<Record<string, QueryParamSpec>>;
  /** Whether the request carries a JSON body. */
  readonly body: boolean;
  /** Whether the service may answer 204 No Content (not available yet). */
  readonly noContent: boolean;
  readonly kind: OperationKind;
  /** True for operations the proxy refuses unless the operator enables them. */
  readonly restricted?: boolean;
  /** True when repeating the request cannot change state (a GET). */
  readonly idempotent: boolean;
}

/** A row with its TypeScript types attached (phantom fields, never present at run time). */
export interface Operation<Path, Query, Body, Res> extends OperationRow {
  readonly __path?: Path;
  readonly __query?: Query;
  readonly __body?: Body;
  readonly __response?: Res;
}

const PATH_PARAM_TYPES: Record<string, ParamType> = {
  basketId: 'guid',
  basketItemId: 'int',
  eventId: 'int',
  eventIds: 'intlist',
  venueId: 'int',
  ticketId: 'int',
  performanceId: 'int',
};

type RowInput = {
  area: OperationArea;
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryParamSpec>;
  body?: boolean;
  noContent?: boolean;
  kind: OperationKind;
  restricted?: boolean;
  source?: OperationSource;
};

/** Path parameter names of a template, in order. */
export function templateParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

function row<Path = Record<never, never>, Query = Record<never, never>, Body = undefined, Res = unknown>(
  input: RowInput,
): Operation<Path, Query, Body, Res> {
  const pathParams: Record<string, ParamType> = {};
  for (const name of templateParams(input.path)) {
    const type = PATH_PARAM_TYPES[name];
    if (!type) throw new Error(`operations: no type for path parameter {${name}}`);
    pathParams[name] = type;
  }
  return {
    name: '',
    source: input.source ?? 'interface',
    area: input.area,
    method: input.method,
    path: input.path,
    pathParams,
    query: input.query ?? {},
    body: input.body ?? false,
    noContent: input.noContent ?? false,
    kind: input.kind,
    restricted: input.restricted ?? false,
    idempotent: input.method === 'GET',
  };
}

const req = (type: ParamType): QueryParamSpec => ({ type, required: true });
const opt = (type: ParamType): QueryParamSpec => ({ type, required: false });

type BasketPath = { basketId: string };
type EventPath = { eventId: number };
type VenuePath = { venueId: number };
type PerformancePath = { performanceId: number };
/** A service DateTime, or a date only (yyyy-MM-dd). */
type DateParam = string;

const table = {
  // ------------------------------------------------------------ Baskets (13 + 1)
  createBasket: row<{}, {}, undefined, CreateBasketResult>({
    area: 'Baskets', method: 'POST', path: '/rest/v2/Baskets', kind: 'basket',
  }),
  addTickets: row<BasketPath, {}, AddTicketsV2Body, AddTicketsResult>({
    area: 'Baskets', method: 'POST', path: '/rest/v2/Baskets/{basketId}/Tickets', body: true, kind: 'basket',
  }),
  addTicketsV3: row<BasketPath & PerformancePath, {}, AddTicketsV3Body, AddTicketsResult>({
    area: 'Baskets', method: 'POST', path: '/v3/Baskets/{basketId}/performances/{performanceId}/tickets', body: true, kind: 'basket',
  }),
  getBasket: row<BasketPath, {}, undefined, BasketContent>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}', kind: 'basket',
  }),
  getCheckoutOptions: row<BasketPath, {}, undefined, CheckoutOptions>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/CheckoutOptions', kind: 'basket',
  }),
  submitOrder: row<BasketPath, {}, SubmitOrderBody, SubmitOrderResult>({
    area: 'Baskets', method: 'POST', path: '/rest/v2/Baskets/{basketId}/SubmitOrder', body: true, kind: 'basket',
  }),
  submitOrderOnAccount: row<BasketPath, {}, SubmitOrderOnAccountBody, SubmitOrderOnAccountResult>({
    area: 'Baskets', method: 'POST', path: '/rest/v2/Baskets/{basketId}/SubmitOrderOnAccount', body: true, kind: 'basket',
    restricted: true,
  }),
  getSubmittedBasketSummary: row<BasketPath, {}, undefined, SubmittedBasketSummary | NotAvailableYet>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/SubmittedBasketSummary', noContent: true, kind: 'basket',
  }),
  getAvailableDeliveries: row<BasketPath, {}, undefined, DeliveryTypesResult>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/AvailableDeliveries', kind: 'basket',
  }),
  /** Payload not shown by the interface; the sandbox answers as AvailableDeliveries. */
  getBasketDeliveryTypes: row<BasketPath, {}, undefined, DeliveryTypesResult>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/DeliveryTypes', kind: 'basket',
  }),
  getETickets: row<BasketPath, {}, undefined, ETicketsResult | NotAvailableYet>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/ETickets', noContent: true, kind: 'basket',
  }),
  deleteBasketItem: row<BasketPath & { basketItemId: number }, {}, undefined, BasketChangeResult>({
    area: 'Baskets', method: 'DELETE', path: '/rest/v2/Baskets/{basketId}/BasketItem/{basketItemId}', kind: 'basket',
  }),
  deleteAllFromBasket: row<BasketPath, {}, undefined, BasketChangeResult>({
    area: 'Baskets', method: 'DELETE', path: '/rest/v2/Baskets/{basketId}/Tickets', kind: 'basket',
  }),
  /** DTO library (GetPrintAtHomeTicketsResult). 204 until the basket is booked, as Get E-tickets. */
  getPrintAtHomeTickets: row<BasketPath, {}, undefined, PrintAtHomeTicketsResult | NotAvailableYet>({
    area: 'Baskets', method: 'GET', path: '/rest/v2/Baskets/{basketId}/PrintAtHomeTickets', noContent: true, kind: 'basket',
    source: 'dto-library',
  }),

  // ------------------------------------------------------------ Events (5 + 3)
  /** All LIVE events, or those of one type with `type`. */
  getEvents: row<{}, { type?: number }, undefined, EventsResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events', query: { type: opt('int') }, kind: 'catalogue',
  }),
  getEvent: row<EventPath, {}, undefined, EventDetailResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventId}', kind: 'catalogue',
  }),
  /**
   * DTO library (GetEventsPerformancesResult): several events at once, their ids joined by commas
   * (`Events/1,2/Performances`). Matched before getEventPerformances: a segment with a comma is a list.
   */
  getEventsPerformances: row<{ eventIds: number[] }, { dateFrom?: DateParam; dateTo?: DateParam }, undefined, EventsPerformancesResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventIds}/Performances',
    query: { dateFrom: opt('datetime'), dateTo: opt('datetime') }, kind: 'availability', source: 'dto-library',
  }),
  getEventPerformances: row<
    EventPath,
    { dateFrom?: DateParam; dateTo?: DateParam; minimumTicketsCount?: number },
    undefined,
    EventPerformancesResult
  >({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventId}/Performances',
    query: { dateFrom: opt('datetime'), dateTo: opt('datetime'), minimumTicketsCount: opt('int') },
    kind: 'availability',
  }),
  getPreliminaryBookingInfo: row<
    EventPath,
    { dateFrom: DateParam; dateTo: DateParam; nbOfTickets: number; consecutiveSeatsOnly: boolean },
    undefined,
    PreliminaryBookingInfoResult
  >({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventId}/PreliminaryBookingInfo',
    query: { dateFrom: req('datetime'), dateTo: req('datetime'), nbOfTickets: req('int'), consecutiveSeatsOnly: req('bool') },
    kind: 'availability',
  }),
  /**
   * DTO library (GetEventsAvailableTicketsResult): getEventAvailableTickets for several events at once, their
   * ids joined by commas (`Events/1,2/AvailableTickets`), as getEventsPerformances is to getEventPerformances.
   */
  getEventsAvailableTickets: row<{ eventIds: number[] }, { dateFrom?: DateParam; dateTo?: DateParam }, undefined, EventsAvailableTicketsResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventIds}/AvailableTickets',
    query: { dateFrom: opt('datetime'), dateTo: opt('datetime') }, kind: 'availability', source: 'dto-library',
  }),
  /** DTO library (GetEventAvailableTicketsResult): every available ticket of an event's performances, per performance. */
  getEventAvailableTickets: row<EventPath, { dateFrom?: DateParam; dateTo?: DateParam }, undefined, EventAvailableTicketsResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventId}/AvailableTickets',
    query: { dateFrom: opt('datetime'), dateTo: opt('datetime') }, kind: 'availability', source: 'dto-library',
  }),
  getEventReviews: row<EventPath, { order?: number; count?: number; from?: number }, undefined, ReviewsResult>({
    area: 'Events', method: 'GET', path: '/rest/v2/Events/{eventId}/Reviews',
    query: { order: opt('int'), count: opt('int'), from: opt('int') },
    kind: 'catalogue',
  }),

  // ------------------------------------------------------------ Venues (3)
  getVenues: row<{}, {}, undefined, VenuesResult>({
    area: 'Venues', method: 'GET', path: '/rest/v2/Venues', kind: 'catalogue',
  }),
  getVenue: row<VenuePath, {}, undefined, VenueDetailResult>({
    area: 'Venues', method: 'GET', path: '/rest/v2/Venues/{venueId}', kind: 'catalogue',
  }),
  getVenueEvents: row<VenuePath, {}, undefined, EventsResult>({
    area: 'Venues', method: 'GET', path: '/rest/v2/Venues/{venueId}/Events', kind: 'catalogue',
  }),

  // ------------------------------------------------------------ Performances (6 + 2)
  getPerformance: row<PerformancePath, {}, undefined, PerformanceResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances/{performanceId}', kind: 'availability',
  }),
  getAvailableTickets: row<PerformancePath, { requiredTicketsCount: number }, undefined, AvailableTicketsResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances/{performanceId}/AvailableTickets',
    query: { requiredTicketsCount: req('int') }, kind: 'availability',
  }),
  getFullAvailability: row<PerformancePath, {}, undefined, FullAvailabilityResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances/{performanceId}/FullAvailability', kind: 'availability',
  }),
  getPerformancesByDate: row<{}, { dateFrom: DateParam; dateTo: DateParam }, undefined, PerformancesResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances',
    query: { dateFrom: req('datetime'), dateTo: req('datetime') }, kind: 'availability',
  }),
  getAreasPrices: row<PerformancePath, {}, undefined, AreasPricesResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances/{performanceId}/AreasPrices', kind: 'availability',
  }),
  /** DTO library (GetPerformanceSeatingPlan): the address of the performance's seating plan image. */
  getSeatingPlan: row<PerformancePath, {}, undefined, SeatingPlanResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/Performances/{performanceId}/SeatingPlan', kind: 'availability',
    source: 'dto-library',
  }),
  /**
   * DTO library (CheckTicketAvailabilityResult): whether one ticket can still be had. Kind `basket`: never
   * cached, as a check made just before adding the ticket must not read an answer from before someone took it.
   */
  getTicketAvailability: row<{ ticketId: number }, {}, undefined, TicketAvailabilityResult>({
    area: 'Performances', method: 'GET', path: '/rest/v2/TicketAvailability/{ticketId}', kind: 'basket',
    source: 'dto-library',
  }),
  validateSeatsSelection: row<PerformancePath, {}, SeatsSelectionValidationBody, SeatsSelectionValidationResult>({
    area: 'Performances', method: 'POST', path: '/rest/v2/Performances/{performanceId}/SeatsSelectionValidation',
    body: true, kind: 'availability',
  }),

  // ------------------------------------------------------------ System (6)
  getCountries: row<{}, {}, undefined, CountriesResult>({
    area: 'System', method: 'GET', path: '/rest/v2/System/Countries', kind: 'system',
  }),
  getUSStates: row<{}, {}, undefined, USStatesResult>({
    area: 'System', method: 'GET', path: '/rest/v2/System/USStates', kind: 'system',
  }),
  getEventTypes: row<{}, {}, undefined, EventTypesResult>({
    area: 'System', method: 'GET', path: '/rest/v2/System/EventTypes', kind: 'system',
  }),
  getDeliveryTypes: row<{}, {}, undefined, DeliveryTypesResult>({
    area: 'System', method: 'GET', path: '/rest/v2/System/DeliveryTypes', kind: 'system',
  }),
  getTicketPlanPrice: row<{}, {}, undefined, TicketPlanPriceResult>({
    area: 'System', method: 'GET', path: '/rest/v2/TicketPlanPrice', kind: 'system',
  }),
  /** A bare JSON boolean. Never cached: it is a liveness check. */
  getHeartBeat: row<{}, {}, undefined, boolean>({
    area: 'System', method: 'GET', path: '/rest/v2/System/HeartBeat', kind: 'health',
  }),
};

for (const [name, op] of Object.entries(table)) (op as { name: string }).name = name;

export type Operations = typeof table;
export type OperationName = keyof Operations;

/** The table. Frozen: derive, never mutate. */
export const operations: Readonly<Operations> = Object.freeze(table);

/** Every row, in table order. */
export const operationList: readonly OperationRow[] = Object.freeze(Object.values(table));

// ---------------------------------------------------------------- type helpers for derivers

type Empty = Record<never, never>;
export type PathOf<O> = O extends Operation<infer P, unknown, unknown, unknown> ? P : never;
export type QueryOf<O> = O extends Operation<unknown, infer Q, unknown, unknown> ? Q : never;
export type BodyOf<O> = O extends Operation<unknown, unknown, infer B, unknown> ? B : never;
export type ResponseOf<O> = O extends Operation<unknown, unknown, unknown, infer R> ? R : never;

/** The single argument object of a client call: path and query parameters, and `body` when the operation takes one. */
export type ArgsOf<O> = PathOf<O> & QueryOf<O> & ([BodyOf<O>] extends [undefined] ? Empty : { body: BodyOf<O> });
