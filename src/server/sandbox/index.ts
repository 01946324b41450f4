/**
 * The Stagedoor sandbox: a complete implementation of the ticket service
 * interface over an in-process store, as a Fetch-API handler built on Hono.
 *
 *   const sandbox = createSandbox({ seed: 1, clock: new ManualClock(Date.UTC(2026, 10, 21, 10)) });
 *   const res = await sandbox.fetch(new Request('http://sandbox/rest/v2/Events', { headers: { 'Api-Key': 'k' } }));
 *
 * Routes: the interface under `/rest/v2/...` and `/v3/...` (Api-Key required),
 * routed from the operations table with src/api/match.ts, so the sandbox
 * accepts exactly what the proxy forwards; and its own pages under
 * `/sandbox/...` (no key): payment, images, e-tickets.
 */
import { randomUUID, randomInt } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bindBody } from '../../api/binding.ts';
import { matchRoute, validateParams } from '../../api/match.ts';
import type { OperationName } from '../../api/operations.ts';
import { DEFAULT_TIME_ZONE, clockTiming } from '../../api/time.ts';
import { parseJsonText, utf8Text } from '../json-body.ts';
import { checkCatalogue, generateCatalogue, type Catalogue } from './catalogue.ts';
import { handlers, type DateToReading, type HandlerContext } from './handlers.ts';
import { basketTexts, bookedTicket, htmlPage, noPaymentPage, paymentPage, placeholderSvg, seatingPlanSvg, ticketPdf, escapeHtml } from './pages.ts';
import { fail, type Reply } from './reply.ts';
import { Store, type Clock } from './store.ts';

export { generateCatalogue, loadCatalogue, checkCatalogue, type Catalogue } from './catalogue.ts';
export { isValidPhone } from './orders.ts';
export type { DateToReading } from './handlers.ts';
export { MAX_TICKETS_PER_PERFORMANCE } from './store.ts';

export interface SandboxOptions {
  /** Seed of the generated catalogue and of the sales already made (default 1). */
  seed?: number;
  /** A catalogue to serve instead of the generated one (see catalogue.ts for its shape). */
  catalogue?: Catalogue;
  /** ms since the epoch; default the system clock. */
  clock?: Clock;
  /** How long an added item stays reserved (default 10). */
  reservationMinutes?: number;
  /** How long a submitted basket waits for payment (default 20). */
  paymentMinutes?: number;
  /** Accepted Api-Key values; default any non-empty key. */
  apiKeys?: string[];
  /** Allow Submit Order on Account (default false: 403). */
  onAccountEnabled?: boolean;
  /** Origin (and optional path prefix) of every absolute URL the sandbox emits; default the request's own origin. */
  publicUrl?: string;
  /** Zone of every DateTime (default: the catalogue's TimeZone, else Europe/London). */
  timeZone?: string;
  /**
   * How a date-only `dateTo` query value is read (we cannot see which reading the live service takes):
   * `'whole-day'` (default) includes that whole day, so `dateFrom=D&dateTo=D` is the day D and
   * `dateFrom=D&dateTo=D+1` is two days; `'midnight'` ends at its first instant, so `dateFrom=D&dateTo=D+1`
   * is the day D. A client must be right under both (the widget filters to the range it means).
   */
  dateToReading?: DateToReading;
}

export interface ResolvedSandboxOptions {
  seed: number;
  reservationMinutes: number;
  paymentMinutes: number;
  apiKeys: string[] | null;
  onAccountEnabled: boolean;
  publicUrl: string | null;
  timeZone: string;
  dateToReading: DateToReading;
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  readonly options: ResolvedSandboxOptions;
  readonly clock: Clock;
  readonly catalogue: Catalogue;
  /** The store, for tests and benchmarks that look inside. */
  readonly store: Store;
  readonly app: Hono;
  /**
   * Simulate a supplier failure: the next `count` adds (for one performance, or
   * any) answer 502 and reserve nothing. A catalogue performance with
   * `SupplierUnavailable: true` always does.
   */
  failNextAdds(count?: number, performanceId?: number): void;
}

