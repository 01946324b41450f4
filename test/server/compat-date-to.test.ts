/**
 * A day asked two ways. Clients of the service ask one day as
 * `dateFrom=D&dateTo=D` (a date-only dateTo covers its whole day) or as
 * `dateFrom=D&dateTo=D+1` (dateTo is the instant D+1 00:00); which reading the
 * live service takes cannot be seen. The sandbox takes either (its
 * `dateToReading` option, default `'whole-day'`), and what the widget asks
 * for a month (src/state/month-performances.ts, the calendar's data) is
 * exactly the month under both, directly and through the proxy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { parseServiceDateTime } from '../../src/api/time.ts';
import type { EventPerformancesResult } from '../../src/api/types.ts';
import type { DateToReading } from '../../src/server/sandbox/index.ts';
import { monthPerformances, monthPrices, type Month } from '../../src/state/month-performances.ts';
import { harness, ROUTES } from './compat-harness.ts';

const READINGS: readonly DateToReading[] = ['whole-day', 'midnight'];

const dayOf = (date: string) => date.slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('the sandbox reads a date-only dateTo as its option says', () => {
  for (const reading of READINGS) {
    test(`${reading}: D..D and D..D+1`, async () => {
      const h = harness('direct', { dateToReading: reading });
      assert.equal(h.sandbox.options.dateToReading, reading);
      // An event with performances on two days in a row (and none at midnight).
      const byEvent = new Map<number, string[]>();
      for (const p of h.sandbox.catalogue.Performances) byEvent.set(p.EventId, [...(byEvent.get(p.EventId) ?? []), p.PerformanceDate]);
      const found = [...byEvent].flatMap(([eventId, dates]) => {
        const days = new Set(dates.filter((d) => d > '2026-01-16').map(dayOf));
        const day = [...days].sort().find((d) => days.has(nextDay(d)));
        return day ? [{ eventId, day, dates }] : [];
      })[0];
      assert.ok(found, 'an event plays two days running');
      const on = (day: string) => found.dates.filter((d) => dayOf(d) === day).sort();
      const ask = async (dateTo: string) =>
        ((await h.get(`/rest/v2/Events/${found.eventId}/Performances?dateFrom=${found.day}&dateTo=${dateTo}`)).body as EventPerformancesResult).Performances.map(
          (p) => p.PerformanceDate,
        ).sort();
      if (reading === 'whole-day') {
        assert.deepEqual(await ask(found.day), on(found.day));
        assert.deepEqual(await ask(nextDay(found.day)), [...on(found.day), ...on(nextDay(found.day))].sort(), 'D..D+1 is two days');
      } else {
        assert.deepEqual(await ask(found.day), [], 'D..D is the instant D 00:00');
        assert.deepEqual(await ask(nextDay(found.day)), on(found.day), 'D..D+1 is the day D');
      }
    });
  }

  test('an unknown reading is refused at creation', () => {
    assert.throws(() => harness('direct', { dateToReading: 'inclusive' as DateToReading }), /dateToReading/);
  });
});

describe("the widget's month is the month under either reading", () => {
  for (const route of ROUTES) {
    for (const reading of READINGS) {
      test(`${route}, ${reading}`, async () => {
        const h = harness(route, { dateToReading: reading });
        const api = createApiClient({ endpoint: h.endpoint, fetch: async (input, init) => h.handle(new Request(input, init)) });
        // Months whose last day and the next month's first day both have a performance of one event.
        const cases: { eventId: number; month: Month }[] = [];
        for (const event of h.sandbox.catalogue.Events) {
          const days = new Set(h.sandbox.catalogue.Performances.filter((p) => p.EventId === event.EventId).map((p) => dayOf(p.PerformanceDate)));
          for (const day of days) {
            const next = nextDay(day);
            if (next.endsWith('-01') && days.has(next) && day > '2026-01-16') {
              const f = parseServiceDateTime(day);
              if (f) cases.push({ eventId: event.EventId, month: { year: f.year, month: f.month } });
            }
          }
        }
        assert.ok(cases.length > 0, 'a show plays across a month end');
        for (const { eventId, month } of cases.slice(0, 3)) {
          const expected = h.sandbox.catalogue.Performances.filter((p) => {
            const f = parseServiceDateTime(p.PerformanceDate);
            return p.EventId === eventId && f?.year === month.year && f.month === month.month;
          }).map((p) => p.PerformanceId).sort((a, b) => a - b);
          const got = (await monthPerformances(api, eventId, month, null)).map((p) => p.PerformanceId).sort((a, b) => a - b);
          assert.deepEqual(got, expected, `event ${eventId}, ${month.year}-${month.month}`);
          const prices = await monthPrices(api, eventId, month, 1);
          assert.ok(prices.every((p) => expected.includes(p.PerformanceId)), 'prices only for the month\'s performances');
        }
      });
    }
  }
});
