/**
 * Calendar arithmetic for <performance-calendar>: plain {year, month, day} dates, the month's
 * weeks, the `month` attribute. Performance dates are read with time.ts (venue wall clock),
 * never `new Date(string)`.
 */
import { daysInMonth } from '../../api/time.ts';
import type { Month } from '../../state/month-performances.ts';

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export type { Month };

/** Day of week, 1 = Monday … 7 = Sunday (ISO). */
export function isoWeekday(date: CalendarDate): number {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return d === 0 ? 7 : d;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The same day `months` later, clamped to the month's length (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

export function compareMonths(a: Month, b: Month): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/** Parse a `yyyy-MM` month attribute. */
export function parseMonth(value: string | null | undefined): Month | null {
  const m = /^(\d{4})-(\d{2})$/.exec(value?.trim() ?? '');
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? { year: Number(m[1]), month } : null;
}

/**
 * The weeks of a month as rows of 7 cells (day numbers, null outside the
 * month), starting on `firstDay` (1 = Monday … 7 = Sunday).
 */
export function monthWeeks(month: Month, firstDay: number): (number | null)[][] {
  const lead = (isoWeekday({ ...month, day: 1 }) - firstDay + 7) % 7;
  const cells: (number | null)[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysInMonth(month.year, month.month); day++) cells.push(day);
  while (cells.length % 7) cells.push(null);
  const weeks: (number | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
