/**
 * The list of events a page asks for first: its address as the api client writes it, the block
 * a server may print its answer in (read by src/state/first-list.ts, printed by
 * src/server/first-list.ts), and the loader's early ask for it (early.ts keeps the request for
 * the client to take over). Not in the core chunk: only the loader and the list read it.
 */
import { startEarly } from './early.ts';

/** The path of Get Events (src/api/operations.ts `getEvents`; test/api/early.test.ts keeps them the same). */
export const EVENTS_PATH = '/rest/v2/Events';

/** The id of the block a page's HTML may carry: the list's answer, printed by the server that rendered it (src/state/first-list.ts). */
export const FIRST_LIST_ID = 'stagedoor-first-list';

/** The catalogue's cache life (the proxy's default), for a block that names none (`data-max-age`). */
export const FIRST_LIST_MAX_AGE = 300;

/** The list's GET on `endpoint`, as the api client writes it (one event type: a number, `01` is `1`). */
export const listUrl = (endpoint: string, type: number | null): string => `${endpoint.replace(/\/+$/, '')}${EVENTS_PATH}${type === null ? '' : `?type=${type}`}`;

/**
 * What the loader runs as it starts (src/loader.ts): an <event-list> in the page as parsed asks
 * for the list of events the moment it upgrades, so ask now, beside its chunks' download. Only
 * for the list's plain form (all events, or one `event-type`): anything else is left to the
 * element. Asked of the endpoint the element will use; if it uses another, it asks itself. Not
 * when the page carries the list (the element reads it, and asks only if it cannot use it).
 */
export function startList(): void {
  const list = document.querySelector('event-list');
  if (!list || list.hasAttribute('venue-id') || list.hasAttribute('event-id') || document.getElementById(FIRST_LIST_ID)) return;
  // Its endpoint as the element reads it: its own attribute or its provider's, else the page's.
  let endpoint: unknown = list.closest('event-list[endpoint], booking-provider[endpoint]')?.getAttribute('endpoint');
  try {
    endpoint ||= (JSON.parse(document.querySelector('script[type="application/json"][data-stagedoor-config]')?.textContent || '{}') as { endpoint?: unknown }).endpoint || '/api';
  } catch {
    return; // the elements say what is wrong with it
  }
  const type = list.getAttribute('event-type');
  if (typeof endpoint !== 'string' || (type !== null && !/^\d+$/.test(type))) return;
  startEarly(listUrl(endpoint, type === null ? null : Number(type)));
}
