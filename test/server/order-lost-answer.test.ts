/**
 * An order the service took whose answer never reached the proxy: a real HTTP server between the
 * proxy and the sandbox (all on 127.0.0.1) passes the order to the sandbox, which takes it, and
 * spoils its answer: a 502, a 504, a hang the proxy's time limit ends, a reset connection, or
 * bytes that are not HTTP. The proxy has no answer to keep, so the widget's repeat meets the
 * service's refusal (403: the basket is already submitted). The widget's order (src/state/order.ts,
 * over the real client) then asks the service what the basket is, and leads the customer on: the
 * basket awaits payment, with its payment window running, never "no longer valid".
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { createProxy, type ProxyApp } from '../../src/server/proxy/node.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { BasketStore } from '../../src/state/basket-store.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { OrderStore } from '../../src/state/order.ts';
import { PAYMENT_TIMEOUT_MS, pendingPayment, type PendingRecord } from '../../src/state/pending-payment.ts';
import { RETURN_ORIGIN, findSeatPair, orderFor } from './booking-steps.ts';
import { listen, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const START = Date.UTC(2026, 10, 21, 10, 0, 0);
const clock = new ManualClock(START);
const sandbox = createSandbox({ clock, apiKeys: [KEY] });
/** The proxy's upstream time limit, ms: what ends the hang. */
const TIMEOUT_MS = 400;

type Fault = '502' | '504' | 'hang' | 'reset' | 'garbage';
const FAULTS: readonly Fault[] = ['502', '504', 'hang', 'reset', 'garbage'];

/**
 * An HTTP server that passes every request to `target` and its answer back, except the next
 * SubmitOrder's answer when a fault is set: the service has taken that order, its answer is spoilt.
 */
async function faultyHop(target: string): Promise<Listening & { spoilNextOrder(fault: Fault, then?: () => void): void; spoilt: () => number }> {
  let next: Fault | null = null;
  let then: (() => void) | undefined;
  let spoilt = 0;
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body: body.length ? body : undefined });
    const text = Buffer.from(await answer.arrayBuffer());
    const fault = req.method === 'POST' && /\/SubmitOrder$/i.test(req.url ?? '') ? next : null;
    if (fault) {
      next = null;
      spoilt += 1;
      assert.equal(answer.status, 200, `the service took the order: ${text.toString()}`);
      then?.();
      then = undefined;
    }
    switch (fault) {
      case '502':
      case '504':
        res.writeHead(Number(fault), { 'content-type': 'text/html' }).end(`<html><body>${fault} from a gateway</body></html>`);
        return;
      case 'hang':
        return; // never answered: the proxy's time limit ends it
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'garbage':
        req.socket.end('\u0000\u00ff not an HTTP answer \r\n\r\n');
        return;
      default: {
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
        });
        res.writeHead(answer.status, out).end(text);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    spoilNextOrder: (fault, after) => {
      next = fault;
      then = after;
    },
    spoilt: () => spoilt,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let service: Listening;
let hop: Awaited<ReturnType<typeof faultyHop>>;
let app: ProxyApp;
let proxy: Listening;
let pairs = 0;
/** The stores a test made: their timers stopped after it. */
const made: BasketStore[] = [];

before(async () => {
  service = await listen(sandbox.fetch);
  hop = await faultyHop(service.url);
  app = createProxy({ upstream: hop.url, apiKey: KEY, log: false, rateLimit: false, now: () => clock.now(), timeoutMs: TIMEOUT_MS, returnOrigins: [RETURN_ORIGIN] });
  proxy = await listen(app.fetch);
});

after(async () => {
  await Promise.all([proxy.close(), hop.close(), service.close()]);
  await app.close();
});

const config = resolveConfig({ endpoint: '/api', successUrl: `${RETURN_ORIGIN}/ok`, failureUrl: `${RETURN_ORIGIN}/ko` });

