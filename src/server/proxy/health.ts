/**
 * The operational endpoints an orchestrator and a monitoring system call,
 * outside the proxy's prefix: `GET /healthz` (the process answers),
 * `GET /readyz` (the upstream's HeartBeat says true, how the shared store
 * is, and whether the pages calling the proxy could order), `GET /metrics` (Prometheus text, when metrics are on: metrics.ts).
 * None of them shows the key, an address or anything from a request.
 * Edge-safe.
 */
import { JSON_TYPE } from './reply.ts';
import type { OrdersReadiness } from './return-addresses.ts';
import type { ProxyState, StoreHealth } from './state.ts';
import { callUpstream, type UpstreamClient } from './upstream.ts';

export interface Readiness {
  /**
   * `ready`: the upstream answers and the store is fine; `degraded`: the
   * upstream answers but the shared store does not (bookings go on, this
   * process alone: still ready, or every proxy would leave the balancer at
   * once); `unavailable`: the upstream does not answer (HTTP 503).
   */
  status: 'ready' | 'degraded' | 'unavailable';
  /** `ok`: HeartBeat answered true; `down`: it answered false or an error; `unreachable`: no answer in time. */
  upstream: 'ok' | 'down' | 'unreachable';
  store: { name: string; health: StoreHealth };
  /**
   * Whether an order from the pages calling the proxy would be taken, judged by the last page
   * that changed something through it (its Origin): `refused` when its return address would not
   * be on an origin this proxy accepts (a front server rewriting Host: return-addresses.ts);
   * `unchecked` until a page has. Never changes `status`: browsing and baskets still work.
   */
  orders: OrdersReadiness;
  /** With waiting rooms on: `ok`, or `unavailable` when their store does not answer (joins get 503, nobody is admitted; passes still work). */
  rooms?: 'ok' | 'unavailable';
}

export interface ReadinessOptions {
  client: UpstreamClient;
  apiKey: string;
  state: ProxyState;
  now: () => number;
  /** At most this long for the HeartBeat, ms. */
  timeoutMs: number;
  /** A result is reused for this long, so frequent probes never load the upstream (ms, default 1000). */
  reuseMs?: number;
  /** Whether orders would be taken now (read at every probe). */
  orders: () => OrdersReadiness;
  /** Whether the waiting rooms can be served (asked with the rest), when rooms are on. */
  rooms?: () => Promise<'ok' | 'unavailable'>;
}

/** Readiness, asked at most once per `reuseMs` however often probes come (unless the store's health changed meanwhile). */
export function readinessCheck(options: ReadinessOptions): () => Promise<Readiness> {
  const reuseMs = options.reuseMs ?? 1000;
  let last: { at: number; health: StoreHealth; value: Promise<Omit<Readiness, 'orders'>> } | undefined;

  async function check(): Promise<Omit<Readiness, 'orders'>> {
    const [heartbeat, health, rooms] = await Promise.all([
      callUpstream(
        options.client,
        { method: 'GET', pathAndQuery: '/rest/v2/System/HeartBeat', headers: { accept: 'application/json', 'api-key': options.apiKey }, retryable: false },
        { timeoutMs: options.timeoutMs },
      ),
      options.state.check(),
      options.rooms?.(),
    ]);
    const upstream = heartbeat.kind !== 'answer' ? 'unreachable' : heartbeat.status === 200 && heartbeat.body.trim() === 'true' ? 'ok' : 'down';
    const store = { name: options.state.shared?.name ?? 'memory', health };
    const status = upstream !== 'ok' ? 'unavailable' : health === 'degraded' ? 'degraded' : 'ready';
    return rooms ? { status, upstream, store, rooms } : { status, upstream, store };
  }

  return () => {
    const now = options.now();
    const health = options.state.health;
    if (!last || now - last.at >= reuseMs || last.health !== health) last = { at: now, health, value: check() };
    return last.value.then((ready) => ({ ...ready, orders: options.orders() }));
  };
}

export function jsonResponse(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' } });
}

/** What the operational endpoints need: the readiness check, and the metrics when they are on. */
export interface OperationsSource {
  readiness(): Promise<Readiness>;
  readonly metrics: { render(): Promise<{ contentType: string; body: string }> } | null;
}

/**
 * The answer to GET /healthz, /readyz or /metrics, or `null` for any other
 * request. Used by the proxy's own app and by the separate operations
 * listener of `stagedoor proxy --ops-port` (metrics kept off the public port).
 */
export async function operationsAnswer(request: Request, source: OperationsSource, which: { metrics: boolean } = { metrics: true }): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const path = new URL(request.url).pathname;
  if (path === '/healthz') return jsonResponse(200, { status: 'alive' });
  if (path === '/readyz') {
    const ready = await source.readiness();
    return jsonResponse(ready.status === 'unavailable' ? 503 : 200, ready);
  }
  if (path === '/metrics' && which.metrics) {
    if (!source.metrics) return jsonResponse(404, { Message: 'Metrics are not enabled on this proxy.' });
    const { contentType, body } = await source.metrics.render();
    return new Response(body, { status: 200, headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
  }
  return null;
}
