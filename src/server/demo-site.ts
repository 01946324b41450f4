/**
 * What `stagedoor start` and `stagedoor serve` run in one process, besides the
 * demo pages: the proxy at `/api` with the sandbox as its in-process upstream,
 * and the sandbox's own pages (payment, images, e-tickets) at `/sandbox/...`,
 * all on one origin. No key and no network: the proxy holds a fixed key that
 * only this in-process sandbox ever sees.
 */
import { Hono } from 'hono';
import { createProxy, type AccessLogEntry, type ProxyApp } from './proxy/index.ts';
import { createSandbox, type Sandbox } from './sandbox/index.ts';

/** The key between the demo's proxy and its in-process sandbox (the sandbox accepts any non-empty key). */
const DEMO_SANDBOX_KEY = 'stagedoor-demo-sandbox-key';

export interface DemoSite {
  /** Answers `/api/...` and `/sandbox/...`; anything else is for the page server (Vite or static files). */
  readonly app: Hono;
  readonly sandbox: Sandbox;
  readonly proxy: ProxyApp;
}

export interface DemoSiteOptions {
  /** The origin the browser uses (`http://127.0.0.1:8080`): the sandbox builds its absolute URLs on it. */
  origin: string;
  /** The proxy's access log (default: one JSON line per request on stdout). */
  log?: ((entry: AccessLogEntry) => void) | false;
}

/** Whether a path belongs to the proxy or the sandbox rather than to the demo pages. */
export function isDemoServicePath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/sandbox/');
}

export function createDemoSite(options: DemoSiteOptions): DemoSite {
  const sandbox = createSandbox({ publicUrl: options.origin });
  const proxy = createProxy({
    upstream: (request) => sandbox.fetch(request),
    apiKey: DEMO_SANDBOX_KEY,
    prefix: '/api',
    log: options.log,
    // The demo runs on one machine: every visitor is 127.0.0.1, and one person trying it books again
    // and again (paid seats count until their hold's end). The caps defend a theatre's proxy
    // (`stagedoor proxy`, where they are on by default), not this.
    seatCaps: false,
  });
  const app = new Hono();
  app.all('/api/*', (c) => proxy.fetch(c.req.raw, c.env));
  app.all('/api', (c) => proxy.fetch(c.req.raw, c.env));
  app.all('/sandbox/*', (c) => sandbox.fetch(c.req.raw));
  return { app, sandbox, proxy };
}
