/**
 * Where the payment page may send the customer back to. An order names its
 * return addresses (SuccessReturnUrl, FailureReturnUrl; ReturnUrl on account)
 * and the service's payment page redirects there: without a check, anyone who
 * can call the proxy makes our payment page an open redirect (a phishing page
 * creates a basket, sends its victim to pay, then to itself "to finish the
 * booking"). Accepted: absolute http(s) addresses, with no user name or
 * password, on one of
 * - the origins the operator lists (`returnOrigins`), and the CORS `allowedOrigins`;
 * - the site's own origin (site-origin.ts: the Host the request was
 *   addressed to, either scheme, or what a trusted front server says),
 *   unless the operator lists `returnOrigins`: the Host is the caller's to
 *   write, so a list replaces the guess.
 * Json.NET binds names in any case, so `successreturnurl` is checked too.
 *
 * An order that a browser page sent (it names its page in `Origin`, else
 * `Referer`) and that is refused only for its return address's origin is the
 * site's setup at fault, not the customer: the proxy behind a front server
 * that rewrites Host, or a page on an origin nobody listed. The customer is
 * told that the site cannot take orders now and the operator what to change
 * (`siteRefusal`); `ReturnOriginWatch` keeps whether the pages calling the
 * proxy could order at all, for /readyz. Edge-safe.
 */
import { SITE_REFUSAL } from '../../api/refusal.ts';
import { message, type Reply } from './reply.ts';
import { describeSiteOrigin, onSiteOrigin, type SiteOrigin } from './site-origin.ts';

const RETURN_FIELDS: ReadonlyMap<string, string> = new Map(['SuccessReturnUrl', 'FailureReturnUrl', 'ReturnUrl'].map((name) => [name.toLowerCase(), name]));

export interface ReturnAddressPolicy {
  /** The listed origins (normalised); null when the operator listed none (then the request's own host counts too). */
  listed: ReadonlySet<string> | null;
  /** The CORS allowed origins (normalised). */
  allowed: ReadonlySet<string>;
}

/** The customer's sentence when the site's own setup refuses their order (the widget shows its translation). */
export const SITE_REFUSAL_MESSAGE = 'This site cannot take orders right now; nothing was charged.';
const ORIGIN_ONLY = "must be on this site's own origin or an origin this proxy allows";

