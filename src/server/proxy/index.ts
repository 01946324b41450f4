/**
 * The Stagedoor proxy: a Fetch-API handler (a Hono app) that holds the ticket
 * service's Api-Key, so the widget in the browser never does.
 *
 *   const proxy = createProxy({ upstream: 'https://api.example.com', apiKey: process.env.STAGEDOOR_API_KEY });
 *   serve({ fetch: proxy.fetch, port: 8788 });                     // Node (@hono/node-server)
 *   app.all('/api/*', (c) => proxy.fetch(c.req.raw, c.env));        // inside another Hono app
 *   export default { fetch: proxy.fetch };                          // serverless / edge
 *
 * Everything is derived from the operations table (src/api/operations.ts)
 * through src/api/match.ts: only table operations are forwarded, rebuilt from
 * validated parameters (unknown query parameters are dropped, never forwarded).
 * Refusals are JSON in the service's own error shape, `{ "Message": ... }`:
 * 404 no such operation, 405 wrong method, 400 bad parameter (named) or a body
 * that is not a JSON object, 413 body too large, 403 SubmitOrderOnAccount while
 * disabled, 429 rate limited (with Retry-After); 502 upstream unreachable or
 * its answer unreadable, 504 upstream too slow.
 *
 * Headers: upstream requests carry only Accept, Accept-Language (uncached operations only), Content-Type
 * (with a body) and the configured Api-Key, so the browser's Api-Key, Cookie and
 * Authorization never pass. Answers carry only Content-Type, Date, Retry-After,
 * Cache-Control (and Age on a cache hit): Set-Cookie and every other upstream
 * header are dropped. The key is redacted from any answer body that echoes it.
 *
 * Caching (GET only, per the table's `kind`): catalogue 5 min, system 1 h,
 * availability 5 s, basket and health never. Only 200 answers are stored: 204
 * ("not available yet") belongs to basket operations, and an error must not
 * outlive its cause. Concurrent misses for one key make one upstream call.
 * Cached answers say `Cache-Control: public, max-age=<ttl>` so a CDN can keep
 * them too; everything else says `no-store`. `Date` is the upstream's on a
 * fresh answer and the proxy's clock on a cache hit (with `Age`), because the
 * widget corrects the visitor's clock with it and a stored Date is stale.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { buildQuery, fillPath, matchRoute, validateParams } from '../../api/match.ts';
import type { OperationKind, OperationName, OperationRow } from '../../api/operations.ts';
import { MemoryCacheStore, MemoryRateLimitStore, type CacheStore, type CachedResponse, type RateLimitStore } from './stores.ts';
import { callUpstream, normaliseBaseUrl, type Upstream, type UpstreamResult } from './upstream.ts';

export { MemoryCacheStore, MemoryRateLimitStore, type CacheStore, type CachedResponse, type RateLimitStore } from './stores.ts';
export type { RateLimitHit, MemoryCacheStoreOptions } from './stores.ts';
export type { Upstream } from './upstream.ts';

/** At most `limit` requests per client address in each window of `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Where the counters live. Default: in this process (MemoryRateLimitStore). Share one (Redis) across proxies. If it fails, requests pass uncounted. */
  store?: RateLimitStore;
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
  /** `hit`: from the cache; `miss`: fetched and stored; `coalesced`: shared another request's upstream call; `none`: not cacheable. */
  cache: 'hit' | 'miss' | 'coalesced' | 'none';
  /** The upstream's status, when it answered. */
  upstreamStatus?: number;
  /** Why the proxy answered for the upstream: `timeout` (504), `unreachable`/`bad-answer` (502), `internal` (500). */
  error?: 'timeout' | 'unreachable' | 'bad-answer' | 'internal';
  /** Set when a read was retried after a connection error. */
  retried?: boolean;
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
  /** Forward SubmitOrderOnAccount (it books without payment). Default false: 403. */
  allowOnAccount?: boolean;
  /** Largest request body accepted, in bytes (default 32 KiB); larger is 413. */
  bodyLimit?: number;
  /** Time allowed for the upstream's complete answer, retry included, in ms (default 10 000); then 504. */
  timeoutMs?: number;
  /** The response cache. Default: in this process (MemoryCacheStore, LRU). `false`: no caching at the proxy (Cache-Control headers still sent). If it fails, requests go upstream. */
  cache?: CacheStore | false;
  /** Cache lifetime per operation kind, in seconds; 0 never caches. Defaults: catalogue 300, system 3600, availability 5, basket 0, health 0. */
  cacheTtlSeconds?: Partial<Record<OperationKind, number>>;
  /** Rate limits per client address on Create Basket and Add Tickets. `false` switches them off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * A header set by a trusted load balancer that carries the client address
   * (e.g. `X-Forwarded-For`; its rightmost entry, the one the balancer added, is
   * used). Only set it when every request passes through that balancer, or
   * clients can choose their own address. Default: the connection's address.
   */
  clientAddressHeader?: string;
  /** Full control over the client address (e.g. an edge platform's header). Overrides `clientAddressHeader`. */
  clientAddress?: (request: Request, env: unknown) => string | undefined;
  /** Receives one record per request. Default: one JSON line on stdout. `false`: no log. */
  log?: ((entry: AccessLogEntry) => void) | false;
  /** The clock for cache ages, rate-limit windows and Date (ms since the epoch). Default Date.now; tests inject one. */
  now?: () => number;
}

