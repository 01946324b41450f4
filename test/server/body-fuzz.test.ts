/**
 * Hostile and odd request bodies, for every operation of the table that takes
 * one, through the proxy (in front of the sandbox) and straight to the
 * sandbox, each over its own socket on 127.0.0.1: deep nesting (the 12 KB,
 * 6,000-level body that overflowed the stack), numbers beyond a double,
 * duplicate keys, invalid UTF-8, lone surrogates, wrong types in every field,
 * truncated JSON. None may get a 5xx; every refusal is the service's JSON
 * error shape, `{ "Message": ... }`, with a JSON content type.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { fillPath } from '../../src/api/match.ts';
import type { OperationRow } from '../../src/api/operations.ts';
import { MAX_JSON_DEPTH } from '../../src/server/json-body.ts';
import { createProxy } from '../../src/server/proxy/index.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { findSeatPair, orderFor } from './booking-steps.ts';
import { listen, operationList, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const RETURN_ORIGIN = 'https://theatre.example';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
const sandbox = createSandbox({ clock, apiKeys: [KEY], onAccountEnabled: true });
let sandboxServer: Listening;
let proxyServer: Listening;

/** The operations that take a body, from the table. */
const bodyOperations = operationList.filter((op) => op.body);

before(async () => {
  sandboxServer = await listen((request) => sandbox.fetch(request));
  proxyServer = await listen(
    createProxy({
      upstream: sandboxServer.url,
      apiKey: KEY,
      allowOnAccount: true,
      rateLimit: false,
      cache: false,
      log: false,
      allowedOrigins: [RETURN_ORIGIN],
    }).fetch,
  );
});

after(async () => {
  await Promise.all([proxyServer.close(), sandboxServer.close()]);
});

const nested = (depth: number, open = '[', close = ']', inner = '1') => open.repeat(depth) + inner + close.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const utf8 = (text: string) => new TextEncoder().encode(text);
const joinBytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...utf8(part)] : part)));

/** Values of every JSON type, and some that stretch them. */
const ODD_VALUES = [
  '"x"', '""', '0', '-1', '1.5', '1e308', '-1e308', '1e400', '-1e400', '1e-400', '123456789012345678901234567890',
  '2147483648', '-2147483649', '9007199254740993', 'true', 'false', 'null', '[]', '{}', '[null]', '[{}]', '["x"]', '[1e400]',
  '"\\ud800"', '"\\u0000"', `"${'x'.repeat(20_000)}"`, '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{}}}',
  nested(MAX_JSON_DEPTH - 1), nested(MAX_JSON_DEPTH + 1), nested(6000), nestedObjects(6000),
];

/** Raw bodies, as text or bytes, built from a valid body of the operation. */
function oddBodies(valid: Record<string, unknown>): { name: string; body: string | Uint8Array<ArrayBuffer> }[] {
  const text = JSON.stringify(valid);
  const keys = Object.keys(valid);
  const bodies: { name: string; body: string | Uint8Array<ArrayBuffer> }[] = [];
  const add = (name: string, body: string | Uint8Array<ArrayBuffer>) => bodies.push({ name, body });
  // The reported one: a 12 KB body, 6,000 levels deep, under every key, and at the top.
  for (const key of keys) add(`${key} nested 6000 deep`, `{"${key}":${nested(6000, '[', ']', '')}}`);
  add('top level nested 6000 deep', nested(6000));
  add('objects nested 6000 deep', nestedObjects(6000));
  add('mixed nesting 3000 deep', '[{"a":'.repeat(3000) + '1' + '}]'.repeat(3000));
  add('unclosed nesting 6000 deep', '['.repeat(6000));
  add('nesting inside a string is text', `{"Email":"${'['.repeat(6000)}"}`);
  // Every field with every kind of value; every field missing; every field twice.
  for (const key of keys) {
    for (const value of ODD_VALUES) {
      add(`${key}: ${value.slice(0, 30)}`, `{${keys.map((k) => `"${k}":${k === key ? value : JSON.stringify(valid[k])}`).join(',')}}`);
      add(`${key} again after: ${value.slice(0, 30)}`, `${text.slice(0, -1)},"${key}":${value}}`);
      add(`${key} before: ${value.slice(0, 30)}`, `{"${key}":${value},${text.slice(1)}`);
      add(`${key.toLowerCase()} (other case): ${value.slice(0, 30)}`, `${text.slice(0, -1)},"${key.toLowerCase()}":${value}}`);
    }
    const { [key]: _, ...rest } = valid;
    add(`without ${key}`, JSON.stringify(rest));
    if (Array.isArray(valid[key])) {
      for (const value of ODD_VALUES) add(`${key}[0]: ${value.slice(0, 30)}`, `{${keys.map((k) => `"${k}":${k === key ? `[${value}]` : JSON.stringify(valid[k])}`).join(',')}}`);
    }
  }
  // Not an object at all.
  for (const value of ['', ' ', 'null', 'true', '0', '"x"', '[]', '[{}]', '{}', 'NaN', 'Infinity', '1e400', '{"a":1e99999}', '\ufeff{}']) add(`whole body ${value || 'empty'}`, value);
  // Truncated anywhere, and trailing junk.
  for (let cut = 1; cut < text.length; cut += Math.max(1, Math.floor(text.length / 25))) add(`cut at ${cut}`, text.slice(0, cut));
  add('trailing comma', `${text.slice(0, -1)},}`);
  add('two objects', `${text}${text}`);
  add('single quotes', text.replaceAll('"', "'"));
  // Not UTF-8: a stray byte, an overlong slash, a UTF-16 surrogate, a sequence cut short.
  const invalid: Record<string, number[]> = { 'stray 0xff': [0xff], 'overlong /': [0xc0, 0xaf], 'encoded surrogate': [0xed, 0xa0, 0x80], 'cut sequence': [0xe2, 0x82] };
  for (const [name, bytes] of Object.entries(invalid)) {
    add(`invalid UTF-8 (${name}) in a string`, joinBytes(`{"${keys[0]}":"`, bytes, '"}'));
    add(`invalid UTF-8 (${name}) outside strings`, joinBytes(text.slice(0, -1), bytes, '}'));
  }
  return bodies;
}

