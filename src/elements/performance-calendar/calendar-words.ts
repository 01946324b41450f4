/**
 * What <performance-calendar> says: the month's title, a day's name and label, a performance's
 * time, the live region's sentence and the empty month's. Dates in the venue's wall clock.
 */
import { msg, str } from '../../i18n/msg.ts';
import { serviceDate } from '../../api/time.ts';
import type { PerformanceInfo } from '../../api/types.ts';
import { formatDateTime, formatList } from '../../format.ts';
import { plural } from '../../i18n/plural.ts';
import type { BookingConfig } from '../../state/config.ts';
import type { CalendarDate, Month } from './calendar-dates.ts';
import type { PerformanceChoice } from './performance-choices.ts';

export function monthTitle(month: Month, config: BookingConfig): string {
  return formatDateTime(`${serviceDate(month.year, month.month, 1)}T12:00:00`, config, { month: 'long', year: 'numeric' });
}

export function dayLabel(
  date: CalendarDate,
  config: BookingConfig,
  options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' },
): string {
  return formatDateTime(`${serviceDate(date.year, date.month, date.day)}T12:00:00`, config, options);
}

export function time(p: PerformanceInfo, config: BookingConfig): string {
  return formatDateTime(p.PerformanceDate, config, { timeStyle: 'short' });
}

/** "No performances in May 2026.", or with the count asked for. */
export function emptyText(title: string, tickets: number | null): string {
  if (tickets === null) return msg(str`No performances in ${title}.`);
  return plural(tickets, {
    one: () => msg(str`No performances in ${title} with ${tickets} ticket available.`),
    other: () => msg(str`No performances in ${title} with ${tickets} tickets available.`),
  });
}

/** The calendar opened on a later month: "Nothing left to book in November 2026: the next performance is on Friday, 4 December 2026." */
export function movedOnText(from: string, next: string): string {
  return msg(str`Nothing left to book in ${from}: the next performance is on ${next}.`);
}

/** The live region's sentence once the month is in: "May 2026: 12 performances". */
export function monthCountText(title: string, days: Map<number, PerformanceChoice[]>): string {
  const count = [...days.values()].reduce((n, list) => n + list.length, 0);
  return plural(count, {
    one: () => msg(str`${title}: ${count} performance`),
    other: () => msg(str`${title}: ${count} performances`),
  });
}

/** A day cell's name for assistive technology: the date, then what is on. */
export function dayAriaLabel(date: CalendarDate, choices: PerformanceChoice[], soldOut: boolean, fewLeft: boolean, config: BookingConfig): string {
  const label = dayLabel(date, config);
  if (!choices.length) return msg(str`${label}, no performances`);
  const times = formatList(choices.map((c) => time(c.performance, config)), config, { style: 'short', type: 'unit' });
  if (soldOut) return msg(str`${label}, sold out (${times})`);
  if (fewLeft) return msg(str`${label}, few tickets left, ${times}`);
  const count = choices.length;
  return plural(count, {
    one: () => msg(str`${label}, ${count} performance, ${times}`),
    other: () => msg(str`${label}, ${count} performances, ${times}`),
  });
}
