/**
 * A bare host site for browser tests of the BUILT bundle: plain HTML pages,
 * the files of a bundle build under `/<mount>/` (as a CDN would serve them),
 * and optionally a Fetch-API handler (the proxy) under `/api` and another for
 * anything else (the sandbox's images and payment pages). Served over
 * @hono/node-server on 127.0.0.1, port chosen by the OS. No dev server, no
 * TypeScript reaches the browser.
 */
import { serve } from '@hono/node-server';
import { readFileSync, existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { bundleCacheControl } from '../../../src/server/bundle-caching.ts';

export interface PageServerOptions {
  /** path → HTML text, e.g. { '/': '<!doctype html>...' } */
  pages: Record<string, string>;
  /** URL prefix → directory of built files, e.g. { '/cdn/': 'dist' } (a path ending in / serves its index.html) */
  files: Record<string, string>;
  /** Content-Security-Policy sent with every page (none when absent). */
  csp?: string;
  /** Handles `/api/...` (the proxy). */
  api?: (request: Request) => Response | Promise<Response>;
  /** More endpoints: path prefix (e.g. `/box-office/api`) → handler. */
  apis?: Record<string, (request: Request) => Response | Promise<Response>>;
  /**
   * Send JavaScript and HTML compressed when the browser accepts it, as a real server would: a
   * bundle file from the build's own `.br` (else `.gz`) copy, as `stagedoor serve` does; the rest gzip'd.
   */
  compress?: boolean;
  /**
   * Cache the bundle's files as `stagedoor serve` does (src/server/bundle-caching.ts: chunks
   * immutable, the loader revalidated), with an ETag answering If-None-Match with 304.
   */
  bundleCaching?: boolean;
  /** Handles every path no page or file answers (the sandbox's own pages and images). */
  fallback?: (request: Request) => Response | Promise<Response>;
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const page = options.pages[url.pathname];
    if (page !== undefined) {
      const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
      if (options.csp) headers['Content-Security-Policy'] = options.csp;
      return new Response(page, { headers });
    }
    if (options.api && (url.pathname === '/api' || url.pathname.startsWith('/api/'))) return options.api(request);
    for (const [prefix, api] of Object.entries(options.apis ?? {})) {
      if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) return api(request);
    }
    for (const [prefix, dir] of Object.entries(options.files)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
      const rel = normalize(decodeURIComponent(path.slice(prefix.length)));
      if (rel.startsWith('..')) return new Response('no', { status: 403 });
      const file = join(dir, rel);
      if (!existsSync(file)) continue;
      const ext = file.slice(file.lastIndexOf('.'));
      const headers: Record<string, string> = { 'Content-Type': types[ext] ?? 'application/octet-stream' };
      let body: Buffer = readFileSync(file);
      const policy = options.bundleCaching ? bundleCacheControl(url.pathname) : null;
      if (policy) {
        const tag = `"${createHash('sha1').update(body).digest('base64url')}"`;
        headers['Cache-Control'] = policy;
        headers.ETag = tag;
        if (request.headers.get('if-none-match') === tag) return new Response(null, { status: 304, headers });
      }
      if (options.compress && (ext === '.js' || ext === '.html')) {
        // As `stagedoor serve` sends the bundle: the copy the build compressed (brotli, else gzip)
        // when there is one and the browser accepts it; anything else gzip'd here.
        const accepts = (coding: string) => new RegExp(`\\b${coding}\\b`).test(request.headers.get('accept-encoding') ?? '');
        const ready = [['br', '.br'], ['gzip', '.gz']].find(([coding, suffix]) => accepts(coding!) && existsSync(file + suffix));
        if (ready) {
          body = readFileSync(file + ready[1]);
          headers['Content-Encoding'] = ready[0]!;
        } else if (accepts('gzip')) {
          body = gzipSync(body, { level: 9 });
          headers['Content-Encoding'] = 'gzip';
        }
        headers.Vary = 'Accept-Encoding';
      }
      return new Response(new Uint8Array(body), { headers });
    }
    if (options.fallback) return options.fallback(request);
    return new Response('not found', { status: 404 });
  };
  return new Promise((resolve) => {
    const server = serve({ fetch: handler, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
