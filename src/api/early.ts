/**
 * A page's first lookup, asked for before the code that shows it has arrived.
 *
 * On a slow network every round trip counts: the loader (src/loader.ts) runs as
 * soon as the page is parsed, while the elements' chunks are still on their way,
 * and an `<event-list>` in the page will ask for the list of events the moment it
 * upgrades. So the loader asks for it at once (`startEarly`), exactly as the api
 * client would, and the client takes that request over (`claimEarly`) instead of
 * sending a second one: the list's round trip runs beside the chunks' download,
 * not after it.
 *
 * Keyed by the whole URL: a client on another endpoint, or with other arguments,
 * takes nothing and sends its own. A request nobody takes within 10 s is
 * dropped (a single-page app that shows the list much later reads it fresh).
 *
 * Faster still, no request at all: a page whose server printed the list's answer
 * into its HTML (the block `<script type="application/json" id="stagedoor-first-list">`,
 * docs/embedding.md) is asked nothing early: the element reads that block
 * (src/state/first-list.ts).
 *
 * Imports nothing: the loader carries it.
 */

/** The path of Get Events (src/api/operations.ts `getEvents`; test/api/early.test.ts keeps them the same). */
export const EVENTS_PATH = '/rest/v2/Events';

/** The request as the api client sends the list's GET (src/api/client.ts): only these headers, cookies only to the page's own origin (as a host's `<link rel="preload" as="fetch" crossorigin>` asks, so the loader takes that answer). */
export const EARLY_INIT: RequestInit = Object.freeze({ headers: { Accept: 'application/json' }, credentials: 'same-origin' as const });

/** The id of the block a page's HTML may carry: the list's answer, printed by the server that rendered it (src/state/first-list.ts). */
export const FIRST_LIST_ID = 'stagedoor-first-list';

/** The catalogue's cache life (the proxy's default), for a block that names none (`data-max-age`). */
export const FIRST_LIST_MAX_AGE = 300;

/** The list's GET on `endpoint`, as the api client writes it (one event type: a number, `01` is `1`). */
export const listUrl = (endpoint: string, type: number | null): string => `${endpoint.replace(/\/+$/, '')}${EVENTS_PATH}${type === null ? '' : `?type=${type}`}`;

/** How long an early request waits to be taken. */
export const EARLY_LIFE_MS = 10_000;

export interface EarlyRequest {
  /** When it was sent, by the visitor's clock (Date.now()). */
  sentAt: number;
  response: Promise<Response>;
}

const KEY = Symbol.for('stagedoor.early');
type Registry = Map<string, EarlyRequest>;

/** One registry per page, shared by every copy of the bundle on it. */
function registry(): Registry {
  const page = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (page[KEY] ??= new Map());
}

/** Send GET `url` now (absolute, or relative to the page), for the api client to take over. Once per URL. */
export function startEarly(url: string): void {
  const requests = registry();
  if (requests.has(url)) return;
  const response = fetch(url, EARLY_INIT);
  response.catch(() => undefined); // a failure is the client's to meet: it sends its own
  requests.set(url, { sentAt: Date.now(), response });
  const timer = setTimeout(() => {
    if (requests.get(url)?.response === response) requests.delete(url);
  }, EARLY_LIFE_MS);
  (timer as { unref?: () => void }).unref?.(); // (in Node, it keeps nothing alive)
}

/** The early request for `url`, taken (the next call finds none), or null. */
export function claimEarly(url: string): EarlyRequest | null {
  const requests = (globalThis as unknown as Record<symbol, Registry | undefined>)[KEY];
  const early = requests?.get(url);
  if (!early) return null;
  requests?.delete(url);
  return early;
}

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
