/**
 * How `stagedoor serve` (and any host that copies the rule) caches the files
 * of the script-tag bundle:
 *
 * - `stagedoor-<name>-<hash>.js` (+ `.map`): the chunks. Their names carry a
 *   hash of their content, so a name never changes meaning: cached for a year,
 *   `immutable` (a reload does not even revalidate them).
 * - `stagedoor.js` (+ `.map`): the loader, the one script tag. Its name is
 *   stable across versions, so it is NEVER immutable: `no-cache`, i.e. the
 *   browser keeps it but asks every time (a 304 when unchanged, through the
 *   ETag), and a new version, naming new chunks, is picked up at once.
 *
 * Everything else gets no header from here. Kept apart from the command line
 * (src/server/cli.ts) so any server can use it: `bundleCacheControl(path)` is
 * the rule, `bundleCaching()` the Hono middleware.
 */
import type { MiddlewareHandler } from 'hono';
import { etag } from 'hono/etag';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** The Cache-Control for a bundle file by its URL path, or null for anything else. */
export function bundleCacheControl(pathname: string): string | null {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (/^stagedoor\.js(\.map)?$/.test(name)) return REVALIDATE;
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
