/**
 * Rate limits per client address on Create Basket and Add Tickets (v2 and v3
 * together): a sliding window (never twice the limit across a boundary), 429
 * with Retry-After, time moved by an injected clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProxy } from '../../src/server/proxy/index.ts';
import { client, listen, manualNow, recording, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const V3_ADD = '/api/v3/baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/performances/5/tickets';

const clock = manualNow();
const upstream = recording(stubService().fetch);
let upstreamServer: Listening;
let behindBalancer: Listening;
let direct: Listening;
let behindForwarded: Listening;

before(async () => {
  upstreamServer = await listen(upstream.fetch);
  const rateLimit = { createBasket: { limit: 2, windowMs: 60_000 }, addTickets: { limit: 3, windowMs: 60_000 } };
  const common = { upstream: upstreamServer.url, apiKey: KEY, log: false as const, now: clock.now, rateLimit };
  behindBalancer = await listen(createProxy({ ...common, clientAddressHeader: 'X-Forwarded-For' }).fetch);
  direct = await listen(createProxy(common).fetch);
  behindForwarded = await listen(createProxy({ ...common, clientAddressHeader: 'Forwarded' }).fetch);
});

after(async () => {
  await Promise.all([behindBalancer.close(), direct.close(), behindForwarded.close(), upstreamServer.close()]);
});

const createBaskets = () => upstream.received.filter((r) => r.method === 'POST' && r.path === '/rest/v2/Baskets').length;

function from(address: string) {
  const api = client(behindBalancer.url);
  return {
    createBasket: () => api.call('POST', '/api/rest/v2/Baskets', { headers: { 'X-Forwarded-For': `203.0.113.9, ${address}` } }),
    add: (path: string) =>
      api.call('POST', path, { body: '{"Tickets":[1]}', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address } }),
  };
}

describe('Create Basket', () => {
  test('the third in a minute from one address is 429 with Retry-After, and is not forwarded', async () => {
    const a = from('198.51.100.1');
    const before = createBaskets();
    assert.equal((await a.createBasket()).status, 200);
    clock.advance(10_000);
    assert.equal((await a.createBasket()).status, 200);
    const refused = await a.createBasket();
    assert.equal(refused.status, 429);
    // The first of the two leaves the window 50 s from now.
    assert.equal(refused.headers.get('retry-after'), '50');
    assert.match((JSON.parse(refused.text) as { Message: string }).Message, /Too many requests/);
    assert.equal(createBaskets(), before + 2);
  });

  test('another address has its own counter (the balancer’s rightmost X-Forwarded-For entry)', async () => {
    assert.equal((await from('198.51.100.2').createBasket()).status, 200);
    assert.equal((await from('198.51.100.1').createBasket()).status, 429);
  });

  test('a request is allowed again once the oldest counted one has left the window, and one only', async () => {
    clock.advance(49_999);
    assert.equal((await from('198.51.100.1').createBasket()).status, 429, 'both still within the last minute');
    clock.advance(1);
    assert.equal((await from('198.51.100.1').createBasket()).status, 200, 'the first has left the window');
    assert.equal((await from('198.51.100.1').createBasket()).status, 429, 'the second is still in it');
  });

  test('no boundary to exploit: the limit at the end of one minute and again at the start of the next is refused', async () => {
    const b = from('198.51.100.3');
    clock.advance(59_000); // late in a clock-aligned minute
    assert.deepEqual([(await b.createBasket()).status, (await b.createBasket()).status], [200, 200]);
    clock.advance(2_000); // early in the next clock-aligned minute
    assert.deepEqual([(await b.createBasket()).status, (await b.createBasket()).status], [429, 429]);
    clock.advance(58_000);
    assert.equal((await b.createBasket()).status, 200, 'a full minute after the first');
  });

  test('refused requests are not counted: a client that keeps trying gets its limit per window, no less', async () => {
    const c = from('198.51.100.4');
    clock.advance(60_000);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await c.createBasket()).status);
    assert.deepEqual(statuses, [200, 200, 429, 429, 429, 429]);
    clock.advance(60_000);
    assert.equal((await c.createBasket()).status, 200);
  });

  test('IPv6 clients are counted per /64: two addresses in one /64 share one limit, another /64 has its own', async () => {
    clock.advance(60_000);
    assert.equal((await from('2001:db8:aa:1::1').createBasket()).status, 200);
    // The same /64, written another way (every group, upper case; then in brackets).
    assert.equal((await from('2001:DB8:AA:1:ffff:ffff:ffff:fffe').createBasket()).status, 200);
    const refused = await from('[2001:db8:aa:1::9]').createBasket();
    assert.equal(refused.status, 429, 'a third address of that /64 is over the limit of 2');
    assert.equal((await from('2001:db8:aa:2::1').createBasket()).status, 200, 'the neighbouring /64 has its own counter');
    assert.equal((await from('2001:db8:aa:2::2').createBasket()).status, 200);
    assert.equal((await from('2001:db8:aa:2::3').createBasket()).status, 429);
  });

  test('IPv4 is counted per address, written plain or IPv4-mapped (as a dual-stack socket reports it)', async () => {
    clock.advance(60_000);
    assert.equal((await from('198.51.100.20').createBasket()).status, 200);
    assert.equal((await from('::ffff:198.51.100.20').createBasket()).status, 200);
    assert.equal((await from('::FFFF:c633:6414').createBasket()).status, 429, 'the same IPv4 address, mapped and in hex');
    assert.equal((await from('198.51.100.21').createBasket()).status, 200, 'its neighbour has its own counter');
  });

  test("behind a front that writes Forwarded (RFC 7239): its rightmost for=, without the port, IPv6 on its /64", async () => {
    clock.advance(60_000);
    const api = client(behindForwarded.url);
    const basket = (forwarded: string) => api.call('POST', '/api/rest/v2/Baskets', { headers: { Forwarded: forwarded } }).then((r) => r.status);
    // The same client seen from another source port, and with the front's other details, is one client.
    assert.equal(await basket('for=198.51.100.30;proto=https;host=theatre.example'), 200);
    assert.equal(await basket('for="198.51.100.30:4711";proto=http'), 200);
    assert.equal(await basket('for=203.0.113.1, for="198.51.100.30:5000";host=theatre.example'), 429, 'the nearest front\'s element counts, not the caller\'s');
    assert.equal(await basket('for=198.51.100.30, for=198.51.100.31'), 200, 'its neighbour has its own counter');
    assert.equal(await basket('for="[2001:db8:bb:1::1]:4711"'), 200);
    assert.equal(await basket('for="[2001:db8:bb:1::2]"'), 200);
    assert.equal(await basket('for="[2001:db8:bb:1::3]:80"'), 429, 'one /64');
  });

  test('without a trusted header, X-Forwarded-For is ignored: the connection address counts', async () => {
    const api = client(direct.url);
    const statuses = [];
    for (const spoof of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      statuses.push((await api.call('POST', '/api/rest/v2/Baskets', { headers: { 'X-Forwarded-For': spoof } })).status);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});

describe('Add Tickets', () => {
  test('version 2 and version 3 share one counter', async () => {
    clock.advance(60_000);
    const a = from('198.51.100.7');
    const statuses = [];
    for (const path of [`${BASKET}/Tickets`, V3_ADD, `${BASKET}/Tickets`, V3_ADD, `${BASKET}/Tickets`]) {
      statuses.push((await a.add(path)).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });

  test('other operations are not limited', async () => {
    const api = client(behindBalancer.url);
    for (let i = 0; i < 10; i++) {
      assert.equal((await api.call('GET', `${BASKET}`, { headers: { 'X-Forwarded-For': '198.51.100.7' } })).status, 200);
    }
  });
});
