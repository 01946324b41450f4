/**
 * The list of events in the page itself: a server that rendered the page may print the answer of
 * the list's first request into it (docs/embedding.md), so the first cards need no request:
 *
 *   <script type="application/json" id="stagedoor-first-list" data-endpoint="/api"
 *     data-fetched-at="2026-11-29T08:16:36Z" data-max-age="300">{"Events":[…]}</script>
 *
 * Data, never script: its text is read with JSON.parse and shown as any answer of the service is.
 * Used only for the request it answers (the endpoint, and `data-event-type` when it has one);
 * anything else, or JSON that is not a list of events, is ignored (the list is asked for).
 * Older than its cache life (`data-max-age`, else the catalogue's 300 s; by the visitor's clock,
 * either way) it is `stale`: shown, and asked for again. Only ever the list: a show's detail,
 * dates and seats are always asked of the service.
 */
import { FIRST_LIST_ID, FIRST_LIST_MAX_AGE, listUrl } from '../api/early-list.ts';
import type { EventInfo } from '../api/types.ts';

/** An instant with its zone (RFC 3339: `2026-11-29T08:16:36Z`, `…+01:00`): a time without one would be read in the visitor's. */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

export interface PageList {
  events: EventInfo[];
  /** Past its cache life: to be asked for again. */
  stale: boolean;
}

/** The page's list for GET Events (of `type`) on `endpoint`, or null. */
export function pageList(endpoint: string, type: number | null, now = Date.now()): PageList | null {
  const block = document.getElementById(FIRST_LIST_ID);
  if (!(block instanceof HTMLScriptElement) || block.type !== 'application/json') return null;
  const { endpoint: its = '', eventType, fetchedAt = '', maxAge = String(FIRST_LIST_MAX_AGE) } = block.dataset;
  const base = document.baseURI;
  if (listUrl(new URL(its, base).href, eventType === undefined ? null : Number(eventType)) !== listUrl(new URL(endpoint, base).href, type)) return null;
  const age = now - (INSTANT.test(fetchedAt) ? Date.parse(fetchedAt) : Number.NaN);
  if (Number.isNaN(age) || !/^\d+$/.test(maxAge)) return null;
  let events: unknown;
  try {
    events = (JSON.parse(block.textContent ?? '') as { Events?: unknown } | null)?.Events;
  } catch {
    return null;
  }
  const isEvent = (e: unknown) => typeof e === 'object' && e !== null && Number.isSafeInteger((e as { EventId?: unknown }).EventId);
  return Array.isArray(events) && events.every(isEvent) ? { events: events as EventInfo[], stale: Math.abs(age) > Number(maxAge) * 1000 } : null;
}