/** Why `value` is not a return address this policy accepts, or null when it is one. */
function refusal(value: unknown, site: SiteOrigin | null, policy: ReturnAddressPolicy): string | null {
  if (typeof value !== 'string') return 'must be an address (a string)';
  // A backslash, a space or a control character: browsers and servers read them differently (`https:\\evil.example`).
  if (/[\\\s\x00-\x1f\x7f]/.test(value)) return 'must be a plain absolute address (no backslash, space or control character)';
  let url: URL;
  try {
    url = new URL(value); // no base: `//evil.example` and `/path` are refused
  } catch {
    return 'must be an absolute address (https://...)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https address';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (policy.allowed.has(url.origin) || policy.listed?.has(url.origin)) return null;
  if (!policy.listed && onSiteOrigin(url, site)) return null;
  return ORIGIN_ONLY;
}

export interface ReturnRefusal {
  /** The field as the caller named it. */
  field: string;
  /** `The field 'SuccessReturnUrl' must ...` */
  message: string;
  /** The address's origin when it was refused for its origin alone (a plain http(s) address), else null. */
  origin: string | null;
}

/**
 * The first return address in an order `body` that the policy refuses, with
 * a message naming the field, or null. `site` is the site's own origin as
 * the request shows it (site-origin.ts).
 */
export function checkReturnAddresses(body: Record<string, unknown>, site: SiteOrigin | null, policy: ReturnAddressPolicy): ReturnRefusal | null {
  for (const [key, value] of Object.entries(body)) {
    const field = RETURN_FIELDS.get(key.toLowerCase());
    if (!field || value === null || value === undefined) continue;
    const why = refusal(value, site, policy);
    if (why) return { field: key, message: `The field '${key}' ${why}.`, origin: why === ORIGIN_ONLY ? new URL(value as string).origin : null };
  }
  return null;
}

/** The origin of the page a browser sent a request from (its Origin header, else its Referer's), or null. */
export function pageOrigin(origin: string | null, referer: string | null): string | null {
  for (const value of [origin, referer]) {
    if (!value || value === 'null') continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {
      // Not an address: no page.
    }
  }
  return null;
}

/** What the proxy would need to accept returns to `page`: the operator's advice, naming how the proxy sees its origin now. */
function advice(page: string, site: SiteOrigin | null, policy: ReturnAddressPolicy): string {
  const seen = `this proxy takes its own origin to be ${describeSiteOrigin(site)} (from ${site?.from === 'host' ? 'the Host header' : site ? `the front's ${site.from === 'forwarded' ? 'Forwarded' : 'X-Forwarded-Host'} header` : 'nowhere'})`;
  if (policy.listed) return `${seen}, and only the listed return origins count: add ${page} with --return-origin (returnOrigins).`;
  const behind =
    site?.from === 'host'
      ? 'Behind a front server that rewrites Host (nginx proxy_pass does by default), pass the site on (nginx: proxy_set_header X-Forwarded-Host $http_host; proxy_set_header X-Forwarded-Proto $scheme;) and start the proxy with --trust-forwarded (trustForwarded), '
      : 'Check what the front server sends, ';
  return `${seen}. ${behind}or list ${page} with --return-origin (returnOrigins).`;
}

/**
 * When a refused order came from a browser page and was refused for its return
 * address's origin alone: the operator's text (for the proxy's log, never the
 * customer), else null (a caller's bad input: answered 400 as it is).
 */
export function siteRefusal(refused: ReturnRefusal, page: string | null, site: SiteOrigin | null, policy: ReturnAddressPolicy): string | null {
  if (!page || !refused.origin) return null;
  return `stagedoor proxy: an order from a page on ${page} was refused: its ${refused.field} is on ${refused.origin}, which is neither this site's own origin nor an origin this proxy allows; ${advice(refused.origin, site, policy)} The customer was told: "${SITE_REFUSAL_MESSAGE}"`;
}

/**
 * The answer to an order the site's setup refused: 500 (the site's fault, counted with the
 * server errors an operator watches; not an answer lost, so the widget does not send it again),
 * the customer's sentence and the code the widget knows it by.
 */
export function siteRefusalReply(): Reply {
  return message(500, SITE_REFUSAL_MESSAGE, { body: JSON.stringify({ Message: SITE_REFUSAL_MESSAGE, Refusal: SITE_REFUSAL }) });
}

/** Whether orders from the pages that call the proxy would be taken (GET /readyz `orders`). */
export type OrdersReadiness = 'unchecked' | 'accepted' | 'refused';

/**
 * Watches the pages that change something through the proxy (a browser names its page in Origin
 * on every POST and DELETE): whether an order returning to that page would be accepted. From the
 * last such request: a hint for the operator (a caller writes Origin too), never a refusal.
 */
export class ReturnOriginWatch {
  state: OrdersReadiness = 'unchecked';

  constructor(
    private readonly policy: ReturnAddressPolicy,
    /** Told once each time orders turn from taken (or unchecked) to refused: the operator's text. */
    private readonly warn: (text: string) => void,
  ) {}

  /** A request from the page on `page` that changes something, whose site origin is `site`. */
  see(page: string, site: SiteOrigin | null): void {
    const accepted = refusal(`${page}/`, site, this.policy) === null;
    if (!accepted && this.state !== 'refused') {
      this.warn(`stagedoor proxy: orders from the page on ${page} would be refused (GET /readyz says orders: refused): ${advice(page, site, this.policy)}`);
    }
    this.state = accepted ? 'accepted' : 'refused';
  }
}
