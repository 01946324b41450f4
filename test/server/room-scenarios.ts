/**
 * The waiting room's behaviour, written once and run over each store: the memory store (one proxy),
 * and three proxies sharing a real redis-server or a real three-master Redis Cluster
 * (proxy-room-redis.test.ts). Every scenario has its own sandbox, clock and key prefix.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProxyApp, ProxyStore } from '../../src/server/proxy/index.ts';
import { admin, OPENS, open, polled, room, roomWorld, seatMap, visit, type RoomWorld } from './room-harness.ts';

/** Three proxies (the same one three times when the store is not shared) and the world they share. */
export interface Setup {
  world: RoomWorld;
  /** Proxy `i % 3`. */
  at(i: number): ProxyApp;
  /** A new proxy on the same store (a restart), or null when the store dies with its proxy. */
  restart(): ProxyApp | null;
  close(): Promise<void>;
}

/** `stores()`: a store factory for one scenario (each call of it: one proxy's store), or none for memory. */
export function setup(stores: (() => ProxyStore) | null): Setup {
  const world = roomWorld(stores ?? undefined);
  const made: ProxyApp[] = [];
  const make = () => {
    const proxy = world.proxy();
    made.push(proxy);
    return proxy;
  };
  const first = make();
  const proxies = stores ? [first, make(), make()] : [first, first, first];
  return {
    world,
    at: (i) => proxies[i % 3] ?? first,
    restart: () => (stores ? make() : null),
    close: async () => void (await Promise.all(made.map((p) => p.close()))),
  };
}

const positionOf = async (proxy: ProxyApp, who: string) => (await polled(proxy, who)).body.position as number;

