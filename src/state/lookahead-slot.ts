/**
 * Where <performance-calendar> finds the look-ahead (state/lookahead.ts) without
 * importing it: that module comes with the chunk the seat picker needs, and a
 * look-ahead only serves a <seat-picker> on the same page (it keeps its lookups
 * per api client, in memory). So the calendar's first view and its month's
 * lookup wait for none of it (over HTTP/1.1 that chunk was the page's seventh
 * request, and the calendar's lookup waited a round trip behind it), and a page
 * with a calendar and no picker never fetches it.
 *
 * lookahead.ts gives itself here as it loads; until then, pointing at a
 * performance asks for nothing ahead (the picker asks for itself).
 */
import type { ApiClient } from '../api/client.ts';

type LookAhead = (api: ApiClient, performanceId: number, eventId: number | null) => void;

let provided: LookAhead | null = null;

/** Called by lookahead.ts as it loads. */
export function provideLookAhead(lookAhead: LookAhead): void {
  provided = lookAhead;
}

/** The visitor points at a performance: its seats are asked for now, when a seat picker on this page can take them. */
export function lookAheadIfHere(api: ApiClient, performanceId: number, eventId: number | null): void {
  provided?.(api, performanceId, eventId);
}
