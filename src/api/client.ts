/**
 * The typed api client: one method per operation of the table in
 * operations.ts, talking JSON to the proxy endpoint (never to the service
 * directly: the browser never holds the service's key).
 *
 *   const api = createApiClient({ endpoint: '/api' });
 *   const { Events } = await api.getEvents({ type: 1 }, { signal });
 *   await api.addTickets({ basketId, body: { Tickets: [1, 2] } });
 *
 * Errors are typed: `ApiError` (an HTTP status, the service's `Message`, and
 * for a 409 on add-tickets the parsed add-result), `NetworkError` (no answer),
 * `InvalidRequestError` (bad arguments, nothing sent). An abort rethrows the
 * platform's AbortError. A 204 from the two operations that may send one is
 * the `NOT_AVAILABLE_YET` value, not an exception.
 *
 * Browser-safe: no DOM, no Node.
 */
import { claimEarly } from './early.ts';
import { endpointKey } from './endpoint.ts';
import { buildQuery, fillPath, parseParam } from './match.ts';
import {
  operations,
  type ArgsOf,
  type NotAvailableYet,
  type OperationName,
  type OperationRow,
  type Operations,
  type ResponseOf,
} from './operations.ts';
import { roomHeaders, type RoomAnswer, type RoomJoinBody } from './room.ts';
import { ServerClock } from './time.ts';
import type { AddTicketsResult, AreasPricesResult, AreasPricesWire } from './types.ts';

export const NOT_AVAILABLE_YET: NotAvailableYet = Object.freeze({ notAvailableYet: true as const });

export function isNotAvailableYet(value: unknown): value is NotAvailableYet {
  return typeof value === 'object' && value !== null && (value as NotAvailableYet).notAvailableYet === true;
}

/** The service answered with an error status (or an unreadable body). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The service's `Message`, when its body carried one. */
  readonly serviceMessage: string | null;
  /** For 409 on add-tickets: the add-result (FailureReason, BookableTicketsCount, basket content). */
  readonly addResult: AddTicketsResult | null;

  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
    message: string,
    /** Seconds the answer's Retry-After asked to wait (429, 503), or null. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.serviceMessage = serviceMessageOf(body);
    this.addResult = isAddResult(body) ? body : null;
  }
}

/** Whether the service no longer knows the basket, or refuses to touch it (403, 404). */
export function isBasketGone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}

/** No answer at all: offline, DNS, connection refused, CORS refusal. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`The booking service could not be reached (${operation}).`, options);
  }
}

/** The caller passed an argument the interface does not allow; nothing was sent. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
  constructor(
    readonly operation: string,
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function serviceMessageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const m = (body as { Message?: unknown }).Message;
  return typeof m === 'string' && m.trim() ? m : null;
}

function isAddResult(body: unknown): body is AddTicketsResult {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Partial<AddTicketsResult>;
  return typeof b.Success === 'boolean' && ('FailureReason' in b || 'FailureReasonText' in b);
}

export interface CallInit {
  signal?: AbortSignal;
  /** Revalidate past the browser's HTTP cache (an answer that must be as of now, e.g. which seats are still free). */
  fresh?: boolean;
}

type CallArgs<O> = Record<never, never> extends ArgsOf<O> ? [args?: ArgsOf<O>, init?: CallInit] : [args: ArgsOf<O>, init?: CallInit];

export type ApiMethods = {
  [K in OperationName]: (...args: CallArgs<Operations[K]>) => Promise<ResponseOf<Operations[K]>>;
};

export interface ApiClient extends ApiMethods {
  /** The proxy endpoint this client talks to, without a trailing slash. */
  readonly endpoint: string;
  /** The server's clock, updated from every response (its Server-Timing clock stamp, else its Date header). */
  readonly clock: ServerClock;
  /**
   * Join the proxy's waiting room, or ask again where the visitor stands (one call):
   * `join` is the path a 428 named (`Room.join`), under this endpoint's origin.
   */
  joinRoom(join: string, body: RoomJoinBody, init?: CallInit): Promise<RoomAnswer>;
}

