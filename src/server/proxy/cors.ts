/**
 * CORS for the configured origins only. A request from any other origin gets
 * no CORS headers (the browser then withholds the answer), and its preflight
 * is refused with 403. A state change (anything but GET and HEAD) whose Origin
 * is neither allowed nor the proxy's own, or is `null`, is refused with 403
 * before it is forwarded: a cross-site page's "simple" request needs no
 * preflight. `Date` and `Server-Timing` are exposed for the widget's clock correction.
 * Edge-safe.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { headerOf } from './incoming.ts';

export function normaliseOrigin(origin: string, what = 'allowed origin'): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`The ${what} '${origin}' is not a URL (expected for example https://theatre.example).`);
  }
  if (url.origin === 'null') throw new Error(`The ${what} '${origin}' has no origin.`);
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
  const refused = (c: Parameters<MiddlewareHandler>[0]) =>
    c.json({ Message: 'Cross-origin requests from this origin are not allowed by this proxy.' }, 403, { 'Cache-Control': 'no-store' });
  return async (c, next) => {
    const origin = headerOf(c.req.raw, c.env, 'origin');
    if (origin && origins.has(origin)) return allowed(c, next);
    if (origin && c.req.method === 'OPTIONS') return refused(c);
    // A cross-site page can send a "simple" POST or DELETE (text/plain, a form, no body) without a
    // preflight, and browsers send Origin on every such request: refuse a state change from an
    // origin that is neither allowed nor the proxy's own, or from an opaque one (`null`: a sandboxed
    // frame, a data: page), whether or not the browser also says Sec-Fetch-Site.
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && !ownOrigin(c.req.raw, origin, headerOf(c.req.raw, c.env, 'sec-fetch-site'))) {
      return refused(c);
    }
    await next();
    // Answers differ by Origin once any origin is allowed: tell shared caches.
    if (origins.size) c.res.headers.append('Vary', 'Origin');
  };
}

/**
 * Whether `origin` is the page the proxy itself is served to: its host (and port) is the one the
 * request was addressed to (the Host header; the scheme is left out, as a TLS terminator in front
 * makes it http here), or the browser says the request is same-origin.
 */
function ownOrigin(request: Request, origin: string, site: string | null): boolean {
  if (origin === 'null') return false;
  if (site === 'same-origin') return true;
  if (site && site !== 'none') return false;
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}
