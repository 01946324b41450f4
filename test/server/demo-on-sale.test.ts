/**
 * The demo on-sale (`npm start`, src/server/demo-site.ts), over the demo's own handler on one
 * controlled clock: Swan Lake behind a waiting room that opens a minute after start while every
 * other show (those the end-to-end tests book among them) stays open; a newcomer's countdown, a
 * place drawn among the simulated crowd at the on-sale, a place that never moves back, and the
 * pass that opens the seats. With the on-sale off, no room at all. And the same join over a
 * loopback socket, served by @hono/node-server as `npm start` serves it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDemoSite, DEMO_ON_SALE } from '../../src/server/demo-site.ts';
import { ManualClock } from '../../src/server/sandbox/index.ts';
import { listen } from './proxy-helpers.ts';

const ORIGIN = 'http://127.0.0.1:8080';
const START = Date.parse('2026-12-01T09:00:00Z');
/** The shows the end-to-end tests book through `npm start` (test/e2e/booking-*.test.ts). */
const BOOKED_BY_TESTS = ['Much Ado About Nothing', 'La Traviata', 'The Lantern Keeper', "A Winter's Orchard"];

type Body = Record<string, unknown>;

function demo(onSale = true) {
  const clock = new ManualClock(START);
  const site = createDemoSite({ origin: ORIGIN, clock, log: false, onSale });
  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
    const init: RequestInit = { method, headers: { 'Content-Type': 'application/json', ...headers } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await site.app.fetch(new Request(`${ORIGIN}${path}`, init));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
  }
  /** Each show's name, its first performance and what its seat map answers without a pass (a general-admission show's: 400). */
  async function seatMaps() {
    const { Events } = (await call('GET', '/api/rest/v2/Events')).body as { Events: { EventId: number; Name: string }[] };
    return Promise.all(
      Events.map(async (event) => {
        const { Performances } = (await call('GET', `/api/rest/v2/Events/${event.EventId}/Performances`)).body as { Performances: { PerformanceId: number }[] };
        const performance = Performances[0]?.PerformanceId ?? 0;
        const seats = await call('GET', `/api/rest/v2/Performances/${performance}/FullAvailability`);
        return { name: event.Name, performance, seats };
      }),
    );
  }
  return { clock, site, call, seatMaps };
}

describe('the demo on-sale', () => {
  test('only its show is behind the room, from start: every other show’s seats stay open to all', async () => {
    const { site, seatMaps } = demo();
    assert.equal(site.room?.show, DEMO_ON_SALE.show);
    assert.equal(site.room?.opensAt, START + 60_000, 'it opens a minute after start');
    const shows = await seatMaps();
    const gated = shows.filter((s) => s.seats.status === 428);
    assert.deepEqual(gated.map((s) => s.name), [DEMO_ON_SALE.show]);
    assert.deepEqual(gated[0]?.seats.body, {
      Message: 'This performance is behind a waiting room: join it to get a pass.',
      Room: { id: DEMO_ON_SALE.room, join: `/api/stagedoor/room/${DEMO_ON_SALE.room}` },
      Pass: 'missing',
    });
    for (const name of BOOKED_BY_TESTS) {
      assert.equal(shows.find((s) => s.name === name)?.seats.status, 200, `${name}, which the e2e tests book, is open`);
    }
  });

  test('a newcomer: the countdown before the on-sale, a place drawn among the crowd at it, never moving back, then a pass that opens the seats', async () => {
    const { clock, call, seatMaps } = demo();
    const visitor = { 'Stagedoor-Queue-Id': 'newcomer-1' };
    const join = `/api/stagedoor/room/${DEMO_ON_SALE.room}`;
    clock.advance(10_000);
    const before = await call('POST', join, visitor, {});
    assert.equal(before.status, 200);
    assert.equal(before.body.status, 'before');
    assert.equal(before.body.opensAt, new Date(START + 60_000).toISOString());
    assert.equal(before.body.position, null, 'the pre-queue’s order is drawn at the on-sale');

    clock.advance(51_000);
    const positions: number[] = [];
    let answer = await call('POST', join, visitor, {});
    // Asking every 10 s (well within the 2 minutes a place is kept), for at most three minutes.
    for (let polls = 0; answer.body.status === 'waiting' && polls < 18; polls++) {
      positions.push(Number(answer.body.position));
      clock.advance(10_000);
      answer = await call('POST', join, visitor, {});
    }
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'admitted', `admitted after waiting at ${positions.join(', ')}`);
    assert.ok((positions[0] ?? 1) <= DEMO_ON_SALE.crowd + 1, `a place among the ${DEMO_ON_SALE.crowd} simulated visitors: ${positions[0]}`);
    for (let i = 1; i < positions.length; i++) assert.ok(positions[i]! <= positions[i - 1]!, `the place never moves back: ${positions.join(', ')}`);

    const pass = (answer.body.pass as { token: string }).token;
    const swanLake = (await seatMaps()).find((s) => s.name === DEMO_ON_SALE.show);
    const seats = await call('GET', `/api/rest/v2/Performances/${swanLake?.performance}/FullAvailability`, { ...visitor, 'Stagedoor-Pass': pass });
    assert.equal(seats.status, 200, JSON.stringify(seats.body));
    assert.ok(Array.isArray(seats.body.AvailableTickets));
  });

  test('with the on-sale off (`onSale: false`), no room: every show open, no room to join', async () => {
    const { site, call, seatMaps } = demo(false);
    assert.equal(site.room, null);
    // (A general-admission show has no seat map: 400, not the room's 428.)
    assert.deepEqual((await seatMaps()).filter((s) => s.seats.status === 428), []);
    assert.equal((await call('POST', `/api/stagedoor/room/${DEMO_ON_SALE.room}`, { 'Stagedoor-Queue-Id': 'newcomer-2' }, {})).status, 404);
  });

  test('over a loopback socket, as npm start serves it (Node lower-cases the header names), a newcomer joins the pre-queue', async () => {
    const { site } = demo();
    const served = await listen((request, env) => site.app.fetch(request, env));
    try {
      const response = await fetch(`${served.url}/api/stagedoor/room/${DEMO_ON_SALE.room}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stagedoor-Queue-Id': 'newcomer-3' },
        body: '{}',
      });
      const body = (await response.json()) as Body;
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.status, 'before');
    } finally {
      await served.close();
    }
  });
});
