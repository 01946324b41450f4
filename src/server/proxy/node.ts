/**
 * `stagedoor/proxy` under Node (package.json's `node` export condition): the
 * same proxy as index.ts, with what only Node has, as defaults:
 * - a keep-alive connection pool to a URL upstream (undici; pool-client.ts)
 *   instead of the platform fetch;
 * - Prometheus metrics at GET /metrics (prom-client; metrics.ts).
 * Everything else, and the types, are index.ts's.
 */
import { createProxy as createFetchProxy, type ProxyApp, type ProxyOptions } from './index.ts';
import { promMetrics } from './metrics.ts';
import { poolClient } from './pool-client.ts';

export * from './index.ts';
export { promMetrics, type PromMetrics, type PromMetricsOptions } from './metrics.ts';
export { poolClient, type PoolClientOptions } from './pool-client.ts';

/** Create the proxy (see index.ts), reaching a URL upstream through a keep-alive pool, with metrics. */
export function createProxy(options: ProxyOptions): ProxyApp {
  const upstreamClient = options.upstreamClient ?? (typeof options.upstream === 'string' ? poolClient(options.upstream) : undefined);
  return createFetchProxy({ ...options, upstreamClient, metrics: options.metrics ?? promMetrics() });
}