/** A clock that moves only when told: tests move time instead of sleeping. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: number = Date.now()) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

const systemClock: Clock = { now: () => Date.now() };
/** The largest request body the sandbox reads (the service's bodies are a few hundred bytes). */
const BODY_LIMIT = 64 * 1024;
const REFERENCE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`createSandbox: ${name} must be a positive number.`);
  return value;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? systemClock;
  const resolved: ResolvedSandboxOptions = {
    seed: options.seed ?? 1,
    reservationMinutes: positive('reservationMinutes', options.reservationMinutes, 10),
    paymentMinutes: positive('paymentMinutes', options.paymentMinutes, 20),
    apiKeys: options.apiKeys ?? null,
    onAccountEnabled: options.onAccountEnabled ?? false,
    publicUrl: options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : null,
    timeZone: options.timeZone ?? options.catalogue?.TimeZone ?? DEFAULT_TIME_ZONE,
    dateToReading: options.dateToReading ?? 'whole-day',
  };
  if (resolved.dateToReading !== 'whole-day' && resolved.dateToReading !== 'midnight') {
    throw new RangeError("createSandbox: dateToReading must be 'whole-day' or 'midnight'.");
  }
  const catalogue = options.catalogue ? checkCatalogue(options.catalogue) : generateCatalogue(resolved.seed, clock.now(), resolved.timeZone);
  const store = new Store(catalogue, { ...resolved, clock });

  const contextFor = (request: Request): HandlerContext => ({
    store,
    origin: resolved.publicUrl ?? new URL(request.url).origin,
    timeZone: resolved.timeZone,
    onAccountEnabled: resolved.onAccountEnabled,
    dateToReading: resolved.dateToReading,
    newBasketId: () => randomUUID(),
    newBookingReference: () => `SD-${Array.from({ length: 8 }, () => REFERENCE_CHARS[randomInt(REFERENCE_CHARS.length)]).join('')}`,
  });

  const json = (c: Context, reply: Reply, headers: Record<string, string> = {}): Response => {
    if (reply.status === 204) return c.body(null, 204, headers);
    return c.body(JSON.stringify(reply.body ?? null), reply.status as 200, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  };
  const html = (c: Context, body: string, status = 200) => c.html(body, status as 200);

  const app = new Hono();

  // Every response carries the injected clock: to the second in Date, to the millisecond in
  // Server-Timing (the proxy passes that on, so countdowns are true to the sandbox's clock).
  app.use('*', async (c, next) => {
    await next();
    const now = clock.now();
    c.res.headers.set('Date', new Date(now).toUTCString());
    c.res.headers.set('Server-Timing', clockTiming(now));
  });

  app.onError((error, c) => json(c, fail(500, 'The sandbox had an internal error.', error instanceof Error ? error.message : String(error))));

  // ---------------------------------------------------------------- the payment gateway
  app.get('/sandbox/pay/:basketId', (c) => {
    store.sweep();
    const ctx = contextFor(c.req.raw);
    const basket = store.basket(c.req.param('basketId'));
    const t = basketTexts(basket);
    if (!basket || !basket.order) return html(c, noPaymentPage(t.notPending, null, t), 404);
    if (basket.state === 'submitted') return html(c, paymentPage(ctx, basket));
    if (basket.state === 'booked') return html(c, noPaymentPage(t.alreadyPaid, basket.order.successUrl ?? basket.order.returnUrl, t));
    const why = basket.state === 'cancelled' ? t.timeRanOut : t.noLongerPending;
    return html(c, noPaymentPage(why, basket.order.failureUrl, t), 410);
  });

  app.post('/sandbox/pay/:basketId', async (c) => {
    let outcome: unknown;
    try {
      outcome = (await c.req.parseBody()).outcome;
    } catch {
      outcome = undefined;
    }
    if (outcome !== 'success' && outcome !== 'failure') {
      return html(c, noPaymentPage("Send the form field outcome with the value 'success' or 'failure'.", null), 400);
    }
    store.sweep();
    const basket = store.basket(c.req.param('basketId'));
    const t = basketTexts(basket);
    if (!basket || !basket.order) return html(c, noPaymentPage(t.notPending, null, t), 404);
    const { successUrl, failureUrl, returnUrl } = basket.order;
    const go = (url: string | null) => (url ? c.redirect(url, 303) : html(c, noPaymentPage(t.noReturnAddress, null, t), 409));
    if (basket.state === 'booked') return go(successUrl ?? returnUrl);
    if (basket.state !== 'submitted') return go(failureUrl);
    if (outcome === 'failure') {
      store.decline(basket);
      return go(failureUrl);
    }
    store.book(basket, contextFor(c.req.raw).newBookingReference());
    return go(successUrl);
  });

  // ---------------------------------------------------------------- images, e-tickets, book links
  app.get('/sandbox/images/:label/:size', (c) => {
    const size = /^(\d{1,4})x(\d{1,4})\.svg$/.exec(c.req.param('size'));
    const label = c.req.param('label');
    if (!size || !/^[a-z0-9-]{1,120}$/.test(label)) return json(c, fail(404, 'No such image.'));
    const [width, height] = [Number(size[1]), Number(size[2])];
    if (width < 1 || height < 1) return json(c, fail(404, 'No such image.'));
    return c.body(placeholderSvg(label, width, height), 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    });
  });

  app.get('/sandbox/etickets/:basketId/:file', (c) => {
    store.sweep();
    const m = /^(\d{1,10})\.(pdf|pkpass|json)$/.exec(c.req.param('file'));
    const basket = store.basket(c.req.param('basketId'));
    const ctx = contextFor(c.req.raw);
    const ticket = m && basket ? bookedTicket(ctx, store, basket, Number(m[1])) : null;
    if (!m || !ticket) return json(c, fail(404, 'No such e-ticket. E-tickets exist once the basket is booked.'));
    const name = `ticket-${ticket.bookingReference}-${ticket.ticketId}`;
    if (m[2] === 'pdf') {
      return c.body(ticketPdf(ticket), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}.pdf"` });
    }
    const pass = {
      sandbox: true,
      platform: m[2] === 'pkpass' ? 'AppleWallet' : 'GoogleWallet',
      note: 'A placeholder wallet pass from the Stagedoor sandbox, not a signed pass.',
      serialNumber: String(ticket.ticketId),
      description: ticket.event,
      barcode: { format: 'PKBarcodeFormatPDF417', message: ticket.barcode },
      fields: { event: ticket.event, venue: ticket.venue, date: ticket.date, area: ticket.area, seat: ticket.seat, bookingReference: ticket.bookingReference },
    };
    return c.body(JSON.stringify(pass, null, 2), 200, {
      'Content-Type': m[2] === 'pkpass' ? 'application/vnd.apple.pkpass' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}.${m[2]}"`,
    });
  });

  app.get('/sandbox/seating-plan/:file', (c) => {
    store.sweep();
    const m = /^(\d{1,10})\.svg$/.exec(c.req.param('file'));
    const perf = m ? store.performances.get(Number(m[1])) : undefined;
    if (!perf) return json(c, fail(404, 'No such seating plan.'));
    return c.body(seatingPlanSvg(store, perf), 200, { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'no-store' });
  });

  app.get('/sandbox/book/:performanceId', (c) => {
    const perf = store.performances.get(Number(c.req.param('performanceId')));
    if (!perf) return html(c, noPaymentPage('No such performance.', null), 404);
    return html(c, htmlPage('Book', `<h1>${escapeHtml(perf.event.def.Name)}</h1><p>Book this performance through the Stagedoor widget. (Sandbox link.)</p>`));
  });

  // ---------------------------------------------------------------- the interface
  app.all('*', async (c) => {
    const pathname = new URL(c.req.url).pathname;
    if (!/^\/(rest|v3)(\/|$)/i.test(pathname)) return json(c, fail(404, `No resource at ${pathname}.`));
    const key = c.req.header('Api-Key')?.trim();
    if (!key || (resolved.apiKeys && !resolved.apiKeys.includes(key))) {
      return json(c, fail(401, key ? 'The Api-Key is not valid.' : 'The Api-Key header is required.'));
    }
    const match = matchRoute(c.req.method, pathname);
    if (match.kind === 'not-found') return json(c, fail(404, `No operation at ${pathname}.`));
    if (match.kind === 'method-not-allowed') {
      return json(c, fail(405, `The method ${c.req.method} is not allowed here.`, `Allowed: ${match.allow.join(', ')}.`), { Allow: match.allow.join(', ') });
    }
    const params = validateParams(match.op, match.rawPath, new URL(c.req.url).searchParams);
    if (!params.ok) return json(c, fail(400, params.message));
    let body: unknown;
    if (match.op.body) {
      const declared = Number(c.req.header('Content-Length') ?? '0');
      const bytes = declared > BODY_LIMIT ? null : new Uint8Array(await c.req.arrayBuffer());
      if (!bytes || bytes.byteLength > BODY_LIMIT) return json(c, fail(413, `The request body is larger than the limit of ${BODY_LIMIT} bytes.`));
      const text = utf8Text(bytes);
      if (text === null) return json(c, fail(400, 'The request body is not UTF-8.'));
      if (text.trim()) {
        // Scanned without recursion before parsing: the handlers walk what JSON.parse builds (../json-body.ts).
        const read = parseJsonText(text);
        if (!read.ok) return json(c, fail(400, read.message));
        body = read.value;
      }
      // The service's JSON binding (Json.NET): the handler gets the typed request, or the client a 400 naming the field.
      const bound = bindBody(match.op.name, body, params.path);
      if (!bound.ok) return json(c, fail(400, bound.message));
      body = bound.value;
    }
    // From here to the reply there is no await: expiry, checks and reservation happen atomically.
    store.sweep();
    const handler = handlers[match.op.name as OperationName];
    return json(c, handler({ path: params.path, query: params.query, body, ctx: contextFor(c.req.raw) }));
  });

  return {
    fetch: async (request: Request) => app.fetch(request),
    options: resolved,
    clock,
    catalogue,
    store,
    app,
    failNextAdds: (count = 1, performanceId = 0) => store.failNextAdds(count, performanceId),
  };
}
