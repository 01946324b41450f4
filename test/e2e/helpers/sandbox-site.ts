/**
 * A host site backed by the real proxy and sandbox, in this process: the
 * page server of page-server.ts with `createProxy` at /api (upstream: the
 * in-process sandbox) and the sandbox's own pages and images on the same
 * origin, as a host would mount them. No key, no network. `allowedOrigins`:
 * other sites whose pages may call this proxy (CORS), e.g. a WordPress on
 * another port pointed at it.
 */
import { createProxy, type ProxyOptions } from '../../../src/server/proxy/index.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/server/sandbox/index.ts';
import { startPageServer, type PageServer, type PageServerOptions } from './page-server.ts';
import { pinnedClock } from './pinned-clock.ts';

export interface SandboxSiteOptions extends Omit<PageServerOptions, 'api' | 'apis' | 'fallback'> {
  /** Origins the proxy answers by CORS (a page on another origin). */
  allowedOrigins?: string[];
  /** A second, separate service behind a second proxy at this path (two endpoints on one page). */
  secondEndpoint?: string;
  /** Options of the (first) sandbox: e.g. a clock the test moves, or a shorter hold. Its clock is `pinnedClock` unless given. */
  sandbox?: Omit<SandboxOptions, 'publicUrl'>;
  /** `false`: the proxy caches nothing (a test that reads availability right after a change). */
  proxyCache?: boolean;
  /** Waiting rooms (memory store); with an `adminSecret`, the operator's `/stagedoor/rooms` is served too. */
  rooms?: ProxyOptions['rooms'];
}

export function startSandboxSite(options: SandboxSiteOptions): Promise<PageServer> {
  // The sandbox builds absolute URLs (images, payment) on the page's origin, known once listening.
  let origin = '';
  let sandbox: Sandbox | undefined;
  const sandboxFetch = (request: Request): Promise<Response> => {
    sandbox ??= createSandbox({ clock: pinnedClock, ...options.sandbox, publicUrl: origin });
    return sandbox.fetch(request);
  };
  const { allowedOrigins, secondEndpoint, sandbox: _sandboxOptions, proxyCache, rooms, ...pageOptions } = options;
  const proxy = createProxy({ upstream: sandboxFetch, apiKey: 'e2e-test-key', prefix: '/api', log: false, rateLimit: false, seatCaps: false, allowedOrigins, cache: proxyCache, rooms });
  const apis: PageServerOptions['apis'] = {};
  if (rooms?.adminSecret) apis['/stagedoor/rooms'] = (request) => proxy.fetch(request);
  if (secondEndpoint) {
    let second: Sandbox | undefined;
    const secondFetch = (request: Request): Promise<Response> => {
      second ??= createSandbox({ clock: pinnedClock, publicUrl: origin });
      return second.fetch(request);
    };
    const secondProxy = createProxy({ upstream: secondFetch, apiKey: 'e2e-test-key-2', prefix: secondEndpoint, log: false, rateLimit: false });
    apis[secondEndpoint] = (request) => secondProxy.fetch(request);
  }
  return startPageServer({ ...pageOptions, api: (request) => proxy.fetch(request), apis, fallback: sandboxFetch }).then((server) => {
    origin = server.origin;
    return server;
  });
}
