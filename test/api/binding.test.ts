/**
 * The service's JSON binding rules (src/api/binding.ts) as a pure function:
 * what Json.NET binds, what it refuses, and the rebuilt value the proxy
 * forwards. The same rules end to end are in test/server/compat-binding.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BODY_SCHEMAS, MAX_LIST_ITEMS, bindBody } from '../../src/api/binding.ts';
import { operationList } from '../../src/api/operations.ts';

const BASKET = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const ok = (operation: string, body: unknown, path = {}) => {
  const r = bindBody(operation, body, path);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
};
const refused = (operation: string, body: unknown, path = {}) => {
  const r = bindBody(operation, body, path);
  assert.ok(!r.ok, `bound: ${JSON.stringify(r.ok && r.value)}`);
  return r;
};

describe('bindBody', () => {
  test('every operation with a body has its request class, and only those', () => {
    assert.deepEqual(
      Object.keys(BODY_SCHEMAS).sort(),
      operationList.filter((op) => op.body).map((op) => op.name).sort(),
    );
  });

  test('names in any case; unknown properties dropped; the later spelling wins', () => {
    assert.deepEqual(ok('addTickets', { TICKETS: [1], extra: 'x', __proto__: { Tickets: [9] } }), { Tickets: [1] });
    assert.deepEqual(ok('validateSeatsSelection', { ticketIds: [1], TicketIds: [2] }), { TicketIds: [2] });
  });

  test('integers: numbers without a fraction and strings of digits, within Int32', () => {
    assert.deepEqual(ok('addTickets', { Tickets: [1, '2', ' +3 ', 4.0] }), { Tickets: [1, 2, 3, 4] });
    for (const bad of [1.5, '1.5', '1e3', 'x', '', true, 2147483648, '-2147483649', [1], {}]) {
      const r = refused('addTickets', { Tickets: [bad] });
      assert.equal(r.ok ? '' : r.field, 'Tickets[0]', JSON.stringify(bad));
    }
    assert.deepEqual(ok('submitOrder', { Country: '' }, { basketId: BASKET }), { BasketId: BASKET }, 'an empty string is no value');
  });

  test('decimals from numbers and numeric strings', () => {
    assert.deepEqual(ok('addTicketsV3', { Price: '25.50', AreaId: 1, SeatsCount: 2 }), { Price: 25.5, AreaId: 1, SeatsCount: 2 });
    assert.equal(refused('addTicketsV3', { Price: 'cheap' }).ok, false);
  });

  test('booleans: true/false, the strings in any case, integers', () => {
    const flags = (v: unknown) => ok('submitOrder', { SendConfirmationEmail: v }, { basketId: BASKET }).SendConfirmationEmail;
    assert.deepEqual([true, 'true', ' False ', 'TRUE', 1, 0].map(flags), [true, true, false, true, true, false]);
    for (const bad of ['yes', 'on', '1', 1.5]) assert.match(refused('submitOrder', { SendConfirmationEmail: bad }).message ?? '', /'SendConfirmationEmail' must be true or false/);
  });

  test('strings from strings and numbers; not from objects or booleans', () => {
    assert.equal(ok('submitOrder', { Zip: 10115 }, { basketId: BASKET }).Zip, '10115');
    assert.equal(refused('submitOrder', { Zip: true }).ok, false);
  });

  test('PaymentGateLanguage: its number, a numeric string or its name in any case', () => {
    const lang = (v: unknown) => ok('submitOrder', { PaymentGateLanguage: v }, { basketId: BASKET }).PaymentGateLanguage;
    assert.deepEqual([2, '2', 'german', 'GERMAN', 'Danish'].map(lang), [2, 2, 2, 2, 9]);
    assert.match(refused('submitOrder', { PaymentGateLanguage: 'Klingon' }).message ?? '', /'PaymentGateLanguage' must be one of 1 \(English\)/);
  });

  test('BasketId: any GUID format, filled in from the path when missing, refused when another', () => {
    const upper = BASKET.toUpperCase();
    assert.equal(ok('submitOrder', {}, { basketId: BASKET }).BasketId, BASKET);
    assert.equal(ok('submitOrder', { basketId: `{${upper}}` }, { basketId: BASKET }).BasketId, upper);
    assert.equal(ok('submitOrder', { BasketId: BASKET.replace(/-/g, '') }, { basketId: BASKET }).BasketId, BASKET);
    const other = refused('submitOrder', { BasketId: '11111111-1111-1111-1111-111111111111' }, { basketId: BASKET });
    assert.equal(other.ok ? '' : other.field, 'BasketId');
    assert.equal(refused('submitOrderOnAccount', { BasketId: 'basket' }, { basketId: BASKET }).ok, false);
  });

  test('null and missing are the default (absent); nested objects bind by the same rules', () => {
    assert.deepEqual(ok('addTickets', { Tickets: null, BestSeats: { performanceId: '5', price: '10' } }), { BestSeats: { PerformanceId: 5, Price: 10 } });
    assert.equal(refused('addTickets', { BestSeats: [] }).ok, false);
    assert.match(refused('addTickets', { BestSeats: { SeatsCount: 'two' } }).message ?? '', /'BestSeats\.SeatsCount'/);
  });

  test('lists: at most MAX_LIST_ITEMS items', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    assert.equal((ok('addTickets', { Tickets: ids(MAX_LIST_ITEMS) }).Tickets as number[]).length, MAX_LIST_ITEMS);
    const long = refused('validateSeatsSelection', { TicketIds: ids(MAX_LIST_ITEMS + 1) });
    assert.equal(long.ok ? '' : long.field, 'TicketIds');
    assert.match(long.ok ? '' : long.message, /at most 100 items \(it has 101\)/);
  });

  test('numbers within the .NET type: Int32 for an enumeration, Int64 for a boolean, decimal for a price', () => {
    for (const bad of [2147483648, '-2147483649', 1e10]) assert.equal(refused('submitOrder', { PaymentGateLanguage: bad }).ok, false, String(bad));
    assert.equal(refused('submitOrder', { SendConfirmationEmail: 1e19 }).ok, false);
    assert.equal(ok('submitOrder', { SendConfirmationEmail: 2 ** 53 }, { basketId: BASKET }).SendConfirmationEmail, true);
    for (const bad of [1e29, '-1e29', 8e28]) assert.match(refused('addTicketsV3', { Price: bad }).message ?? '', /'Price' must be a number a \.NET decimal holds/);
    assert.equal(ok('addTicketsV3', { Price: 7.9e28 }).Price, 7.9e28);
  });

  test('__proto__, constructor and prototype are refused wherever the binder reads, dropped inside what it ignores', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const top = refused('addTickets', JSON.parse(`{"Tickets":[1],"${name}":{"polluted":1}}`));
      assert.equal(top.ok ? '' : top.field, name);
      const nested = refused('addTickets', JSON.parse(`{"BestSeats":{"${name}":{}}}`));
      assert.equal(nested.ok ? '' : nested.field, `BestSeats.${name}`);
    }
    assert.deepEqual(ok('addTickets', JSON.parse('{"Tickets":[1],"Other":{"__proto__":{"x":1}}}')), { Tickets: [1] });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('the body must be an object', () => {
    for (const body of [null, undefined, [], 'x', 3]) assert.match(refused('addTickets', body).message ?? '', /must be a JSON object/);
  });
});
