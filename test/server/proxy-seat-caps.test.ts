/**
 * Seats no one can hoard (seat-caps.ts), over the real handler in front of the sandbox (the tiny
 * catalogue's standing gig: 20 places, 10 at £25 and 10 at £15), all on one controlled clock:
 * the refusal and its body, release on remove and on expiry, the room's queue id, and the
 * hoarding probe: one address, as fast as it can, over three proxies sharing a real redis-server
 * (then a real three-master Redis Cluster), never holding more than the caps, and a proxy
 * restarted on the same Redis losing nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProxy, type ProxyApp, type ProxyOptions, type ProxyStore } from '../../src/server/proxy/index.ts';
import { createRedisStore } from '../../src/server/proxy/redis-store.ts';
import { createSandbox, ManualClock, type Sandbox } from '../../src/server/sandbox/index.ts';
import { createApiClient } from '../../src/api/client.ts';
import type { BasketContent } from '../../src/api/types.ts';
import { basketFailureOf } from '../../src/state/basket-failure.ts';
import { START, TINY, tinyCatalogue } from './sandbox-harness.ts';
import { stagedoor } from './cli-helpers.ts';
import { listen, unreachableStore } from './proxy-helpers.ts';
import { startRedis, startRedisCluster, type RunningRedis, type RunningRedisCluster } from './servers.ts';

const KEY = 'sk-seat-caps';
const ADDRESS = '203.0.113.7';
const CAPS = { perVisitor: 4, perAddress: 6 };
const MINUTE = 60_000;

interface World {
  clock: ManualClock;
  sandbox: Sandbox;
  proxy(options?: Partial<ProxyOptions>): ProxyApp;
}

function world(): World {
  const clock = new ManualClock(START);
  const sandbox = createSandbox({ catalogue: tinyCatalogue(START), clock, apiKeys: [KEY] });
  return {
    clock,
    sandbox,
    proxy: (options = {}) =>
      createProxy({
        upstream: (request) => sandbox.fetch(request),
        apiKey: KEY,
        log: false,
        metrics: false,
        rateLimit: false,
        now: () => clock.now(),
        clientAddress: () => ADDRESS,
        seatCaps: CAPS,
        ...options,
      }),
  };
}

async function call(proxy: ProxyApp, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'Content-Type': 'application/json', ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await proxy.fetch(new Request(`http://proxy.test/api${path}`, init));
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function newBasket(proxy: ProxyApp): Promise<string> {
  const r = await call(proxy, 'POST', '/rest/v2/Baskets');
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return String(r.body.BasketId);
}

/** Add `seats` standing places (£25, or £15 with `cheap`) to the gig by v3, as another client would. */
function add(proxy: ProxyApp, basket: string, seats: number, headers: Record<string, string> = {}, cheap = false) {
  return call(proxy, 'POST', `/v3/Baskets/${basket}/performances/${TINY.gaPerf}/tickets`, { AreaId: TINY.standing, SeatsCount: seats, Price: cheap ? 15 : 25 }, headers);
}

async function content(proxy: ProxyApp, basket: string): Promise<BasketContent> {
  const r = await call(proxy, 'GET', `/rest/v2/Baskets/${basket}`);
  assert.equal(r.status, 200);
  return r.body as unknown as BasketContent;
}

/** A fresh sandbox, a proxy over it and one basket. */
async function oneBasket(options: Partial<ProxyOptions> = {}) {
  const w = world();
  const proxy = w.proxy(options);
  return { w, proxy, basket: await newBasket(proxy) };
}

/** The status of an answer, for a sequence of steps read at a glance. */
const status = async (answer: Promise<{ status: number }>) => (await answer).status;

const seatsIn = (basket: BasketContent) => basket.Items.reduce((n, item) => n + item.Tickets.length, 0);

