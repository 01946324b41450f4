/**
 * The upstream client on Node: undici's keep-alive connection `Pool` to the
 * service's origin, and its `request()` API (no WHATWG Request/Response or web
 * streams per call, which is most of what the platform fetch costs). Node
 * only: `stagedoor/proxy` picks it under Node through package.json's `node`
 * export condition; edge runtimes keep the platform fetch (upstream.ts).
 */
import { Pool } from 'undici';
import { normaliseBaseUrl, type Attempt, type UpstreamClient } from './upstream.ts';

export interface PoolClientOptions {
  /** Most sockets open to the service at once (default 128); requests beyond wait for a free one. */
  connections?: number;
  /** How long an idle socket stays open for the next request, in ms (default 30 000; the server's Keep-Alive hint wins when shorter). */
  keepAliveMs?: number;
}

function header(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

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
    async send(req, timeoutMs): Promise<Attempt> {
      try {
        // undici's own timers (no AbortSignal: see UpstreamClient): the headers within the time
        // limit, and no pause longer than it between the body's chunks (a JSON answer comes in
        // one or two, so at worst a little over the limit).
        const response = await pool.request({
          path: basePath + req.pathAndQuery,
          method: req.method as 'GET' | 'POST' | 'DELETE',
          headers: req.headers,
          body: req.body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          // SubmitOrder and the other changes must never be sent twice by the pool itself.
          idempotent: req.method === 'GET',
        });
        const body = await response.body.text();
        return {
          kind: 'answer',
          status: response.statusCode,
          contentType: header(response.headers['content-type']),
          date: header(response.headers.date),
          retryAfter: header(response.headers['retry-after']),
          body,
        };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? { kind: 'timeout' } : { kind: 'unreachable' };
      }
    },
    async close() {
      await pool.close();
    },
  };
}
