/**
 * SubmitOrder made idempotent at the proxy (one process, its memory store), in
 * front of the real sandbox over loopback sockets: an order whose answer was
 * lost, repeated, gets the same PaymentRedirectUrl instead of the service's
 * 403 (until the payment timeout), whether the answer was lost on the way to
 * the customer or came from the service too late; a new order after a
 * declined payment still goes to the service.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import type { SubmitOrderResult } from '../../src/api/types.ts';
import { createProxy, type ProxyApp } from '../../src/server/proxy/node.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { RETURN_ORIGIN, findSeatPair, orderFor } from './booking-steps.ts';
import { client, listen, logSink, recording, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
const sandbox = createSandbox({ clock, apiKeys: [KEY] });
/** SubmitOrder requests wait here while a test holds them (the service is slow). */
let hold: Promise<void> | null = null;
let arrived = () => undefined as void;
const upstream = recording(async (request) => {
  if (hold && new URL(request.url).pathname.endsWith('/SubmitOrder')) {
    arrived();
    await hold;
  }
  return sandbox.fetch(request);
});
const sink = logSink();
let service: Listening;
let app: ProxyApp;
let proxy: Listening;
/** A proxy with a short upstream time limit, for the slow order. */
let impatientApp: ProxyApp;
let impatient: Listening;
let skip = 0;

before(async () => {
  service = await listen(upstream.fetch);
  app = createProxy({ upstream: service.url, apiKey: KEY, log: sink.log, rateLimit: false, now: () => clock.now(), returnOrigins: [RETURN_ORIGIN] });
  impatientApp = createProxy({ upstream: service.url, apiKey: KEY, log: false, rateLimit: false, now: () => clock.now(), timeoutMs: 1000, returnOrigins: [RETURN_ORIGIN] });
  [proxy, impatient] = await Promise.all([listen(app.fetch), listen(impatientApp.fetch)]);
});

after(async () => {
  await Promise.all([proxy.close(), impatient.close(), service.close()]);
  await Promise.all([app.close(), impatientApp.close()]);
});

/** A basket holding two seats, ready to submit. */
async function filledBasket(): Promise<string> {
  const api = createApiClient({ endpoint: `${proxy.url}/api` });
  const { tickets } = await findSeatPair(api, skip++);
  const { BasketId } = await api.createBasket();
  await api.addTickets({ basketId: BasketId, body: { Tickets: tickets } });
  return BasketId;
}

const submit = (basketId: string, through: Listening = proxy, order: object = orderFor(basketId)) =>
  client(through.url).call('POST', `/api/rest/v2/Baskets/${basketId}/SubmitOrder`, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(order) });

/** Another customer's details for the same basket. */
const otherOrder = (basketId: string) => ({ ...orderFor(basketId), Name: 'Mallory', LastName: 'Other', Email: 'mallory@example.com' });

/** What the service answered to SubmitOrder for a basket (its id in any case), in order. */
const serviceAnswers = (basketId: string) =>
  upstream.received.filter((r) => r.path.toLowerCase().endsWith(`/${basketId.toLowerCase()}/submitorder`)).map((r) => r.answer?.status);