describe('seat caps on one proxy (its memory)', () => {
  test('an add past the visitor cap gets the service’s 409 naming how many may still be added, and the basket stays as it was', async () => {
    const { proxy, basket } = await oneBasket();
    assert.equal(await status(add(proxy, basket, 3)), 200);
    const refused = await add(proxy, basket, 2);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, {
      Success: false,
      FailureReason: 8,
      FailureReasonText: 'BookableTicketsExceeded',
      BookableTicketsCount: 1,
      GetBasketContentResult: null,
      Message: 'At most 4 seats per visitor may be held at once for this performance; 1 more may be added.',
      SeatCap: { per: 'visitor', cap: 4, remaining: 1 },
    });
    assert.equal(seatsIn(await content(proxy, basket)), 3);
    assert.equal(await status(add(proxy, basket, 1)), 200);
    assert.equal(seatsIn(await content(proxy, basket)), 4);
  });

  test('the widget’s client reads the refusal as the service’s: it says how many more may be booked', async () => {
    const { proxy, basket } = await oneBasket();
    const api = createApiClient({ endpoint: 'http://proxy.test/api', fetch: async (input, init) => proxy.fetch(new Request(input, init)) });
    await api.addTickets({ basketId: basket, body: { BestSeats: { PerformanceId: TINY.gaPerf, AreaId: TINY.standing, SeatsCount: 3, Price: 25 } } });
    const failures = [];
    for (const SeatsCount of [2, 1, 1]) {
      const error = await api.addTickets({ basketId: basket, body: { BestSeats: { PerformanceId: TINY.gaPerf, AreaId: TINY.standing, SeatsCount, Price: 25 } } }).then(() => null, (e: unknown) => e);
      if (error) failures.push(basketFailureOf('add', error));
    }
    assert.deepEqual(
      failures.map((f) => [f.kind, f.bookableTicketsCount, f.message]),
      [
        ['bookable-exceeded', 1, 'Only 1 ticket can still be booked for this performance.'],
        ['bookable-exceeded', 0, 'No more tickets can be booked for this performance.'],
      ],
    );
  });

  test('a second basket from the same address is held to what the address cap leaves', async () => {
    const w = world();
    const proxy = w.proxy();
    const first = await newBasket(proxy);
    const second = await newBasket(proxy);
    assert.equal(await status(add(proxy, first, 4)), 200);
    const refused = await add(proxy, second, 3);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.SeatCap, { per: 'address', cap: 6, remaining: 2 });
    assert.equal(refused.body.BookableTicketsCount, 2);
    assert.equal(await status(add(proxy, second, 2)), 200);
  });

  test('removed seats leave the count: one item, then all', async () => {
    const { proxy, basket } = await oneBasket();
    assert.equal(await status(add(proxy, basket, 2)), 200);
    assert.equal(await status(add(proxy, basket, 2, {}, true)), 200);
    assert.equal(await status(add(proxy, basket, 1)), 409);
    const item = (await content(proxy, basket)).Items[0]!;
    assert.equal(await status(call(proxy, 'DELETE', `/rest/v2/Baskets/${basket}/BasketItem/${item.BasketItemId}`)), 200);
    assert.equal(await status(add(proxy, basket, 2)), 200);
    assert.equal(await status(add(proxy, basket, 1)), 409);
    assert.equal(await status(call(proxy, 'DELETE', `/rest/v2/Baskets/${basket}/Tickets`)), 200);
    assert.equal(await status(add(proxy, basket, 4)), 200);
  });

  test('seats whose hold expired leave the count (the service’s clock)', async () => {
    const { w, proxy, basket } = await oneBasket();
    assert.equal(await status(add(proxy, basket, 4)), 200);
    w.clock.advance(9 * MINUTE);
    assert.equal(await status(add(proxy, basket, 1)), 409, 'still held a minute before the hold ends');
    w.clock.advance(1 * MINUTE + 1000);
    const again = await newBasket(proxy);
    assert.equal(await status(add(proxy, again, 4)), 200);
  });

  test('an IPv6 client is one address per /64, as the rate limits count it', async () => {
    const addresses = ['2001:db8:7:9::1', '2001:db8:7:9:ffff:ffff:ffff:fffe'];
    let next = 0;
    const w = world();
    const proxy = w.proxy({ clientAddress: () => addresses[next++ % 2] });
    const [a, b] = [await newBasket(proxy), await newBasket(proxy)];
    assert.equal(await status(add(proxy, a, 4)), 200);
    const refused = await add(proxy, b, 3);
    assert.deepEqual([refused.status, refused.body.SeatCap], [409, { per: 'address', cap: 6, remaining: 2 }]);
  });

  test('the room’s queue id is the visitor: two baskets of one queue id share its cap; a malformed one is refused', async () => {
    const w = world();
    const proxy = w.proxy({ seatCaps: { perVisitor: 4, perAddress: 20 } });
    const visitor = { 'Stagedoor-Queue-Id': 'q-42' };
    const [a, b] = [await newBasket(proxy), await newBasket(proxy)];
    assert.equal(await status(add(proxy, a, 3, visitor)), 200);
    const refused = await add(proxy, b, 2, visitor);
    assert.deepEqual([refused.status, refused.body.SeatCap], [409, { per: 'visitor', cap: 4, remaining: 1 }]);
    assert.equal(await status(add(proxy, b, 2)), 200, 'without the queue id the basket is the visitor');
    const bad = await add(proxy, b, 1, { 'Stagedoor-Queue-Id': 'no spaces {here}' });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.Message), /Stagedoor-Queue-Id/);
  });

  test('a shared store that fails: this process still caps (degraded, not open, not closed)', async () => {
    const { proxy, basket } = await oneBasket({ store: unreachableStore() });
    assert.equal(await status(add(proxy, basket, 4)), 200);
    const refused = await add(proxy, basket, 1);
    assert.deepEqual([refused.status, refused.body.BookableTicketsCount, proxy.storeHealth], [409, 0, 'degraded']);
  });

  test('caps switched off: the service alone decides', async () => {
    const { proxy, basket } = await oneBasket({ seatCaps: false });
    assert.equal(await status(add(proxy, basket, 8)), 200);
  });
});

