/**
 * The grouping of a month's performances into the visitor's choices (a bookable performance
 * with its pair), by venue-local day, apart from rendering. Dates are read with time.ts.
 */
import { parseServiceDateTime } from '../../api/time.ts';
import type { PerformanceInfo, PreliminaryPerformanceInfo } from '../../api/types.ts';
import type { Month } from './calendar-dates.ts';

/** A bookable performance with the performances booked together with it (its pair), in time order. */
export interface PerformanceChoice {
  performance: PerformanceInfo;
  /** Every part, the bookable one included, in time order; one element when it is not paired. */
  parts: PerformanceInfo[];
  /** Paired performances that were not in the answer (booked together, details unknown). */
  missingParts: number;
  day: number;
  soldOut: boolean;
  fewLeft: boolean;
  /** The price range for the chosen number of tickets, when PreliminaryBookingInfo gave one. */
  range: { min: number; max: number } | null;
}

function sortKey(p: PerformanceInfo): string {
  const f = parseServiceDateTime(p.PerformanceDate);
  return f ? `${f.year}`.padStart(4, '0') + [f.month, f.day, f.hour, f.minute, f.second].map((n) => String(n).padStart(2, '0')).join('') : '';
}

/**
 * Group a month's performances into the visitor's choices, by venue-local day.
 * Performances that are not directly bookable appear only as parts of their
 * bookable pair; ones whose date is not a service DateTime, or falls outside
 * the month, are left out.
 */
export function groupChoices(
  performances: readonly PerformanceInfo[],
  month: Month,
  options: { fewLeftRatio: number; prices?: readonly PreliminaryPerformanceInfo[] },
): Map<number, PerformanceChoice[]> {
  const byId = new Map(performances.map((p) => [p.PerformanceId, p] as const));
  const partners = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    if (!partners.has(a)) partners.set(a, new Set());
    partners.get(a)?.add(b);
  };
  for (const p of performances) {
    for (const other of p.PairedPerformances ?? []) {
      link(p.PerformanceId, other);
      link(other, p.PerformanceId);
    }
  }
  const prices = new Map((options.prices ?? []).map((p) => [p.PerformanceId, p] as const));
  const days = new Map<number, PerformanceChoice[]>();
  for (const performance of performances) {
    if (performance.DirectlyBookablePerformance === false) continue;
    const when = parseServiceDateTime(performance.PerformanceDate);
    if (!when || when.year !== month.year || when.month !== month.month) continue;
    const ids = [...(partners.get(performance.PerformanceId) ?? [])];
    const known = ids.map((id) => byId.get(id)).filter((p): p is PerformanceInfo => p !== undefined);
    const parts = [performance, ...known].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    const soldOut = parts.some((p) => p.TotalAvailableTickesCount <= 0);
    const fewLeft =
      !soldOut &&
      parts.some((p) => p.TotalSeatsCount > 0 && p.TotalAvailableTickesCount <= Math.max(1, Math.ceil(p.TotalSeatsCount * options.fewLeftRatio)));
    const price = prices.get(performance.PerformanceId);
    const choice: PerformanceChoice = {
      performance,
      parts,
      missingParts: ids.length - known.length,
      day: when.day,
      soldOut,
      fewLeft,
      range: price ? { min: price.MinimalTicketPrice, max: price.MaximalTicketPrice } : null,
    };
    const list = days.get(when.day) ?? [];
    list.push(choice);
    days.set(when.day, list);
  }
  for (const list of days.values()) list.sort((a, b) => sortKey(a.performance).localeCompare(sortKey(b.performance)));
  return days;
}
