/**
 * A month of an event's performances (and their price ranges for a ticket
 * count), right whichever way the service reads a date-only `dateTo`.
 *
 * Clients of the service ask one day two ways: `dateFrom=D&dateTo=D` (a
 * date-only dateTo covers its whole day) and `dateFrom=D&dateTo=D+1` (dateTo is
 * the instant D+1 00:00). Which reading the live service takes cannot be seen
 * from outside, so we never trust its edge: we ask from the month's first day
 * to the NEXT month's first day (the whole month under either reading, plus at
 * most the next month's first day under the whole-day one) and keep only the
 * performances whose date, in the venue's wall clock, falls in the month.
 * The sandbox takes either reading (`dateToReading`), and a test runs this
 * against both.
 *
 * No rendering: the calendar element calls this and draws what it returns.
 */
import type { ApiClient } from '../api/client.ts';
import { parseServiceDateTime, serviceDate } from '../api/time.ts';
import type { PerformanceInfo, PreliminaryPerformanceInfo, ServiceDateTime } from '../api/types.ts';
import { rememberPerformances } from './event-details.ts';

export interface Month {
  year: number;
  /** 1–12 */
  month: number;
}

/** The query range for a month: its first day to the next month's first day, both date-only. */
export function monthQuery(month: Month): { dateFrom: string; dateTo: string } {
  const next = month.month === 12 ? { year: month.year + 1, month: 1 } : { year: month.year, month: month.month + 1 };
  return { dateFrom: serviceDate(month.year, month.month, 1), dateTo: serviceDate(next.year, next.month, 1) };
}

/** Whether a service DateTime (venue wall clock) falls in the month. */
export function inMonth(date: ServiceDateTime, month: Month): boolean {
  const when = parseServiceDateTime(date);
  return when !== null && when.year === month.year && when.month === month.month;
}

/** The event's performances in the month (those with at least `count` tickets left, when a count is given). */
export async function monthPerformances(
  api: ApiClient,
  eventId: number,
  month: Month,
  count: number | null,
  signal?: AbortSignal,
): Promise<PerformanceInfo[]> {
  const range = monthQuery(month);
  const { Performances } = await api.getEventPerformances(
    count === null ? { eventId, ...range } : { eventId, ...range, minimumTicketsCount: count },
    { signal },
  );
  // The seat picker takes the one chosen from here (state/event-details.ts), not asking for it again.
  rememberPerformances(api, Performances ?? []);
  return (Performances ?? []).filter((p) => inMonth(p.PerformanceDate, month));
}

/** Price ranges for `count` tickets (consecutive seats) of the event's performances in the month. */
export async function monthPrices(
  api: ApiClient,
  eventId: number,
  month: Month,
  count: number,
  signal?: AbortSignal,
): Promise<PreliminaryPerformanceInfo[]> {
  const { Performances } = await api.getPreliminaryBookingInfo(
    { eventId, ...monthQuery(month), nbOfTickets: count, consecutiveSeatsOnly: true },
    { signal },
  );
  return (Performances ?? []).filter((p) => inMonth(p.PerformanceDate, month));
}