/** What createProxy returns: a Hono app, whose `fetch(request, env?)` is the Fetch-API handler. */
export type ProxyApp = Hono;

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

const JSON_TYPE = 'application/json; charset=utf-8';
const encoder = new TextEncoder();

/** What the proxy sends back, before it becomes a Response (one per waiting request). */
interface Reply {
  status: number;
  /** Text from the upstream or the proxy; bytes from the cache. */
  body: string | Uint8Array<ArrayBuffer> | null;
  contentType: string;
  /** The upstream's Date, or null to use the proxy's clock. */
  date: string | null;
  retryAfter?: string | null;
  /** Seconds since the answer was stored (cache hits). */
  age?: number;
  upstreamStatus?: number;
  error?: AccessLogEntry['error'];
  retried?: boolean;
}

function message(status: number, text: string, extra: Partial<Reply> = {}): Reply {
  return { status, body: JSON.stringify({ Message: text }), contentType: JSON_TYPE, date: null, ...extra };
}

function isJsonType(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (trimmed && !trimmed.startsWith('/')) throw new Error(`The prefix '${prefix}' must start with '/'.`);
  return trimmed;
}

function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`The allowed origin '${origin}' is not a URL (expected for example https://theatre.example).`);
  }
  if (url.origin === 'null') throw new Error(`The allowed origin '${origin}' has no origin.`);
  return url.origin;
}

/** The connection's address under @hono/node-server (its bindings are the env). */
function socketAddress(env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: unknown } } }).incoming;
  const address = incoming?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

