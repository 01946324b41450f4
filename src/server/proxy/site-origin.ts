/**
 * The site's own origin as the proxy sees it: where the page that calls it
 * lives, when it is mounted on the site's origin (`/api` → the proxy). By
 * default the Host the request was addressed to, either scheme (a TLS
 * terminator in front makes it http here). Behind a front server that
 * rewrites Host (nginx's default `proxy_set_header Host $proxy_host`), that is
 * the proxy's own address: told to trust its front (`trustForwarded`), the
 * proxy reads the site's host and scheme from what the front adds instead,
 * the rightmost (the nearest front's) of
 * - `Forwarded: host=...;proto=...` (RFC 7239), else
 * - `X-Forwarded-Host` and `X-Forwarded-Proto`.
 * Only trust them when every request passes through that front: a caller
 * writes these headers as easily as Host. A value that is not a plain host
 * (`name[:port]`) or scheme (`http`, `https`) is ignored. Edge-safe.
 */
import { lastForwarded } from './forwarded.ts';
import { headerOf } from './incoming.ts';

export interface SiteOrigin {
  /** `theatre.example` or `theatre.example:8443`, as URL.host writes it. */
  host: string;
  /** `https:` or `http:`, or null when the request does not say (then either counts). */
  protocol: 'http:' | 'https:' | null;
  /** Where it came from: the Host header, or the trusted front's header. */
  from: 'host' | 'forwarded' | 'x-forwarded-host';
}

/** The last element of a list header (`a, b, c` → `c`), trimmed, or null. */
function rightmost(value: string | null): string | null {
  const last = value?.split(',').pop()?.trim();
  return last ? last : null;
}

function scheme(value: string | null | undefined): 'http:' | 'https:' | null {
  const v = value?.trim().toLowerCase();
  return v === 'https' ? 'https:' : v === 'http' ? 'http:' : null;
}

/**
 * A `name[:port]` as URL.host writes it for `protocol` (its default port dropped: `:443` for
 * https), or null when `value` is anything more (a path, a user, a space).
 */
function plainHost(value: string | null | undefined, protocol: 'http:' | 'https:' | null): string | null {
  if (!value || /[\s/\\?#@]/.test(value)) return null;
  try {
    const url = new URL(`${protocol ?? 'http:'}//${value}`);
    const written = value.toLowerCase();
    return url.host === written || `${url.host}:${protocol === 'https:' ? 443 : 80}` === written ? url.host : null;
  } catch {
    return null;
  }
}

/** Reads a request's site origin: the Host, or (when `trustForwarded`) what the front says. */
export function siteOriginReader(trustForwarded: boolean): (request: Request, env: unknown, url: URL) => SiteOrigin | null {
  return (request, env, url) => {
    if (trustForwarded) {
      const forwarded = lastForwarded(headerOf(request, env, 'forwarded'));
      const protocol = scheme(forwarded.proto);
      const fromForwarded = plainHost(forwarded.host, protocol);
      if (fromForwarded) return { host: fromForwarded, protocol, from: 'forwarded' };
      const xProtocol = scheme(rightmost(headerOf(request, env, 'x-forwarded-proto')));
      const fromHeader = plainHost(rightmost(headerOf(request, env, 'x-forwarded-host')), xProtocol);
      if (fromHeader) return { host: fromHeader, protocol: xProtocol, from: 'x-forwarded-host' };
    }
    return url.host ? { host: url.host, protocol: null, from: 'host' } : null;
  };
}

/** Whether `url` is on the site's origin. */
export function onSiteOrigin(url: URL, site: SiteOrigin | null): boolean {
  return site !== null && url.host === site.host && (site.protocol === null || url.protocol === site.protocol);
}

/** The site's origin for the operator's log (`https://theatre.example`, or `theatre.example` with either scheme). */
export function describeSiteOrigin(site: SiteOrigin | null): string {
  if (!site) return 'none';
  return site.protocol ? `${site.protocol}//${site.host}` : `${site.host} (http or https)`;
}
