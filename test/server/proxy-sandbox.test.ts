/**
 * The proxy in front of the real sandbox, each on its own socket on 127.0.0.1:
 * every operation of the table is forwarded with the key and answered exactly
 * as the sandbox answered it, and a whole booking runs through the proxy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import type { ParamValue } from '../../src/api/match.ts';
import { fillPath, buildQuery } from '../../src/api/match.ts';
import type { OperationName } from '../../src/api/operations.ts';
import type { AddTicketsResult, CreateBasketResult, SubmitOrderResult } from '../../src/api/types.ts';
import { createProxy } from '../../src/server/proxy/index.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { RETURN_ORIGIN, orderFor, seatedPerformances } from './booking-steps.ts';
import { client, listen, logSink, operationList, recording, type Answer, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
/** The sandbox accepts only this key: a request without it would be 401. */
const sandbox = createSandbox({ clock, apiKeys: [KEY] });
const upstream = recording((request) => sandbox.fetch(request));
const sink = logSink();
const answers: Answer[] = [];
let sandboxServer: Listening;
let proxyServer: Listening;
let api: ReturnType<typeof client>;

before(async () => {
  sandboxServer = await listen(upstream.fetch);
  proxyServer = await listen(
    // No cache here: every request must reach the sandbox (the cache has its own tests).
    createProxy({ upstream: sandboxServer.url, apiKey: KEY, allowOnAccount: true, rateLimit: false, cache: false, log: sink.log, returnOrigins: [RETURN_ORIGIN] }).fetch,
  );
  api = client(proxyServer.url, answers);
});

after(async () => {
  await Promise.all([proxyServer.close(), sandboxServer.close()]);
});

/** Real identifiers from the sandbox, found through the proxy with the typed client. */
async function discover() {
  const typed = createApiClient({ endpoint: `${proxyServer.url}/api` });
  for await (const { event, performance, areas } of seatedPerformances(typed)) {
    const area = areas.find((a) => a.Tickets.length >= 4);
    if (area) return { event, performance, tickets: area.Tickets.map((t) => t.TicketId) };
  }
  throw new Error('the sandbox has no seated performance with four seats in one area');
}

describe('every operation, proxy against sandbox', () => {
  test('each reaches the sandbox once, with the key, and comes back exactly as the sandbox answered', async () => {
    const { event, performance, tickets } = await discover();
    const path: Record<string, ParamValue> = {
      eventId: event.EventId,
      venueId: event.VenueId,
      performanceId: performance.PerformanceId,
      basketId: '',
      basketItemId: 0,
      eventIds: `${event.EventId},${event.EventId + 1}`,
      ticketId: tickets[0] ?? 0,
    };
    const query: Record<string, ParamValue> = {
      type: event.EventType,
      dateFrom: '2026-11-21',
      dateTo: '2027-01-10',
      minimumTicketsCount: 1,
      nbOfTickets: 2,
      consecutiveSeatsOnly: true,
      order: 0,
      count: 5,
      from: 0,
      requiredTicketsCount: 2,
    };
    const order = {
      Email: 'guest@example.com',
      Name: 'Ada',
      LastName: 'Lovelace',
      Phone: '+44 20 7946 0000',
      DeliveryType: 1,
    };
    const bodies: Partial<Record<OperationName, () => unknown>> = {
      addTickets: () => ({ Tickets: tickets.slice(0, 2) }),
      addTicketsV3: () => ({ TicketIds: tickets.slice(2, 4) }),
      validateSeatsSelection: () => ({ TicketIds: tickets.slice(0, 2) }),
      submitOrder: () => ({ BasketId: path.basketId, ...order, SuccessReturnUrl: 'https://theatre.example/ok', FailureReturnUrl: 'https://theatre.example/ko' }),
      submitOrderOnAccount: () => ({ BasketId: path.basketId, ...order, ReturnUrl: 'https://theatre.example/ok' }),
    };
    const statuses: string[] = [];
    for (const op of operationList) {
      const target = fillPath(op.path, path) + buildQuery(op, query);
      const body = op.body ? JSON.stringify(bodies[op.name as OperationName]?.() ?? {}) : undefined;
      const seenBefore = upstream.received.length;
      const answer = await api.call(op.method, `/api${target}`, { body, headers: { 'Content-Type': 'application/json' } });
      const seen = upstream.received.slice(seenBefore);
      assert.equal(seen.length, 1, `${op.name} reached the sandbox once`);
      const [request] = seen;
      assert.ok(request?.answer, `${op.name}: the sandbox answered`);
      assert.equal(request.method, op.method);
      assert.equal(request.path, target);
      assert.equal(request.headers.get('api-key'), KEY);
      assert.equal(answer.status, request.answer.status, `${op.name}: ${answer.text}`);
      assert.equal(answer.text, request.answer.text, `${op.name}: the body passes unchanged`);
      assert.notEqual(answer.status, 401, `${op.name}: the sandbox accepted the proxy's key`);
      statuses.push(`${op.name} ${answer.status}`);
      // Carry the state forward: the basket, then its first item.
      if (op.name === 'createBasket') path.basketId = (JSON.parse(answer.text) as CreateBasketResult).BasketId;
      if (op.name === 'addTickets') {
        const added = JSON.parse(answer.text) as AddTicketsResult;
        path.basketItemId = added.GetBasketContentResult.Items[0]?.BasketItemId ?? 0;
      }
    }
    // The reads and the booking steps before submission succeed with real data (Create Basket as 201 Created).
    assert.ok(statuses.includes('createBasket 201'), `createBasket 201 in ${statuses.join(', ')}`);
    for (const name of ['addTickets', 'addTicketsV3', 'getBasket', 'getCheckoutOptions', 'submitOrder', 'getEvents', 'getEvent', 'getEventPerformances', 'getVenue', 'getFullAvailability', 'getCountries', 'getHeartBeat']) {
      assert.ok(statuses.includes(`${name} 200`), `${name} 200 in ${statuses.join(', ')}`);
    }
  });
});

