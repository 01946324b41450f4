/**
 * A host site backed by the real proxy and sandbox, in this process: the
 * page server of page-server.ts with `createProxy` at /api (upstream: the
 * in-process sandbox) and the sandbox's own pages and images on the same
 * origin, as a host would mount them. No key, no network. `allowedOrigins`:
 * other sites whose pages may call this proxy (CORS), e.g. a WordPress on
 * another port pointed at it.
 */
import { createProxy } from '../../../src/server/proxy/index.ts';
import { createSandbox, type Sandbox } from '../../../src/server/sandbox/index.ts';
import { startPageServer, type PageServer, type PageServerOptions } from './page-server.ts';

export function startSandboxSite(options: Omit<PageServerOptions, 'api' | 'fallback'> & { allowedOrigins?: string[] }): Promise<PageServer> {
  // The sandbox builds absolute URLs (images, payment) on the page's origin, known once listening.
  let origin = '';
  let sandbox: Sandbox | undefined;
  const sandboxFetch = (request: Request): Promise<Response> => {
    sandbox ??= createSandbox({ publicUrl: origin });
    return sandbox.fetch(request);
  };
  const { allowedOrigins, ...pageOptions } = options;
  const proxy = createProxy({ upstream: sandboxFetch, apiKey: 'e2e-test-key', prefix: '/api', log: false, rateLimit: false, allowedOrigins });
  return startPageServer({ ...pageOptions, api: (request) => proxy.fetch(request), fallback: sandboxFetch }).then((server) => {
    origin = server.origin;
    return server;
  });
}
