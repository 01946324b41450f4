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
import { onSiteOrigin, type SiteOrigin } from './site-origin.ts';

/** The site's own origin of a request (site-origin.ts). */
type SiteOriginOf = (request: Request, env: unknown, url: URL) => SiteOrigin | null;

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

export function corsFor(origins: ReadonlySet<string>, siteOrigin: SiteOriginOf): MiddlewareHandler {
  const allowed = cors({
    origin: (origin) => (origins.has(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'DELETE'],
    allowHeaders: ['Content-Type', 'Accept', 'Accept-Language', 'Stagedoor-Queue-Id', 'Stagedoor-Pass'],
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
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD' && !ownOrigin(c.req.raw, c.env, origin, headerOf(c.req.raw, c.env, 'sec-fetch-site'), siteOrigin)) {
      return refused(c);
    }
    await next();
    // Answers differ by Origin once any origin is allowed: tell shared caches.
    if (origins.size) c.res.headers.append('Vary', 'Origin');
  };
}

/**
 * Whether `origin` is the page the proxy itself is served to: it is the site's own origin as the
 * request shows it (site-origin.ts: the Host header, either scheme, or a trusted front's
 * X-Forwarded-Host), or the browser says the request is same-origin.
 */
function ownOrigin(request: Request, env: unknown, origin: string, fetchSite: string | null, siteOrigin: SiteOriginOf): boolean {
  if (origin === 'null') return false;
  if (fetchSite === 'same-origin') return true;
  if (fetchSite && fetchSite !== 'none') return false;
  try {
    return onSiteOrigin(new URL(origin), siteOrigin(request, env, new URL(request.url)));
  } catch {
    return false;
  }
}
