/**
 * The proxy's cache over loopback sockets: what is stored, for how long (an
 * injected clock, never a sleep), what never is, and one upstream call for
 * many concurrent misses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProxy, type ProxyOptions } from '../../src/server/proxy/index.ts';
import { client, listen, logSink, manualNow, recording, stubService, unreachableStore, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301';

const clock = manualNow();
const sink = logSink();
/** Event 404 does not exist upstream. */
const upstream = recording(
  stubService((op, request) => {
    if (op.name === 'getHeartBeat') return Response.json(true);
    return op.name === 'getEvent' && request.url.endsWith('/404') ? Response.json({ Message: 'gone' }, { status: 404 }) : undefined;
  }).fetch,
);
let upstreamServer: Listening;
let proxyServer: Listening;
let api: ReturnType<typeof client>;

async function startProxy(options: Partial<ProxyOptions> = {}): Promise<Listening> {
  return listen(createProxy({ upstream: upstreamServer.url, apiKey: KEY, rateLimit: false, log: sink.log, now: clock.now, ...options }).fetch);
}

before(async () => {
  upstreamServer = await listen(upstream.fetch);
  proxyServer = await startProxy();
  api = client(proxyServer.url);
});

after(async () => {
  await Promise.all([proxyServer.close(), upstreamServer.close()]);
});

/** How many requests for `path` the upstream has received so far. */
const upstreamCalls = (path: string) => upstream.received.filter((r) => r.path === path).length;

describe('cached operations', () => {
  test('a second call is served without an upstream request, with Age and the proxy clock as Date', async () => {
    const first = await api.call('GET', '/api/rest/v2/Events?type=1');
    clock.advance(42_000);
    const second = await api.call('GET', '/api/rest/v2/Events?type=1');
    assert.equal(upstreamCalls('/rest/v2/Events?type=1'), 1);
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=300');
    assert.equal(second.headers.get('age'), '42');
    assert.equal(second.headers.get('date'), new Date(clock.now()).toUTCString());
    assert.deepEqual(
      sink.entries.slice(-2).map((e) => e.cache),
      ['miss', 'hit'],
    );
  });

  test('requests that differ only in spelling or unknown parameters share one entry', async () => {
    await api.call('GET', '/api/rest/v2/venues/3?x=1');
    await api.call('GET', '/api/REST/V2/Venues/003');
    assert.equal(upstreamCalls('/rest/v2/Venues/3'), 1);
  });

  test('an entry expires after its kind’s TTL: catalogue 5 minutes', async () => {
    await api.call('GET', '/api/rest/v2/Events/5');
    clock.advance(299_000);
    await api.call('GET', '/api/rest/v2/Events/5');
    assert.equal(upstreamCalls('/rest/v2/Events/5'), 1);
    clock.advance(2_000);
    await api.call('GET', '/api/rest/v2/Events/5');
    assert.equal(upstreamCalls('/rest/v2/Events/5'), 2);
  });

  test('availability lives a few seconds; System lists an hour', async () => {
    const seats = await api.call('GET', '/api/rest/v2/Performances/9/FullAvailability');
    assert.equal(seats.headers.get('cache-control'), 'public, max-age=5');
    const countries = await api.call('GET', '/api/rest/v2/System/Countries');
    assert.equal(countries.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=3600');
    clock.advance(6_000);
    await api.call('GET', '/api/rest/v2/Performances/9/FullAvailability');
    await api.call('GET', '/api/rest/v2/System/Countries');
    assert.equal(upstreamCalls('/rest/v2/Performances/9/FullAvailability'), 2);
    assert.equal(upstreamCalls('/rest/v2/System/Countries'), 1);
  });
});

describe('HTTP caching for browsers and CDNs', () => {
  test('a catalogue answer carries a validator, and If-None-Match with it is answered 304 with no body', async () => {
    const first = await api.call('GET', '/api/rest/v2/Events/61');
    const tag = first.headers.get('etag');
    assert.ok(tag, 'a catalogue answer has an ETag');
    assert.match(first.headers.get('cache-control') ?? '', /^public, max-age=300, stale-while-revalidate=\d+$/);
    // From the proxy's cache and from the upstream alike: the same body, the same tag.
    const again = await api.call('GET', '/api/rest/v2/Events/61');
    assert.equal(again.headers.get('etag'), tag);
    const revalidated = await api.call('GET', '/api/rest/v2/Events/61', { headers: { 'If-None-Match': tag } });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.text, '');
    assert.equal(revalidated.headers.get('etag'), tag);
    assert.match(revalidated.headers.get('cache-control') ?? '', /^public, max-age=300/);
    // A list of tags, and the strong spelling of the weak tag, match too (weak comparison).
    const listed = await api.call('GET', '/api/rest/v2/Events/61', { headers: { 'If-None-Match': `"other", ${tag.replace(/^W\//, '')}` } });
    assert.equal(listed.status, 304);
  });

  test('a validator that no longer matches gets the whole answer', async () => {
    const stale = await api.call('GET', '/api/rest/v2/Events/62', { headers: { 'If-None-Match': 'W/"0-0"' } });
    assert.equal(stale.status, 200);
    assert.notEqual(stale.text, '');
    const other = await api.call('GET', '/api/rest/v2/Events/63');
    assert.notEqual(other.headers.get('etag'), stale.headers.get('etag'), 'another body, another tag');
  });

  test('seats may be kept a few seconds but never served stale', async () => {
    const seats = await api.call('GET', '/api/rest/v2/Performances/19/FullAvailability');
    assert.equal(seats.headers.get('cache-control'), 'public, max-age=5');
    assert.ok(seats.headers.get('etag'));
  });

  test('basket answers are never cacheable: no-store, no validator, If-None-Match ignored', async () => {
    const basket = '/api/rest/v2/Baskets/9a1c7e52-0d4b-4c53-8f7e-2b0d6a1e9c44';
    const first = await api.call('GET', basket);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.headers.get('etag'), null);
    const conditional = await api.call('GET', basket, { headers: { 'If-None-Match': '*' } });
    assert.equal(conditional.status, 200);
    assert.equal(conditional.headers.get('etag'), null);
  });
});

