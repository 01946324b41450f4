/**
 * CORS for the configured origins only. A request from any other origin gets
 * no CORS headers (the browser then withholds the answer), and its preflight
 * is refused with 403. `Date` and `Server-Timing` are exposed for the widget's clock correction.
 * Edge-safe.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { headerOf } from './incoming.ts';

export function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`The allowed origin '${origin}' is not a URL (expected for example https://theatre.example).`);
  }
  if (url.origin === 'null') throw new Error(`The allowed origin '${origin}' has no origin.`);
  return url.origin;
}

export function corsFor(origins: ReadonlySet<string>): MiddlewareHandler {
  const allowed = cors({
    origin: (origin) => (origins.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['Content-Type', 'Accept', 'Accept-Language'],
    exposeHeaders: ['Date', 'Server-Timing', 'Retry-After', 'Age'],
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = headerOf(c.req.raw, c.env, 'origin');
    if (origin && origins.has(origin)) return allowed(c, next);
    if (origin && c.req.method === 'OPTIONS') {
      return c.json({ Message: 'Cross-origin requests from this origin are not allowed by this proxy.' }, 403, { 'Cache-Control': 'no-store' });
    }
    // A cross-site page can send a "simple" POST or DELETE without a preflight; the browser says
    // where it came from (Sec-Fetch-Site), so refuse state changes from an origin not allowed.
    const site = headerOf(c.req.raw, c.env, 'sec-fetch-site');
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && site && site !== 'same-origin' && site !== 'none') {
      return c.json({ Message: 'Cross-origin requests from this origin are not allowed by this proxy.' }, 403, { 'Cache-Control': 'no-store' });
    }
    await next();
    // Answers differ by Origin once any origin is allowed: tell shared caches.
    if (origins.size) c.res.headers.append('Vary', 'Origin');
  };
}
