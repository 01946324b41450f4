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
 * docs/embedding.md) gives that answer to the client as if it had just arrived.
 * Past its cache life it is still given (the first card shows at once) and the
 * list is asked for at the same moment, its answer handed on as `newer` to
 * replace it. It is data (JSON.parse), only ever the list of events: the event's
 * detail and its availability are always asked of the service.
 *
 * Imports nothing: the loader carries it.
 */

/** The path of Get Events (src/api/operations.ts `getEvents`; test/api/early.test.ts keeps them the same). */
export const EVENTS_PATH = '/rest/v2/Events';

/** The request as the api client sends the list's GET (src/api/client.ts): only these headers, cookies only to the page's own origin (as a host's `<link rel="preload" as="fetch" crossorigin>` asks, so the loader takes that answer). */
export const EARLY_INIT: RequestInit = Object.freeze({ headers: { Accept: 'application/json' }, credentials: 'same-origin' as const });

/** How long an early request waits to be taken. */
export const EARLY_LIFE_MS = 10_000;

export interface EarlyRequest {
  /** When it was sent, by the visitor's clock (Date.now()). */
  sentAt: number;
  response: Promise<Response>;
  /** The answer was the page's own copy, past its cache life: the service's answer, asked for at once. */
  newer?: Promise<Response>;
}

/** The id of the block a page's HTML may carry: the list's answer, printed by the server that rendered it. */
export const FIRST_LIST_ID = 'stagedoor-first-list';

/** The catalogue's cache life (the proxy's default), for a block that names none (`data-max-age`). */
export const FIRST_LIST_MAX_AGE = 300;

/** An instant with its zone (RFC 3339: `2026-11-29T08:16:36Z`, `…+01:00`): a time without one would be read in the visitor's. */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

/** The text of the page's block when it answers GET `url` (an absolute URL), with its age and cache life; else null. */
function pageCopy(url: string): { text: string; fetchedAt: number; maxAge: number } | null {
  const block = typeof document === 'undefined' ? null : document.getElementById(FIRST_LIST_ID);
  if (!(block instanceof HTMLScriptElement) || block.type !== 'application/json') return null;
  const { endpoint = '', eventType, fetchedAt = '', maxAge } = block.dataset;
  if (listUrl(new URL(endpoint, document.baseURI).href, eventType === undefined ? null : Number(eventType)) !== url) return null;
  const at = INSTANT.test(fetchedAt) ? Date.parse(fetchedAt) : Number.NaN;
  const life = maxAge === undefined ? FIRST_LIST_MAX_AGE : /^\d+$/.test(maxAge) ? Number(maxAge) : Number.NaN;
  if (Number.isNaN(at) || Number.isNaN(life)) return null;
  const text = block.textContent ?? '';
  const events = (JSON.parse(text) as { Events?: unknown } | null)?.Events; // (bad JSON throws: the caller asks the network)
  const isEvent = (e: unknown) => typeof e === 'object' && e !== null && Number.isSafeInteger((e as { EventId?: unknown }).EventId);
  return Array.isArray(events) && events.every(isEvent) ? { text, fetchedAt: at, maxAge: life } : null;
}

/** The list's GET on `endpoint`, as the api client writes it (one event type: a number, `01` is `1`). */
export function listUrl(endpoint: string, type: number | null): string {
  return `${endpoint.replace(/\/+$/, '')}${EVENTS_PATH}${type === null ? '' : `?type=${type}`}`;
}

const KEY = Symbol.for('stagedoor.early');
type Registry = Map<string, EarlyRequest>;

/** One registry per page, shared by every copy of the bundle on it. */
function registry(): Registry {
  const page = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (page[KEY] ??= new Map());
}

/**
 * Send GET `url` now (absolute, or relative to the page), for the api client to take over; or,
 * when the page's block holds its answer, take that and send nothing (past the block's cache
 * life, send it to replace it). Once per URL.
 */
export function startEarly(url: string): void {
  const requests = registry();
  if (requests.has(url)) return;
  const send = () => {
    const sent = fetch(url, EARLY_INIT);
    sent.catch(() => undefined); // a failure is the client's to meet: it sends its own
    return sent;
  };
  let copy = null;
  try {
    copy = pageCopy(typeof document === 'undefined' ? url : new URL(url, document.baseURI).href);
  } catch {
    /* not the service's JSON: ask the network */
  }
  const age = copy ? Date.now() - copy.fetchedAt : 0;
  const response = copy
    ? Promise.resolve(new Response(copy.text, { headers: { 'Content-Type': 'application/json', 'Cache-Control': `max-age=${copy.maxAge}` } }))
    : send();
  // Past its life either way (a visitor's clock wrong by more than that is not trusted either).
  const newer = copy && Math.abs(age) > copy.maxAge * 1000 ? send() : undefined;
  requests.set(url, { sentAt: Date.now(), response, ...(newer ? { newer } : {}) });
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
 * for the list of events the moment it upgrades, so ask now, beside its chunks' download (or take
 * the page's block). Only for the list's plain form (all events, or one `event-type`): anything
 * else is left to the element. Asked of the endpoint the element will use; if it uses another, it
 * asks itself.
 */
export function startList(): void {
  const list = document.querySelector('event-list');
  if (!list || list.hasAttribute('venue-id') || list.hasAttribute('event-id')) return;
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
