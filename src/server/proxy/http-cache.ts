/**
 * HTTP caching of the proxy's cacheable answers, for browsers and CDNs (the
 * proxy's own cache is lookup.ts): what they may keep, for how long, and a
 * validator to ask again cheaply.
 *
 * - `Cache-Control: public, max-age=<ttl>` on a cacheable 200 (the table's
 *   `kind`: catalogue, system, availability), plus `stale-while-revalidate`
 *   for the catalogue and the system lists: for as long again, a browser or a
 *   CDN may answer at once with what it kept while it fetches a fresh copy
 *   (a second visit, a second tab). Seats (availability) never go stale:
 *   they change under the visitor.
 * - `ETag`: a weak validator computed from the body (the same body gives the
 *   same tag in every process, so a CDN in front of several proxies
 *   revalidates against any of them). A request whose `If-None-Match` names
 *   it gets `304 Not Modified` with no body.
 * - Everything else (baskets, orders, errors, the liveness check) stays
 *   `no-store`, with no validator.
 *
 * Synchronous and edge-safe: no node:crypto, no await per request.
 */
import type { OperationKind } from '../../api/operations.ts';

/** The kinds a browser or CDN may answer from a stale copy while it revalidates. */
const MAY_GO_STALE: ReadonlySet<OperationKind> = new Set<OperationKind>(['catalogue', 'system']);

/** `Cache-Control` for a cacheable answer of this kind kept `ttl` seconds (ttl > 0). */
export function cacheableControl(kind: OperationKind, ttl: number): string {
  return MAY_GO_STALE.has(kind) ? `public, max-age=${ttl}, stale-while-revalidate=${ttl}` : `public, max-age=${ttl}`;
}

const encoder = new TextEncoder();
/** Tags of bodies already tagged (a cache hit's bytes are the same array every time). */
const tagged = new WeakMap<Uint8Array, string>();

/**
 * 53 bits of cyrb53 (a fast non-cryptographic hash; a validator needs no
 * secrecy) over the body's UTF-8 bytes, with the byte length: `W/"<len>-<hash>"`.
 */
function hashBytes(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `W/"${bytes.length.toString(36)}-${hash.toString(36)}"`;
}

/** The weak entity tag of a body (text as sent, or the cached bytes). */
export function entityTag(body: string | Uint8Array): string {
  if (typeof body === 'string') return hashBytes(encoder.encode(body));
  let tag = tagged.get(body);
  if (!tag) tagged.set(body, (tag = hashBytes(body)));
  return tag;
}

/** Whether `If-None-Match` (null when absent) names this tag, or `*` (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(ifNoneMatch: string | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
