/**
 * The waiting room in one proxy (its memory store), over the real handler in front of the sandbox
 * on a controlled clock: the order, the rate, release, maxActive, live changes (room-scenarios.ts),
 * the join call's refusals, the pass refusals and the gate's scope, the admin endpoint's auth.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { promMetrics } from '../../src/server/proxy/metrics.ts';
import type { RoomConfig } from '../../src/server/proxy/room/config.ts';
import { leadingZeroBits } from '../../src/server/proxy/room/pass.ts';
import { logSink } from './proxy-helpers.ts';
import { admin, call, OPENS, open, polled, room, roomWorld, SECRET, seatMap, TINY, visit } from './room-harness.ts';
import { roomScenarios } from './room-scenarios.ts';

describe('the waiting room in one proxy (memory)', () => {
  roomScenarios(() => null);
});

/** One proxy with the hot-show room open, and `first` admitted (its pass). */
async function admittedWorld(config: Partial<RoomConfig> = {}) {
  const world = roomWorld();
  const proxy = world.proxy();
  await open(proxy, room({ opensAt: OPENS, ...config }));
  world.clock.set(OPENS);
  await polled(proxy, 'first');
  await polled(proxy, 'second');
  world.clock.advance(1000);
  const answer = await polled(proxy, 'first');
  assert.equal(answer.body.status, 'admitted');
  const pass = answer.body.pass as { token: string; expiresAt: string };
  return { world, proxy, pass };
}

const refusalOf = (answer: { status: number; body: Record<string, unknown>; headers: Headers }) => {
  assert.equal(answer.status, 428, JSON.stringify(answer.body));
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.deepEqual(answer.body.Room, { id: 'hot-show', join: '/api/stagedoor/room/hot-show' });
  assert.equal(answer.body.Message, 'This performance is behind a waiting room: join it to get a pass.');
  return answer.body.Pass;
};