export interface ApiClientOptions {
  /** The proxy endpoint, e.g. `/api` or `https://tickets.example.com/api`. */
  endpoint: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  clock?: ServerClock;
  /** Extra request headers (never the service's key: the proxy adds that). */
  headers?: Record<string, string>;
}

/** Per-operation reshaping of what arrives into what the elements get. */
const normalizers: Partial<Record<OperationName, (body: unknown) => unknown>> = {
  getAreasPrices: (body): AreasPricesResult => {
    const wire = (body ?? {}) as AreasPricesWire;
    return { PerformanceId: wire.PerformanceId, AreasPrices: wire.AreasPrices ?? wire.PricesPerArea ?? [] };
  },
};

/**
 * Whether a successful answer has the shape the interface states: a JSON object
 * ("Response bodies are JSON objects unless stated"), except the heartbeat's bare
 * boolean. Anything else (null, a number, an array) would reach the elements as a
 * typed value it is not, and fail there.
 */
function hasResponseShape(op: OperationRow, value: unknown): boolean {
  if (op.name === 'getHeartBeat') return typeof value === 'boolean';
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'The request was not valid.',
    401: 'The booking service refused the request.',
    403: 'This basket can no longer be changed.',
    404: 'Not found.',
    409: 'The tickets are no longer available.',
    413: 'The request was too large.',
    429: 'Too many requests; try again shortly.',
    500: 'The booking service had an error.',
    502: 'The booking service could not reach a supplier.',
    503: 'The booking service is unavailable.',
    504: 'The booking service did not answer in time.',
  };
  return known[status] ?? `The booking service answered ${status}.`;
}

/** Retry-After as seconds from now: delta-seconds, or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
/** Whether a cache may have kept this answer (`max-age` or `s-maxage` above zero, not `no-store`). */
function mayBeCached(response: Response): boolean {
  const control = response.headers.get('Cache-Control') ?? '';
  return !/no-store/i.test(control) && /(?:^|,)\s*(?:s-)?max-age=(?!0\b)\d/i.test(control);
}

