/**
 * The compatibility suite's two routes to the same sandbox: directly (its
 * real handler, with the Api-Key) and through the proxy (the real proxy
 * handler in front of it, as a client behind our widget's server reaches it).
 * Every compat test runs its requests both ways: what a client of the service
 * may send, the sandbox accepts and the proxy forwards.
 */
import { createProxy } from '../../src/server/proxy/index.ts';
import type { SandboxOptions } from '../../src/server/sandbox/index.ts';
import { BASE, harnessOver, KEY, rec, setup, type Harness, type Reply } from './sandbox-harness.ts';

export { BASE, rec, type Harness, type Reply };

export type Route = 'direct' | 'proxy';
export const ROUTES: readonly Route[] = ['direct', 'proxy'];

/** A sandbox harness whose requests go `route`'s way, with that way's endpoint and Fetch-API handler (for an api client). */
export interface RouteHarness extends Harness {
  endpoint: string;
  handle(request: Request): Promise<Response>;
}

export function harness(route: Route, options: SandboxOptions = {}): RouteHarness {
  const h = setup(options);
  if (route === 'direct') {
    const handle = async (request: Request) => {
      const headers = new Headers(request.headers);
      headers.set('Api-Key', KEY);
      return h.sandbox.fetch(new Request(request, { headers }));
    };
    return { ...h, endpoint: BASE, handle };
  }
  const proxy = createProxy({
    upstream: (request) => h.sandbox.fetch(request),
    apiKey: 'compat-proxy-key',
    log: false,
    rateLimit: false,
    cache: false,
    allowOnAccount: true,
    // The orders of these tests return to the theatre's site (the proxy refuses other return addresses).
    returnOrigins: ['https://theatre.example'],
    now: () => h.clock.now(),
  });
  const handle = async (request: Request) => proxy.fetch(request);
  return { ...harnessOver(h.clock, h.sandbox, handle, `${BASE}/api`), endpoint: `${BASE}/api`, handle };
}

/** The sandbox's own page or file at an absolute URL it emitted (payment pages, e-tickets, seating plans). */
export function sandboxPage(h: Harness, url: string, init?: RequestInit): Promise<Response> {
  return h.sandbox.fetch(new Request(url, init));
}
