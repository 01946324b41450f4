/**
 * One call to the upstream service: a time limit, one retry for idempotent
 * reads on a connection error, and every failure classified so the proxy can
 * answer 502 or 504.
 *
 * How a request reaches the service is an `UpstreamClient`. This file has the
 * two that run on any Fetch-API runtime: the platform `fetch` (serverless and
 * edge), and an in-process handler (the sandbox in the same process). On Node,
 * `stagedoor/proxy` uses a keep-alive connection pool instead (pool-client.ts,
 * undici), which this file never imports.
 */

/** The upstream: a base URL, or an in-process Fetch-API handler (such as the sandbox's). */
export type Upstream = string | ((request: Request) => Promise<Response>);

export interface UpstreamRequest {
  method: string;
  /** Path and query relative to the service base, already rebuilt from validated parameters. */
  pathAndQuery: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** JSON text, for operations that carry a body. */
  body?: string;
  /** Whether a connection error may be retried once (idempotent, non-basket reads). */
  retryable: boolean;
}

/** A complete upstream answer: status, the headers the proxy passes on, and the whole body. */
export interface UpstreamAnswer {
  kind: 'answer';
  status: number;
  contentType: string | null;
  date: string | null;
  retryAfter: string | null;
  body: string;
  retried: boolean;
}

/** No complete answer: `timeout` (504); `unreachable`, refused or cut off mid-answer (502). */
export interface UpstreamFailure {
  kind: 'timeout' | 'unreachable';
  retried: boolean;
}

export type UpstreamResult = UpstreamAnswer | UpstreamFailure;

/** One attempt's outcome. */
export type Attempt = Omit<UpstreamAnswer, 'retried'> | { kind: 'timeout' } | { kind: 'unreachable' };

/**
 * How the proxy reaches the service. `send` makes one attempt, within
 * `timeoutMs`, and never throws: a failure is an `Attempt` of kind `timeout`
 * or `unreachable`. (A time limit rather than an AbortSignal: creating a
 * signal and its listeners per request costs more than the rest of a pooled
 * request; each client enforces the limit its cheapest way.)
 */
export interface UpstreamClient {
  send(request: UpstreamRequest, timeoutMs: number): Promise<Attempt>;
  /** Close idle connections (a pool); the proxy's `close()` calls it. */
  close?(): Promise<void>;
}

/** The host in-process upstream requests are addressed to (never on the network). */
const IN_PROCESS_ORIGIN = 'http://upstream.invalid';

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * The content codings of an answer, in the order they were applied (`identity` left out): an
 * upstream may compress its answer though the proxy never asks it to, and the key must be
 * found in what it says, not in its compressed bytes.
 */