export function roomScenarios(stores: () => (() => ProxyStore) | null): void {
  /** A test with its own proxies and store, closed after it. */
  const scenario = (name: string, body: (s: Setup) => Promise<void>) =>
    test(name, async () => {
      const s = setup(stores());
      try {
        await body(s);
      } finally {
        await s.close();
      }
    });

  scenario('before the on-sale everyone waits unplaced; at opensAt the pre-queue gets a random order, later arrivals queue in arrival order', async (s) => {
    await open(s.at(0), room());
    const early = Array.from({ length: 30 }, (_, i) => `early-${String(i).padStart(2, '0')}`);
    for (const [i, who] of early.entries()) {
      const r = await polled(s.at(i), who);
      assert.equal(r.body.status, 'before');
      assert.equal(r.body.position, null);
      assert.equal(r.body.waitSeconds, null);
      s.world.clock.advance(100);
    }
    // They keep asking while they wait (a place not asked for in keepSeconds is released).
    while (s.world.clock.now() + 60_000 < OPENS) {
      s.world.clock.advance(60_000);
      for (const [i, who] of early.entries()) assert.equal((await polled(s.at((i + 1)), who)).body.status, 'before');
    }
    // At the on-sale instant itself (nobody admitted yet: the allowance starts at opensAt).
    s.world.clock.set(OPENS);
    const late = ['late-a', 'late-b', 'late-c'];
    const positions = new Map<string, number>();
    for (const [i, who] of late.entries()) positions.set(who, await positionOf(s.at((i + 1)), who));
    for (const [i, who] of early.entries()) positions.set(who, await positionOf(s.at(i), who));
    const earlyPlaces = early.map((who) => positions.get(who)!);
    assert.deepEqual([...earlyPlaces].sort((a, b) => a - b), early.map((_, i) => i + 1), 'the pre-queue holds places 1 to 30');
    assert.notDeepEqual(earlyPlaces, early.map((_, i) => i + 1), 'the pre-queue is not in arrival order');
    // Arrival order for the later ones, behind every early one.
    assert.deepEqual(late.map((who) => positions.get(who)), [31, 32, 33]);
  });

  scenario('admission at the set rate (12 a minute) under a controlled clock; no position ever moves back', async (s) => {
    await open(s.at(0), room({ ratePerMinute: 12, opensAt: OPENS }));
    s.world.clock.set(OPENS);
    const visitors = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const last = new Map<string, number>();
    for (const [i, who] of visitors.entries()) last.set(who, await positionOf(s.at(i), who));
    const admittedAt: number[] = [];
    for (let step = 1; step <= 36; step++) {
      s.world.clock.advance(5000);
      for (const [i, who] of visitors.entries()) {
        if (!last.has(who)) continue;
        const r = await polled(s.at((i + step)), who);
        if (r.body.status === 'admitted') {
          admittedAt.push(s.world.clock.now());
          last.delete(who);
          continue;
        }
        const position = r.body.position as number;
        assert.ok(position <= last.get(who)!, `${who} moved back from ${last.get(who)} to ${position}`);
        assert.equal(r.body.ahead, position - 1);
        last.set(who, position);
      }
    }
    const perMinute = [0, 1, 2].map((m) => admittedAt.filter((at) => at > OPENS + m * 60_000 && at <= OPENS + (m + 1) * 60_000).length);
    assert.deepEqual(perMinute, [12, 12, 12]);
  });

  scenario('a place not asked for in keepSeconds is released and the queue moves on past it', async (s) => {
    await open(s.at(0), room({ state: 'paused', keepSeconds: 30, opensAt: OPENS }));
    s.world.clock.set(OPENS);
    for (const who of ['gone', 'b', 'c']) await polled(s.at(1), who);
    assert.equal(await positionOf(s.at(2), 'b'), 2);
    s.world.clock.advance(20_000);
    assert.equal(await positionOf(s.at(0), 'c'), 3);
    assert.equal(await positionOf(s.at(0), 'b'), 2);
    s.world.clock.advance(11_000); // 'gone' last asked 31 s ago
    assert.equal(await positionOf(s.at(1), 'b'), 1);
    assert.equal(await positionOf(s.at(2), 'c'), 2);
    // Back after that: at the end.
    assert.equal(await positionOf(s.at(2), 'gone'), 3);
  });

  scenario('maxActive: never more unexpired passes than that at once; a pass that expires makes room', async (s) => {
    await open(s.at(0), room({ ratePerMinute: 600, maxActive: 2, passSeconds: 60, keepSeconds: 600, opensAt: OPENS }));
    s.world.clock.set(OPENS);
    const visitors = ['a', 'b', 'c', 'd'];
    for (const who of visitors) await polled(s.at(0), who);
    s.world.clock.advance(30_000);
    const statuses = [];
    for (const [i, who] of visitors.entries()) statuses.push((await polled(s.at(i), who)).body.status);
    assert.deepEqual(statuses.filter((x) => x === 'admitted').length, 2);
    const stats = (await admin(s.at(1), 'GET', '/stagedoor/rooms/hot-show')).body.stats as Record<string, number>;
    assert.equal(stats.active, 2);
    assert.equal(stats.waiting, 2);
    s.world.clock.advance(61_000);
    const later = [];
    for (const who of ['c', 'd']) later.push((await polled(s.at(2), who)).body.status);
    assert.deepEqual(later, ['admitted', 'admitted']);
  });

  scenario('pause, resume and a new rate take effect at once, whichever proxy the operator asked', async (s) => {
    await open(s.at(0), room({ ratePerMinute: 60, opensAt: OPENS }));
    s.world.clock.set(OPENS);
    const visitors = Array.from({ length: 20 }, (_, i) => `p${i}`);
    for (const who of visitors) await polled(s.at(0), who);
    assert.equal((await admin(s.at(1), 'PATCH', '/stagedoor/rooms/hot-show', { state: 'paused' })).status, 200);
    s.world.clock.advance(10_000);
    const paused = await polled(s.at(2), 'p5');
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.waitSeconds, null);
    const admittedWhilePaused = (await admin(s.at(0), 'GET', '/stagedoor/rooms/hot-show')).body.stats as Record<string, number>;
    assert.equal(admittedWhilePaused.admitted, 0);
    await admin(s.at(2), 'PATCH', '/stagedoor/rooms/hot-show', { state: 'open', ratePerMinute: 6 });
    s.world.clock.advance(60_000);
    for (const who of visitors) await polled(s.at(1), who);
    const stats = (await admin(s.at(0), 'GET', '/stagedoor/rooms/hot-show')).body.stats as Record<string, number>;
    // A minute at 6 a minute (the allowance's cap is one at that rate: admitted as the visitors ask).
    const admitted = stats.admitted ?? 0;
    assert.ok(admitted >= 1 && admitted <= 6, JSON.stringify(stats));
    assert.equal((await polled(s.at(0), 'p19')).body.ratePerMinute, 6);
  });

  scenario('a pass opens the gate on every proxy; the store keeps every place across a proxy restart', async (s) => {
    await open(s.at(0), room({ ratePerMinute: 60, opensAt: OPENS }));
    s.world.clock.set(OPENS);
    for (const who of ['first', 'second', 'third']) await polled(s.at(0), who);
    s.world.clock.advance(1000);
    const admitted = await polled(s.at(1), 'first');
    assert.equal(admitted.body.status, 'admitted');
    const pass = (admitted.body.pass as { token: string }).token;
    for (const proxy of [0, 1, 2].map(s.at)) {
      const map = await seatMap(proxy, { 'Stagedoor-Queue-Id': 'first', 'Stagedoor-Pass': pass });
      assert.equal(map.status, 200);
      assert.match(map.headers.get('cache-control') ?? '', /no-store/);
    }
    // Another visitor showing it, on any proxy: told apart from a forgery through the store.
    const stolen = await seatMap(s.at(2), { 'Stagedoor-Queue-Id': 'second', 'Stagedoor-Pass': pass });
    assert.equal(stolen.status, 428);
    assert.equal(stolen.body.Pass, 'other-visitor');
    const restarted = s.restart();
    if (!restarted) return;
    await s.at(0).close();
    assert.equal(await positionOf(restarted, 'third'), 2);
    assert.equal((await seatMap(restarted, { 'Stagedoor-Queue-Id': 'first', 'Stagedoor-Pass': pass })).status, 200);
  });
}
