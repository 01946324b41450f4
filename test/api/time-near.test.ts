// serviceTimeToInstant's `near` option: in the hour the clocks go back, a hold's
// ExpirationDate is read as the instant nearest now, not the earlier one.
// Run under three TZ values by scripts/test.mjs (the file name starts with "time").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceTimeToInstant } from '../../src/api/time.ts';

const MINUTE = 60_000;

test('a wall time in the repeated hour reads as the earlier instant by default', () => {
  // 25 October 2026, London: 01:00–02:00 happens twice (BST, then GMT).
  assert.equal(serviceTimeToInstant('2026-10-25T01:08:00', 'Europe/London'), Date.UTC(2026, 9, 25, 0, 8));
});

test('with near, the repeated hour reads as the instant nearest the reference', () => {
  const now = Date.UTC(2026, 9, 25, 0, 58); // 01:58 BST, two minutes before the change
  const expiry = serviceTimeToInstant('2026-10-25T01:08:00', 'Europe/London', { near: now });
  assert.equal(expiry - now, 10 * MINUTE);
  // Early in the first 01:xx, the first reading is the near one.
  const early = Date.UTC(2026, 9, 25, 0, 2); // 01:02 BST
  assert.equal(serviceTimeToInstant('2026-10-25T01:12:00', 'Europe/London', { near: early }) - early, 10 * MINUTE);
});

test('near changes nothing outside the repeated hour', () => {
  const now = Date.UTC(2026, 6, 1, 17, 0);
  assert.equal(serviceTimeToInstant('2026-07-01T18:10:00', 'Europe/London', { near: now }), Date.UTC(2026, 6, 1, 17, 10));
  assert.equal(serviceTimeToInstant('2026-03-29T01:30:00', 'Europe/London', { near: now }), serviceTimeToInstant('2026-03-29T01:30:00', 'Europe/London'));
});