describe('the pass', () => {
  test('missing, forged, altered, expired and another visitor’s passes are refused with 428 and why; the right one passes', async () => {
    const { world, proxy, pass } = await admittedWorld({ passSeconds: 60 });
    const as = (visitor: string, token?: string) => seatMap(proxy, token === undefined ? { 'Stagedoor-Queue-Id': visitor } : { 'Stagedoor-Queue-Id': visitor, 'Stagedoor-Pass': token });
    assert.equal(refusalOf(await as('first')), 'missing');
    assert.equal(refusalOf(await seatMap(proxy)), 'missing');
    const [roomId, expiry, signature] = pass.token.split('.') as [string, string, string];
    assert.equal(refusalOf(await as('first', `${roomId}.${expiry}.${'A'.repeat(43)}`)), 'invalid');
    assert.equal(refusalOf(await as('first', 'not a pass')), 'invalid');
    // A later expiry on the genuine signature.
    assert.equal(refusalOf(await as('first', `${roomId}.${(parseInt(expiry, 36) + 60_000).toString(36)}.${signature}`)), 'invalid');
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    assert.equal(refusalOf(await as('first', `${roomId}.${expiry}.${flipped}`)), 'invalid');
    assert.equal(refusalOf(await as('second', pass.token)), 'other-visitor');
    assert.equal((await as('first', pass.token)).status, 200);
    world.clock.advance(60_000);
    assert.equal(refusalOf(await as('first', pass.token)), 'expired');
  });

  test('the gate covers the room’s performance only: the seat map, AvailableTickets, seat validation and Add Tickets; browsing stays open', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room());
    const perf = TINY.perf;
    const basket = await call(proxy, 'POST', '/api/rest/v2/Baskets');
    assert.equal(basket.status, 201, 'Create Basket is open outside a site room');
    const id = String(basket.body.BasketId);
    const gated = [
      await call(proxy, 'GET', `/api/rest/v2/Performances/${perf}/AvailableTickets?requiredTicketsCount=1`),
      await call(proxy, 'GET', `/api/rest/v2/Performances/${perf}/FullAvailability`),
      await call(proxy, 'POST', `/api/rest/v2/Performances/${perf}/SeatsSelectionValidation`, { TicketIds: [1] }),
      await call(proxy, 'POST', `/api/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: perf, SeatsCount: 1 } }),
      await call(proxy, 'POST', `/api/v3/Baskets/${id}/performances/${perf}/tickets`, { SeatsCount: 1 }),
    ];
    for (const answer of gated) assert.equal(refusalOf(answer), 'missing');
    for (const path of [`/api/rest/v2/Performances/${perf}`, `/api/rest/v2/Performances/${perf}/SeatingPlan`, '/api/rest/v2/Events', `/api/rest/v2/Performances/${TINY.gaPerf}/AreasPrices`]) {
      assert.notEqual((await call(proxy, 'GET', path)).status, 428, path);
    }
  });

  test('v2 chosen seats name no performance: the proxy finds theirs in the room’s seat map and gates them', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room({ id: 'later', opensAt: OPENS * 2 }));
    // Read while no room covers it: take two seat ids from the map.
    await admin(proxy, 'DELETE', '/stagedoor/rooms/later');
    const map = await seatMap(proxy);
    assert.equal(map.status, 200);
    const tickets = (map.body.AvailableTickets as { TicketId: number }[]).slice(0, 2).map((t) => t.TicketId);
    await open(proxy, room());
    const basket = String((await call(proxy, 'POST', '/api/rest/v2/Baskets')).body.BasketId);
    assert.equal(refusalOf(await call(proxy, 'POST', `/api/rest/v2/Baskets/${basket}/Tickets`, { Tickets: tickets })), 'missing');
  });

  test('a site room gates Create Basket too; an event room gates its performances and its event’s availability', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room({ id: 'site', scope: { kind: 'site' } }));
    const refused = await call(proxy, 'POST', '/api/rest/v2/Baskets');
    assert.equal(refused.status, 428);
    assert.deepEqual(refused.body.Room, { id: 'site', join: '/api/stagedoor/room/site' });
    await admin(proxy, 'DELETE', '/stagedoor/rooms/site');
    await open(proxy, room({ id: 'event', scope: { kind: 'event', eventId: TINY.seated } }));
    assert.equal((await call(proxy, 'POST', '/api/rest/v2/Baskets')).status, 201);
    assert.equal((await seatMap(proxy)).status, 428);
    assert.equal((await call(proxy, 'GET', `/api/rest/v2/Events/${TINY.seated}/AvailableTickets`)).status, 428);
    assert.notEqual((await call(proxy, 'GET', `/api/rest/v2/Performances/${TINY.gaPerf}/AreasPrices`)).status, 428);
  });

  test('a pass holder’s seats are capped by its queue id, whatever basket it uses', async () => {
    const world = roomWorld();
    const proxy = world.proxy({ seatCaps: { perVisitor: 2, perAddress: false } });
    await open(proxy, room({ scope: { kind: 'performance', performanceId: TINY.gaPerf }, opensAt: OPENS }));
    world.clock.set(OPENS);
    await polled(proxy, 'holder');
    world.clock.advance(1000);
    const token = ((await polled(proxy, 'holder')).body.pass as { token: string }).token;
    const headers = { 'Stagedoor-Queue-Id': 'holder', 'Stagedoor-Pass': token };
    const add = async () => {
      const basket = String((await call(proxy, 'POST', '/api/rest/v2/Baskets')).body.BasketId);
      return call(proxy, 'POST', `/api/v3/Baskets/${basket}/performances/${TINY.gaPerf}/tickets`, { AreaId: TINY.standing, SeatsCount: 2, Price: 25 }, headers);
    };
    assert.equal((await add()).status, 200);
    const second = await add();
    assert.equal(second.status, 409);
    assert.equal((second.body.SeatCap as { per: string }).per, 'visitor');
  });
});

describe('the join call', () => {
  test('refusals: no queue id (400), no such room (404), not POST (405), not JSON (415); answers are never cached', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room());
    assert.equal((await call(proxy, 'POST', '/api/stagedoor/room/hot-show', {})).status, 400);
    assert.equal((await call(proxy, 'POST', '/api/stagedoor/room/hot-show', {}, { 'Stagedoor-Queue-Id': 'bad id!' })).status, 400);
    assert.equal((await visit(proxy, 'v', 'no-such-room')).status, 404);
    assert.equal((await call(proxy, 'GET', '/api/stagedoor/room/hot-show', undefined, { 'Stagedoor-Queue-Id': 'v' })).status, 405);
    const text = await proxy.fetch(new Request('http://proxy.test/api/stagedoor/room/hot-show', { method: 'POST', body: '{}', headers: { 'Content-Type': 'text/plain', 'Stagedoor-Queue-Id': 'v' } }));
    assert.equal(text.status, 415);
    const ok = await visit(proxy, 'v');
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(ok.body).sort(), ['ahead', 'now', 'opensAt', 'pollSeconds', 'position', 'ratePerMinute', 'room', 'status', 'waitSeconds']);
  });

  test('the estimate: the people ahead at the rate, up to the pace maxActive allows; rarer polls far back', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room({ ratePerMinute: 60, maxActive: 10, passSeconds: 600, opensAt: OPENS, state: 'paused' }));
    world.clock.set(OPENS);
    for (let i = 0; i < 100; i++) await polled(proxy, `e${i}`);
    await admin(proxy, 'PATCH', '/stagedoor/rooms/hot-show', { state: 'open' });
    const near = await polled(proxy, 'e1');
    const far = await polled(proxy, 'e99');
    // Position 2 at 60 a minute: 2 s; at ten passes per ten minutes (one a minute): 2 min, and a quarter more.
    assert.deepEqual(near.body.waitSeconds, { low: 2, high: 160 });
    assert.deepEqual(far.body.waitSeconds, { low: 100, high: 7510 });
    assert.ok((near.body.pollSeconds as number) <= 3 && (far.body.pollSeconds as number) >= 16, `${near.body.pollSeconds} ${far.body.pollSeconds}`);
  });

  test('proof of work: without one a join gets a challenge; a solution joins; a wrong one gets a new challenge', async () => {
    const world = roomWorld();
    const proxy = world.proxy();
    await open(proxy, room({ proofBits: 8 }));
    const asked = await visit(proxy, 'solver');
    assert.equal(asked.body.status, 'proof');
    const { challenge, bits } = asked.body.proof as { challenge: string; bits: number };
    assert.equal(bits, 8);
    let wrong = 0;
    while (await solvedBy(challenge, 8, String(wrong))) wrong++;
    assert.equal((await visit(proxy, 'solver', 'hot-show', { proof: { challenge, nonce: String(wrong) } })).body.status, 'proof');
    let nonce = 0;
    while (!(await solvedBy(challenge, 8, String(nonce)))) nonce++;
    assert.equal((await visit(proxy, 'other', 'hot-show', { proof: { challenge, nonce: String(nonce) } })).body.status, 'proof', 'bound to its queue id');
    assert.equal((await visit(proxy, 'solver', 'hot-show', { proof: { challenge, nonce: String(nonce) } })).body.status, 'before');
    // Joined: later polls need no proof.
    assert.equal((await visit(proxy, 'solver')).body.status, 'before');
  });
});

async function solvedBy(challenge: string, bits: number, nonce: string): Promise<boolean> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${challenge}:${nonce}`)));
  return leadingZeroBits(digest) >= bits;
}

