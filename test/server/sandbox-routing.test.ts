/**
 * The sandbox accepts exactly what the proxy forwards (both use
 * src/api/match.ts): Api-Key, unknown paths, wrong methods, bad parameters,
 * all answered in JSON; a Date header from the injected clock on every answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operationList } from '../../src/api/operations.ts';
import { fillPath } from '../../src/api/match.ts';
import { BASE, KEY, rec, setup, START, tiny } from './sandbox-harness.ts';

const GUID = '00000000-0000-4000-8000-000000000000';

test('every operation of the table is routed: none answers "no operation" or 405', async () => {
  const h = tiny({ onAccountEnabled: true });
  const values = { basketId: GUID, basketItemId: 1, eventId: 1, venueId: 1, performanceId: 1 };
  const query = '?type=1&dateFrom=2026-01-16&dateTo=2026-01-20&nbOfTickets=1&consecutiveSeatsOnly=false&requiredTicketsCount=1';
  for (const op of operationList) {
    const r = await h.call(op.method, fillPath(op.path, values) + query, op.body ? {} : undefined);
    assert.ok(![404, 405].includes(r.status) || !/No operation|not allowed/.test(String(rec(r.body ?? {}).Message)), `${op.name}: ${r.status} ${r.text}`);
    assert.ok(r.status < 500, `${op.name}: ${r.status} ${r.text}`);
  }
});

test('a missing or invalid Api-Key is 401 JSON; any non-empty key by default, only the listed ones when configured', async () => {
  const open = setup();
  const bare = await open.sandbox.fetch(new Request(`${BASE}/rest/v2/System/HeartBeat`));
  assert.equal(bare.status, 401);
  assert.match(bare.headers.get('Content-Type') ?? '', /application\/json/);
  assert.match(String(rec(await bare.json()).Message), /Api-Key/);
  assert.equal((await open.call('GET', '/rest/v2/System/HeartBeat', undefined, { 'Api-Key': '  ' })).status, 401);
  assert.equal((await open.call('GET', '/rest/v2/System/HeartBeat', undefined, { 'Api-Key': 'anything' })).status, 200);

  const closed = setup({ apiKeys: ['s3cret'] });
  assert.equal((await closed.call('GET', '/rest/v2/System/HeartBeat')).status, 401, `${KEY} is not listed`);
  const good = await closed.call('GET', '/rest/v2/System/HeartBeat', undefined, { 'Api-Key': 's3cret' });
  assert.equal(good.status, 200);
  assert.equal(good.body, true);
  assert.equal((await closed.sandbox.fetch(new Request(`${BASE}/v3/baskets/${GUID}/performances/1/tickets`, { method: 'POST' }))).status, 401);
});

test('unknown path 404, wrong method 405 with Allow, bad path or query parameter 400: all JSON with a Message', async () => {
  const h = setup();
  const cases: [string, string, number, RegExp][] = [
    ['GET', '/rest/v2/Nothing', 404, /No operation/],
    ['GET', '/elsewhere', 404, /No resource/],
    ['PUT', '/rest/v2/Baskets', 405, /not allowed/],
    ['GET', '/rest/v2/Baskets/not-a-guid', 400, /basketId/],
    ['GET', '/rest/v2/Events/abc', 400, /eventId/],
    ['GET', '/rest/v2/Events/-1', 400, /eventId/],
    ['GET', '/rest/v2/Performances/1/AvailableTickets', 400, /requiredTicketsCount' is required/],
    ['GET', '/rest/v2/Performances/1/AvailableTickets?requiredTicketsCount=two', 400, /requiredTicketsCount/],
    ['GET', '/rest/v2/Performances?dateFrom=2026-01-16', 400, /dateTo' is required/],
    ['GET', '/rest/v2/Performances?dateFrom=16/01/2026&dateTo=2026-01-20', 400, /dateFrom/],
    ['GET', '/rest/v2/Events?type=musical', 400, /type/],
    ['GET', '/rest/v2/Events/1001/PreliminaryBookingInfo?dateFrom=2026-01-16&dateTo=2026-01-20&nbOfTickets=2&consecutiveSeatsOnly=maybe', 400, /consecutiveSeatsOnly/],
  ];
  for (const [method, path, status, message] of cases) {
    const r = await h.call(method, path);
    assert.equal(r.status, status, `${method} ${path}`);
    assert.match(r.headers.get('Content-Type') ?? '', /application\/json/, `${method} ${path}`);
    assert.match(String(rec(r.body).Message), message, `${method} ${path}`);
  }
  const r = await h.call('DELETE', '/rest/v2/Baskets');
  assert.equal(r.headers.get('Allow'), 'POST');
});

test('paths match case-insensitively, as the interface writes /v3/Baskets and /v3/baskets', async () => {
  const h = setup();
  assert.equal((await h.get('/REST/V2/system/heartbeat')).status, 200);
  assert.equal((await h.get('/rest/v2/events/1001')).status, 200);
});

test('every response carries a Date header from the injected clock', async () => {
  const h = setup();
  for (const path of ['/rest/v2/System/HeartBeat', '/rest/v2/Nothing', '/sandbox/images/x/10x10.svg']) {
    const r = await h.get(path);
    assert.equal(r.headers.get('Date'), new Date(START).toUTCString(), path);
  }
  h.clock.advance(90_000);
  assert.equal((await h.get('/rest/v2/System/HeartBeat')).headers.get('Date'), new Date(START + 90_000).toUTCString());
  const unauthorised = await h.sandbox.fetch(new Request(`${BASE}/rest/v2/Events`));
  assert.equal(unauthorised.headers.get('Date'), new Date(START + 90_000).toUTCString());
});

test('placeholder images are SVG served by the sandbox; bad image paths are 404', async () => {
  const h = setup();
  const r = await h.sandbox.fetch(new Request(`${BASE}/sandbox/images/the-lantern-keeper/320x180.svg`));
  assert.equal(r.status, 200);
  assert.match(r.headers.get('Content-Type') ?? '', /image\/svg\+xml/);
  const svg = await r.text();
  assert.match(svg, /^<svg [^>]*width="320" height="180"/);
  assert.match(svg, /The Lantern Keeper/);
  assert.equal((await h.sandbox.fetch(new Request(`${BASE}/sandbox/images/x/big.svg`))).status, 404);
  assert.equal((await h.sandbox.fetch(new Request(`${BASE}/sandbox/images/<script>/10x10.svg`))).status, 404);
});
