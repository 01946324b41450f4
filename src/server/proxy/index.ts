/**
 * The Stagedoor proxy: a Fetch-API handler (a Hono app) that holds the ticket
 * service's Api-Key, so the widget in the browser never does.
 *
 *   const proxy = createProxy({ upstream: 'https://api.example.com', apiKey: process.env.STAGEDOOR_API_KEY });
 *   serve({ fetch: proxy.fetch, port: 8788 });                     // Node (@hono/node-server)
 *   app.all('/api/*', (c) => proxy.fetch(c.req.raw, c.env));        // inside another Hono app
 *   export default { fetch: proxy.fetch };                          // serverless / edge
 *
 * This module runs on any Fetch-API runtime and reaches the service with the
 * platform fetch. Under Node, `stagedoor/proxy` resolves to node.ts instead
 * (package.json's `node` export condition): the same proxy with a keep-alive
 * connection pool (undici) and Prometheus metrics.
 *
 * Everything is derived from the operations table (src/api/operations.ts)
 * through src/api/match.ts: only table operations are forwarded, rebuilt from
 * validated parameters (unknown query parameters are dropped, never forwarded),
 * and bodies rebuilt from their typed fields under the service's JSON binding
 * rules (src/api/binding.ts).
 * Refusals are JSON in the service's own error shape, `{ "Message": ... }`:
 * 404 no such operation, 405 wrong method, 400 bad parameter (named) or a body
 * that is not a JSON object or an order whose return address is not on the
 * site or an allowed origin (return-addresses.ts; 500 with the customer's
 * sentence when a page of the site sent it: the site's setup, a front server
 * hiding the site, is at fault), 413 body too large, 403 SubmitOrderOnAccount while
 * disabled, 428 behind a waiting room without a valid pass (room/: only with `rooms`, which also
 * answers `{prefix}/stagedoor/room/{id}` and the operator's /stagedoor/rooms), 429 rate limited
 * (with Retry-After); 502 upstream unreachable or
 * its answer unreadable, 504 upstream too slow. Under `listenProxy` (server.ts)
 * requests Node or the adapter cannot read get the same shape too (400 bad
 * request line, path or Host; 431 headers too large; 408), reported to
 * `refused()` for the log and the metrics (../refusals.ts).
 *
 * Headers: upstream requests carry only Accept, Accept-Language (uncached operations only), Content-Type
 * (with a body) and the configured Api-Key, so the browser's Api-Key, Cookie and
 * Authorization never pass. Answers carry only Content-Type, Date, Retry-After,
 * Cache-Control (and Age on a cache hit), and Server-Timing with the service's
 * clock to the millisecond (clock.ts): Set-Cookie and every other upstream
 * header are dropped; Date and Retry-After pass only in their shapes, as the
 * proxy writes them (answer-headers.ts). The key is redacted from any answer
 * body that echoes it, in any case, as it is, JSON-escaped, URL-encoded, hex
 * or base64 (key-redaction.ts); a compressed answer is decoded first.
 *
 * Caching (GET only, per the table's `kind`): catalogue 5 min, system 1 h,
 * availability 5 s, basket and health never; in this process and, with a
 * shared `store` (Redis), across processes (lookup.ts). Only 200 answers are
 * stored. Concurrent misses for one key make one upstream call, across
 * processes too. Cacheable answers say `Cache-Control: public, max-age=<ttl>`
 * (with `stale-while-revalidate` for the catalogue and system lists) and carry
 * an `ETag` answering `If-None-Match` with 304, so browsers and CDNs keep and
 * revalidate them too (http-cache.ts); everything else says `no-store`. `Date` is the
 * upstream's on a fresh answer and the proxy's clock on a cache hit (with
 * `Age`), because the widget corrects the visitor's clock with it.
 *
 * SubmitOrder is idempotent (submissions.ts); Create Basket and Add Tickets are
 * rate-limited per client address, an IPv6 one per /64 (client-address.ts; a
 * sliding window, shared through the store); the seats held at once per performance are
 * capped per visitor and per address (seat-caps.ts: a 409 BookableTicketsExceeded naming
 * how many may still be added);
 * /healthz, /readyz and /metrics are answered outside the prefix (health.ts).
 */
