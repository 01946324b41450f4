/**
 * How `stagedoor serve` (and any host that copies the rule) caches the files
 * of the script-tag bundle:
 *
 * - `stagedoor-<name>-<hash>.js` (+ `.map`): the chunks. Their names carry a
 *   hash of their content, so a name never changes meaning: cached for a year,
 *   `immutable` (a reload does not even revalidate them).
 * - `stagedoor.js` (+ `.map`): the loader, the one script tag. Its name is
 *   stable across versions, so it is NEVER immutable: fresh for five minutes
 *   (a returning visitor's page starts fetching chunks with no round trip
 *   first), then used once more while the browser revalidates it in the
 *   background (an ETag: a 304 when unchanged), for up to a day in all. So a
 *   new version reaches a returning visitor within five minutes of cache age,
 *   and an old loader may run up to a day after a release: the bundle keeps
 *   the previous release's chunks it asks for (scripts/build.mjs,
 *   keepPreviousChunks), and a host's CDN must keep old chunks for a day.
 *
 * Everything else gets no header from here. Kept apart from the command line
 * (src/server/cli.ts) so any server can use it: `bundleCacheControl(path)` is
 * the rule, `bundleCaching()` the Hono middleware.
 */
import type { MiddlewareHandler } from 'hono';
import { etag } from 'hono/etag';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Five minutes fresh, then stale-while-revalidate up to a day after it was fetched (86,100 + 300 s). */
export const LOADER_MAX_AGE = 300;
export const LOADER_STALE = 24 * 60 * 60 - LOADER_MAX_AGE;
export const LOADER_CACHE = `public, max-age=${LOADER_MAX_AGE}, stale-while-revalidate=${LOADER_STALE}`;

/** The Cache-Control for a bundle file by its URL path, or null for anything else. */
export function bundleCacheControl(pathname: string): string | null {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (/^stagedoor\.js(\.map)?$/.test(name)) return LOADER_CACHE;
  if (/^stagedoor-[\w.-]+-[\w-]{8}\.js(\.map)?$/.test(name)) return IMMUTABLE;
  return null;
}

/** Hono middleware: the caching rule above on successful answers, and an ETag for revalidation. */
export function bundleCaching(): MiddlewareHandler {
  const tag = etag();
  return async (c, next) => {
    const policy = bundleCacheControl(c.req.path);
    if (!policy) return next();
    await tag(c, next);
    if (c.res.status === 200) c.res.headers.set('Cache-Control', policy);
  };
}
