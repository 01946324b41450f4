/**
 * GET /metrics in the Prometheus text format (prom-client), fed by the proxy's
 * per-request records and its store events. Labels come only from fixed sets
 * (operation names of the table, HTTP statuses, cache results, store
 * operations): never a key, an address, a basket or anything from a request.
 * Node only.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AccessLogEntry, ProxyMetrics } from './index.ts';
import type { RoomMetrics } from './room/index.ts';
import type { StoreHealth } from './state.ts';

export interface PromMetricsOptions {
  /** Also the process's own metrics (CPU, memory, event-loop lag, GC), as `stagedoor proxy` does. Default false. */
  processMetrics?: boolean;
  /** The registry to add to (default a new one, so several proxies in one process never collide). */
  registry?: Registry;
}

export type PromMetrics = ProxyMetrics & { readonly registry: Registry };

export function promMetrics(options: PromMetricsOptions = {}): PromMetrics {
  const registry = options.registry ?? new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'stagedoor_proxy_requests_total',
    help: 'Requests answered by the proxy, by operation (none: no operation at that path) and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'stagedoor_proxy_request_duration_seconds',
    help: 'Time from request to answer at the proxy, by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const upstream = new Counter({
    name: 'stagedoor_proxy_upstream_responses_total',
    help: 'Answers from the ticket service, by operation and its HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const upstreamFailures = new Counter({
    name: 'stagedoor_proxy_upstream_failures_total',
    help: 'Upstream calls with no usable answer, by operation and reason (timeout, unreachable, bad-answer).',
    labelNames: ['operation', 'reason'] as const,
    registers,
  });
  const hits = new Counter({ name: 'stagedoor_proxy_cache_hits_total', help: 'Cacheable lookups answered from a cache, by operation.', labelNames: ['operation'] as const, registers });
  const misses = new Counter({ name: 'stagedoor_proxy_cache_misses_total', help: 'Cacheable lookups fetched from the ticket service, by operation.', labelNames: ['operation'] as const, registers });
  const coalesced = new Counter({
    name: 'stagedoor_proxy_cache_coalesced_total',
    help: 'Cacheable lookups that shared another request’s upstream call (single flight), by operation.',
    labelNames: ['operation'] as const,
    registers,
  });
  const limited = new Counter({ name: 'stagedoor_proxy_rate_limited_total', help: 'Requests refused by the proxy’s rate limit (429), by operation.', labelNames: ['operation'] as const, registers });
  const replays = new Counter({
    name: 'stagedoor_proxy_submit_replays_total',
    help: 'Repeated orders answered with the kept answer of the accepted one (a lost answer recovered), by operation.',
    labelNames: ['operation'] as const,
    registers,
  });
  const refused = new Counter({
    name: 'stagedoor_proxy_refused_total',
    help: 'Requests refused before the proxy could read them (Node’s HTTP parser, the request adapter), by reason and HTTP status.',
    labelNames: ['reason', 'status'] as const,
    registers,
  });
  const storeErrors = new Counter({ name: 'stagedoor_proxy_store_errors_total', help: 'Failed calls to the shared store, by store operation.', labelNames: ['operation'] as const, registers });
  const degraded = new Gauge({ name: 'stagedoor_proxy_store_degraded', help: '1 while the shared store does not answer (this process works alone), else 0.', registers });
  const room = roomMetrics(registers);

  return {
    registry,
    room,
    request(entry: AccessLogEntry) {
      const operation = entry.operation ?? 'none';
      requests.inc({ operation, status: String(entry.status) });
      duration.observe({ operation }, entry.durationMs / 1000);
      if (entry.upstreamStatus !== undefined) upstream.inc({ operation, status: String(entry.upstreamStatus) });
      if (entry.error && entry.error !== 'internal') upstreamFailures.inc({ operation, reason: entry.error });
      if (entry.cache === 'hit') hits.inc({ operation });
      else if (entry.cache === 'miss') misses.inc({ operation });
      else if (entry.cache === 'coalesced') coalesced.inc({ operation });
      if (entry.limited) limited.inc({ operation });
      if (entry.replayed) replays.inc({ operation });
      if (entry.refused) refused.inc({ reason: entry.refused, status: String(entry.status) });
    },
    storeError(operation: string) {
      storeErrors.inc({ operation });
    },
    storeHealth(health: StoreHealth) {
      degraded.set(health === 'degraded' ? 1 : 0);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The waiting rooms' metrics (room/index.ts): labelled by the operator's room ids and fixed refusal reasons only. */
function roomMetrics(registers: Registry[]): RoomMetrics {
  const labelNames = ['room'] as const;
  const waiting = new Gauge({ name: 'stagedoor_room_waiting', help: 'Visitors waiting in the room, as the last poll at this proxy saw it.', labelNames, registers });
  const admitted = new Counter({ name: 'stagedoor_room_admitted_total', help: 'Visitors admitted (given a pass) by polls at this proxy.', labelNames, registers });
  const wait = new Histogram({
    name: 'stagedoor_room_wait_seconds',
    help: 'Time from joining the room to being admitted.',
    labelNames,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200],
    registers,
  });
  const refused = new Counter({ name: 'stagedoor_room_pass_refused_total', help: 'Gated requests refused (428), by why: missing, expired, invalid, other-visitor.', labelNames: ['room', 'reason'] as const, registers });
  const polls = new Counter({ name: 'stagedoor_room_polls_total', help: 'Joins and polls answered.', labelNames, registers });
  return {
    waiting: (id, count) => waiting.set({ room: id }, count),
    admitted(id, waitsMs) {
      admitted.inc({ room: id }, waitsMs.length);
      for (const ms of waitsMs) wait.observe({ room: id }, ms / 1000);
    },
    refused: (id, reason) => refused.inc({ room: id, reason }),
    polled: (id) => polls.inc({ room: id }),
  };
}
