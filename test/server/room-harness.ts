/**
 * Waiting-room tests' common ground: proxies over the sandbox's tiny catalogue on one controlled
 * clock, each with the same room secret, and the calls a visitor makes (join/poll, a gated lookup).
 */
import assert from 'node:assert/strict';
import { createProxy, type ProxyApp, type ProxyOptions, type ProxyStore } from '../../src/server/proxy/index.ts';
import type { RoomConfig } from '../../src/server/proxy/room/config.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { START, TINY, tinyCatalogue } from './sandbox-harness.ts';

export { START, TINY };
export const KEY = 'sk-room';
export const SECRET = 'room-secret-0123456789-0123456789-abcdef';
export const ADMIN = 'admin-secret-for-the-room-tests';
export const OPENS = START + 10 * 60_000;

export function room(config: Partial<RoomConfig> = {}): RoomConfig {
  return {
    id: 'hot-show', scope: { kind: 'performance', performanceId: TINY.perf }, opensAt: OPENS, ratePerMinute: 60,
    maxActive: null, passSeconds: 900, keepSeconds: 120, proofBits: 0, state: 'open', ...config,
  };
}

export interface RoomWorld {
  clock: ManualClock;
  proxy(options?: Partial<ProxyOptions>): ProxyApp;
}

/** A sandbox and proxies over it on one clock; `store()` gives each proxy its store (shared or not). */
export function roomWorld(store?: () => ProxyStore): RoomWorld {
  const clock = new ManualClock(START);
  const sandbox = createSandbox({ catalogue: tinyCatalogue(START), clock, apiKeys: [KEY] });
  return {
    clock,
    proxy: (options = {}) => {
      const quiet = { log: false, metrics: false, rateLimit: false, seatCaps: false } as const;
      const rooms = { secret: SECRET, adminSecret: ADMIN };
      return createProxy({ upstream: (request) => sandbox.fetch(request), apiKey: KEY, ...quiet, now: () => clock.now(), clientAddress: () => '203.0.113.9', store: store?.(), rooms, ...options });
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function call(proxy: ProxyApp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { 'Content-Type': 'application/json', ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await proxy.fetch(new Request(`http://proxy.test${path}`, init));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** One join or poll of `visitor`. */
export function visit(proxy: ProxyApp, visitor: string, id = 'hot-show', body: unknown = {}): Promise<Answer> {
  return call(proxy, 'POST', `/api/stagedoor/room/${id}`, body, { 'Stagedoor-Queue-Id': visitor });
}

export async function polled(proxy: ProxyApp, visitor: string, id = 'hot-show'): Promise<Answer> {
  const answer = await visit(proxy, visitor, id);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer;
}

export function admin(proxy: ProxyApp, method: string, path: string, body?: unknown, secret = ADMIN): Promise<Answer> {
  return call(proxy, method, path, body, { Authorization: `Bearer ${secret}` });
}

/** Open `config` through the admin endpoint. */
export async function open(proxy: ProxyApp, config: RoomConfig): Promise<void> {
  const answer = await admin(proxy, 'PUT', `/stagedoor/rooms/${config.id}`, { ...config, opensAt: new Date(config.opensAt).toISOString() });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** The seat map of the room's performance, as a visitor with these headers asks for it. */
export function seatMap(proxy: ProxyApp, headers: Record<string, string> = {}): Promise<Answer> {
  return call(proxy, 'GET', `/api/rest/v2/Performances/${TINY.perf}/FullAvailability`, undefined, headers);
}