describe('a booking through the proxy', () => {
  test('create, add, read, submit, pay on the sandbox page, then summary and e-tickets', async () => {
    const { tickets } = await discover();
    const typed = createApiClient({ endpoint: `${proxyServer.url}/api` });
    const { BasketId } = await typed.createBasket();
    const added = await typed.addTickets({ basketId: BasketId, body: { Tickets: tickets.slice(0, 2) } });
    assert.equal(added.Success, true);
    const basket = await typed.getBasket({ basketId: BasketId });
    assert.equal(basket.Items[0]?.Seats.length, 2);
    assert.ok(typed.clock.synced, 'the Date header reached the client');

    const submitted = await api.call('POST', `/api/rest/v2/Baskets/${BasketId}/SubmitOrder`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(orderFor(BasketId)),
    });
    assert.equal(submitted.status, 200, submitted.text);
    const { PaymentRedirectUrl } = JSON.parse(submitted.text) as SubmitOrderResult;
    const paid = await fetch(PaymentRedirectUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), 'https://theatre.example/ok');

    const summary = await api.call('GET', `/api/rest/v2/Baskets/${BasketId}/SubmittedBasketSummary`);
    assert.equal(summary.status, 200, summary.text);
    assert.match((JSON.parse(summary.text) as { BookingReference: string }).BookingReference, /\S/);
    const etickets = await api.call('GET', `/api/rest/v2/Baskets/${BasketId}/ETickets`);
    assert.equal(etickets.status, 200, etickets.text);
    assert.equal(summary.headers.get('cache-control'), 'no-store');
  });

  test('a seat another basket holds is 409 with the add-result, passed through', async () => {
    const { tickets } = await discover();
    const typed = createApiClient({ endpoint: `${proxyServer.url}/api` });
    const first = await typed.createBasket();
    const second = await typed.createBasket();
    await typed.addTickets({ basketId: first.BasketId, body: { Tickets: tickets.slice(0, 2) } });
    const conflict = await api.call('POST', `/api/rest/v2/Baskets/${second.BasketId}/Tickets`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ Tickets: tickets.slice(0, 2) }),
    });
    assert.equal(conflict.status, 409, conflict.text);
    const result = JSON.parse(conflict.text) as AddTicketsResult;
    assert.equal(result.Success, false);
  });
});

test('the key appears in no answer or log line of this file', () => {
  assert.ok(answers.length >= operationList.length, `scanned ${answers.length} answers`);
  for (const answer of answers) {
    assert.ok(!answer.text.includes(KEY), answer.text.slice(0, 200));
    for (const [name, value] of answer.headers) assert.ok(!value.includes(KEY), `header ${name}`);
  }
  for (const line of sink.lines) assert.ok(!line.includes(KEY), line);
});
