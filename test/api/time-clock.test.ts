/**
 * The server's clock as the browser reads it: the Server-Timing clock stamp
 * (to the millisecond), the Date header (to the second), each against its
 * round trip, combined into an interval that never excludes the truth.
 *
 * Run under three TZ values by scripts/test.mjs (the file name starts with "time").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sinon from 'sinon';
import { ClockOffset, clockTiming, MIN_SERVICE_DATE_TIME, parseClockTiming, ServerClock } from '../../src/api/time.ts';

const MINUTE = 60_000;
const iso = (instant: number) => new Date(instant).toISOString();
const utc = (isoString: string) => Date.parse(isoString);
const httpDate = (instant: number) => new Date(instant).toUTCString(); // floors to the second, as servers do

/** A tiny seeded generator, so the "many cases" tests are the same every run. */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('the Server-Timing clock stamp', () => {
  test('is written and read back to the millisecond', () => {
    assert.equal(clockTiming(1763722800123), 'clock;desc="1763722800123"');
    assert.equal(parseClockTiming(clockTiming(1763722800123)), 1763722800123);
    assert.equal(parseClockTiming(clockTiming(1763722800123.6)), 1763722800124);
  });

  test('is found among other metrics, quoted or not, in any case', () => {
    assert.equal(parseClockTiming('db;dur=53, app;dur=47.2, clock;desc="1763722800123"'), 1763722800123);
    assert.equal(parseClockTiming('Clock;desc=1763722800123;dur=0'), 1763722800123);
    assert.equal(parseClockTiming('cache;desc="hit", clock ; desc = "1763722800123"'), 1763722800123);
  });

  test('anything else is no reading', () => {
    for (const value of [null, undefined, '', 'db;dur=53', 'clock', 'clock;dur=5', 'clock;desc="soon"', 'clockwork;desc="1"', 'clock;desc="12345678901234567890"']) {
      assert.equal(parseClockTiming(value), null, String(value));
    }
  });
});

describe('ClockOffset', () => {
  test('a millisecond stamp allows the offsets of the round trip it came on', () => {
    const offset = new ClockOffset();
    assert.equal(offset.known, false);
    offset.observe(10_500, 10_500, 1_000, 1_040); // sent at 1000, back at 1040, the server said 10 500
    assert.equal(offset.known, true);
    assert.deepEqual(offset.bounds(), { low: 9_460, high: 9_500 });
  });

  test('readings are intersected: whole-second Date readings at different moments narrow from a second to a small part of one', () => {
    const truth = 4_321.5; // server minus ours
    const offset = new ClockOffset();
    for (let k = 0; k < 20; k += 1) {
      const sentAt = 1_000_000 + k * 1_777; // different phases of the server's second
      const receivedAt = sentAt + 30;
      const serverAt = sentAt + 12 + truth;
      const second = Math.floor(serverAt / 1000) * 1000;
      offset.observe(second, second + 999, sentAt, receivedAt);
      const { low, high } = offset.bounds(receivedAt);
      assert.ok(low <= truth && truth <= high, `reading ${k}: [${low}, ${high}] holds the truth`);
    }
    const end = offset.bounds(1_000_000 + 20 * 1_777);
    const width = end.high - end.low;
    assert.ok(width < 150, `narrowed to ${width} ms`);
  });

  test('a reading that contradicts the interval (a clock was set) starts afresh', () => {
    const offset = new ClockOffset();
    offset.observe(5_000, 5_000, 1_000, 1_010);
    offset.observe(65_000, 65_000, 2_000, 2_010); // the visitor's clock went back a minute
    assert.deepEqual(offset.bounds(2_010), { low: 62_990, high: 63_000 });
  });

  test('the interval widens by the drift allowance as time passes', () => {
    const offset = new ClockOffset();
    offset.observe(5_000, 5_000, 1_000, 1_000);
    assert.deepEqual(offset.bounds(1_000), { low: 4_000, high: 4_000 });
    assert.deepEqual(offset.bounds(1_000 + 10 * MINUTE), { low: 3_940, high: 4_060 }); // 100 ppm of ten minutes
  });
});

