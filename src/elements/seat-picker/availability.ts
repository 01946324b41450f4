/**
 * What <seat-picker> loads about a performance: which way it is sold (seat map,
 * general admission, best available only, sold out), the performance with its
 * paired parts, and the venue's seating plan.
 */
import { isAbortError, type ApiClient } from '../../api/client.ts';
import { roomOf } from '../../api/room-refusal.ts';
import { msg } from '../../i18n/msg.ts';
import { toFailure, type Failure } from '../../state/failure.ts';
import type { AreaPriceGroup, EventInfo, FullTicketInfo, PerformanceInfo } from '../../api/types.ts';
import { safeUrl } from '../../safe-url.ts';
import { knownPerformance, readEvent } from '../../state/event-details.ts';
import { areasPrices, detailAhead, fullAvailability, seatingPlanAhead, venue } from '../../state/lookahead.ts';

/** What the performance offers, decided from the data (see `loadAvailability`). */
export type Availability = (
  | { kind: 'seated'; performanceId: number; tickets: readonly FullTicketInfo[] }
  | { kind: 'general'; performanceId: number; areas: readonly AreaPriceGroup[] }
  | { kind: 'best-only'; performanceId: number }
  | { kind: 'sold-out'; performanceId: number }
) & {
  /** The event's detail, when it was read to decide (it also leads to the venue's seating plan). */
  event?: EventInfo | null;
};

export interface PerformanceFacts {
  performance: PerformanceInfo;
  /** The paired parts and their dates (null when a date could not be read). */
  paired: { id: number; date: string | null }[];
}

/** What the visitor is told when the seats could not be read (state/failure.ts). */
export function seatsFailure(error: unknown): Failure {
  const notLoaded = () => msg('The seats could not be loaded.');
  return toFailure(error, { otherwise: notLoaded, network: notLoaded });
}

/**
 * A refusal ("not for this show"), as opposed to a failure worth retrying. The waiting room's
 * (428 with a room) is neither: it goes up to the picker, which shows the waiting view.
 */
function isRefusal(error: unknown): boolean {
  if (roomOf(error)) return false;
  const { kind } = seatsFailure(error);
  return kind === 'refused' || kind === 'not-found' || kind === 'gone' || kind === 'conflict';
}

/**
 * The event's detail, for its SeatingPlanSupported: `eventId` when the caller
 * knows it (the shared selection), else the performance's EventId; read once
 * per page (state/event-details.ts: <event-list> has usually read it already).
 * Null when it cannot be read (then the availability itself decides).
 */
async function eventDetail(api: ApiClient, performanceId: number, eventId: number | null, signal: AbortSignal): Promise<EventInfo | null> {
  try {
    const id = eventId ?? (await readPerformance(api, performanceId, signal)).EventId;
    return (await detailAhead(api, id, signal)) ?? (await readEvent(api, id, signal)) ?? null;
  } catch (error) {
    if (isAbortError(error)) throw error;
    return null;
  }
}

/**
 * Which mode a performance needs, decided from the data:
 * 0. The event's detail says whether it has a seat plan (SeatingPlanSupported):
 *    false → general admission, asking AreasPrices only (FullAvailability is
 *    "not for general admission shows": it would answer 400, which the browser
 *    reports as an error in the host page's console).
 * 1. FullAvailability lists seats → a seated map.
 * 2. Otherwise (refused with a 4xx, or empty) → AreasPrices: groups with
 *    available seats → general admission.
 * 3. Neither → sold out.
 * A network failure or 5xx is never read as "general admission": it is an
 * error with a retry.
 */
export async function loadAvailability(api: ApiClient, performanceId: number, signal: AbortSignal, eventId: number | null = null): Promise<Availability> {
  const event = await eventDetail(api, performanceId, eventId, signal);
  // The seating plan shown below a seat map leaves with the seats, not a round trip after them.
  seatingPlanAhead(api, event);
  const found = await fromService(api, performanceId, signal, event?.SeatingPlanSupported);
  return { ...found, event };
}

async function fromService(api: ApiClient, performanceId: number, signal: AbortSignal, seatPlan: boolean | undefined): Promise<Availability> {
  if (seatPlan === false) {
    const areas = await loadAreas(api, performanceId, signal);
    return areas.length ? { kind: 'general', performanceId, areas } : { kind: 'sold-out', performanceId };
  }
  let tickets: FullTicketInfo[] | null = null;
  try {
    // The lookup started when the visitor pointed at the performance, when there is one (state/lookahead.ts).
    const full = await fullAvailability(api, performanceId, signal);
    tickets = Array.isArray(full?.AvailableTickets) ? full.AvailableTickets : [];
  } catch (error) {
    if (!isRefusal(error)) throw error;
  }
  if (tickets?.length) return { kind: 'seated', performanceId, tickets };
  try {
    const areas = await loadAreas(api, performanceId, signal);
    if (areas.length) return { kind: 'general', performanceId, areas };
  } catch (error) {
    if (!isRefusal(error) && tickets === null) throw error;
  }
  return { kind: 'sold-out', performanceId };
}

/** AreasPrices: the groups with seats left (a refusal is "none"; a failure is thrown). */
async function loadAreas(api: ApiClient, performanceId: number, signal: AbortSignal): Promise<AreaPriceGroup[]> {
  try {
    const prices = await areasPrices(api, performanceId, signal);
    return (Array.isArray(prices?.AreasPrices) ? prices.AreasPrices : []).filter(
      (a) => Array.isArray(a?.Prices) && a.Prices.some((p) => p.AvailableSeatsCount > 0),
    );
  } catch (error) {
    if (isRefusal(error)) return [];
    throw error;
  }
}

/** A performance as the calendar's month listed it on this page, else asked for now. */
async function readPerformance(api: ApiClient, performanceId: number, signal: AbortSignal): Promise<PerformanceInfo> {
  return knownPerformance(api, performanceId) ?? (await api.getPerformance({ performanceId }, { signal })).Performance;
}

/** The performance, and the dates of its paired parts (a part whose date cannot be read still counts). */
export async function loadPerformanceFacts(api: ApiClient, id: number, signal: AbortSignal): Promise<PerformanceFacts> {
  const Performance = await readPerformance(api, id, signal);
  const ids = (Performance.PairedPerformances ?? []).filter((p) => typeof p === 'number' && p !== id);
  const paired = await Promise.all(
    ids.map(async (pid) => {
      try {
        return { id: pid, date: (await readPerformance(api, pid, signal)).PerformanceDate };
      } catch (error) {
        if (isAbortError(error)) throw error;
        return { id: pid, date: null };
      }
    }),
  );
  return { performance: Performance, paired };
}

/** The venue's seating plan image: the event's Venue PlanLink (null when the venue has none that is safe to show). */
export async function loadSeatingPlan(api: ApiClient, venueId: number, signal: AbortSignal): Promise<{ planLink: string; venue: string } | null> {
  const { Venue } = await venue(api, venueId, signal);
  // Only an http(s) address from the service reaches an <img src> (the one URL rule, src/sanitize.ts).
  const planLink = safeUrl(Venue.PlanLink);
  return planLink ? { planLink, venue: Venue.Name } : null;
}
