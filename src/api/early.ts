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
 * The list's own address and block, and the loader's early ask for it, are early-list.ts:
 * the api client (in every page's core) takes a request over with this alone. Imports
 * nothing: the loader carries it.
 */

/** The request as the api client sends the list's GET (src/api/client.ts): only these headers, cookies only to the page's own origin (as a host's `<link rel="preload" as="fetch" crossorigin>` asks, so the loader takes that answer). */
export const EARLY_INIT: RequestInit = Object.freeze({ headers: { Accept: 'application/json' }, credentials: 'same-origin' as const });

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