describe('ServerClock', () => {
  const serverNow = utc('2026-03-29T00:58:00.437Z');

  for (const [skew, label] of [
    [-15 * MINUTE, '15 minutes slow'],
    [0, 'right'],
    [15 * MINUTE, '15 minutes fast'],
  ] as const) {
    test(`with the visitor's clock ${label}, a clock stamp gives the server's time to the millisecond`, () => {
      let visitor = serverNow + skew - 20; // the stamp is made 20 ms after sending
      const clock = new ServerClock(() => visitor);
      const sentAt = visitor;
      visitor += 40;
      clock.read(httpDate(serverNow), sentAt, visitor, clockTiming(serverNow));
      assert.equal(clock.synced, true);
      assert.equal(clock.offset, 0 - skew); // the middle of the round trip
      assert.equal(iso(clock.now()), '2026-03-29T00:58:00.457Z');
      assert.equal(clock.uncertainty, 20);
      assert.equal(iso(clock.latest()), '2026-03-29T00:58:00.477Z', 'at the latest, half a round trip on');
    });
  }

  test('a Date header alone: the second it names, and latest() is never behind the server', () => {
    const visitor = serverNow - 15 * MINUTE;
    const clock = new ServerClock(() => visitor);
    clock.read('Sun, 29 Mar 2026 00:58:00 GMT', visitor - 400, visitor + 400);
    // The server was somewhere in 00:58:00.000–00:58:00.999 while the visitor's clock went from −400 to +400.
    assert.equal(clock.offset, 15 * MINUTE - 437 + 499.5);
    assert.ok(clock.latest() >= serverNow, 'never behind the server (no more time shown than remains)');
    assert.ok(clock.latest() - serverNow <= 1000 + 800);
  });

  test('a clock stamp wins over the Date header on the same answer', () => {
    const clock = new ServerClock(() => 0);
    clock.read('Sun, 29 Mar 2026 00:58:00 GMT', 0, 0, clockTiming(serverNow));
    assert.equal(clock.offset, serverNow);
  });

  test('over many answers with any skew and uneven latency, latest() is never behind the server and at most a round trip ahead', () => {
    const next = random(16);
    for (let run = 0; run < 200; run += 1) {
      const skew = (next() * 2 - 1) * 15 * MINUTE + next() * 1000;
      let visitor = serverNow + skew;
      const clock = new ServerClock(() => visitor);
      let widest = 0;
      for (let k = 0; k < 5; k += 1) {
        const up = 5 + next() * 300;
        const down = 5 + next() * 300;
        const sentAt = visitor;
        const stamp = visitor - skew + up;
        visitor += up + down;
        widest = Math.max(widest, up + down);
        clock.read(httpDate(stamp), sentAt, visitor, clockTiming(stamp));
        const truth = visitor - skew;
        assert.ok(clock.latest() >= truth - 1, `run ${run}: latest ${clock.latest() - truth} ms from the truth`);
        assert.ok(clock.latest() - truth <= widest + 1, `run ${run}: at most a round trip ahead`);
      }
    }
  });

  test('no Date header, or an unreadable one, leaves the clock as it was', () => {
    const clock = new ServerClock(() => serverNow);
    for (const value of [null, undefined, '', 'yesterday']) clock.read(value, serverNow);
    assert.equal(clock.synced, false);
    assert.equal(clock.offset, 0);
    clock.read(null, serverNow, serverNow, clockTiming(serverNow + MINUTE));
    clock.read('garbage', serverNow, serverNow, 'clock;desc="garbage"');
    assert.equal(clock.offset, MINUTE, 'a later bad reading keeps the last good offset');
  });

  test('a reading that contradicts the earlier ones wins (the visitor set their clock)', () => {
    const clock = new ServerClock(() => serverNow);
    clock.read(null, serverNow, serverNow, clockTiming(serverNow + 2 * MINUTE));
    clock.read(null, serverNow, serverNow, clockTiming(serverNow - MINUTE));
    assert.equal(clock.offset, -MINUTE);
  });

  test('setting the offset states it exactly (a clock shared in process, tests)', () => {
    const clock = new ServerClock(() => serverNow);
    clock.offset = 1234;
    assert.equal(clock.offset, 1234);
    assert.equal(clock.uncertainty, 0);
    let local = serverNow;
    const stated = new ServerClock(() => local);
    stated.offset = 1234;
    local += 10 * MINUTE;
    assert.equal(stated.uncertainty, 0, 'a stated offset does not drift');
    clock.offset += 1000;
    assert.equal(clock.now(), serverNow + 2234);
  });

  test('msUntil counts to a London ExpirationDate across the spring change, on the server clock', () => {
    // Visitor's clock 15 minutes slow; server at 00:58:00.437 GMT; the hold ends at 02:05 BST (01:05Z).
    const visitor = serverNow - 15 * MINUTE;
    const clock = new ServerClock(() => visitor);
    clock.read(null, visitor, visitor, clockTiming(serverNow));
    assert.equal(clock.msUntil('2026-03-29T02:05:00'), 7 * MINUTE - 437);
    assert.equal(clock.msUntil('2026-03-29T00:50:00'), -8 * MINUTE - 437, 'negative once past');
    assert.ok(clock.msUntil(MIN_SERVICE_DATE_TIME) < 0, 'the minimum value is long past');
  });

  test('msUntil in a configured zone', () => {
    const clock = new ServerClock(() => utc('2026-07-15T23:00:00Z'));
    assert.equal(clock.msUntil('2026-07-15T19:30:00', 'America/New_York'), 30 * MINUTE);
  });

  test('by default it reads the visitor clock from Date.now', () => {
    const timers = sinon.useFakeTimers({ now: serverNow - 15 * MINUTE, toFake: ['Date'] });
    try {
      const clock = new ServerClock();
      clock.read(null, Date.now(), Date.now(), clockTiming(serverNow));
      timers.tick(2 * MINUTE);
      assert.equal(iso(clock.now()), '2026-03-29T01:00:00.437Z');
    } finally {
      timers.restore();
    }
  });
});