interface Target {
  name: string;
  /** The request URL for an operation's filled path. */
  url(path: string): string;
}

const targets: Target[] = [
  { name: 'through the proxy', url: (path) => `${proxyServer.url}/api${path}` },
  { name: 'straight to the sandbox', url: (path) => `${sandboxServer.url}${path}` },
];

/** A basket holding two seats, made through the sandbox, and the seats' performance. */
async function basketWithSeats() {
  const api = createApiClient({ endpoint: sandboxServer.url, headers: { 'Api-Key': KEY } });
  const { performanceId, tickets } = await findSeatPair(api);
  const { BasketId } = await api.createBasket();
  await api.addTickets({ basketId: BasketId, body: { Tickets: tickets } });
  return { basketId: BasketId, performanceId, tickets };
}

function validBody(op: OperationRow, basketId: string, tickets: number[]): Record<string, unknown> {
  switch (op.name) {
    case 'addTickets':
      return { Tickets: tickets };
    case 'addTicketsV3':
    case 'validateSeatsSelection':
      return { TicketIds: tickets };
    case 'submitOrder':
      return { ...orderFor(basketId) };
    case 'submitOrderOnAccount': {
      const { SuccessReturnUrl, FailureReturnUrl: _, ...rest } = orderFor(basketId);
      return { ...rest, ReturnUrl: SuccessReturnUrl };
    }
    default:
      throw new Error(`the fuzz test has no valid body for ${op.name}: add one here`);
  }
}

describe('odd and hostile request bodies never get a 5xx', { timeout: 300_000 }, () => {
  test('the table has operations with a body, and each has a valid body here', () => {
    assert.ok(bodyOperations.length >= 5, bodyOperations.map((op) => op.name).join(', '));
  });

  for (const target of targets) {
    for (const op of bodyOperations) {
      test(`${op.name} ${target.name}`, async () => {
        let seats = await basketWithSeats();
        const path = () => fillPath(op.path, { basketId: seats.basketId, performanceId: seats.performanceId });
        const bodies = oddBodies(validBody(op, seats.basketId, seats.tickets));
        const failures: string[] = [];
        for (const { name, body } of bodies) {
          const response = await fetch(target.url(path()), {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Api-Key': KEY },
            body,
          });
          const text = await response.text();
          const type = response.headers.get('content-type') ?? '';
          if (response.status >= 500) failures.push(`${name}: ${response.status} ${text.slice(0, 200)}`);
          else if (response.status >= 400) {
            let shape: unknown;
            try {
              shape = JSON.parse(text);
            } catch {
              shape = null;
            }
            // The service's error shape, or its own refusal of tickets (an AddTickets result with Success false).
            const answer = shape as { Message?: unknown; Success?: unknown } | null;
            const ok = /^application\/json/.test(type) && (typeof answer?.Message === 'string' || answer?.Success === false);
            if (!ok) failures.push(`${name}: ${response.status} not the error shape (${type}): ${text.slice(0, 200)}`);
          }
          // An order that went through leaves the basket submitted: the next case gets a fresh one.
          if (response.status === 200 && op.name.startsWith('submitOrder')) seats = await basketWithSeats();
        }
        assert.deepEqual(failures, [], `${failures.length} of ${bodies.length} bodies`);
        // And the server still answers as before.
        const health = await fetch(target.url('/rest/v2/System/Countries'), { headers: { 'Api-Key': KEY } });
        assert.equal(health.status, 200);
      });
    }
  }

  test('the refusal says why: too deep, a number too large, a body too large', async () => {
    const { basketId } = await basketWithSeats();
    for (const target of targets) {
      const url = target.url(`/rest/v2/Baskets/${basketId}/Tickets`);
      const send = (body: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Api-Key': KEY }, body });
      const deep = await send(`{"Tickets":${nested(6000, '[', ']', '')}}`);
      assert.equal(deep.status, 400, target.name);
      assert.deepEqual(await deep.json(), { Message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.` });
      const huge = await send('{"Tickets":[1e400]}');
      assert.equal(huge.status, 400, target.name);
      assert.match(((await huge.json()) as { Message: string }).Message, /number 1e400 .*too large/);
      const large = await send(`{"Tickets":[1],"Pad":"${'x'.repeat(70 * 1024)}"}`);
      assert.equal(large.status, 413, target.name);
      assert.match(((await large.json()) as { Message: string }).Message, /larger than the limit/);
    }
  });
});