import { Hono } from 'hono';
import { bindBody } from '../../api/binding.ts';
import { parseJsonText } from '../json-body.ts';
import { buildQuery, fillPath, matchRoute, validateParams } from '../../api/match.ts';
import type { OperationKind, OperationName, OperationRow } from '../../api/operations.ts';
import { UpstreamClock } from './clock.ts';
import { corsFor, normaliseOrigin } from './cors.ts';
import { clientAddressReader, rateLimitSubject } from './client-address.ts';
import { cacheableControl, entityTag, matchesIfNoneMatch } from './http-cache.ts';
import { clientAcceptEncoding, headerOf } from './incoming.ts';
import { jsonResponse, operationsAnswer, readinessCheck, type Readiness } from './health.ts';
import { Lookups, type LookupSource } from './lookup.ts';
import { keyRedactor } from './key-redaction.ts';
import { acceptsGzip, compressible, message, readBody, replyFrom, toResponse, type Reply, type ReplyError } from './reply.ts';
import { checkReturnAddresses, pageOrigin, ReturnOriginWatch, siteRefusal, siteRefusalReply, type ReturnAddressPolicy } from './return-addresses.ts';
import { siteOriginReader } from './site-origin.ts';
import { addedSeats, DEFAULT_SEAT_CAPS, QUEUE_ID_HEADER, queueIdOf, SeatCaps, type SeatCapOptions } from './seat-caps.ts';
import { ProxyState, type StoreHealth } from './state.ts';
import { MemoryRoomStore, PASS_HEADER, Rooms, type RoomMetrics, type RoomOptions } from './room/index.ts';
import { adminRequest, isAdminPath, isJoinPath, joinRequest } from './room/http.ts';
import type { ProxyStore, RateLimitRule } from './stores.ts';
import { Submissions } from './submissions.ts';
import { callUpstream, fetchClient, handlerClient, type Upstream, type UpstreamClient, type UpstreamRequest } from './upstream.ts';

export { MemoryCacheStore, MemoryRateLimitStore, MemorySeatHoldStore, memoryStore } from './stores.ts';
export { DEFAULT_SEAT_CAPS, QUEUE_ID_HEADER, type SeatCapOptions } from './seat-caps.ts';
export type {
  CacheStore,
  CachedResponse,
  FlightStore,
  MemoryCacheStoreOptions,
  ProxyStore,
  RateLimitDecision,
  RateLimitRule,
  RateLimitStore,
  SeatHoldStore,
} from './stores.ts';
export type { Attempt, Upstream, UpstreamAnswer, UpstreamClient, UpstreamRequest } from './upstream.ts';
export type { Readiness } from './health.ts';
export { PASS_HEADER, type RoomConfig, type RoomMetrics, type RoomOptions, type RoomStore } from './room/index.ts';
export type { StoreHealth } from './state.ts';

export interface RateLimitOptions {
  /** Create Basket. Default 10 per minute per client address; `false` switches it off. */
  createBasket?: RateLimitRule | false;
  /** Add Tickets, version 2 and version 3 counted together. Default 30 per minute per client address; `false` switches it off. */
  addTickets?: RateLimitRule | false;
}

/** One access-log record per request. Never holds the key, a client address or anything from a body. */
export interface AccessLogEntry {
  /** ISO instant the request finished. */
  time: string;
  method: string;
  /** The operation's name in the table, or null when the path named none. */
  operation: string | null;
  status: number;
  durationMs: number;
  /** `hit`: from a cache; `miss`: fetched and stored; `coalesced`: shared another request's upstream call; `none`: not cacheable. */
  cache: LookupSource | 'none';
  /** The upstream's status, when it answered. */
  upstreamStatus?: number;
  /** Why the proxy answered for the upstream: `timeout` (504), `unreachable`/`bad-answer` (502), `internal` (500). */
  error?: ReplyError;
  /** Set when a read was retried after a connection error. */
  retried?: boolean;
  /** Set on a 429 of the proxy's own rate limit. */
  limited?: boolean;
  /** Set on a 409 of the proxy's own seat cap (seat-caps.ts). */
  capped?: boolean;
  /** Set on a 428 of a waiting room's gate: why the pass was refused (room/index.ts). */
  roomPass?: 'missing' | 'expired' | 'invalid' | 'other-visitor';
  /** Set when a repeated SubmitOrder got the answer kept from the accepted one. */
  replayed?: boolean;
  /** Set when the request was refused below the proxy (Node's parser, the request adapter): why (`ProxyApp.refused`). */
  refused?: string;
}

/** Prometheus metrics (metrics.ts, on Node): fed by the proxy, rendered at GET /metrics. */
export interface ProxyMetrics {
  request(entry: AccessLogEntry): void;
  storeError(operation: string): void;
  storeHealth(health: StoreHealth): void;
  /** The waiting rooms' metrics, when rooms are on. */
  readonly room?: RoomMetrics;
  render(): Promise<{ contentType: string; body: string }>;
}

