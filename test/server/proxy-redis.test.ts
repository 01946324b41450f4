/**
 * Three `stagedoor proxy` processes sharing one real redis-server (started by
 * this file on a free loopback port, stopped by its pid) in front of one
 * sandbox: one rate limit for a client spraying all three, a lookup cached by
 * one is a hit at the others, concurrent identical lookups make one upstream
 * call, a repeated order gets the same redirect wherever it lands, and Redis
 * stopped in the middle of a booking and started again changes nothing the
 * customer sees (the proxies say they are degraded meanwhile, then share again).
 *
 * Each test is its own client address (X-Forwarded-For, trusted by the
 * proxies here), so the rate limits of one never touch another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { ApiError } from '../../src/api/client.ts';
import { createProxy } from '../../src/server/proxy/node.ts';
import { createRedisStore } from '../../src/server/proxy/redis-store.ts';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { RETURN_ORIGIN, book, findSeatPair, orderFor, rotation } from './booking-steps.ts';
import { stagedoor, type Running } from './cli-helpers.ts';
import { listen, recording, type Listening } from './proxy-helpers.ts';
import { startRedis, type RunningRedis } from './servers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const sandbox = createSandbox({ apiKeys: [KEY] });
/** Requests held here until the test lets them through (by path); `arrived` is called when one comes. */
const gates = new Map<string, { open: Promise<void>; arrived: () => void }>();
const upstream = recording(async (request) => {
  const gate = gates.get(new URL(request.url).pathname);
  if (gate) {
    gate.arrived();
    await gate.open;
  }
  return sandbox.fetch(request);
});
const upstreamCalls = (path: string) => upstream.received.filter((r) => r.path === path).length;

let redis: RunningRedis;
let service: Listening;
const proxies: Running[] = [];
const endpoints: string[] = [];

before(async () => {
  [redis, service] = await Promise.all([startRedis(), listen(upstream.fetch)]);
  for (let i = 0; i < 3; i++) {
    const common = ['proxy', '--upstream', service.url, '--port', '0', '--client-address-header', 'X-Forwarded-For', '--return-origin', RETURN_ORIGIN];
    // Two told by --redis, the third by REDIS_URL.
    proxies.push(
      i < 2
        ? stagedoor([...common, '--redis', redis.url], { STAGEDOOR_API_KEY: KEY })
        : stagedoor(common, { STAGEDOOR_API_KEY: KEY, REDIS_URL: redis.url }),
    );
  }
  for (const proxy of proxies) {
    const [, url] = await proxy.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\/ .*store: redis/);
    endpoints.push(url ?? '');
  }
});

after(async () => {
  await Promise.all(proxies.map((p) => p.stop()));
  await Promise.all([redis.stop(), service.close()]);
});

const from = (address: string) => ({ 'X-Forwarded-For': address });

/** The proxy's access-log record for an operation, once it is written. */
async function logged(proxy: Running | undefined, operation: string, pattern: RegExp): Promise<Record<string, unknown>> {
  assert.ok(proxy);
  const { input } = await proxy.line(new RegExp(`^\\{.*"operation":"${operation}".*${pattern.source}`), 10_000);
  return JSON.parse(input) as Record<string, unknown>;
}