describe('stagedoor proxy --seat-cap-visitor / --seat-cap-address', () => {
  test('sets the caps (off switches one off), and refuses a cap that is not a number', async () => {
    const w = world();
    const service = await listen((request) => w.sandbox.fetch(request));
    const cli = stagedoor(['proxy', '--upstream', service.url, '--port', '0', '--seat-cap-visitor', '2', '--seat-cap-address', 'off'], { STAGEDOOR_API_KEY: KEY });
    const bad = stagedoor(['proxy', '--upstream', service.url, '--port', '0', '--seat-cap-visitor', 'many'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, endpoint] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);
      const post = async (path: string, body?: unknown) => {
        const response = await fetch(`${endpoint}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const basket = String((await post('/rest/v2/Baskets')).body.BasketId);
      const refused = await post(`/v3/Baskets/${basket}/performances/${TINY.gaPerf}/tickets`, { AreaId: TINY.standing, SeatsCount: 3, Price: 25 });
      assert.deepEqual([refused.status, refused.body.SeatCap], [409, { per: 'visitor', cap: 2, remaining: 2 }]);
      assert.equal(await bad.exited, 2);
      assert.match(bad.stderr(), /--seat-cap-visitor must be a positive whole number/);
    } finally {
      await Promise.all([cli.stop(), bad.stop()]);
      await service.close();
    }
  });
});

/**
 * One address, as fast as it can: 12 baskets, each firing 1- and 2-seat adds at both prices,
 * round robin over the proxies, all at once (60 adds). Returns the seats the service holds for it.
 */
async function hoard(proxies: ProxyApp[]): Promise<{ held: number; perBasket: number[]; refusals: number }> {
  const baskets = await Promise.all(Array.from({ length: 12 }, (_, i) => newBasket(proxies[i % proxies.length]!)));
  let n = 0;
  const attempts = baskets.flatMap((basket) =>
    Array.from({ length: 5 }, (_, j) => {
      const proxy = proxies[n++ % proxies.length]!;
      return add(proxy, basket, 1 + (j % 2), {}, j % 2 === 1);
    }),
  );
  const answers = await Promise.all(attempts);
  const perBasket = await Promise.all(baskets.map(async (basket) => seatsIn(await content(proxies[0]!, basket))));
  return { held: perBasket.reduce((a, b) => a + b, 0), perBasket, refusals: answers.filter((a) => a.status === 409).length };
}

function sharedStoreSuite(name: string, makeStore: () => ProxyStore) {
  describe(`seat caps across three proxies on ${name}`, () => {
    let w: World;
    let proxies: ProxyApp[];
    before(() => {
      w = world();
      proxies = [0, 1, 2].map(() => w.proxy({ store: makeStore() }));
    });
    after(async () => {
      await Promise.all(proxies.map((p) => p.close()));
    });

    test('the hoarding probe: one address over three proxies never holds more than the caps', async () => {
      const { held, perBasket, refusals } = await hoard(proxies);
      console.log(`hoarding probe (${name}): held ${held} seats, per basket ${perBasket.join(',')}, ${refusals} adds refused`);
      assert.ok(held <= CAPS.perAddress, `held ${held}`);
      assert.ok(held >= CAPS.perAddress - 1, `the caps, not something else, stopped it: held ${held}`);
      for (const seats of perBasket) assert.ok(seats <= CAPS.perVisitor);
      assert.deepEqual(proxies.map((p) => p.storeHealth), ['ok', 'ok', 'ok'], 'counted in the shared store, not each proxy alone');
    });

    test('a proxy restarted on the same store loses nothing: still refused, and a removal anywhere frees seats everywhere', async () => {
      await proxies[0]!.close();
      proxies[0] = w.proxy({ store: makeStore() });
      const basket = await newBasket(proxies[0]);
      const refused = await add(proxies[0], basket, 1);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.BookableTicketsCount, 0);
      w.clock.advance(10 * MINUTE + 1000);
      assert.equal(await status(add(proxies[1]!, basket, 4)), 200, 'the holds expired on the service’s clock');
      assert.equal(await status(add(proxies[2]!, basket, 1)), 409);
      assert.equal(await status(call(proxies[0], 'DELETE', `/rest/v2/Baskets/${basket}/Tickets`)), 200);
      assert.equal(await status(add(proxies[2]!, basket, 4)), 200);
    });
  });
}

let redis: RunningRedis;
let cluster: RunningRedisCluster;
before(async () => {
  [redis, cluster] = await Promise.all([startRedis(), startRedisCluster()]);
});
after(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

sharedStoreSuite('one redis-server', () => createRedisStore({ url: redis.url, keyPrefix: 'caps:' }));
sharedStoreSuite('a three-master Redis Cluster', () =>
  createRedisStore({ url: cluster.urls[0]!, clusterNodes: cluster.urls, keyPrefix: 'caps:' }),
);
