/**
 * The upstream client on Node: undici's keep-alive connection `Pool` to the
 * service's origin. Node only: `stagedoor/proxy` picks it under Node through
 * package.json's `node` export condition; edge runtimes keep the platform
 * fetch (upstream.ts).
 *
 * Measured per request (CPU time, same machine, same minute): the platform
 * fetch ~130 µs, undici's request() ~23 µs (+18 µs with an AbortSignal), its
 * dispatch() with a handler that gathers the body's chunks ~21 µs, and, behind
 * an HTTP server, dispatch() costs about 10 µs less than request() (no body
 * stream, no promise per chunk). So: dispatch(), with undici's own timers.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Pool, type Dispatcher } from 'undici';
import { contentCodings, normaliseBaseUrl, type Attempt, type UpstreamClient } from './upstream.ts';

export interface PoolClientOptions {
  /** Most sockets open to the service at once (default 128); requests beyond wait for a free one. */
  connections?: number;
  /** How long an idle socket stays open for the next request, in ms (default 30 000; the server's Keep-Alive hint wins when shorter). */
  keepAliveMs?: number;
}

/**
 * The value of a header in undici's raw list (`[name, value, name, value, ...]` as bytes), by its
 * lower-case name; the first one when it is repeated. Reading the three the proxy passes on from
 * the raw list costs less than having undici build an object of every header for each answer.
 */
function header(raw: (Buffer | string)[], name: string): string | null {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] as Buffer | string;
    if (key.length === name.length && latin1(key).toLowerCase() === name) return latin1(raw[i + 1] as Buffer | string);
  }
  return null;
}

const latin1 = (value: Buffer | string) => (typeof value === 'string' ? value : value.toString('latin1'));

/** The most a compressed answer may decode to (a seat map's availability is about 170 KB). */
const DECODED_LIMIT = 32 * 1024 * 1024;

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body as text, decoded when the upstream compressed it (the proxy never asks it to, but
 * the key must be found in what it says): an empty body, an answer that cannot be read (502),
 * for a coding not known here, bytes that do not decode or decode to more than the limit.
 */
function bodyText(bytes: Buffer, encoding: string | null): string {
  let decoded = bytes;
  for (const coding of contentCodings(encoding).reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) return '';
    try {
      decoded = decoder(decoded, { maxOutputLength: DECODED_LIMIT });
    } catch {
      return '';
    }
  }
  return decoded.toString('utf8');
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A pooled client for the service at `base` (`https://api.example.com`, optionally with a path). */
export function poolClient(base: string, options: PoolClientOptions = {}): UpstreamClient {
  const url = new URL(normaliseBaseUrl(base));
  const basePath = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: options.connections ?? 128,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveMs ?? 30_000,
    keepAliveMaxTimeout: 10 * 60_000,
  });
  return {
    send(req, timeoutMs): Promise<Attempt> {
      return new Promise((resolve) => {
        let status = 0;
        let headers: (Buffer | string)[] = [];
        const chunks: Buffer[] = [];
        try {
          pool.dispatch(
            {
              path: basePath + req.pathAndQuery,
              method: req.method as 'GET' | 'POST' | 'DELETE',
              headers: req.headers,
              body: req.body ?? null,
              // undici's own timers (no AbortSignal: see UpstreamClient): the headers within the time
              // limit, and no pause longer than it between the body's chunks (a JSON answer comes in
              // one or two, so at worst a little over the limit).
              headersTimeout: timeoutMs,
              bodyTimeout: timeoutMs,
              // SubmitOrder and the other changes must never be sent twice by the pool itself.
              idempotent: req.method === 'GET',
            },
            // undici's own hooks, as its client calls them: the newer ones (onRequestStart,
            // onResponseStart...) go through an adapter that builds a controller and an object of
            // the headers (and of the trailers) for every answer.
            {
              onConnect() {},
              onHeaders(statusCode: number, rawHeaders: (Buffer | string)[]) {
                status = statusCode;
                headers = rawHeaders;
                return true;
              },
              onData(chunk: Buffer) {
                chunks.push(chunk);
                return true;
              },
              onComplete() {
                resolve({
                  kind: 'answer',
                  status,
                  contentType: header(headers, 'content-type'),
                  date: header(headers, 'date'),
                  retryAfter: header(headers, 'retry-after'),
                  body: bodyText(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), header(headers, 'content-encoding')),
                });
              },
              onError(error: Error) {
                resolve(TIMEOUT_CODES.has((error as { code?: string }).code ?? '') ? { kind: 'timeout' } : { kind: 'unreachable' });
              },
            } as unknown as Dispatcher.DispatchHandler,
          );
        } catch {
          resolve({ kind: 'unreachable' });
        }
      });
    },
    async close() {
      await pool.close();
    },
  };
}