describe('a repeated SubmitOrder', () => {
  test('answers the same PaymentRedirectUrl instead of the service’s 403', async () => {
    const basketId = await filledBasket();
    const first = await submit(basketId);
    assert.equal(first.status, 200, first.text);
    const again = await submit(basketId);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(JSON.parse(again.text), JSON.parse(first.text));
    assert.deepEqual(serviceAnswers(basketId), [200, 403], 'the service was asked, and refused the repeat');
    assert.deepEqual(
      sink.entries.filter((e) => e.operation === 'submitOrder').slice(-2).map((e) => [e.status, e.replayed]),
      [[200, undefined], [200, true]],
    );
  });

  test('whose first answer was lost on the way to the customer (the connection dropped) gets the redirect', async () => {
    const basketId = await filledBasket();
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    // The customer's connection drops while the service is taking the order.
    const body = JSON.stringify(orderFor(basketId));
    const lost = httpRequest(`${proxy.url}/api/rest/v2/Baskets/${basketId}/SubmitOrder`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } });
    const closed = new Promise<void>((resolve) => lost.once('error', () => resolve()).once('close', () => resolve()));
    lost.end(body);
    await reached;
    lost.destroy();
    await closed;
    hold = null;
    release();
    const again = await submit(basketId);
    assert.equal(again.status, 200, again.text);
    const { PaymentRedirectUrl } = JSON.parse(again.text) as SubmitOrderResult;
    assert.match(PaymentRedirectUrl, new RegExp(`/sandbox/pay/${basketId}$`));
    assert.equal(serviceAnswers(basketId).filter((s) => s === 200).length, 1, 'one order was placed');
  });

  test('whose answer the service gave too late (504 at the time limit) gets it when repeated', async () => {
    const basketId = await filledBasket();
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const first = await submit(basketId, impatient);
    assert.equal(first.status, 504, first.text);
    hold = null;
    release();
    const again = await submit(basketId, impatient);
    assert.equal(again.status, 200, again.text);
    assert.match((JSON.parse(again.text) as SubmitOrderResult).PaymentRedirectUrl, new RegExp(`/sandbox/pay/${basketId}$`));
    assert.deepEqual(serviceAnswers(basketId), [200, 403], 'the late answer was the accepted order; the repeat was refused upstream');
  });

  test('two at once (a double submit) reach the service once and both get the redirect', async () => {
    const basketId = await filledBasket();
    // The service takes the first order slowly: it answers once the second request is in the
    // proxy with its body read, so nothing but the proxy's own code stands before it joins.
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let bothIn = () => undefined as void;
    const both = new Promise<void>((resolve) => (bothIn = resolve));
    let count = 0;
    const gate = await listen(async (request, env) => {
      if (!new URL(request.url).pathname.endsWith('/SubmitOrder')) return app.fetch(request, env);
      const body = await request.text();
      const copy = new Request(request.url, { method: request.method, headers: request.headers, body });
      count += 1;
      if (count === 2) bothIn();
      return app.fetch(copy, env);
    });
    try {
      const pair = Promise.all([submit(basketId, gate), submit(basketId, gate)]);
      await Promise.all([reached, both]);
      hold = null;
      release();
      const [a, b] = await pair;
      assert.equal(a.status, 200, a.text);
      assert.equal(b.text, a.text);
      assert.deepEqual(serviceAnswers(basketId), [200]);
    } finally {
      hold = null;
      release();
      await gate.close();
    }
  });

  test('after a declined payment goes to the service again and gets its new answer', async () => {
    const basketId = await filledBasket();
    const first = JSON.parse((await submit(basketId)).text) as SubmitOrderResult;
    const declined = await fetch(first.PaymentRedirectUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'failure' }), redirect: 'manual' });
    assert.equal(declined.status, 303);
    const again = await submit(basketId);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(serviceAnswers(basketId), [200, 200], 'the service took the new order');
    assert.equal(sink.entries.at(-1)?.replayed, undefined);
  });

  test('with the same body but its keys in another order, and the basket id upper-cased in the path, is still a repeat', async () => {
    const basketId = await filledBasket();
    const first = await submit(basketId);
    assert.equal(first.status, 200, first.text);
    const reordered = Object.fromEntries(Object.entries(orderFor(basketId)).reverse());
    const again = await submit(basketId.toUpperCase(), proxy, reordered);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(JSON.parse(again.text), JSON.parse(first.text));
    assert.deepEqual(serviceAnswers(basketId), [200, 403]);
  });

  test('after the payment timeout gets the service’s own answer (the redirect is kept only that long)', async () => {
    const basketId = await filledBasket();
    assert.equal((await submit(basketId)).status, 200);
    clock.advance(20 * 60_000 + 1000);
    const late = await submit(basketId);
    assert.equal(late.status, 403, late.text);
    assert.deepEqual(serviceAnswers(basketId), [200, 403]);
  });
});

describe('a different order for the same basket is never answered with another order’s answer', () => {
  test('another customer’s details (the basket id upper-cased in the path) get the service’s own 403, not the first redirect', async () => {
    const basketId = await filledBasket();
    const first = await submit(basketId);
    assert.equal(first.status, 200, first.text);
    const other = await submit(basketId.toUpperCase(), proxy, otherOrder(basketId));
    assert.equal(other.status, 403, other.text);
    assert.ok(!other.text.includes((JSON.parse(first.text) as SubmitOrderResult).PaymentRedirectUrl), other.text);
    assert.deepEqual(serviceAnswers(basketId), [200, 403]);
    assert.equal(upstream.received.at(-1)?.answer?.text, other.text, 'the service’s answer, unchanged');
    assert.equal(sink.entries.at(-1)?.replayed, undefined);
  });

  test('a retry with a corrected e-mail is told the order was not taken (403), not that it succeeded', async () => {
    const basketId = await filledBasket();
    assert.equal((await submit(basketId)).status, 200);
    const corrected = await submit(basketId, proxy, { ...orderFor(basketId), Email: 'ada.lovelace@example.com' });
    assert.equal(corrected.status, 403, corrected.text);
    assert.deepEqual(serviceAnswers(basketId), [200, 403]);
  });

  test('while the first is in flight, a different order does not join it: both reach the service, each gets its own answer', async () => {
    const basketId = await filledBasket();
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    let reached = 0;
    const bothArrived = new Promise<void>((resolve) => (arrived = () => void (++reached === 2 && resolve())));
    const pending = [submit(basketId), submit(basketId, proxy, otherOrder(basketId))];
    // Bounded, so that a proxy that makes the second wait for the first fails here instead of hanging.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const joined = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the second order never reached the service')), 5000)));
    try {
      await Promise.race([bothArrived, joined]);
    } finally {
      clearTimeout(timer);
      hold = null;
      release();
    }
    const answers = await Promise.all(pending);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403]);
    assert.deepEqual(serviceAnswers(basketId).sort(), [200, 403], 'each order reached the service');
    const refused = answers.find((a) => a.status === 403);
    assert.ok(refused && upstream.received.some((r) => r.answer?.status === 403 && r.answer.text === refused.text), 'the 403 is the service’s own');
  });

  test('a body naming another basket than the path is 400 and never reaches the service', async () => {
    const basketId = await filledBasket();
    const victim = crypto.randomUUID();
    const answer = await submit(basketId, proxy, orderFor(victim));
    assert.equal(answer.status, 400, answer.text);
    assert.match((JSON.parse(answer.text) as { Message: string }).Message, /'BasketId' must be the basket of the request path/);
    assert.deepEqual(serviceAnswers(basketId), []);
  });
});
