/**
 * What every group of sandbox handlers shares: the request a handler gets, and the lookups and parameter
 * readers they all use. A handler is synchronous: the router has already parsed the body and validated path
 * and query parameters with src/api/match.ts, and the store's check-then-reserve runs without a break.
 */
import type { OperationName } from '../../api/operations.ts';
import type { ParamValue } from '../../api/match.ts';
import { parseServiceDateTime, serviceTimeToInstant } from '../../api/time.ts';
import { fail, type Reply } from './reply.ts';
import type { Basket, PerfRt } from './store.ts';
import type { ViewContext } from './views.ts';

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

export type Handler = (req: OpRequest) => Reply;
/** Some of the table's handlers: the groups that handlers.ts composes into one. */
export type Handlers = Partial<Record<OperationName, Handler>>;
export const NO_CONTENT: Reply = { status: 204 };

export const int = (v: ParamValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
export const str = (v: ParamValue | undefined): string => (typeof v === 'string' ? v : '');

// ---------------------------------------------------------------- lookups

export function basketOf(req: OpRequest): Basket | undefined {
  return req.ctx.store.basket(str(req.path.basketId));
}

export const basketNotFound = (req: OpRequest) => fail(404, `Basket ${str(req.path.basketId)} does not exist.`);
export const invalidBasket = (req: OpRequest, why: string) => fail(403, `Invalid basket manipulation: ${why}`, `Basket ${str(req.path.basketId)}.`);

export function performanceOf(req: OpRequest, id: number | undefined = int(req.path.performanceId)): PerfRt | undefined {
  return id === undefined ? undefined : req.ctx.store.performances.get(id);
}

export const performanceNotFound = (id: unknown) => fail(404, `Performance ${String(id)} does not exist.`);

export const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * A date query value as an instant. A date-only `dateTo` is read as the sandbox's `dateToReading` says
 * (createSandbox option): `'whole-day'` (default) includes that whole day, `'midnight'` ends at its first
 * instant (00:00), so `dateFrom=D&dateTo=D+1` is the one day D (and a show at exactly 00:00 of D+1).
 */
export function dateParam(ctx: HandlerContext, value: ParamValue | undefined, endOfDay: boolean): number | undefined {
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

/** The request bodies arrive bound (src/api/binding.ts): typed, PascalCase, missing fields absent. What is left is their meaning. */
export function parseTicketIds(value: unknown, field: string): number[] | Reply {
  if (!Array.isArray(value) || value.length === 0) return fail(400, `${field} must be a non-empty array of ticket ids.`);
  if (!value.every(isPositiveInt)) return fail(400, `${field} must contain ticket ids (positive integers) only.`);
  if (new Set(value).size !== value.length) return fail(400, `${field} names a ticket more than once.`);
  return value;
}
