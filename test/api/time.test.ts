/**
 * Service DateTimes (no offset, London wall clock by default) to instants and
 * back, and formatting in the venue's zone (the server clock: time-clock.test.ts).
 *
 * `npm test` runs this file under TZ=UTC, America/New_York and Asia/Tokyo: no
 * expectation below may depend on the process's own zone. Expected instants are
 * written as literal UTC ISO strings.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatServiceDateTime,
  instantToServiceTime,
  isMinServiceDateTime,
  MIN_SERVICE_DATE_TIME,
  serviceTimeToInstant,
} from '../../src/api/time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (instant: number) => new Date(instant).toISOString();
const utc = (isoString: string) => Date.parse(isoString); // always written with a Z

test('the process runs in the zone TZ names (so the three runs differ)', () => {
  const tz = process.env.TZ;
  if (tz) assert.equal(Intl.DateTimeFormat().resolvedOptions().timeZone, tz);
});

describe('service DateTime → instant (Europe/London)', () => {
  const cases: [service: string, instant: string, what: string][] = [
    ['2026-01-15T19:30:00', '2026-01-15T19:30:00.000Z', 'winter (GMT)'],
    ['2026-07-15T19:30:00', '2026-07-15T18:30:00.000Z', 'summer (BST)'],
    ['2026-03-29T00:59:59', '2026-03-29T00:59:59.000Z', 'last second before the spring change'],
    ['2026-03-29T01:30:00', '2026-03-29T01:30:00.000Z', 'in the spring gap: read with the offset before the change'],
    ['2026-03-29T02:00:00', '2026-03-29T01:00:00.000Z', 'first wall time after the spring change'],
    ['2026-10-25T00:59:59', '2026-10-24T23:59:59.000Z', 'just before the repeated hour'],
    ['2026-10-25T01:30:00', '2026-10-25T00:30:00.000Z', 'ambiguous in October: the earlier instant'],
    ['2026-10-25T02:00:00', '2026-10-25T02:00:00.000Z', 'after the repeated hour (GMT again)'],
    ['2028-02-29T14:30:00', '2028-02-29T14:30:00.000Z', 'a leap day'],
    ['2026-12-31T23:59:59', '2026-12-31T23:59:59.000Z', 'the year’s last second'],
  ];
  for (const [service, instant, what] of cases) {
    test(`${service}: ${what}`, () => {
      assert.equal(iso(serviceTimeToInstant(service)), instant);
    });
  }

  test('a date only is midnight London', () => {
    assert.equal(iso(serviceTimeToInstant('2026-07-15')), '2026-07-14T23:00:00.000Z');
  });

  test('millisecond fractions, up to the seven digits .NET writes', () => {
    assert.equal(iso(serviceTimeToInstant('2017-02-21T08:12:08.567')), '2017-02-21T08:12:08.567Z');
    assert.equal(iso(serviceTimeToInstant('2017-05-06T19:30:00.5')), '2017-05-06T18:30:00.500Z');
    assert.equal(iso(serviceTimeToInstant('2017-02-21T08:12:08.5670000')), '2017-02-21T08:12:08.567Z');
    assert.equal(iso(serviceTimeToInstant('2017-02-21T08:12:08.0009999')), '2017-02-21T08:12:08.000Z');
    assert.equal(iso(serviceTimeToInstant('2026-10-25T01:30:00.250')), '2026-10-25T00:30:00.250Z');
  });

  test('the minimum DateTime value (an empty basket) is year 0001 and is recognised', () => {
    assert.equal(MIN_SERVICE_DATE_TIME, '0001-01-01T00:00:00');
    assert.equal(serviceTimeToInstant('0001-01-01T00:00:00'), -62135596800000);
    assert.equal(iso(serviceTimeToInstant('0001-01-01T00:00:00')), '0001-01-01T00:00:00.000Z');
    assert.equal(instantToServiceTime(serviceTimeToInstant(MIN_SERVICE_DATE_TIME)), MIN_SERVICE_DATE_TIME);
    assert.equal(isMinServiceDateTime('0001-01-01T00:00:00'), true);
    assert.equal(isMinServiceDateTime('0001-01-01T00:00:00.000'), true);
    assert.equal(isMinServiceDateTime('2026-03-29T01:30:00'), false);
    assert.equal(isMinServiceDateTime('not a date'), false);
    assert.equal(isMinServiceDateTime(null), false);
  });

  test('a string that is not a service DateTime throws a TypeError', () => {
    const invalid: unknown[] = [
      '',
      'tomorrow',
      '2026-02-29T10:00:00',
      '2026-13-01T00:00:00',
      '2026-00-10T00:00:00',
      '2026-03-29T24:00:00',
      '2026-03-29T01:60:00',
      '2026-03-29T01:30:60',
      '2026-03-29T01:30:00Z',
      '2026-03-29T01:30:00+01:00',
      '29/03/2026 01:30',
      '2026-3-29T01:30:00',
      '2026-03-29T01:30:00.12345678',
      null,
      20260329,
    ];
    for (const value of invalid) {
      assert.throws(() => serviceTimeToInstant(value as string), TypeError, JSON.stringify(value));
    }
  });
});

describe('instant → service DateTime (Europe/London)', () => {
  const cases: [instant: string, service: string][] = [
    ['2026-01-15T19:30:00.000Z', '2026-01-15T19:30:00'],
    ['2026-07-15T18:30:00.000Z', '2026-07-15T19:30:00'],
    ['2026-03-29T00:59:59.000Z', '2026-03-29T00:59:59'],
    ['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00'],
    ['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00'],
    ['2026-10-25T01:30:00.000Z', '2026-10-25T01:30:00'],
    ['2026-10-25T02:00:00.000Z', '2026-10-25T02:00:00'],
  ];
  for (const [instant, service] of cases) {
    test(`${instant} is ${service} in London`, () => {
      assert.equal(instantToServiceTime(utc(instant)), service);
    });
  }

  test('milliseconds only when asked for', () => {
    const instant = utc('2017-02-21T08:12:08.067Z');
    assert.equal(instantToServiceTime(instant), '2017-02-21T08:12:08');
    assert.equal(instantToServiceTime(instant, 'Europe/London', { milliseconds: true }), '2017-02-21T08:12:08.067');
  });

  test('round trip instant → service string → instant, every 10 minutes across both changes', () => {
    const days: [from: string, to: string][] = [
      ['2026-03-28T20:00:00.000Z', '2026-03-29T05:00:00.000Z'],
      ['2026-10-24T20:00:00.000Z', '2026-10-25T05:00:00.000Z'],
    ];
    // The only loss: in October the second 01:xx (01:00Z–01:59Z) reads back as the first.
    const repeated = [utc('2026-10-25T01:00:00.000Z'), utc('2026-10-25T02:00:00.000Z')] as const;
    let checked = 0;
    for (const [from, to] of days) {
      for (let t = utc(from) + 123; t < utc(to); t += 10 * MINUTE) {
        const back = serviceTimeToInstant(instantToServiceTime(t, 'Europe/London', { milliseconds: true }));
        const expected = t >= repeated[0] && t < repeated[1] ? t - HOUR : t;
        assert.equal(iso(back), iso(expected), iso(t));
        checked++;
      }
    }
    assert.equal(checked, 108);
  });

  test('round trip service string → instant → service string, except in the spring gap', () => {
    for (let minutes = 0; minutes < 24 * 60; minutes += 5) {
      const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
      const mm = String(minutes % 60).padStart(2, '0');
      for (const day of ['2026-03-29', '2026-10-25']) {
        const service = `${day}T${hh}:${mm}:00`;
        const inGap = day === '2026-03-29' && hh === '01';
        const expected = inGap ? `${day}T02:${mm}:00` : service;
        assert.equal(instantToServiceTime(serviceTimeToInstant(service)), expected, service);
      }
    }
  });
});

describe('another service zone (America/New_York)', () => {
  const NY = 'America/New_York';
  test('summer and winter', () => {
    assert.equal(iso(serviceTimeToInstant('2026-07-15T19:30:00', NY)), '2026-07-15T23:30:00.000Z');
    assert.equal(iso(serviceTimeToInstant('2026-01-15T19:30:00', NY)), '2026-01-16T00:30:00.000Z');
    assert.equal(instantToServiceTime(utc('2026-07-15T23:30:00Z'), NY), '2026-07-15T19:30:00');
  });
  test('its own changes: the March gap and the November repeated hour', () => {
    assert.equal(iso(serviceTimeToInstant('2026-03-08T02:30:00', NY)), '2026-03-08T07:30:00.000Z');
    assert.equal(iso(serviceTimeToInstant('2026-11-01T01:30:00', NY)), '2026-11-01T05:30:00.000Z');
    // London's changes mean nothing there.
    assert.equal(iso(serviceTimeToInstant('2026-03-29T01:30:00', NY)), '2026-03-29T05:30:00.000Z');
  });
});

describe('formatting a performance time shows the venue’s wall clock', () => {
  const time = { locale: 'en-GB', hour: '2-digit', minute: '2-digit' } as const;
  const date = { locale: 'en-GB', day: 'numeric', month: 'long', year: 'numeric' } as const;

  test('19:30 in London is 19:30, summer and winter, whatever the process zone', () => {
    assert.equal(formatServiceDateTime('2026-07-15T19:30:00', time), '19:30');
    assert.equal(formatServiceDateTime('2026-01-15T19:30:00', time), '19:30');
    assert.equal(formatServiceDateTime('2026-10-25T01:30:00', time), '01:30');
  });

  test('the date does not move to the visitor’s day', () => {
    assert.equal(formatServiceDateTime('2026-07-15T23:30:00', date), '15 July 2026'); // Tokyo's 16 July
    assert.equal(formatServiceDateTime('2026-07-15T00:30:00', date), '15 July 2026'); // New York's and UTC's 14 July
  });

  test('the default format is the en-GB medium date and short time of the wall clock', () => {
    const wallAsUtc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    const expected = wallAsUtc.format(Date.UTC(2026, 6, 15, 19, 30));
    assert.equal(formatServiceDateTime('2026-07-15T19:30:00', { locale: 'en-GB' }), expected);
    assert.match(expected, /15 Jul 2026.*19:30/);
  });

  test('a configurable zone: 19:30 in New York shows 19:30', () => {
    assert.equal(formatServiceDateTime('2026-07-15T19:30:00', { ...time, timeZone: 'America/New_York' }), '19:30');
    assert.equal(formatServiceDateTime('2026-07-15T23:30:00', { ...date, timeZone: 'America/New_York' }), '15 July 2026');
  });

  test('an invalid DateTime is a TypeError, not "Invalid Date"', () => {
    assert.throws(() => formatServiceDateTime('2026-02-30T19:30:00', time), TypeError);
  });

  test('one formatter per language, zone and options, however many times are shown (a calendar month shows dozens)', () => {
    const Real = Intl.DateTimeFormat;
    let made = 0;
    const counting = new Proxy(Real, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        if (args[1]?.timeZone !== undefined && (args[1].hour !== undefined || args[1].day !== undefined || args[1].dateStyle !== undefined)) made += 1;
        return new target(...args);
      },
    });
    Intl.DateTimeFormat = counting;
    try {
      // Options no other test formats with (the formatters are kept for the whole module).
      const shown = { locale: 'de-AT', weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' } as const;
      const days = Array.from({ length: 30 }, (_, i) => `2026-09-${String(i + 1).padStart(2, '0')}T19:30:00`);
      const texts = days.map((d) => formatServiceDateTime(d, shown));
      assert.equal(made, 1, 'one formatter for the month');
      assert.match(texts[0] ?? '', /^Dienstag, 1\. September\b.*19:30$/);
      assert.match(texts[29] ?? '', /^Mittwoch, 30\. September\b.*19:30$/);
      formatServiceDateTime(days[0] ?? '', { ...shown, timeZone: 'America/New_York' });
      formatServiceDateTime(days[0] ?? '', { ...shown, locale: 'en-GB' });
      assert.equal(made, 3, 'another zone, another language: one more each');
      // Other options in the same language and zone: their own formatter, never the month's.
      assert.equal(formatServiceDateTime(days[0] ?? '', { locale: 'de-AT', hour: '2-digit', minute: '2-digit' }), '19:30');
      // The same options written in another order: the same text (a formatter of their own, or the same one).
      const reordered = { minute: '2-digit', hour: '2-digit', month: 'long', day: 'numeric', weekday: 'long', locale: 'de-AT' } as const;
      assert.equal(formatServiceDateTime(days[0] ?? '', reordered), texts[0]);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