/** The widget's basket store over the real client and the proxy, holding two seats. */
async function basketWithTwoSeats(): Promise<BasketStore> {
  const api = createApiClient({ endpoint: `${proxy.url}/api` });
  const { tickets } = await findSeatPair(api, pairs++);
  const store = new BasketStore({ api, storageKey: `lost-order-${pairs}`, timeZone: config.timeZone, restore: false });
  made.push(store);
  const added = await store.add({ Tickets: tickets });
  assert.equal(added.ok, true, 'two seats in the basket');
  return store;
}

describe('an order taken whose answer was lost between the proxy and the service', () => {
  afterEach(() => {
    for (const store of made.splice(0)) {
      pendingPayment(store).dispose();
      store.dispose();
    }
  });

  for (const fault of FAULTS) {
    test(`${fault}: the customer is told their order awaits payment, with its payment window running, not that the basket is invalid`, async () => {
      const basket = await basketWithTwoSeats();
      const basketId = basket.value.basketId ?? '';
      const content = basket.value.content;
      assert.ok(basketId && content);
      const { SuccessReturnUrl: _s, FailureReturnUrl: _f, ...fields } = orderFor(basketId);
      const entries = { values: {}, deliveryTypeId: 1, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [] };
      hop.spoilNextOrder(fault);
      const spoiltBefore = hop.spoilt();
      // The order sent again without pauses: the proxy's time limit is the only wait.
      const order = new OrderStore(basket, [0, 0, 0]);
      const outcome = await order.submit({ config, fields, content, total: 99, entries });
      assert.equal(hop.spoilt(), spoiltBefore + 1, 'the service took the order and its answer was spoilt');

      assert.deepEqual(outcome, { kind: 'awaiting', basketId }, `what the checkout is told: ${JSON.stringify(outcome)}`);
      // The basket is the unfinished payment: kept for every tab, with no payment page, its window from the order.
      assert.equal(basket.value.basketId, null, 'the store starts afresh');
      assert.equal(basket.awaitingPayment, basketId);
      const record = basket.pendingRecord as PendingRecord;
      assert.equal(record.redirectUrl, undefined);
      assert.equal(record.total, 99);
      assert.equal(record.items?.length, 1);
      const pending = pendingPayment(basket);
      await pending.check();
      assert.equal(pending.value.status, 'awaiting', 'the service still holds it, awaiting payment');
      // Its payment window runs from when the order was sent (by the service's clock, as the client reads it to the millisecond).
      const deadline = pending.value.deadline ?? 0;
      assert.ok(deadline >= START + PAYMENT_TIMEOUT_MS && deadline < START + PAYMENT_TIMEOUT_MS + 2000, `deadline ${deadline - START} ms after the order`);
      assert.equal(pending.continueUrl, null);
      // What the service says: the basket awaits payment (its payment page is open), its seats held until then.
      const page = await fetch(`${service.url}/sandbox/pay/${basketId}`);
      assert.equal(page.status, 200, 'the payment is open');
    });
  }

  test('a repeat refused after a lost answer, of a basket the service no longer holds (its payment window closed): the refusal stands', async () => {
    const basket = await basketWithTwoSeats();
    const basketId = basket.value.basketId ?? '';
    const content = basket.value.content;
    assert.ok(basketId && content);
    const { SuccessReturnUrl: _s, FailureReturnUrl: _f, ...fields } = orderFor(basketId);
    // The order is taken, its answer spoilt, and the payment window closes before the repeat.
    hop.spoilNextOrder('502', () => clock.advance(PAYMENT_TIMEOUT_MS + 1000));
    const order = new OrderStore(basket, [0, 0, 0]);
    try {
      const outcome = await order.submit({ config, fields, content, total: 99, entries: { values: {}, deliveryTypeId: 1, requireTicketPlan: false, sendConfirmationEmail: true, confirmed: [] } });
      assert.equal(outcome.kind, 'failed');
      assert.equal(outcome.kind === 'failed' && (outcome.error as { status?: number }).status, 403);
      assert.equal(basket.value.basketId, basketId, 'the basket is left as it was (the checkout reads it again)');
      assert.equal(basket.pendingRecord, null);
    } finally {
      clock.set(START);
    }
  });
});
