/**
 * The proxy binds every body by the service's rules (src/api/binding.ts) before
 * anything is forwarded: a body that does not bind (a type no rule accepts, a
 * list longer than any basket takes, a number beyond the field's .NET type, a
 * `__proto__`, `constructor` or `prototype` property) is a 400 naming the
 * field, in the JSON shape, and the service never sees it; a body that binds
 * reaches the service as its bound record, unknown properties dropped. Over
 * a loopback socket, the proxy as on Node, in front of an upstream that
 * records what reaches it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_LIST_ITEMS } from '../../src/api/binding.ts';
import { createProxy } from '../../src/server/proxy/node.ts';
import { listen, listenApp, recording, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PATHS = {
  addTickets: `/rest/v2/Baskets/${BASKET}/Tickets`,
  addTicketsV3: `/v3/Baskets/${BASKET}/performances/7/tickets`,
  validateSeatsSelection: `/rest/v2/Performances/7/SeatsSelectionValidation`,
  submitOrder: `/rest/v2/Baskets/${BASKET}/SubmitOrder`,
};
type Operation = keyof typeof PATHS;

const ids = (count: number) => Array.from({ length: count }, (_, i) => 141_745_000 + i);

/** Bodies that do not bind, the field each refusal must name and what it must say of it. */
const REFUSED: { name: string; op: Operation; body: string; field: string; says: RegExp }[] = [
  { name: 'a list one item too long', op: 'addTickets', body: JSON.stringify({ Tickets: ids(MAX_LIST_ITEMS + 1) }), field: 'Tickets', says: /at most 100 items \(it has 101\)/ },
  { name: 'a huge list', op: 'addTicketsV3', body: JSON.stringify({ TicketIds: ids(2500) }), field: 'TicketIds', says: /at most 100 items \(it has 2500\)/ },
  { name: 'a huge list of seats to check', op: 'validateSeatsSelection', body: JSON.stringify({ ticketIds: ids(500) }), field: 'TicketIds', says: /at most 100 items/ },
  { name: 'a price beyond a .NET decimal', op: 'addTicketsV3', body: '{"AreaId":1,"SeatsCount":2,"Price":1e30}', field: 'Price', says: /\.NET decimal/ },
  { name: 'a price string beyond a .NET decimal', op: 'addTickets', body: '{"BestSeats":{"PerformanceId":7,"Price":"1e29"}}', field: 'BestSeats.Price', says: /\.NET decimal/ },
  { name: 'a language number beyond Int32', op: 'submitOrder', body: '{"PaymentGateLanguage":10000000000}', field: 'PaymentGateLanguage', says: /one of 1 \(English\)/ },
  { name: 'a language string beyond Int32', op: 'submitOrder', body: '{"PaymentGateLanguage":"99999999999"}', field: 'PaymentGateLanguage', says: /one of 1 \(English\)/ },
  { name: 'a boolean from a number beyond Int64', op: 'submitOrder', body: '{"SendConfirmationEmail":1e19}', field: 'SendConfirmationEmail', says: /true or false/ },
  { name: 'a __proto__ property', op: 'addTickets', body: '{"Tickets":[1],"__proto__":{"polluted":1}}', field: '__proto__', says: /left out/ },
  { name: 'a constructor property', op: 'addTickets', body: '{"Tickets":[1],"constructor":{"prototype":{"polluted":1}}}', field: 'constructor', says: /left out/ },
  { name: 'a __proto__ inside BestSeats', op: 'addTickets', body: '{"BestSeats":{"PerformanceId":7,"__proto__":{"SeatsCount":2}}}', field: 'BestSeats.__proto__', says: /left out/ },
  { name: 'a prototype property in an order', op: 'submitOrder', body: '{"Email":"ada@example.com","prototype":{}}', field: 'prototype', says: /left out/ },
  { name: 'a boolean for a ticket id', op: 'addTickets', body: '{"Tickets":[1,true]}', field: 'Tickets[1]', says: /whole number/ },
  { name: 'an object for a name', op: 'submitOrder', body: '{"Name":{"first":"Ada"}}', field: 'Name', says: /a string/ },
];

/** Bodies that bind, and the record the service must receive. */
const FORWARDED: { name: string; op: Operation; body: string; receives: unknown }[] = [
  {
    name: 'names in any case, ids as strings, unknown properties (and a __proto__ inside one) dropped',
    op: 'addTickets',
    body: '{"tickets":["1"," 2 "],"Extra":{"__proto__":{"polluted":1}},"Note":"x"}',
    receives: { Tickets: [1, 2] },
  },
  { name: 'a list of exactly 100', op: 'addTicketsV3', body: JSON.stringify({ TicketIds: ids(MAX_LIST_ITEMS) }), receives: { TicketIds: ids(MAX_LIST_ITEMS) } },
  {
    name: 'an order in camelCase with strings for numbers and booleans',
    op: 'submitOrder',
    body: '{"email":"ada@example.com","COUNTRY":"44","sendConfirmationEmail":"TRUE","paymentGateLanguage":"german","Referrer":"x"}',
    receives: { Email: 'ada@example.com', Country: 44, SendConfirmationEmail: true, PaymentGateLanguage: 2, BasketId: BASKET },
  },
];

describe('bodies are bound at the proxy', () => {
  const upstream = recording(stubService().fetch);
  let service: Listening;
  let proxy: Listening;

  before(async () => {
    service = await listen(upstream.fetch);
    // The bodies here are about binding, not holding: a list of 100 tickets is more than the seat caps allow.
    proxy = await listenApp(createProxy({ upstream: service.url, apiKey: KEY, log: false, metrics: false, rateLimit: false, seatCaps: false }));
  });
  after(async () => {
    await proxy.close();
    await service.close();
  });

  const post = (op: Operation, body: string) =>
    fetch(`${proxy.url}/api${PATHS[op]}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  for (const { name, op, body, field, says } of REFUSED) {
    test(`${name}: 400 naming '${field}', nothing forwarded`, async () => {
      const reached = upstream.received.length;
      const response = await post(op, body);
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      const answer = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(answer), ['Message']);
      assert.match(String(answer.Message), new RegExp(`^The field '${field.replace(/[.[\]]/g, '\\$&')}' must be `));
      assert.match(String(answer.Message), says);
      assert.equal(upstream.received.length, reached, 'the service saw nothing');
    });
  }

  for (const { name, op, body, receives } of FORWARDED) {
    test(`${name}: the bound record is what the service receives`, async () => {
      const response = await post(op, body);
      assert.equal(response.status, 200, await response.clone().text());
      const last = upstream.received.at(-1);
      assert.ok(last);
      assert.deepEqual(JSON.parse(last.body), receives);
      assert.equal(last.headers.get('content-type'), 'application/json');
    });
  }
});
