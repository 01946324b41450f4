/**
 * What `stagedoor start` and `stagedoor serve` run in one process, besides the
 * demo pages: the proxy at `/api` with the sandbox as its in-process upstream,
 * and the sandbox's own pages (payment, images, e-tickets) at `/sandbox/...`,
 * all on one origin. No key and no network: the proxy holds a fixed key that
 * only this in-process sandbox ever sees.
 *
 * The demo on-sale: a waiting room (docs/waiting-room.md) for one show, Swan Lake, that opens a
 * minute after start, so a newcomer sees the countdown, the pre-queue and the admission. The
 * tests that book through the demo book other shows.
 */
import { Hono } from 'hono';
import { createProxy, type AccessLogEntry, type ProxyApp, type RoomConfig } from './proxy/index.ts';
import { createSandbox, type Sandbox } from './sandbox/index.ts';
import type { Clock } from './sandbox/store.ts';

/** The key between the demo's proxy and its in-process sandbox (the sandbox accepts any non-empty key). */
const DEMO_SANDBOX_KEY = 'stagedoor-demo-sandbox-key';

/**
 * The demo on-sale: its show, its room, how long after start it opens, its rate, and the simulated
 * visitors who join its pre-queue at start (they never ask again, so they are admitted or released
 * within two minutes of start): a newcomer draws a place among them.
 */
export const DEMO_ON_SALE = Object.freeze({ show: 'Swan Lake', room: 'demo-on-sale', afterMs: 60_000, ratePerMinute: 20, crowd: 20 });

/** The demo's waiting room, as the start banner names it. */
export interface DemoRoom {
  id: string;
  show: string;
  eventId: number;
  /** ms since the epoch. */
  opensAt: number;
}

export interface DemoSite {
  /** Answers `/api/...` and `/sandbox/...`; anything else is for the page server (Vite or static files). */
  readonly app: Hono;
  readonly sandbox: Sandbox;
  readonly proxy: ProxyApp;
  /** The demo on-sale's room, or null when it is off. */
  readonly room: DemoRoom | null;
}

export interface DemoSiteOptions {
  /** The origin the browser uses (`http://127.0.0.1:8080`): the sandbox builds its absolute URLs on it. */
  origin: string;
  /** The proxy's access log (default: one JSON line per request on stdout). */
  log?: ((entry: AccessLogEntry) => void) | false;
  /** The demo on-sale (default on); false: no room. */
  onSale?: boolean;
  /** The clock of the sandbox and the proxy (tests move it); default the system clock. */
  clock?: Clock;
}

/** Whether a path belongs to the proxy or the sandbox rather than to the demo pages. */
export function isDemoServicePath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/sandbox/');
}

/** The demo on-sale's room: an event room for its show, opening a minute after now. */
function demoRoom(sandbox: Sandbox, now: number): { config: RoomConfig; room: DemoRoom } | null {
  const event = sandbox.catalogue.Events.find((e) => e.Name === DEMO_ON_SALE.show);
  if (!event) return null;
  const opensAt = now + DEMO_ON_SALE.afterMs;
  return {
    room: { id: DEMO_ON_SALE.room, show: event.Name, eventId: event.EventId, opensAt },
    config: {
      id: DEMO_ON_SALE.room,
      scope: { kind: 'event', eventId: event.EventId },
      opensAt,
      ratePerMinute: DEMO_ON_SALE.ratePerMinute,
      maxActive: null,
      passSeconds: 900,
      keepSeconds: 120,
      proofBits: 0,
      state: 'open',
    },
  };
}

export function createDemoSite(options: DemoSiteOptions): DemoSite {
  const clock = options.clock ?? { now: () => Date.now() };
  const sandbox = createSandbox({ publicUrl: options.origin, clock });
  const onSale = options.onSale === false ? null : demoRoom(sandbox, clock.now());
  const proxy = createProxy({
    upstream: (request) => sandbox.fetch(request),
    apiKey: DEMO_SANDBOX_KEY,
    prefix: '/api',
    log: options.log,
    // The demo runs on one machine: every visitor is 127.0.0.1, and one person trying it books again
    // and again (paid seats count until their hold's end). The caps defend a theatre's proxy
    // (`stagedoor proxy`, where they are on by default), not this.
    seatCaps: false,
    now: () => clock.now(),
    // The room's secret signs its passes; this process's own, new at each start (its passes die with it, as its queue).
    rooms: onSale ? { secret: randomSecret(), initial: [onSale.config] } : undefined,
  });
  if (onSale) joinCrowd(proxy, options.origin, onSale.room.id);
  const app = new Hono();
  app.all('/api/*', (c) => proxy.fetch(c.req.raw, c.env));
  app.all('/api', (c) => proxy.fetch(c.req.raw, c.env));
  app.all('/sandbox/*', (c) => sandbox.fetch(c.req.raw));
  return { app, sandbox, proxy, room: onSale?.room ?? null };
}

/** The simulated visitors join the demo room's pre-queue, as browsers would. */
function joinCrowd(proxy: ProxyApp, origin: string, room: string): void {
  for (let i = 0; i < DEMO_ON_SALE.crowd; i++) {
    const join = new Request(`${origin}/api/stagedoor/room/${room}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stagedoor-Queue-Id': `demo-crowd-${i}` },
      body: '{}',
    });
    void Promise.resolve(proxy.fetch(join)).catch(() => undefined);
  }
}

function randomSecret(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}
