/**
 * The proxy stamps every answer with the service's clock to the millisecond
 * (`Server-Timing: clock;desc=...`, src/server/proxy/clock.ts): the sandbox's
 * own stamp passed through when it runs in process, the real service's `Date`
 * readings narrowed into an offset when that is all it sends. Over the real
 * handler and a loopback socket, with clocks the test moves.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { parseClockTiming } from '../../src/api/time.ts';
import { createProxy } from '../../src/server/proxy/index.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';

const KEY = 'sandbox-key';
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0, 0);

function stampOf(response: Response): number {
  const stamp = parseClockTiming(response.headers.get('server-timing'));
  assert.notEqual(stamp, null, `a clock stamp on ${response.status}`);
  return stamp as number;
}

describe('with the sandbox in process', () => {
  // The sandbox's clock is 7.437 s ahead of the proxy's: what a Date header (to the second) loses.
  const proxyClock = new ManualClock(T0);
  const sandboxClock = new ManualClock(T0 + 7_437);
  const sandbox = createSandbox({ clock: sandboxClock });
  const proxy = createProxy({
    upstream: (request) => sandbox.fetch(request),
    apiKey: KEY,
    log: false,
    rateLimit: false,
    now: () => proxyClock.now(),
    allowedOrigins: ['https://theatre.example'],
  });
  const get = (path: string, init?: RequestInit) => proxy.fetch(new Request(`http://proxy.test/api${path}`, init));

  test('an answer from the sandbox carries the sandbox clock to the millisecond', async () => {
    const response = await get('/rest/v2/System/HeartBeat');
    assert.equal(response.status, 200);
    assert.equal(stampOf(response), sandboxClock.now());
    assert.equal(response.headers.get('date'), new Date(sandboxClock.now()).toUTCString(), 'Date stays the upstream\'s');
  });

  test('a cache hit, later, is stamped with the sandbox clock too (the proxy\'s own, corrected)', async () => {
    assert.equal((await get('/rest/v2/Events')).status, 200);
    proxyClock.advance(2_250);
    sandboxClock.advance(2_250);
    const hit = await get('/rest/v2/Events');
    assert.ok(hit.headers.get('age') !== null, 'served from the cache');
    assert.equal(stampOf(hit), sandboxClock.now());
  });

  test("the proxy's own refusals, and a CORS refusal, carry the stamp", async () => {
    const refused = await get('/rest/v2/NoSuchThing');
    assert.equal(refused.status, 404);
    assert.equal(stampOf(refused), sandboxClock.now());
    const cors = await get('/rest/v2/Events', { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(cors.status, 403);
    assert.equal(stampOf(cors), sandboxClock.now());
  });

  test('an allowed origin may read the stamp (Access-Control-Expose-Headers)', async () => {
    const response = await get('/rest/v2/System/HeartBeat', { headers: { Origin: 'https://theatre.example' } });
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    assert.ok(exposed.includes('server-timing'), exposed.join(', '));
  });

  test('a basket hold\'s true remaining time is what the stamp says', async () => {
    const created = (await (await get('/rest/v2/Baskets', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as { BasketId: string };
    const read = await get(`/rest/v2/Baskets/${created.BasketId}`);
    assert.equal(stampOf(read), sandboxClock.now());
  });
});

/** A service that sends only `Date` (to the second), on a loopback socket, its clock `ahead` ms of the proxy's. */
async function dateOnlyService(clock: () => number) {
  const server = createServer((_req, res) => {
    res.sendDate = false;
    res.writeHead(200, { 'Content-Type': 'application/json', Date: new Date(clock()).toUTCString() });
    res.end('true');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('with a service that sends only Date', () => {
  for (const [ahead, label] of [
    [5_300.25, 'its clock 5.3 s ahead of the proxy\'s'],
    [-2_870, 'its clock 2.87 s behind'],
  ] as const) {
    test(`${label}: each stamp is never behind the service's clock, and the readings narrow to a fraction of a second`, async () => {
      const proxyClock = new ManualClock(T0 + 123);
      const service = await dateOnlyService(() => proxyClock.now() + ahead);
      const proxy = createProxy({ upstream: service.url, apiKey: KEY, log: false, rateLimit: false, cache: false, now: () => proxyClock.now() });
      try {
        const errors: number[] = [];
        for (let k = 0; k < 16; k += 1) {
          const response = await proxy.fetch(new Request('http://proxy.test/api/rest/v2/System/HeartBeat'));
          assert.equal(response.status, 200);
          const error = stampOf(response) - (proxyClock.now() + ahead);
          assert.ok(error >= 0, `reading ${k}: the stamp is ${-error} ms behind the service`);
          errors.push(error);
          proxyClock.advance(1_137); // the next answer at another moment of the service's second
        }
        assert.ok((errors[0] ?? 0) <= 1000, `the first stamp is within the second Date names (${errors[0]} ms)`);
        assert.ok((errors.at(-1) ?? 1000) < 150, `after 16 answers, within ${errors.at(-1)} ms`);
      } finally {
        await service.close();
      }
    });
  }

  test('a service whose Date agrees with the proxy is stamped with the proxy\'s own clock, to the millisecond', async () => {
    const proxyClock = new ManualClock(T0 + 437);
    const service = await dateOnlyService(() => proxyClock.now() + 120); // 120 ms apart: not told apart by whole seconds
    const proxy = createProxy({ upstream: service.url, apiKey: KEY, log: false, rateLimit: false, cache: false, now: () => proxyClock.now() });
    try {
      const response = await proxy.fetch(new Request('http://proxy.test/api/rest/v2/System/HeartBeat'));
      assert.equal(stampOf(response), proxyClock.now());
    } finally {
      await service.close();
    }
  });
});