export interface ProxyOptions {
  /**
   * The ticket service: its base URL (`https://api.example.com`, operation paths
   * such as `/rest/v2/Events` are appended), or an in-process Fetch-API handler
   * (`(request) => sandbox.fetch(request)`) so one process runs everything.
   */
  upstream: Upstream;
  /** The service's Api-Key, added to every upstream request. Read it from the environment, never from argv. */
  apiKey: string;
  /** The path the proxy answers under (default `/api`: `GET /api/rest/v2/Events`). `''` mounts it at the root. */
  prefix?: string;
  /** Origins allowed to call cross-origin (CORS), e.g. `https://theatre.example`. Default none: same-origin only. */
  allowedOrigins?: readonly string[];
  /**
   * Origins the payment page may send the customer back to (an order's SuccessReturnUrl,
   * FailureReturnUrl, ReturnUrl), besides `allowedOrigins`; an order naming any other is
   * refused with 400. Default: the site's own origin (the host the request was addressed to)
   * and `allowedOrigins`. Once listed, the request's host no longer counts (a caller writes
   * its Host header): list the site's own origin too.
   */
  returnOrigins?: readonly string[];
  /** Forward SubmitOrderOnAccount (it books without payment). Default false: 403. */
  allowOnAccount?: boolean;
  /** Largest request body accepted, in bytes (default 32 KiB); larger is 413. */
  bodyLimit?: number;
  /** Time allowed for the upstream's complete answer, retry included, in ms (default 10 000); then 504. */
  timeoutMs?: number;
  /**
   * A store shared by every proxy process (`createRedisStore` from `stagedoor/proxy/redis`):
   * the cache, the rate-limit counters, the single flight of identical lookups and the kept
   * SubmitOrder answers. Default: none, each process keeps its own in memory. If it fails,
   * requests go on without it (degraded, see /readyz) until it answers again.
   * `close()` closes it.
   */
  store?: ProxyStore;
  /** `false`: no caching at the proxy (Cache-Control headers are still sent for a CDN). */
  cache?: boolean;
  /** Cache lifetime per operation kind, in seconds; 0 never caches. Defaults: catalogue 300, system 3600, availability 5, basket 0, health 0. */
  cacheTtlSeconds?: Partial<Record<OperationKind, number>>;
  /** Rate limits per client address on Create Basket and Add Tickets. `false` switches them off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * Seats one visitor (the room's `Stagedoor-Queue-Id`, else the basket) and one client address may
   * hold at once per performance, across every proxy sharing the store (seat-caps.ts). Defaults:
   * 10 per visitor, 20 per address; `false` (or a cap `false`) switches them off.
   */
  seatCaps?: SeatCapOptions | false;
  /** The service's payment timeout, ms (default 20 minutes): how long a basket's SubmitOrder answer is kept for a repeat. */
  paymentTimeoutMs?: number;
  /**
   * A header set by a trusted load balancer that carries the client address
   * (e.g. `X-Forwarded-For`; its rightmost entry, the one the balancer added, is
   * used). Only set it when every request passes through that balancer, or
   * clients can choose their own address. Default: the connection's address.
   */
  clientAddressHeader?: string;
  /**
   * Take the site's own origin (for return addresses and CORS) from the front server's
   * `Forwarded: host=;proto=` or `X-Forwarded-Host` / `X-Forwarded-Proto` (the rightmost entry),
   * not from Host: for a proxy mounted on the site's origin behind a front server that rewrites
   * Host (nginx's default). Only set it when every request passes through that front.
   * Default false: the Host the request was addressed to (site-origin.ts).
   */
  trustForwarded?: boolean;
  /** The operator's messages (a site whose orders are refused: return-addresses.ts). Default: a line on stderr. */
  warn?: (text: string) => void;
  /** Full control over the client address (e.g. an edge platform's header). Overrides `clientAddressHeader`. */
  clientAddress?: (request: Request, env: unknown) => string | undefined;
  /** Receives one record per request. Default: one JSON line on stdout. `false`: no log. */
  log?: ((entry: AccessLogEntry) => void) | false;
  /**
   * Answer GET /healthz, /readyz and /metrics outside the prefix (default true);
   * `'health'`: /healthz and /readyz only, for a proxy whose metrics are served
   * elsewhere (`ProxyApp.operations`, `stagedoor proxy --ops-port`); false: none.
   */
  operationalEndpoints?: boolean | 'health';
  /** Prometheus metrics for GET /metrics. Default on Node: prom-client (metrics.ts); elsewhere none. */
  metrics?: ProxyMetrics | false;
  /** How requests reach a URL upstream. Default: a keep-alive pool on Node (undici), the platform fetch elsewhere. */
  upstreamClient?: UpstreamClient;
  /** The clock for cache ages, rate-limit windows and Date (ms since the epoch). Default Date.now; tests inject one. */
  now?: () => number;
  /**
   * Waiting rooms (room/index.ts, docs/waiting-room.md): `secret` (≥ 32 bytes, shared by every proxy:
   * STAGEDOOR_ROOM_SECRET) signs passes; `adminSecret` opens /stagedoor/rooms; `initial` rooms are
   * opened at start unless the store has them. Kept in `store`'s rooms (Redis: shared) or this
   * process's memory. Default: none, and nothing of the room runs.
   */
  rooms?: RoomOptions;
}

