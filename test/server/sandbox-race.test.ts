/**
 * 500 concurrent add attempts from 500 baskets on overlapping seats of one
 * performance: no seat may end up in two baskets, and the winners plus what
 * remains available add up to the seats that were available.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { raceOnOnePerformance } from '../../src/server/sandbox/race.ts';
import { setup } from './sandbox-harness.ts';

test('race: 500 concurrent adds on overlapping seats never sell a seat twice', async () => {
  const result = await raceOnOnePerformance(setup().sandbox, 500);
  assert.equal(result.soldTwice, 0);
  assert.ok(result.winners > 0, 'some baskets won');
  assert.ok((result.statuses[409] ?? 0) > 0, 'and many lost with 409');
  assert.deepEqual(Object.keys(result.statuses).sort(), ['200', '409']);
  assert.equal(result.statuses[200], result.winners, 'each winner won with one 200');
  assert.equal(result.inconsistent, 0, 'Success is true exactly for 200');
  assert.equal(result.ticketsWon + result.remaining, result.before, 'winners plus remaining availability = the seats that existed');
});
