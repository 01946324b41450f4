/**
 * What operations teams call: GET /healthz, /readyz and /metrics (Prometheus,
 * prom-client), on the Node proxy over a loopback socket in front of the
 * sandbox. None of them, nor anything else the proxy answers, shows the key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProxy, type ProxyApp } from '../../src/server/proxy/node.ts';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { client, closedPort, listen, unreachableStore, type Answer, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const sandbox = createSandbox({ apiKeys: [KEY] });
const answers: Answer[] = [];
let service: Listening;
let app: ProxyApp;
let proxy: Listening;
let api: ReturnType<typeof client>;

before(async () => {
  service = await listen((request) => sandbox.fetch(request));
  app = createProxy({ upstream: service.url, apiKey: KEY, log: false, rateLimit: { createBasket: { limit: 1, windowMs: 60_000 } } });
  proxy = await listen(app.fetch);
  api = client(proxy.url, answers);
});

after(async () => {
  await Promise.all([proxy.close(), service.close()]);
  await app.close();
});

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(m[3]);
  }
  return undefined;
}

describe('health and readiness', () => {
  test('GET /healthz: 200 while the process answers', async () => {
    const answer = await api.call('GET', '/healthz');
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.text), { status: 'alive' });
    assert.equal(answer.headers.get('cache-control'), 'no-store');
  });

  test('GET /readyz: 200 ready when the service’s HeartBeat says true, with the store it uses', async () => {
    const answer = await api.call('GET', '/readyz');
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.text), { status: 'ready', upstream: 'ok', store: { name: 'memory', health: 'local' }, orders: 'unchecked' });
  });

  test('GET /readyz: 503 when the service cannot be reached (while /healthz stays 200)', async () => {
    const port = await closedPort();
    const down = createProxy({ upstream: `http://127.0.0.1:${port}`, apiKey: KEY, log: false });
    const server = await listen(down.fetch);
    try {
      const c = client(server.url, answers);
      const ready = await c.call('GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.deepEqual(JSON.parse(ready.text), { status: 'unavailable', upstream: 'unreachable', store: { name: 'memory', health: 'local' }, orders: 'unchecked' });
      assert.equal((await c.call('GET', '/healthz')).status, 200);
    } finally {
      await server.close();
      await down.close();
    }
  });
});

describe('metrics', () => {
  test('GET /metrics: requests and latency per operation, upstream statuses, cache hits and misses, rate-limited requests', async () => {
    await api.call('GET', '/api/rest/v2/Events');
    await api.call('GET', '/api/rest/v2/Events');
    await api.call('POST', '/api/rest/v2/Baskets');
    await api.call('POST', '/api/rest/v2/Baskets');
    await api.call('GET', '/api/rest/v2/Nothing');
    const answer = await api.call('GET', '/metrics');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = answer.text;
    assert.equal(sample(text, 'stagedoor_proxy_requests_total', { operation: 'getEvents', status: '200' }), 2);
    assert.equal(sample(text, 'stagedoor_proxy_request_duration_seconds_count', { operation: 'getEvents' }), 2);
    assert.equal(sample(text, 'stagedoor_proxy_request_duration_seconds_bucket', { operation: 'getEvents', le: '+Inf' }), 2);
    assert.equal(sample(text, 'stagedoor_proxy_cache_misses_total', { operation: 'getEvents' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_cache_hits_total', { operation: 'getEvents' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_upstream_responses_total', { operation: 'getEvents', status: '200' }), 1, 'the hit never reached the service');
    assert.equal(sample(text, 'stagedoor_proxy_upstream_responses_total', { operation: 'createBasket', status: '201' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_requests_total', { operation: 'createBasket', status: '429' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_rate_limited_total', { operation: 'createBasket' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_requests_total', { operation: 'none', status: '404' }), 1);
    assert.equal(sample(text, 'stagedoor_proxy_store_degraded'), 0);
  });

  test('a shared store that fails: its errors are counted and the proxy shows it is degraded', async () => {
    const store = unreachableStore('broken');
    const degraded = createProxy({ upstream: service.url, apiKey: KEY, log: false, store });
    const server = await listen(degraded.fetch);
    try {
      const c = client(server.url, answers);
      assert.equal((await c.call('GET', '/api/rest/v2/Venues')).status, 200);
      const text = (await c.call('GET', '/metrics')).text;
      assert.equal(sample(text, 'stagedoor_proxy_store_errors_total', { operation: 'cache-get' }), 1);
      assert.equal(sample(text, 'stagedoor_proxy_store_degraded'), 1);
    } finally {
      await server.close();
      await degraded.close();
    }
  });
});

test('the key appears in no answer of this file, operational endpoints included', () => {
  assert.ok(answers.length >= 10, `scanned ${answers.length} answers`);
  for (const answer of answers) {
    assert.ok(!answer.text.includes(KEY), answer.text.slice(0, 200));
    for (const [name, value] of answer.headers) assert.ok(!value.includes(KEY), `header ${name}`);
  }
});