/** What createProxy returns: a Hono app, whose `fetch(request, env?)` is the Fetch-API handler, and its controls. */
export type ProxyApp = Hono & {
  /** How the shared store is: `local` (none configured), `ok`, or `degraded` (it failed; this process alone). */
  readonly storeHealth: StoreHealth;
  /** What GET /readyz reports. */
  readiness(): Promise<Readiness>;
  /** GET /healthz, /readyz and /metrics alone, as a Fetch-API handler (404 for anything else): for a listener of its own. */
  operations(request: Request): Promise<Response>;
  /** Close the upstream connections and the store. */
  close(): Promise<void>;
  /**
   * Record a request refused before it reached the proxy (Node's HTTP parser, the request adapter:
   * `listenProxy` reports them here) in the access log and the metrics, as method `-`.
   */
  refused(status: number, reason: string): void;
};

export const DEFAULT_CACHE_TTL_SECONDS: Readonly<Record<OperationKind, number>> = Object.freeze({
  catalogue: 300,
  system: 3600,
  availability: 5,
  basket: 0,
  health: 0,
});

export const DEFAULT_RATE_LIMITS: Readonly<{ createBasket: RateLimitRule; addTickets: RateLimitRule }> = Object.freeze({
  createBasket: { limit: 10, windowMs: 60_000 },
  addTickets: { limit: 30, windowMs: 60_000 },
});

/** Which rate-limit rule counts which operation (v2 and v3 add-tickets share one counter). */
const RATE_LIMITED: Partial<Record<OperationName, keyof typeof DEFAULT_RATE_LIMITS>> = {
  createBasket: 'createBasket',
  addTickets: 'addTickets',
  addTicketsV3: 'addTickets',
};

/** The orders made idempotent (submissions.ts). */
const SUBMISSIONS: ReadonlySet<string> = new Set<OperationName>(['submitOrder', 'submitOrderOnAccount']);

/** The methods of the table's operations: requests by them may skip Hono's chain (see `app.fetch`). */
const DIRECT_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'DELETE']);

/** How long an order past the time limit may still answer (its answer is kept for a repeat). */
const LATE_ORDER_MS = 60_000;

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (trimmed && !trimmed.startsWith('/')) throw new Error(`The prefix '${prefix}' must start with '/'.`);
  return trimmed;
}

/** A whole number of at least `min`, or a configuration error naming the option. */
function checked(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new Error(`The proxy option ${name} must be a whole number of at least ${min} (got ${value}).`);
  return value;
}