describe('three proxy processes, one Redis', () => {
  test('a client spraying all three gets one rate limit’s worth (10 Create Basket a minute), not three', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${endpoints[i % 3]}/rest/v2/Baskets`, { method: 'POST', headers: from('198.51.100.10') });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    assert.equal(statuses.filter((s) => s === 201).length, 10, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 429).length, 20);
    // Every proxy refused some: the limit is one, wherever the requests land.
    for (let p = 0; p < 3; p++) assert.ok(statuses.filter((s, i) => i % 3 === p && s === 429).length > 0, `proxy ${p} refused none`);
  });

  test('a lookup cached by one proxy is a hit at the other two', async () => {
    const path = '/rest/v2/Venues';
    const first = await fetch(`${endpoints[0]}${path}`);
    const body = await first.text();
    assert.equal(first.status, 200);
    assert.equal(upstreamCalls(path), 1);
    for (const p of [1, 2]) {
      const again = await fetch(`${endpoints[p]}${path}`);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), body);
      assert.match(again.headers.get('age') ?? '', /^\d+$/, 'a stored answer says its age');
      assert.equal((await logged(proxies[p], 'getVenues', /"cache":"hit"/)).status, 200);
    }
    assert.equal(upstreamCalls(path), 1, 'only the first proxy asked the service');
  });

  test('a proxy mounted in the host’s own Node server (createProxy({ store: createRedisStore() })) shares with them', async () => {
    const app = createProxy({ upstream: service.url, apiKey: KEY, log: false, store: createRedisStore({ url: redis.url }), returnOrigins: [RETURN_ORIGIN] });
    const own = await listen(app.fetch);
    try {
      const path = '/rest/v2/System/Countries';
      assert.equal((await fetch(`${endpoints[1]}${path}`)).status, 200);
      const here = await fetch(`${own.url}/api${path}`);
      assert.equal(here.status, 200);
      assert.match(here.headers.get('age') ?? '', /^\d+$/, 'answered from the shared cache');
      assert.equal(upstreamCalls(path), 1);
      assert.equal(app.storeHealth, 'ok');
    } finally {
      await own.close();
      await app.close();
    }
  });

  test('concurrent identical lookups at all three make one upstream call', async () => {
    const { Venues } = (await (await fetch(`${endpoints[0]}/rest/v2/Venues`)).json()) as { Venues: { VenueId: number }[] };
    const path = `/rest/v2/Venues/${Venues[0]?.VenueId ?? 0}/Events`;
    let open = () => undefined as void;
    let arrived = () => undefined as void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    gates.set(path, { open: new Promise<void>((resolve) => (open = resolve)), arrived });
    // Watch Redis itself: each waiting proxy looks up the key, fails to claim it, then looks again.
    const watcher = new Redis(redis.url);
    const monitor = await watcher.monitor();
    let lookups = 0;
    let claims = 0;
    let everyoneWaits = () => undefined as void;
    const waiting = new Promise<void>((resolve) => (everyoneWaits = resolve));
    monitor.on('monitor', (_time: string, args: string[]) => {
      const [command, key] = args;
      if (command?.toLowerCase() === 'get' && key === `stagedoor:cache:GET ${path}`) lookups++;
      if (command?.toLowerCase() === 'set' && key === `stagedoor:flight:lookup:GET ${path}`) claims++;
      // The first: one look, one claim (it holds the key); the other two: look, claim (refused), look again.
      if (lookups >= 5 && claims >= 3) everyoneWaits();
    });
    try {
      const answers = endpoints.map((endpoint) => fetch(`${endpoint}${path}`).then(async (r) => ({ status: r.status, text: await r.text() })));
      await Promise.all([waiting, reached]);
      assert.equal(upstreamCalls(path), 1, 'one proxy asked the service; the others wait for it');
      open();
      const results = await Promise.all(answers);
      for (const r of results) assert.equal(r.status, 200);
      assert.equal(new Set(results.map((r) => r.text)).size, 1);
      assert.equal(upstreamCalls(path), 1);
      const sources = await Promise.all(proxies.map((p) => logged(p, 'getVenueEvents', /"cache":"(miss|coalesced)"/)));
      assert.deepEqual(sources.map((e) => e.cache).sort(), ['coalesced', 'coalesced', 'miss']);
    } finally {
      open();
      gates.delete(path);
      monitor.disconnect();
      watcher.disconnect();
    }
  });

  test('an order repeated at another proxy gets the same PaymentRedirectUrl, not the service’s 403', async () => {
    const next = rotation(endpoints, from('198.51.100.11'));
    const { tickets } = await findSeatPair(next(), 0);
    const { BasketId } = await next().createBasket();
    await next().addTickets({ basketId: BasketId, body: { Tickets: tickets } });
    const first = await next().submitOrder({ basketId: BasketId, body: orderFor(BasketId) }); // proxy 0
    const repeated = await next().submitOrder({ basketId: BasketId, body: orderFor(BasketId) }); // proxy 1
    assert.equal(repeated.PaymentRedirectUrl, first.PaymentRedirectUrl);
    assert.equal(upstream.received.filter((r) => r.path.endsWith(`/${BasketId}/SubmitOrder`) && r.answer?.status === 403).length, 1, 'the service refused the repeat');
    assert.equal((await logged(proxies[1], 'submitOrder', /"replayed":true/)).status, 200);
    // Another customer's details for that basket, at the third proxy: the service's own 403, never the kept redirect.
    await assert.rejects(
      next().submitOrder({ basketId: BasketId.toUpperCase(), body: { ...orderFor(BasketId), Name: 'Mallory', Email: 'mallory@example.com' } }),
      (error: unknown) => error instanceof ApiError && error.status === 403,
    );
  });

  test('Redis stopped in the middle of a booking and started again: every step answers as it would have, /readyz says degraded meanwhile, and sharing resumes', async () => {
    const next = rotation(endpoints, from('198.51.100.12'));
    const { tickets } = await findSeatPair(next(), 1);
    const readiness = async () =>
      Promise.all(endpoints.map(async (endpoint) => ((await (await fetch(endpoint.replace(/\/api$/, '/readyz'))).json()) as { status: string }).status));
    const outcome = await book(next, tickets, async (step) => {
      if (step === 'added') {
        await redis.stop();
        assert.deepEqual(await readiness(), ['degraded', 'degraded', 'degraded']);
      }
      if (step === 'paid') await redis.start();
    });
    assert.deepEqual(outcome.bookedSeats, outcome.seats, 'the seats chosen are the seats booked');
    assert.equal(outcome.seats.length, 2);
    assert.match(outcome.bookingReference, /\S/);
    for (const proxy of proxies) await proxy.line(/sharing resumed/, 20_000, 'stderr', 1);
    assert.deepEqual(await readiness(), ['ready', 'ready', 'ready']);

    // Shared again: a lookup cached by one is a hit at another.
    const path = '/rest/v2/System/EventTypes';
    assert.equal((await fetch(`${endpoints[2]}${path}`)).status, 200);
    assert.equal((await fetch(`${endpoints[0]}${path}`)).status, 200);
    assert.equal(upstreamCalls(path), 1);
  });

  test('the booking fails the same way with or without Redis: a seat another basket holds is 409 wherever it is asked', async () => {
    const next = rotation(endpoints, from('198.51.100.13'));
    const { tickets } = await findSeatPair(next(), 2);
    const holder = await next().createBasket();
    await next().addTickets({ basketId: holder.BasketId, body: { Tickets: tickets } });
    await redis.stop();
    try {
      const other = await next().createBasket();
      await assert.rejects(next().addTickets({ basketId: other.BasketId, body: { Tickets: tickets } }), (error: unknown) => error instanceof ApiError && error.status === 409);
      // A basket at every proxy: each counts it without Redis (so each says so when Redis is back).
      for (const endpoint of endpoints) {
        const created = await fetch(`${endpoint}/rest/v2/Baskets`, { method: 'POST', headers: from('198.51.100.13') });
        assert.equal(created.status, 201, await created.text());
      }
    } finally {
      await redis.start();
    }
    for (const proxy of proxies) await proxy.line(/sharing resumed/, 20_000, 'stderr', 2);
  });
});
