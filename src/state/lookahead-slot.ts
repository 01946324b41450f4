/**
 * Where <performance-calendar> finds the look-ahead (state/lookahead.ts) without
 * importing it: that module comes with the chunk the seat picker needs, and a
 * look-ahead only serves a <seat-picker> on the same page that shows what the
 * calendar chooses (it keeps its lookups per api client, in memory). So the
 * calendar's first view and its month's lookup wait for none of it (over
 * HTTP/1.1 that chunk was the page's seventh request, and the calendar's lookup
 * waited a round trip behind it), and a page with a calendar and no picker
 * never fetches it.
 *
 * lookahead.ts gives itself here as it loads; until then, pointing at a
 * performance asks for nothing ahead (the picker asks for itself). A page
 * built from the npm package has the look-ahead whether or not a picker is on
 * it, so the pickers say here, while connected, which api client they take
 * the shared selection's performance through: with none for a client, nothing
 * is asked ahead for it.
 */
import type { ApiClient } from '../api/client.ts';

type LookAhead = (api: ApiClient, performanceId: number, eventId: number | null) => boolean;

let provided: LookAhead | null = null;

/** Each connected <seat-picker> that shows the shared selection's performance, and its api client. */
const pickers = new Map<object, ApiClient>();

/** Told once something could ask: those that found nothing to ask through (a calendar's offer). */
const retries = new Set<() => void>();

function retry(): void {
  const all = [...retries];
  retries.clear();
  for (const again of all) again();
}

/** Called by lookahead.ts as it loads. */
export function provideLookAhead(lookAhead: LookAhead): void {
  provided = lookAhead;
  retry();
}

/** A seat picker shows the shared selection's performance through `api`, or (null) no longer does. */
export function pickerFollows(picker: object, api: ApiClient | null): void {
  if (!api) pickers.delete(picker);
  else if (pickers.get(picker) !== api) {
    pickers.set(picker, api);
    retry();
  }
}

/**
 * The visitor points at a performance (or the calendar offers it first): its seats are asked for
 * now, when a seat picker on this page shows what is chosen through `api`. Whether a lookup was
 * started, or is on its way or waits for the event's detail. `again`: called (once) when a picker
 * or the look-ahead arrives, if nothing could ask now (the picker's chunk came after the dates).
 */
export function lookAheadIfHere(api: ApiClient, performanceId: number, eventId: number | null, again?: () => void): boolean {
  const asked = Boolean(provided && [...pickers.values()].includes(api) && provided(api, performanceId, eventId));
  if (!asked && again) retries.add(again);
  return asked;
}