describe('the admin endpoint', () => {
  test('absent without an admin secret; 401 without the right bearer; bad settings get a clear 400', async () => {
    const world = roomWorld();
    const none = world.proxy({ rooms: { secret: SECRET } });
    assert.equal((await admin(none, 'GET', '/stagedoor/rooms')).status, 404);
    const proxy = world.proxy();
    assert.equal((await call(proxy, 'GET', '/stagedoor/rooms')).status, 401);
    assert.equal((await admin(proxy, 'GET', '/stagedoor/rooms', undefined, 'wrong')).status, 401);
    const list = await admin(proxy, 'GET', '/stagedoor/rooms');
    assert.deepEqual(list.body, { rooms: [] });
    const bad = await admin(proxy, 'PUT', '/stagedoor/rooms/hot-show', { scope: { kind: 'site' }, ratePerMinute: 0, opensAt: '2026-12-01T10:00:00Z' });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.Message), /ratePerMinute must be a whole number from 1/);
    assert.equal((await admin(proxy, 'PATCH', '/stagedoor/rooms/nope', { state: 'paused' })).status, 404);
    await open(proxy, room());
    const shown = (await admin(proxy, 'GET', '/stagedoor/rooms')).body.rooms as Record<string, unknown>[];
    assert.equal(shown[0]?.opensAt, new Date(OPENS).toISOString());
    assert.deepEqual(shown[0]?.stats, { waiting: 0, admitted: 0, active: 0, admittedLastMinute: 0 });
  });

  test('a room secret under 32 bytes is a configuration error naming the variable', () => {
    assert.throws(() => roomWorld().proxy({ rooms: { secret: 'short' } }), /STAGEDOOR_ROOM_SECRET\) must be at least 32 bytes/);
  });

  test('with no rooms option nothing changes: the room paths are not there and nothing is gated', async () => {
    const world = roomWorld();
    const proxy = world.proxy({ rooms: undefined });
    assert.equal((await visit(proxy, 'v')).status, 404);
    assert.equal((await admin(proxy, 'GET', '/stagedoor/rooms')).status, 404);
    assert.equal((await seatMap(proxy)).status, 200);
  });
});

