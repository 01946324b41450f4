/**
 * One call to the upstream service: a time limit, one retry for idempotent
 * reads on a connection error, and every failure classified so the proxy can
 * answer 502 or 504. Runs on any Fetch-API runtime.
 */

/** The upstream: a base URL, or an in-process Fetch-API handler (such as the sandbox's). */
export type Upstream = string | ((request: Request) => Promise<Response>);

export interface UpstreamRequest {
  method: string;
  /** Path and query relative to the service base, already rebuilt from validated parameters. */
  pathAndQuery: string;
  headers: Headers;
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

/** The host in-process upstream requests are addressed to (never on the network). */
const IN_PROCESS_ORIGIN = 'http://upstream.invalid';

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

type Attempt = UpstreamAnswer | { kind: 'timeout' } | { kind: 'unreachable' };

async function attempt(upstream: Upstream, req: UpstreamRequest, signal: AbortSignal): Promise<Attempt> {
  const init: RequestInit = { method: req.method, headers: req.headers, body: req.body, signal, redirect: 'manual' };
  let response: Response;
  try {
    if (typeof upstream === 'string') {
      response = await fetch(upstream + req.pathAndQuery, init);
    } else {
      // An in-process handler may ignore the signal: race it, so a hang still times out.
      response = await Promise.race([upstream(new Request(IN_PROCESS_ORIGIN + req.pathAndQuery, init)), abortPromise(signal)]);
    }
  } catch {
    return signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable' };
  }
  let body: string;
  try {
    body = await Promise.race([response.text(), abortPromise(signal)]);
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
    retried: false,
  };
}

/**
 * Call the upstream within `timeoutMs` (one deadline for the first attempt and
 * the retry together). A read is retried once when the connection failed; a
 * time-out is never retried, nor is anything that may change state.
 */
export async function callUpstream(upstream: Upstream, req: UpstreamRequest, timeoutMs: number): Promise<UpstreamResult> {
  // A plain timer rather than AbortSignal.timeout(): cheaper per request, and cleared once answered.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const first = await attempt(upstream, req, controller.signal);
    if (first.kind !== 'unreachable' || !req.retryable) return first.kind === 'answer' ? first : { kind: first.kind, retried: false };
    const second = await attempt(upstream, req, controller.signal);
    return second.kind === 'answer' ? { ...second, retried: true } : { kind: second.kind, retried: true };
  } finally {
    clearTimeout(timer);
  }
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