/** The request body as text, at most `limit` bytes. */
async function readBody(request: Request, limit: number): Promise<{ ok: true; text: string } | { ok: false; reply: Reply }> {
  const tooLarge = (): { ok: false; reply: Reply } => ({
    ok: false,
    reply: message(413, `The request body is larger than the limit of ${limit} bytes.`),
  });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return tooLarge();
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reply: message(400, 'The request body must be JSON (UTF-8).') };
  }
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
  const upstream: Upstream = typeof options.upstream === 'string' ? normaliseBaseUrl(options.upstream) : options.upstream;
  const prefix = normalisePrefix(options.prefix ?? '/api');
  const origins = new Set((options.allowedOrigins ?? []).map(normaliseOrigin));
  const allowOnAccount = options.allowOnAccount ?? false;
  const bodyLimit = checked('bodyLimit', options.bodyLimit ?? 32 * 1024, 1);
  const timeoutMs = checked('timeoutMs', options.timeoutMs ?? 10_000, 1);
  const now = options.now ?? Date.now;
  const cache = options.cache === false ? null : (options.cache ?? new MemoryCacheStore({ now }));
  const ttlSeconds: Record<OperationKind, number> = { ...DEFAULT_CACHE_TTL_SECONDS, ...options.cacheTtlSeconds };
  for (const [kind, ttl] of Object.entries(ttlSeconds)) checked(`cacheTtlSeconds.${kind}`, ttl, 0);
  const rateLimit = options.rateLimit === false ? null : (options.rateLimit ?? {});
  const rateStore = rateLimit?.store ?? new MemoryRateLimitStore();
  const rule = (name: keyof typeof DEFAULT_RATE_LIMITS): RateLimitRule | false => {
    const value = rateLimit ? (rateLimit[name] ?? DEFAULT_RATE_LIMITS[name]) : false;
    if (value) {
      checked(`rateLimit.${name}.limit`, value.limit, 1);
      checked(`rateLimit.${name}.windowMs`, value.windowMs, 1);
    }
    return value;
  };
  const rules: Record<keyof typeof DEFAULT_RATE_LIMITS, RateLimitRule | false> = { createBasket: rule('createBasket'), addTickets: rule('addTickets') };
  const log = options.log === false ? null : (options.log ?? ((entry: AccessLogEntry) => console.log(JSON.stringify(entry))));
  const addressHeader = options.clientAddressHeader?.toLowerCase();
  // Redact the key from answers that echo it. A very short key would match ordinary text.
  const redact = apiKey.length >= 8 ? (text: string) => (text.includes(apiKey) ? text.split(apiKey).join('[redacted]') : text) : (text: string) => text;

  /** Misses in flight, by cache key: concurrent requests share one upstream call. */
  const inflight = new Map<string, Promise<{ reply: Reply; storedAt?: number }>>();

  function clientAddress(request: Request, env: unknown): string {
    if (options.clientAddress) return options.clientAddress(request, env) ?? 'unknown';
    if (addressHeader) {
      const entries = (request.headers.get(addressHeader) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const last = entries[entries.length - 1];
      if (last) return last;
    }
    return socketAddress(env) ?? 'unknown';
  }

  function cacheControl(op: OperationRow, reply: Reply): string {
    const ttl = op.method === 'GET' ? ttlSeconds[op.kind] : 0;
    return reply.status === 200 && !reply.error && ttl > 0 ? `public, max-age=${ttl}` : 'no-store';
  }

  function toResponse(reply: Reply, cacheControlValue: string): Response {
    const headers = new Headers({
      'Cache-Control': cacheControlValue,
      Date: reply.date ?? new Date(now()).toUTCString(),
      'X-Content-Type-Options': 'nosniff',
    });
    if (reply.body !== null) headers.set('Content-Type', reply.contentType);
    if (reply.retryAfter) headers.set('Retry-After', reply.retryAfter);
    if (reply.age !== undefined) headers.set('Age', String(reply.age));
    return new Response(reply.body, { status: reply.status, headers });
  }

  /** Turn what the upstream did into what the browser gets. */
  function replyFrom(result: UpstreamResult): Reply {
    if (result.kind !== 'answer') {
      return result.kind === 'timeout'
        ? message(504, 'The booking service did not answer in time.', { error: 'timeout', retried: result.retried })
        : message(502, 'The booking service could not be reached.', { error: 'unreachable', retried: result.retried });
    }
    const base = { date: result.date, upstreamStatus: result.status, retried: result.retried };
    const { status } = result;
    if (status < 200 || (status >= 300 && status < 400)) {
      return message(502, 'The booking service sent an answer that could not be read.', { ...base, error: 'bad-answer' });
    }
    if (status === 204 || status === 205) return { ...base, status, body: null, contentType: JSON_TYPE };
    const body = redact(result.body);
    const json = isJsonType(result.contentType) ? body.trim() !== '' : parsesAsJson(body);
    if (json) {
      // Always labelled JSON: an upstream's text/html label on a JSON body would let markup run on the proxy's origin.
      return { ...base, status, body, contentType: JSON_TYPE, retryAfter: result.retryAfter };
    }
    if (status < 300) {
      return message(502, 'The booking service sent an answer that could not be read.', { ...base, error: 'bad-answer' });
    }
    // An error page that is not JSON (a gateway's HTML): keep the status, give the service's shape.
    return message(status, `The booking service answered ${status}.`, { ...base, retryAfter: result.retryAfter });
  }

  async function route(request: Request, env: unknown, entry: AccessLogEntry): Promise<Response> {
    const plain = (reply: Reply, headers: Record<string, string> = {}) => {
      const response = toResponse(reply, 'no-store');
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    };
    const url = new URL(request.url);
    const relative = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : null;
    const shown = (relative ?? url.pathname).slice(0, 200);
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

    let body: string | undefined;
    if (op.body) {
      // Only application/json: a cross-site page can send text/plain or a form without a CORS
      // preflight (a "simple" request); requiring JSON forces the preflight, which CORS refuses.
      const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') return plain(message(415, 'The request body must be sent as application/json.'));
      const read = await readBody(request, bodyLimit);
      if (!read.ok) return plain(read.reply);
      let parsed: unknown;
      try {
        parsed = JSON.parse(read.text);
      } catch {
        return plain(message(400, 'The request body must be JSON.'));
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return plain(message(400, 'The request body must be a JSON object.'));
      }
      body = JSON.stringify(parsed);
    }

    const ruleName = RATE_LIMITED[op.name as OperationName];
    const rule = ruleName ? rules[ruleName] : false;
    if (ruleName && rule) {
      const at = now();
      // A shared store that fails must not stop sales: the request goes through uncounted.
      const hit = await rateStore.hit(`${ruleName}:${clientAddress(request, env)}`, rule.windowMs, at).catch(() => null);
      if (hit && hit.count > rule.limit) {
        const retryAfter = String(Math.max(1, Math.ceil((hit.resetAt - at) / 1000)));
        return plain(message(429, 'Too many requests from this address; try again shortly.'), { 'Retry-After': retryAfter });
      }
    }

    const pathAndQuery = fillPath(op.path, params.path) + buildQuery(op, params.query);
    const headers = new Headers({ Accept: 'application/json', 'Api-Key': apiKey });
    const ttlMs = op.method === 'GET' ? ttlSeconds[op.kind] * 1000 : 0;
    // The visitor's language only where the answer is never shared: a cached answer must not
    // depend on a header that is not part of its key.
    const language = request.headers.get('accept-language');
    if (language && ttlMs <= 0) headers.set('Accept-Language', language);
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    const forward = async () =>
      replyFrom(
        await callUpstream(upstream, { method: op.method, pathAndQuery, headers, body, retryable: op.idempotent && op.kind !== 'basket' }, timeoutMs),
      );

    let reply: Reply;
    if (!cache || ttlMs <= 0) {
      reply = await forward();
    } else {
      const key = `${op.method} ${pathAndQuery}`;
      let flight = inflight.get(key);
      const joined = flight !== undefined;
      if (!flight) {
        flight = (async () => {
          // A failing shared store must not fail the request: treat it as a miss.
          const stored = await cache.get(key).catch(() => undefined);
          if (stored) {
            const reply: Reply = { status: stored.status, body: stored.body, contentType: stored.contentType, date: null };
            return { reply, storedAt: stored.storedAt };
          }
          const fresh = await forward();
          if (fresh.status === 200 && !fresh.error && typeof fresh.body === 'string') {
            const value: CachedResponse = { status: 200, body: encoder.encode(fresh.body), contentType: fresh.contentType, storedAt: now() };
            await cache.set(key, value, ttlMs).catch(() => undefined);
          }
          return { reply: fresh };
        })().finally(() => inflight.delete(key));
        inflight.set(key, flight);
      }
      const outcome = await flight;
      const { storedAt } = outcome;
      reply = storedAt === undefined ? outcome.reply : { ...outcome.reply, age: Math.max(0, Math.floor((now() - storedAt) / 1000)) };
      entry.cache = storedAt !== undefined ? 'hit' : joined ? 'coalesced' : 'miss';
    }
    if (reply.upstreamStatus !== undefined) entry.upstreamStatus = reply.upstreamStatus;
    if (reply.error) entry.error = reply.error;
    if (reply.retried) entry.retried = true;
    return toResponse(reply, cacheControl(op, reply));
  }

  async function handle(request: Request, env: unknown): Promise<Response> {
    const started = performance.now();
    const entry: AccessLogEntry = { time: '', method: request.method, operation: null, status: 0, durationMs: 0, cache: 'none' };
    let response: Response;
    try {
      response = await route(request, env, entry);
    } catch (error) {
      console.error('stagedoor proxy: internal error:', redact(error instanceof Error ? error.message : String(error)));
      entry.error = 'internal';
      response = toResponse(message(500, 'The proxy could not handle this request.'), 'no-store');
    }
    if (log) {
      entry.status = response.status;
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      entry.time = new Date(now()).toISOString();
      try {
        log(entry);
      } catch {
        // A failing logger must not fail the request.
      }
    }
    return response;
  }

  const app = new Hono();
  app.use('*', corsFor(origins));
  app.all('*', (c) => handle(c.req.raw, c.env));
  return app;
}