describe('never cached', () => {
  test('basket reads go upstream every time, marked no-store', async () => {
    for (const path of [BASKET, `${BASKET}/CheckoutOptions`, `${BASKET}/SubmittedBasketSummary`]) {
      const a = await api.call('GET', `/api${path}`);
      const b = await api.call('GET', `/api${path}`);
      assert.equal(upstreamCalls(path), 2, path);
      assert.equal(a.headers.get('cache-control'), 'no-store');
      assert.equal(b.headers.get('cache-control'), 'no-store');
    }
  });

  test('the liveness check and POSTs go upstream every time', async () => {
    await api.call('GET', '/api/rest/v2/System/HeartBeat');
    await api.call('GET', '/api/rest/v2/System/HeartBeat');
    assert.equal(upstreamCalls('/rest/v2/System/HeartBeat'), 2);
    const post = () =>
      api.call('POST', '/api/rest/v2/Performances/9/SeatsSelectionValidation', { body: '{"TicketIds":[1]}', headers: { 'Content-Type': 'application/json' } });
    const first = await post();
    await post();
    assert.equal(upstreamCalls('/rest/v2/Performances/9/SeatsSelectionValidation'), 2);
    assert.equal(first.headers.get('cache-control'), 'no-store');
  });

  test('errors are not stored', async () => {
    const a = await api.call('GET', '/api/rest/v2/Events/404');
    const b = await api.call('GET', '/api/rest/v2/Events/404');
    assert.equal(a.status, 404);
    assert.equal(b.status, 404);
    assert.equal(a.headers.get('cache-control'), 'no-store');
    assert.equal(a.headers.get('etag'), null, 'an error carries no validator');
    assert.equal(upstreamCalls('/rest/v2/Events/404'), 2);
  });

  test('cache: false stores nothing but still tells CDNs what they may keep', async () => {
    const uncached = await startProxy({ cache: false });
    try {
      const c = client(uncached.url);
      await c.call('GET', '/api/rest/v2/Venues/77');
      const second = await c.call('GET', '/api/rest/v2/Venues/77');
      assert.equal(upstreamCalls('/rest/v2/Venues/77'), 2);
      assert.equal(second.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=300');
    } finally {
      await uncached.close();
    }
  });
});

describe('concurrent misses', () => {
  test('50 concurrent requests for one uncached key make one upstream call', async () => {
    const N = 50;
    let arrived = 0;
    let allArrived!: () => void;
    const everyoneIn = new Promise<void>((resolve) => (allArrived = resolve));
    let upstreamHits = 0;
    // The upstream holds its answer until all 50 requests have reached the proxy.
    const gated = await listen(async () => {
      upstreamHits++;
      await everyoneIn;
      return Response.json({ Venues: [{ VenueId: 1 }] });
    });
    const proxy = createProxy({ upstream: gated.url, apiKey: KEY, rateLimit: false, log: sink.log, now: clock.now });
    const front = await listen((request, env) => {
      if (++arrived === N) allArrived();
      return proxy.fetch(request, env);
    });
    try {
      const count = sink.entries.length;
      const answers = await Promise.all(Array.from({ length: N }, () => client(front.url).call('GET', '/api/rest/v2/Venues')));
      assert.equal(upstreamHits, 1);
      for (const answer of answers) {
        assert.equal(answer.status, 200);
        assert.deepEqual(JSON.parse(answer.text), { Venues: [{ VenueId: 1 }] });
      }
      const kinds = sink.entries.slice(count).map((e) => e.cache);
      assert.equal(kinds.filter((k) => k === 'miss').length, 1);
      assert.equal(kinds.filter((k) => k === 'coalesced').length, N - 1);
    } finally {
      await Promise.all([front.close(), gated.close()]);
    }
  });
});

describe('a shared store that fails', () => {
  test('requests do not fail with it: this process caches and counts alone, and the proxy says it is degraded', async () => {
    const store = unreachableStore('broken');
    const app = createProxy({ upstream: upstreamServer.url, apiKey: KEY, log: sink.log, now: clock.now, store, rateLimit: { createBasket: { limit: 1, windowMs: 60_000 } } });
    const proxy = await listen(app.fetch);
    try {
      const c = client(proxy.url);
      assert.equal(app.storeHealth, 'ok');
      assert.equal((await c.call('GET', '/api/rest/v2/Venues/88')).status, 200);
      assert.equal(app.storeHealth, 'degraded');
      assert.equal((await c.call('GET', '/api/rest/v2/Venues/88')).status, 200);
      assert.equal(upstreamCalls('/rest/v2/Venues/88'), 1, 'the second is a hit in this process');
      // The limit still holds, per process: never no limit.
      assert.equal((await c.call('POST', '/api/rest/v2/Baskets')).status, 200);
      assert.equal((await c.call('POST', '/api/rest/v2/Baskets')).status, 429);
      const ready = await c.call('GET', '/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(JSON.parse(ready.text), { status: 'degraded', upstream: 'ok', store: { name: 'broken', health: 'degraded' }, orders: 'unchecked' });
    } finally {
      await proxy.close();
      await app.close();
    }
  });
});
