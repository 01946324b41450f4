/**
 * The waiting room over three proxies sharing a real redis-server, then a real three-master Redis
 * Cluster (each started by this file on loopback ports, stopped by its pid): the same scenarios as
 * one proxy (room-scenarios.ts: order, rate, release, maxActive, live changes, a restart), and a
 * Redis outage: 503 to joins, nobody admitted, passes still honoured, every place kept when it
 * comes back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRedisStore } from '../../src/server/proxy/redis-store.ts';
import type { ProxyStore } from '../../src/server/proxy/index.ts';
import { ADMIN, admin, OPENS, open, polled, room, roomWorld, SECRET, seatMap, visit } from './room-harness.ts';
import { roomScenarios, setup } from './room-scenarios.ts';
import { startRedis, startRedisCluster, type RunningRedis, type RunningRedisCluster } from './servers.ts';

let prefixes = 0;
/** A store factory with a key prefix of its own: one scenario's proxies share it, no other scenario does. */
const storesOn = (options: { url: string; clusterNodes?: string[] }) => () => {
  const keyPrefix = `room-test-${++prefixes}:`;
  return (): ProxyStore => createRedisStore({ ...options, keyPrefix });
};

describe('three proxies, one redis-server', () => {
  let redis: RunningRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis.stop());
  roomScenarios(() => storesOn({ url: redis.url })());

  test('initial rooms are opened once: a proxy started later with them keeps the running room, its changes and its places', async () => {
    const stores = storesOn({ url: redis.url })();
    const world = roomWorld(stores);
    const initial = [room({ opensAt: OPENS })];
    const first = world.proxy({ rooms: { secret: SECRET, adminSecret: ADMIN, initial } });
    world.clock.set(OPENS);
    for (const who of ['x', 'y']) await polled(first, who);
    await admin(first, 'PATCH', '/stagedoor/rooms/hot-show', { state: 'paused' });
    const second = world.proxy({ rooms: { secret: SECRET, adminSecret: ADMIN, initial } });
    try {
      const answer = await polled(second, 'y');
      assert.equal(answer.body.status, 'paused');
      assert.equal(answer.body.position, 2);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('Redis down: joins and polls get 503 and nobody is admitted, passes still open the gate; back up, every place is kept', async () => {
    const s = setup(storesOn({ url: redis.url })());
    try {
      // Six a minute: one every ten seconds, and an allowance capped at one.
      await open(s.at(0), room({ ratePerMinute: 6, opensAt: OPENS }));
      s.world.clock.set(OPENS);
      for (const who of ['holder', 'a', 'b', 'c']) await polled(s.at(1), who);
      s.world.clock.advance(10_000);
      const pass = ((await polled(s.at(2), 'holder')).body.pass as { token: string }).token;
      const before = [await polled(s.at(0), 'a'), await polled(s.at(1), 'b'), await polled(s.at(2), 'c')].map((r) => r.body.position);
      redis.pause();
      try {
        s.world.clock.advance(30_000); // three admissions' worth
        for (const [i, who] of ['a', 'b', 'c', 'newcomer'].entries()) {
          const down = await visit(s.at(i), who);
          assert.equal(down.status, 503);
          assert.equal(down.headers.get('retry-after'), '5');
          assert.deepEqual(down.body, { Message: 'The waiting room is catching up; your place is kept.', Room: { id: 'hot-show' }, retrySeconds: 5 });
        }
        assert.equal((await seatMap(s.at(1), { 'Stagedoor-Queue-Id': 'holder', 'Stagedoor-Pass': pass })).status, 200);
        assert.equal((await seatMap(s.at(2), { 'Stagedoor-Queue-Id': 'a' })).status, 428, 'still gated');
        const ready = await (await s.at(0).fetch(new Request('http://proxy.test/readyz'))).json();
        assert.equal((ready as { rooms?: string }).rooms, 'unavailable');
      } finally {
        redis.resume();
      }
      // Back: the same places; the outage's 30 s did not become a flood (the allowance is capped).
      const after = [await polled(s.at(2), 'a'), await polled(s.at(0), 'b'), await polled(s.at(1), 'c')];
      assert.deepEqual(before, [1, 2, 3]);
      assert.deepEqual(after.map((r) => r.body.status), ['admitted', 'waiting', 'waiting']);
      assert.deepEqual(after.slice(1).map((r) => r.body.position), [1, 2]);
      assert.equal((await polled(s.at(0), 'newcomer')).body.position, 3);
    } finally {
      await s.close();
    }
  });
});

describe('three proxies, a three-master Redis Cluster', () => {
  let cluster: RunningRedisCluster;
  before(async () => {
    cluster = await startRedisCluster();
  });
  after(() => cluster.stop());
  roomScenarios(() => storesOn({ url: cluster.urls[0]!, clusterNodes: cluster.urls })());
});