/**
 * CORS for the configured origins only. A request from any other origin gets
 * no CORS headers (the browser then withholds the answer), and its preflight
 * is refused with 403. `Date` is exposed for the widget's clock correction.
 */
function corsFor(origins: ReadonlySet<string>): MiddlewareHandler {
  const allowed = cors({
    origin: (origin) => (origins.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['Content-Type', 'Accept', 'Accept-Language'],
    exposeHeaders: ['Date', 'Retry-After', 'Age'],
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin && origins.has(origin)) return allowed(c, next);
    if (origin && c.req.method === 'OPTIONS') {
      return c.json({ Message: 'Cross-origin requests from this origin are not allowed by this proxy.' }, 403, { 'Cache-Control': 'no-store' });
    }
    // A cross-site page can send a "simple" POST or DELETE without a preflight; the browser says
    // where it came from (Sec-Fetch-Site), so refuse state changes from an origin not allowed.
    const site = c.req.header('sec-fetch-site');
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && site && site !== 'same-origin' && site !== 'none') {
      return c.json({ Message: 'Cross-origin requests from this origin are not allowed by this proxy.' }, 403, { 'Cache-Control': 'no-store' });
    }
    await next();
    // Answers differ by Origin once any origin is allowed: tell shared caches.
    if (origins.size) c.res.headers.append('Vary', 'Origin');
  };
}