test('CORS: a host on another origin may send Stagedoor-Queue-Id and Stagedoor-Pass', async () => {
  const proxy = roomWorld().proxy({ allowedOrigins: ['https://theatre.example'] });
  const preflight = await proxy.fetch(
    new Request('http://proxy.test/api/stagedoor/room/hot-show', {
      method: 'OPTIONS',
      headers: { Origin: 'https://theatre.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,stagedoor-queue-id,stagedoor-pass' },
    }),
  );
  const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
  assert.ok(allowed.includes('stagedoor-queue-id') && allowed.includes('stagedoor-pass'), allowed.join());
});

test('metrics: waiting, admitted, the wait from join to pass, refusals by reason, polls', async () => {
  const world = roomWorld();
  const proxy = world.proxy({ metrics: promMetrics() });
  await open(proxy, room({ opensAt: OPENS }));
  world.clock.set(OPENS);
  for (const who of ['m1', 'm2', 'm3']) await polled(proxy, who);
  world.clock.advance(1000);
  await polled(proxy, 'm2');
  await seatMap(proxy, { 'Stagedoor-Queue-Id': 'm3' });
  await seatMap(proxy, { 'Stagedoor-Queue-Id': 'm3', 'Stagedoor-Pass': 'hot-show.zzz.forged' });
  const text = await (await proxy.fetch(new Request('http://proxy.test/metrics'))).text();
  assert.match(text, /^stagedoor_room_waiting\{room="hot-show"\} 2$/m);
  assert.match(text, /^stagedoor_room_admitted_total\{room="hot-show"\} 1$/m);
  assert.match(text, /^stagedoor_room_wait_seconds_bucket\{le="1",room="hot-show"\} 1$/m);
  assert.match(text, /^stagedoor_room_pass_refused_total\{room="hot-show",reason="missing"\} 1$/m);
  assert.match(text, /^stagedoor_room_pass_refused_total\{room="hot-show",reason="invalid"\} 1$/m);
  assert.match(text, /^stagedoor_room_polls_total\{room="hot-show"\} 4$/m);
});

test('the access log names the room calls and why a gated request was refused, never a queue id or a pass', async () => {
  const sink = logSink();
  const world = roomWorld();
  const proxy = world.proxy({ log: sink.log });
  await open(proxy, room());
  await polled(proxy, 'secret-visitor-id');
  await seatMap(proxy, { 'Stagedoor-Queue-Id': 'secret-visitor-id', 'Stagedoor-Pass': 'hot-show.abc.forged-pass-token' });
  assert.deepEqual(
    sink.entries.map((e) => [e.operation, e.status, e.roomPass]),
    [['roomAdmin', 200, undefined], ['roomJoin', 200, undefined], ['getFullAvailability', 428, 'invalid']],
  );
  assert.doesNotMatch(sink.lines.join('\n'), /secret-visitor-id|forged-pass-token/);
});

test('two rooms over one performance: the refusal names the room the pass was for, and why', async () => {
  const { world, proxy, pass } = await admittedWorld({ passSeconds: 60 });
  await open(proxy, room({ id: 'site', scope: { kind: 'site' } }));
  world.clock.advance(60_000);
  const refused = await seatMap(proxy, { 'Stagedoor-Queue-Id': 'first', 'Stagedoor-Pass': pass.token });
  assert.equal(refused.status, 428);
  assert.deepEqual([(refused.body.Room as { id: string }).id, refused.body.Pass], ['hot-show', 'expired']);
});
