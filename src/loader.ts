/**
 * The script-tag entry, `dist/stagedoor.js`: a small loader. It defines each
 * of our tags when the tag first appears in the document (in the page as it
 * loads, or added later by a CMS or a single-page router), fetching that
 * element's chunk and every chunk the element needs, once, all at the same
 * time. It never writes into the host's document: no <link>, no <style>, no
 * attribute; it only observes (and asks for a list of events early, below).
 *
 * - The table (tag → export name, files, tags it renders in its own shadow
 *   root) is filled in by the build (scripts/build.mjs, from src/index.ts, the
 *   one list of our tags), with the content-hashed file names of that build.
 *   Its first file is the element's own chunk, the rest are the chunks it
 *   imports (the shared core, Lit): importing them all at once is what a
 *   `modulepreload` hint would do (no request waits for another to be
 *   parsed), without adding a <link> to the host's <head>.
 * - <booking-provider> is defined with the first of our elements, present or
 *   not, and before it: an element that upgrades always finds the provider
 *   around it, including one added later with elements whose tags are already
 *   defined (its code is in the core chunk that every element needs anyway).
 * - Loading the script twice, or two versions of it, is harmless: the first
 *   copy to run does the work for the page and the others leave it to that
 *   one (mixing elements from two copies would give them two cores, which
 *   share no basket). A tag already defined (by an older eager bundle, or by
 *   the host) is left alone.
 * - An element whose chunk fails to load is reported on the console (which
 *   tag, and why); the others load regardless, and the tag is tried again
 *   when it next appears.
 * - An <event-list> in the page as parsed gets its list of events asked for
 *   at once, beside its chunks (src/api/early-list.ts): the only request the
 *   loader makes of the service, taken over by the element's api client;
 *   none when the page's HTML carries that answer (the `stagedoor-first-list`
 *   block, which the element reads: src/state/first-list.ts).
 */

import { startList } from './api/early-list.ts';

/** [export name of the class, files (its own chunk first), tags it renders in its shadow root] */
type Entry = [name: string, files: string[], renders?: string[]];

// The table of this build's chunks: a constant the build defines (scripts/build.mjs).
declare const __STAGEDOOR_TABLE__: Record<string, Entry>;
const table = __STAGEDOOR_TABLE__;

const PROVIDER = 'booking-provider';
const tags = Object.keys(table);
const selector = tags.join();
const loading = new Map<string, Promise<void>>();

function define(tag: string): Promise<void> {
  const entry = table[tag];
  if (!entry || customElements.get(tag)) return Promise.resolve();
  let done = loading.get(tag);
  if (!done) {
    const [name, files, renders = []] = entry;
    done = Promise.all([
      // The provider first.
      tag === PROVIDER ? undefined : define(PROVIDER),
      ...renders.map(define),
      ...files.map((file) => import(/* @vite-ignore */ new URL(file, import.meta.url).href) as Promise<Record<string, CustomElementConstructor>>),
    ])
      .then((loaded) => {
        const element = (loaded[renders.length + 1] as Record<string, CustomElementConstructor>)[name];
        if (element && !customElements.get(tag)) customElements.define(tag, element);
      })
      .catch((error: unknown) => {
        loading.delete(tag);
        console.error(`stagedoor: <${tag}> could not be loaded`, error);
      });
    loading.set(tag, done);
  }
  return done;
}

/** Define every one of our tags found in these roots (and the roots themselves), in the table's order: the provider first. */
function scan(roots: Iterable<Node>): Promise<void> {
  const found = new Set<string>();
  for (const root of roots) {
    if (root instanceof Element && root.matches(selector)) found.add(root.localName);
    if (root instanceof Element || root instanceof Document || root instanceof DocumentFragment) {
      for (const el of root.querySelectorAll(selector)) found.add(el.localName);
    }
  }
  return Promise.all(tags.filter((tag) => found.has(tag)).map(define)).then(() => undefined);
}

/** The first copy of the loader on the page does the work; later copies hand to it. */
const ACTIVE = Symbol.for('stagedoor.loader');
type Scan = (roots: Iterable<Node>) => Promise<void>;
const page = globalThis as unknown as Record<symbol, Scan | undefined>;

/**
 * Define our elements inside `root`. The loader watches the document by
 * itself; call this for a shadow root of your own that holds our elements
 * (the document's observer cannot see inside it). Resolves once they are defined.
 */
export function discover(root: Document | DocumentFragment | Element): Promise<void> {
  return (page[ACTIVE] ?? scan)([root]);
}

if (!page[ACTIVE]) {
  page[ACTIVE] = scan;
  try {
    startList();
  } catch {
    /* the element asks for itself */
  }
  new MutationObserver((mutations) => {
    void scan(mutations.flatMap((m) => [...m.addedNodes]));
  }).observe(document.documentElement, { subtree: true, childList: true });
  void scan([document]);
  if (document.querySelector(selector)) (globalThis.requestIdleCallback ?? setTimeout)(warmIntl);
}

/**
 * A page's first Intl formatter loads the data every later one shares: 50-150 ms on a throttled
 * phone, which fell in the elements' first render (the first price shown). Made while the chunks
 * are still downloading and the page is idle, later ones cost 1-30 ms.
 */
function warmIntl(): void {
  try {
    new Intl.NumberFormat(document.documentElement.lang || undefined).format(1);
  } catch {
    /* a language Intl refuses: the elements fall back on their own */
  }
}