/** Create the proxy. Throws on a configuration error (bad upstream URL, origin, prefix or number, unusable key). */
export function createProxy(options: ProxyOptions): ProxyApp {
  if (!options.apiKey) throw new Error('The proxy needs the service Api-Key (apiKey); it is empty.');
  // Checked here so that no header error can ever quote the key later.
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(options.apiKey)) {
    throw new Error('The Api-Key must be printable ASCII without leading or trailing spaces (it is sent as a header).');
  }
  const apiKey = options.apiKey;
  const prefix = normalisePrefix(options.prefix ?? '/api');
  const origins = new Set((options.allowedOrigins ?? []).map((origin) => normaliseOrigin(origin)));
  const returnPolicy: ReturnAddressPolicy = {
    allowed: origins,
    listed: options.returnOrigins?.length ? new Set(options.returnOrigins.map((origin) => normaliseOrigin(origin, 'return origin'))) : null,
  };
  const allowOnAccount = options.allowOnAccount ?? false;
  const bodyLimit = checked('bodyLimit', options.bodyLimit ?? 32 * 1024, 1);
  const timeoutMs = checked('timeoutMs', options.timeoutMs ?? 10_000, 1);
  const paymentTimeoutMs = checked('paymentTimeoutMs', options.paymentTimeoutMs ?? 20 * 60_000, 1);
  const now = options.now ?? Date.now;
  const clock = new UpstreamClock(now); // the service's clock on every answer, to the ms (clock.ts)
  const client: UpstreamClient = clock.timing(
    typeof options.upstream === 'string' ? (options.upstreamClient ?? fetchClient(options.upstream)) : handlerClient(clock.watch(options.upstream)),
  );
  const caching = options.cache !== false;
  const ttlSeconds: Record<OperationKind, number> = { ...DEFAULT_CACHE_TTL_SECONDS, ...options.cacheTtlSeconds };
  for (const [kind, ttl] of Object.entries(ttlSeconds)) checked(`cacheTtlSeconds.${kind}`, ttl, 0);
  const rateLimit = options.rateLimit === false ? null : (options.rateLimit ?? {});
  const rule = (name: keyof typeof DEFAULT_RATE_LIMITS): RateLimitRule | false => {
    const value = rateLimit ? (rateLimit[name] ?? DEFAULT_RATE_LIMITS[name]) : false;
    if (value) {
      checked(`rateLimit.${name}.limit`, value.limit, 1);
      checked(`rateLimit.${name}.windowMs`, value.windowMs, 1);
    }
    return value;
  };
  const rules: Record<keyof typeof DEFAULT_RATE_LIMITS, RateLimitRule | false> = { createBasket: rule('createBasket'), addTickets: rule('addTickets') };
  const capOptions = options.seatCaps === false ? { perVisitor: false as const, perAddress: false as const } : { ...DEFAULT_SEAT_CAPS, ...options.seatCaps };
  for (const name of ['perVisitor', 'perAddress'] as const) {
    const cap = capOptions[name];
    if (cap !== false) checked(`seatCaps.${name}`, cap, 1);
  }
  const log = options.log === false ? null : (options.log ?? ((entry: AccessLogEntry) => console.log(JSON.stringify(entry))));
  const metrics = options.metrics || null;
  const operational = options.operationalEndpoints ?? true;
  const clientAddress = clientAddressReader(options);
  const siteOrigin = siteOriginReader(options.trustForwarded ?? false);
  const warn = options.warn ?? ((text: string) => console.error(text));
  const returnWatch = new ReturnOriginWatch(returnPolicy, warn);
  // Redact the key from answers that echo it, in every common encoding (key-redaction.ts).
  const redact = keyRedactor(apiKey);
  const httpDate = () => new Date(now()).toUTCString();

  const state = new ProxyState({
    shared: options.store ?? null,
    now,
    events: { storeError: (operation) => metrics?.storeError(operation), storeHealth: (health) => metrics?.storeHealth(health) },
  });
  metrics?.storeHealth(state.health);
  const seatCaps =
    capOptions.perVisitor === false && capOptions.perAddress === false
      ? null
      : new SeatCaps({
          caps: capOptions,
          holds: () => state.seatHolds,
          now,
          serviceNow: () => clock.read(),
          pendingMs: timeoutMs + LATE_ORDER_MS,
          fallbackHoldMs: paymentTimeoutMs,
        });
  const lookups = new Lookups({ state, now, timeoutMs });
  const rooms = options.rooms
    ? new Rooms(options.rooms, {
        store: options.store?.rooms ?? new MemoryRoomStore(),
        now,
        prefix,
        metrics: metrics?.room,
        // The service's own answers, through the proxy's cache: a performance's event, an event's performances, a seat map.
        async lookup(pathAndQuery) {
          const forward = async () =>
            replyFrom(await callUpstream(client, { method: 'GET', pathAndQuery, headers: { accept: 'application/json', 'api-key': apiKey }, retryable: true }, { timeoutMs }), redact);
          const ttlMs = caching ? ttlSeconds.availability * 1000 : 0;
          return ttlMs > 0 ? (await lookups.get(`GET ${pathAndQuery}`, ttlMs, forward)).reply : forward();
        },
      })
    : null;
  const submissions = new Submissions({ state, now, keepMs: paymentTimeoutMs, timeoutMs, lateAnswerMs: Math.max(LATE_ORDER_MS, timeoutMs * 2) });
  const readiness = readinessCheck({ client, apiKey, state, now, timeoutMs: Math.min(timeoutMs, 2000), orders: () => returnWatch.state, rooms: rooms ? () => rooms.readiness() : undefined });

  /** The answer as sent: a cacheable 200 with its Cache-Control and ETag, or 304 when the request names that tag (http-cache.ts). */
  function answer(request: Request, env: unknown, op: OperationRow, reply: Reply, gated = false): Response {
    // A gated answer is for a pass holder only: no HTTP cache may hand it to anyone else.
    const ttl = op.method === 'GET' && !gated ? ttlSeconds[op.kind] : 0;
    // A large body goes gzip'd to a client that takes it (reply.ts), and says it varies by that.
    const large = compressible(reply);
    const gzip = large && acceptsGzip(clientAcceptEncoding(request, env));
    const vary: Record<string, string> | undefined = large ? { Vary: 'Accept-Encoding' } : undefined;
    if (reply.status !== 200 || reply.error || ttl <= 0 || reply.body === null) return respond(reply, 'no-store', vary, undefined, gzip);
    const tag = entityTag(reply.body);
    const control = cacheableControl(op.kind, ttl);
    if (matchesIfNoneMatch(headerOf(request, env, 'if-none-match') ?? null, tag)) {
      return respond({ ...reply, body: null }, control, { ...vary, ETag: tag }, 304);
    }
    return respond(reply, control, { ...vary, ETag: tag }, undefined, gzip);
  }

  /**
   * An answer of the proxy's own, with the service's clock stamp (clock.ts) among its plain
   * headers: @hono/node-server then writes it as built, where setting a header afterwards (the
   * stamp middleware) makes a WHATWG Headers object for every request.
   */
  const respond = (reply: Reply, control: string, extra?: Record<string, string>, status?: number, gzip = false) =>
    clock.stamped(toResponse(reply, control, httpDate, { ...extra, 'Server-Timing': clock.timingHeader() }, status, gzip));
  const plain = (reply: Reply, headers?: Record<string, string>) => respond(reply, 'no-store', headers);

  async function route(request: Request, env: unknown, entry: AccessLogEntry, given?: URL): Promise<Response> {
    const url = given ?? new URL(request.url);
    const relative = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : null;
    const shown = (relative ?? url.pathname).slice(0, 200);
    if (rooms) {
      // The waiting room's endpoints (room/http.ts): the operator's outside the prefix, the visitor's under it.
      const own = isAdminPath(url.pathname) ? await adminRequest(rooms, request, env, url.pathname, now()) : relative && isJoinPath(relative) ? await joinRequest(rooms, request, env, relative) : null;
      if (own) {
        entry.operation = isAdminPath(url.pathname) ? 'roomAdmin' : 'roomJoin';
        return plain(own.reply, own.headers);
      }
    }
    if (relative === null) return plain(message(404, `There is no booking operation at '${shown}'.`));

    const match = matchRoute(request.method, relative);
    if (match.kind === 'not-found') return plain(message(404, `There is no booking operation at '${shown}'.`));
    if (match.kind === 'method-not-allowed') {
      return plain(message(405, `The operation at '${shown}' does not accept ${request.method}.`), { Allow: match.allow.join(', ') });
    }
    const op = match.op;
    entry.operation = op.name;
    if (op.restricted && !allowOnAccount) {
      return plain(message(403, `${op.name} is not enabled on this proxy: it books without payment.`));
    }
    const params = validateParams(op, match.rawPath, url.searchParams);
    if (!params.ok) return plain(message(400, params.message));
    // Would this page's orders be taken? For /readyz and the operator (return-addresses.ts).
    const page = op.method === 'GET' ? null : pageOrigin(headerOf(request, env, 'origin'), null);
    if (page) returnWatch.see(page, siteOrigin(request, env, url));

    let body: string | undefined;
    let parsed: unknown;
    if (op.body) {
      // Only application/json: a cross-site page can send text/plain or a form without a CORS
      // preflight (a "simple" request); requiring JSON forces the preflight, which CORS refuses.
      const type = (headerOf(request, env, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') return plain(message(415, 'The request body must be sent as application/json.'));
      const read = await readBody(request, bodyLimit);
      if (!read.ok) return plain(read.reply);
      // Scanned without recursion before parsing: a caller chooses how deep a body nests (../json-body.ts).
      const json = parseJsonText(read.text);
      if (!json.ok) return plain(message(400, json.message));
      // What the service's binder (Json.NET) would accept, rebuilt from its typed fields only
      // (src/api/binding.ts): the client's own bytes and unknown properties are never forwarded.
      const bound = bindBody(op.name, json.value, params.path);
      if (!bound.ok) return plain(message(400, bound.message));
      parsed = bound.value;
      // Return addresses only to the site and the origins allowed: never an open redirect (return-addresses.ts).
      const site = siteOrigin(request, env, url);
      const returnRefused = checkReturnAddresses(bound.value, site, returnPolicy);
      if (returnRefused) {
        // From a page of the site: its setup is at fault. The customer is told so, the operator what to change.
        const operator = siteRefusal(returnRefused, pageOrigin(headerOf(request, env, 'origin'), headerOf(request, env, 'referer')), site, returnPolicy);
        if (!operator) return plain(message(400, returnRefused.message));
        warn(operator);
        return plain(siteRefusalReply());
      }
      body = JSON.stringify(parsed);
    }

    // The waiting room's gate: a pass for the room this touches, or 428 (room/index.ts).
    const gate = rooms ? await rooms.gate(op.name as OperationName, params.path, parsed, queueIdOf(headerOf(request, env, QUEUE_ID_HEADER)), headerOf(request, env, PASS_HEADER)) : null;
    if (gate && 'refusal' in gate) {
      entry.roomPass = gate.reason;
      return plain(gate.refusal);
    }

    const ruleName = RATE_LIMITED[op.name as OperationName];
    const limit = ruleName ? rules[ruleName] : false;
    if (ruleName && limit) {
      const at = now();
      // Shared counters when the store answers, this process's otherwise: never no limit, never a failed request.
      // An IPv6 client is counted on its /64 (client-address.ts).
      const decision = await state.rateLimit(`${ruleName}:${rateLimitSubject(clientAddress(request, env))}`, limit, at);
      if (!decision.allowed) {
        entry.limited = true;
        const retryAfter = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
        return plain(message(429, 'Too many requests from this address; try again shortly.'), { 'Retry-After': retryAfter });
      }
    }

    // Seats no one can hoard: reserved under the visitor's and the address's caps before the add is forwarded (seat-caps.ts).
    const basketId = String(params.path.basketId ?? '').toLowerCase();
    const adding = seatCaps ? addedSeats(op.name as OperationName, params.path, parsed) : null;
    let settleSeats: ((reply: Reply) => Promise<void>) | undefined;
    if (seatCaps && adding && adding.seats > 0) {
      const queueId = queueIdOf(headerOf(request, env, QUEUE_ID_HEADER));
      if (queueId === false) return plain(message(400, `The ${QUEUE_ID_HEADER} header must be 1 to 128 letters, digits, '-', '_', '.' or ':'.`));
      const subjects = seatCaps.subjects(queueId ? `q:${queueId}` : `b:${basketId}`, rateLimitSubject(clientAddress(request, env)));
      const reserved = await seatCaps.reserve(basketId, adding.scope, adding.seats, subjects);
      if ('refusal' in reserved) {
        entry.capped = true;
        return plain(reserved.refusal);
      }
      settleSeats = reserved.settle;
    }

    const pathAndQuery = fillPath(op.path, params.path) + buildQuery(op, params.query);
    const headers: Record<string, string> = { accept: 'application/json', 'api-key': apiKey };
    const ttlMs = op.method === 'GET' ? ttlSeconds[op.kind] * 1000 : 0;
    // The visitor's language only where the answer is never shared: a cached answer must not
    // depend on a header that is not part of its key.
    const language = headerOf(request, env, 'accept-language');
    if (language && ttlMs <= 0) headers['accept-language'] = language;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const upstreamRequest: UpstreamRequest = { method: op.method, pathAndQuery, headers, body, retryable: op.idempotent && op.kind !== 'basket' };

    let reply: Reply;
    if (SUBMISSIONS.has(op.name)) {
      // One basket, however its id is spelled; only the very same order is answered for another (submissions.ts).
      const key = `${op.name}:${String(params.path.basketId).toLowerCase()}`;
      const outcome = await submissions.submit(key, parsed, async (onSettledLate) =>
        replyFrom(
          await callUpstream(client, upstreamRequest, {
            timeoutMs,
            lateAnswerMs: Math.max(LATE_ORDER_MS, timeoutMs * 2),
            onSettledLate: (late) => onSettledLate(replyFrom(late, redact)),
          }),
          redact,
        ),
      );
      reply = outcome.reply;
      if (outcome.replayed) entry.replayed = true;
    } else if (!caching || ttlMs <= 0) {
      try {
        reply = replyFrom(await callUpstream(client, upstreamRequest, { timeoutMs }), redact);
      } catch (error) {
        await settleSeats?.(message(500, ''));
        throw error;
      }
      await settleSeats?.(reply);
      if (seatCaps && (op.name === 'deleteBasketItem' || op.name === 'deleteAllFromBasket')) await seatCaps.removed(op.name, basketId, params.path, reply);
    } else {
      const forward = async () => replyFrom(await callUpstream(client, upstreamRequest, { timeoutMs }), redact);
      const outcome = await lookups.get(`${op.method} ${pathAndQuery}`, ttlMs, forward);
      reply = outcome.reply;
      entry.cache = outcome.source;
    }
    if (reply.upstreamStatus !== undefined) entry.upstreamStatus = reply.upstreamStatus;
    if (reply.error) entry.error = reply.error;
    if (reply.retried) entry.retried = true;
    return answer(request, env, op, reply, gate?.gated);
  }

  async function handle(request: Request, env: unknown, url?: URL): Promise<Response> {
    const started = performance.now();
    const entry: AccessLogEntry = { time: '', method: request.method, operation: null, status: 0, durationMs: 0, cache: 'none' };
    let response: Response;
    try {
      response = await route(request, env, entry, url);
    } catch (error) {
      console.error('stagedoor proxy: internal error:', redact(error instanceof Error ? error.message : String(error)));
      entry.error = 'internal';
      response = plain(message(500, 'The proxy could not handle this request.'));
    }
    if (log || metrics) {
      entry.status = response.status;
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      record(entry);
    }
    return response;
  }

  /** The last record's instant and its ISO text: requests finishing within one millisecond share it. */
  let loggedAt = Number.NaN;
  let loggedTime = '';

  function record(entry: AccessLogEntry): void {
    const at = now();
    if (at !== loggedAt) {
      loggedTime = new Date(at).toISOString();
      loggedAt = at;
    }
    entry.time = loggedTime;
    try {
      metrics?.request(entry);
      log?.(entry);
    } catch {
      // A failing logger must not fail the request.
    }
  }

  const app = new Hono();
  const source = { readiness, metrics };
  if (operational) {
    const which = { metrics: operational === true };
    for (const path of which.metrics ? ['/healthz', '/readyz', '/metrics'] : ['/healthz', '/readyz']) {
      app.get(path, async (c) => (await operationsAnswer(c.req.raw, source, which)) ?? c.notFound());
    }
  }
  app.use('*', clock.stamp);
  app.use('*', corsFor(origins, siteOrigin));
  app.all('*', (c) => handle(c.req.raw, c.env));
  // The common request goes straight to `handle`, past Hono's router and middleware chain (a
  // Context and a chain of promises per request, about a tenth of the proxy's CPU time on an
  // uncached read): one under the prefix (not mounted at the root, where the operational
  // endpoints are), by GET, POST or DELETE, without an Origin header (a same-origin read, a
  // server's call), while no CORS origin is configured. For exactly those the chain does nothing
  // but call `handle`: CORS has nothing to refuse or add, and every answer of `handle` carries
  // the clock stamp already. Everything else (HEAD, which Hono answers as GET; OPTIONS; an
  // Origin; the operational endpoints; other paths) goes through Hono as before, and so does
  // every request once a route is added to the app (test/server/proxy-direct.test.ts compares
  // the two byte for byte).
  const registered = app.routes.length;
  const viaHono = app.fetch;
  const under = `${prefix}/`;
  app.fetch = (request, env, executionCtx) => {
    if (prefix && !origins.size && app.routes.length === registered && DIRECT_METHODS.has(request.method) && headerOf(request, env, 'origin') === null) {
      let url: URL | undefined;
      try {
        url = new URL(request.url);
      } catch {
        // Hono's path answers it.
      }
      if (url?.pathname.startsWith(under)) return handle(request, env, url);
    }
    return viaHono(request, env, executionCtx);
  };
  Object.defineProperty(app, 'storeHealth', { get: () => state.health, enumerable: true });
  return Object.assign(app as Hono & { readonly storeHealth: StoreHealth }, {
    readiness,
    async operations(request: Request) {
      return (await operationsAnswer(request, source)) ?? jsonResponse(404, { Message: 'Only /healthz, /readyz and /metrics are served here.' });
    },
    async close() {
      await Promise.all([client.close?.(), state.close()]);
    },
    refused(status: number, reason: string) {
      record({ time: '', method: '-', operation: null, status, durationMs: 0, cache: 'none', refused: reason });
    },
  });
}
