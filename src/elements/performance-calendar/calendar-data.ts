/**
 * What <performance-calendar> loads: the month's performances and, for a ticket count, their
 * price ranges, from state (month-performances.ts: asked so that either reading of a date-only
 * dateTo covers the month, and filtered to the month, never the service's edge); the choices
 * by day once the answer for the current arguments is in; what the visitor is told on failure.
 */
import type { ReactiveControllerHost } from 'lit';
import { Task, TaskStatus, initialState } from '@lit/task';
import { msg } from '../../i18n/msg.ts';
import type { ApiClient } from '../../api/client.ts';
import { toFailure, type Failure } from '../../state/failure.ts';
import { monthPerformances, monthPrices } from '../../state/month-performances.ts';
import type { CalendarDate, Month } from './calendar-dates.ts';
import { groupChoices, type PerformanceChoice } from './performance-choices.ts';

const NO_PRICES: readonly never[] = [];

/** The event, the month's year and number, and the ticket count (null: any). */
type Args = readonly [eventId: number | null, year: number | null, month: number | null, count: number | null];

export class MonthData {
  readonly performances;
  readonly prices;

  constructor(host: ReactiveControllerHost, api: () => ApiClient, args: () => Args, onError: (error: unknown) => void) {
    this.performances = new Task(host, {
      onError,
      task: async ([eventId, year, month, count]: Args, { signal }) => {
        if (eventId === null || year === null || month === null) return initialState;
        const performances = await monthPerformances(api(), eventId, { year, month }, count, signal);
        return { key: `${eventId}|${year}|${month}|${count}`, performances };
      },
      args,
    });
    this.prices = new Task(host, {
      task: async ([eventId, year, month, count]: Args, { signal }) => {
        if (eventId === null || year === null || month === null || count === null) return initialState;
        const prices = await monthPrices(api(), eventId, { year, month }, count, signal);
        return { key: `${eventId}|${year}|${month}|${count}`, prices };
      },
      args,
    });
  }

  /** The last grouping and what it was made from: an update asks for it several times (willUpdate, render, updated). */
  private grouped: { from: readonly unknown[]; days: Map<number, PerformanceChoice[]> } | undefined;

  /** The month's choices by day, when the data for these arguments is in; days already gone at the venue left out. Not to be changed by the caller (it is kept). */
  choicesByDay(eventId: number | null, month: Month | null, tickets: number | null, fewLeftRatio: number, venueToday: () => CalendarDate): Map<number, PerformanceChoice[]> | null {
    const data = this.performances.value;
    if (!month || eventId === null || !data) return null;
    const key = `${eventId}|${month.year}|${month.month}|${tickets}`;
    if (data.key !== key || this.performances.status !== TaskStatus.COMPLETE) return null;
    const prices = tickets !== null && this.prices.value?.key === key ? this.prices.value.prices : NO_PRICES;
    const ratio = Number.isFinite(fewLeftRatio) && fewLeftRatio >= 0 ? fewLeftRatio : 0.1;
    const today = venueToday();
    const from = [data, prices, month.year, month.month, ratio, today.year, today.month, today.day];
    if (this.grouped?.from.every((value, i) => value === from[i])) return this.grouped.days;
    const days = groupChoices(data.performances, month, { fewLeftRatio: ratio, prices });
    // Days already gone at the venue cannot be booked, whatever the answer holds.
    if (today.year === month.year && today.month === month.month) {
      for (const day of days.keys()) if (day < today.day) days.delete(day);
    }
    this.grouped = { from, days };
    return days;
  }
}

/** What the visitor is told when the month's performances could not be read (state/failure.ts). */
export function loadFailure(error: unknown): Failure {
  const notLoaded = () => msg('The performances could not be loaded.');
  return toFailure(error, { otherwise: notLoaded, network: notLoaded });
}