function retryAfterSeconds(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

async function readBody(response: Response, signal: AbortSignal | undefined): Promise<{ ok: true; value: unknown } | { ok: false; text: string }> {
  let text = '';
  try {
    text = await response.text();
  } catch (error) {
    if (isAbortError(error) || signal?.aborted) throw error;
    return { ok: false, text: '' };
  }
  if (!text.trim()) return { ok: false, text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, text };
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Validate and serialise the path and query arguments of a call. */
function prepare(op: OperationRow, args: Record<string, unknown>): string {
  const values: Record<string, unknown> = {};
  const check = (name: string, type: Parameters<typeof parseParam>[0], required: boolean) => {
    const v = args[name];
    if (v === undefined || v === null) {
      if (required) throw new InvalidRequestError(op.name, name, `${op.name}: '${name}' is required.`);
      return;
    }
    const raw =
      typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' ? String(v) : Array.isArray(v) && type === 'intlist' ? v.join(',') : '';
    const parsed = parseParam(type, raw);
    if (!parsed.ok) throw new InvalidRequestError(op.name, name, `${op.name}: '${name}' must be ${parsed.expected}.`);
    values[name] = raw;
  };
  for (const [name, type] of Object.entries(op.pathParams)) check(name, type, true);
  for (const [name, spec] of Object.entries(op.query)) check(name, spec.type, spec.required);
  return fillPath(op.path, values) + buildQuery(op, values);
}

/**
 * No cookies: they are not ours, and a proxy or CDN in front may refuse to cache an answer to a
 * request that carries them. One exception, the list of events, which a host may preload in its
 * <head> (docs/embedding.md) with `<link rel="preload" as="fetch" crossorigin>`: a preload is
 * taken only by a request of the same credentials mode, so that GET goes `same-origin` (cookies
 * to the page's own origin, never to another). The proxy forwards no cookie upstream.
 */
const credentialsOf = (operation: string): RequestCredentials => (operation === 'getEvents' ? 'same-origin' : 'omit');

export function createApiClient(options: ApiClientOptions): ApiClient {
  const endpoint = options.endpoint.replace(/\/+$/, '');
  const clock = options.clock ?? new ServerClock();
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const key = endpointKey(endpoint);

  async function call(op: OperationRow, args: Record<string, unknown> = {}, init: CallInit = {}, url = endpoint + prepare(op, args)): Promise<unknown> {
    // The waiting room's queue id and pass, on the operations a room gates, once the visitor has them (room.ts).
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers, ...roomHeaders(op.name, key) };
    let body: string | undefined;
    if (op.body) {
      if (args.body === undefined || args.body === null || typeof args.body !== 'object') {
        throw new InvalidRequestError(op.name, 'body', `${op.name}: a request body is required.`);
      }
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    let sentAt = clock.localNow();
    let response: Response;
    try {
      // The loader may have sent this very GET already (early.ts): take it over, or send it now.
      const early = op.method === 'GET' && !init.fresh && !options.fetch && !options.headers && !init.signal?.aborted ? claimEarly(url) : null;
      // It failed to connect: sent again, as new. The caller's abort still ends the wait.
      const taken = early ? await untilAborted(early.response.catch(() => null), init.signal) : null;
      if (early && taken) sentAt = early.sentAt;
      init.signal?.throwIfAborted();
      response = taken ?? (await doFetch(url, { method: op.method, headers, body, signal: init.signal, credentials: credentialsOf(op.name), ...(init.fresh ? { cache: 'no-cache' as const } : {}) }));
    } catch (error) {
      // The caller's abort, whatever its reason (AbortError, TimeoutError, its own value), is theirs: rethrow it.
      if (isAbortError(error) || init.signal?.aborted) throw error;
      throw new NetworkError(op.name, { cause: error });
    }
    // An answer a cache may keep (the catalogue's `max-age`) may come from the browser's cache or a
    // CDN, stamped when it was first sent: no reading of the server's clock (a second tab read its
    // clock seconds behind from one and counted a hold 601 s long). Basket answers are never kept.
    if (!mayBeCached(response)) clock.read(response.headers.get('Date'), sentAt, clock.localNow(), response.headers.get('Server-Timing'));

    if (response.status === 204 && op.noContent) return NOT_AVAILABLE_YET;
    const parsed = await readBody(response, init.signal);
    init.signal?.throwIfAborted(); // (a request taken over from the loader reads on whatever the signal says)
    const value = parsed.ok ? parsed.value : parsed.text || null;
    if (!response.ok || response.status === 204) {
      const message = serviceMessageOf(value) ?? statusText(response.status);
      throw new ApiError(op.name, response.status, value, message, retryAfterSeconds(response.headers.get('Retry-After'), clock.now()));
    }
    if (!parsed.ok || !hasResponseShape(op, value)) {
      throw new ApiError(op.name, response.status, value, 'The booking service sent an answer that could not be read.');
    }
    const normalize = normalizers[op.name as OperationName];
    return normalize ? normalize(value) : value;
  }

  const room = { name: 'joinRoom', method: 'POST', body: true } as OperationRow;
  const client: Record<string, unknown> = {
    endpoint,
    clock,
    joinRoom: (join: string, body: RoomJoinBody, init?: CallInit) => call(room, { body }, init, new URL(join, key).href),
  };
  for (const op of Object.values(operations) as OperationRow[]) {
    client[op.name] = (args?: Record<string, unknown>, init?: CallInit) => call(op, args, init);
  }
  return client as unknown as ApiClient;
}
