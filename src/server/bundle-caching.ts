/**
 * How `stagedoor serve` (and any host that copies the rule) caches the files
 * of the script-tag bundle:
 *
 * - `stagedoor-<name>-<hash>.js` (+ `.map`): the chunks. Their names carry a
 *   hash of their content, so a name never changes meaning: cached for a year,
 *   `immutable` (a reload does not even revalidate them).
 * - `stagedoor.js` (+ `.map`): the loader, the one script tag. Its name is
 *   stable across versions, so it is never immutable: kept for five minutes
 *   (`max-age=300`), then revalidated (a 304 when unchanged, through the
 *   ETag). A second page of a visit starts without a round trip for it (on a
 *   slow phone network, 560 ms), and a new version reaches every visitor
 *   within five minutes. A copy cached from before a deployment may name
 *   chunks the server no longer has: it then fetches the new loader and hands
 *   over to it (src/loader.ts `renewed`).
 *
 * Everything else gets no header from here. Kept apart from the command line
 * (src/server/cli.ts) so any server can use it: `bundleCacheControl(path)` is
 * the rule, `bundleCaching()` the Hono middleware.
 */
import type { MiddlewareHandler } from 'hono';
import { etag } from 'hono/etag';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The loader's: five minutes, then revalidated. */
export const LOADER = 'public, max-age=300';

/** The Cache-Control for a bundle file by its URL path, or null for anything else. */
export function bundleCacheControl(pathname: string): string | null {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (/^stagedoor\.js(\.map)?$/.test(name)) return LOADER;
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