export function contentCodings(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The codings a platform's fetch decodes by itself (Node's undici, Workers, Deno, Bun). */
const FETCH_DECODES: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** A body decoded (gzip, deflate) through the platform's DecompressionStream; null for another coding or bytes that do not decode. */
async function decodedText(response: Response, codings: string[]): Promise<string | null> {
  if (!response.body || codings.some((coding) => coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate')) return null;
  let stream: ReadableStream<BufferSource> = response.body;
  for (const coding of codings.reverse()) stream = stream.pipeThrough(new DecompressionStream(coding === 'deflate' ? 'deflate' : 'gzip'));
  try {
    return await new Response(stream).text();
  } catch {
    return null;
  }
}

/**
 * The body as text. `raw`: as the upstream encoded it (an in-process handler's answer), decoded
 * here; otherwise the platform's fetch has decoded the codings it knows. A coding left undecoded
 * is an empty body: an answer that cannot be read (502), never the encoded bytes.
 */
function bodyText(response: Response, raw: boolean): Promise<string> {
  const codings = contentCodings(response.headers.get('content-encoding'));
  if (!codings.length) return response.text();
  if (raw) return decodedText(response, codings).then((decoded) => decoded ?? '');
  if (codings.every((coding) => FETCH_DECODES.has(coding))) return response.text();
  return (response.body?.cancel() ?? Promise.resolve()).then(() => '');
}

/** One attempt through the Fetch API, aborted after `timeoutMs`; `raw`: see bodyText. */
async function fetchAttempt(call: (signal: AbortSignal) => Promise<Response>, timeoutMs: number, raw = false): Promise<Attempt> {
  const controller = new AbortController();
  const { signal } = controller;
  // A plain timer rather than AbortSignal.timeout(): cheaper, and cleared once answered.
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let response: Response;
    try {
      response = await call(signal);
    } catch {
      return signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable' };
    }
    let body: string;
    try {
      body = await Promise.race([bodyText(response, raw), abortPromise(signal)]);
    } catch {
      // The connection broke (or the time ran out) in the middle of the answer.
      return signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable' };
    }
    return {
      kind: 'answer',
      status: response.status,
      contentType: response.headers.get('content-type'),
      date: response.headers.get('date'),
      retryAfter: response.headers.get('retry-after'),
      body,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The platform's fetch: any Fetch-API runtime (Workers, Deno, Bun, Vercel edge, Node). */
export function fetchClient(base: string): UpstreamClient {
  const origin = normaliseBaseUrl(base);
  return {
    send: (req, timeoutMs) =>
      fetchAttempt((signal) => fetch(origin + req.pathAndQuery, { method: req.method, headers: req.headers, body: req.body, signal, redirect: 'manual' }), timeoutMs),
  };
}

/** An in-process Fetch-API handler, such as the sandbox's. */
export function handlerClient(handler: (request: Request) => Promise<Response>): UpstreamClient {
  return {
    send: (req, timeoutMs) =>
      fetchAttempt((signal) => {
        const request = new Request(IN_PROCESS_ORIGIN + req.pathAndQuery, { method: req.method, headers: req.headers, body: req.body, signal, redirect: 'manual' });
        // An in-process handler may ignore the signal: race it, so a hang still times out.
        return Promise.race([handler(request), abortPromise(signal)]);
      }, timeoutMs, true),
  };
}

export interface CallOptions {
  /** Time allowed for the complete answer, retry included, in ms; then `timeout`. */
  timeoutMs: number;
  /**
   * For a request whose answer must not be lost (SubmitOrder): after `timeoutMs`
   * the caller gets `timeout`, but the request is not abandoned: it may run on
   * until `lateAnswerMs`, and `onSettledLate` then gets its final outcome (an
   * answer, or a failure). Called only when the caller got `timeout` first.
   */
  lateAnswerMs?: number;
  onSettledLate?: (result: UpstreamResult) => void;
}

/** An attempt as the result of the call (the answer object itself, marked: no copy per request). */
function settled(attempt: Attempt, retried: boolean): UpstreamResult {
  if (attempt.kind !== 'answer') return { kind: attempt.kind, retried };
  const answer = attempt as UpstreamAnswer;
  answer.retried = retried;
  return answer;
}

/**
 * Call the upstream within `timeoutMs` (one deadline for the first attempt and
 * the retry together). A read is retried once when the connection failed; a
 * time-out is never retried, nor is anything that may change state.
 */
export function callUpstream(client: UpstreamClient, req: UpstreamRequest, options: CallOptions): Promise<UpstreamResult> {
  const late = options.onSettledLate && options.lateAnswerMs && options.lateAnswerMs > options.timeoutMs ? options.onSettledLate : null;
  const limit = late ? (options.lateAnswerMs ?? options.timeoutMs) : options.timeoutMs;
  // The common call (no late answer to wait for) is this promise itself: no async wrapper around it.
  if (!late) return attempts(client, req, limit);
  return callWithLateAnswer(attempts(client, req, limit), options.timeoutMs, late);
}

/** The first attempt and, for a retryable request whose connection failed, one retry within the deadline. */
async function attempts(client: UpstreamClient, req: UpstreamRequest, limit: number): Promise<UpstreamResult> {
  const deadline = performance.now() + limit;
  const first = await client.send(req, limit);
  if (first.kind !== 'unreachable' || !req.retryable) return settled(first, false);
  const left = Math.floor(deadline - performance.now());
  if (left <= 0) return { kind: 'timeout', retried: false };
  return settled(await client.send(req, left), true);
}

/** The caller's deadline (`timeoutMs`), while the request itself may run on and report to `late`. */
async function callWithLateAnswer(running: Promise<UpstreamResult>, timeoutMs: number, late: (result: UpstreamResult) => void): Promise<UpstreamResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const result = await Promise.race([
    running,
    new Promise<UpstreamResult>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve({ kind: 'timeout', retried: false });
      }, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) void running.then(late);
  return result;
}

/** Normalise a base URL: no trailing slash, http(s) only. Throws a clear error otherwise. */
export function normaliseBaseUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`The upstream '${base}' is not a URL (expected for example https://api.example.com).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The upstream '${base}' must be an http or https URL.`);
  }
  if (url.search || url.hash) throw new Error(`The upstream '${base}' must not carry a query or fragment.`);
  return url.href.replace(/\/+$/, '');
}
