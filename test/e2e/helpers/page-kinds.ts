/**
 * The kinds of host page the bundle's budgets are about, and how to measure
 * what a browser really fetches for each: a bare page served by the
 * sandbox-backed site (test/e2e/helpers/sandbox-site.ts), the script tag
 * pointing at a bundle build, every JavaScript response the page receives
 * counted (its body gzip'd at level 9, as a host's server or CDN sends it),
 * up to the moment the page kind's visitor sees what they came for:
 *
 * - `timer`: only <basket-timer> in a header; until the page is idle (the
 *   timer upgraded, nothing more in flight).
 * - `event-list`: only <event-list>; until its first event card shows.
 * - `flow`: the booking flow up to the seat map (the customer's way through: event
 *   list, event detail, performances, seats): <event-list>,
 *   <performance-calendar> and <seat-picker> in a <booking-provider>; the
 *   visitor opens an event (its detail shows, with its sanitized
 *   description), chooses a performance in the calendar, and the seat picker
 *   paints its seat map: until that first paint; with `ready`, further, until
 *   the map is ready for a tap (what answers a chosen seat, the choice with
 *   its "Add" from the picker's later part, has rendered below it).
 * - `full`: the same visit on the README's page, which also holds what comes
 *   after the seat map (<basket-timer>, <checkout-form>,
 *   <booking-confirmation>), still empty then.
 *
 * Used by the budget test (test/e2e/size.test.ts) and the benches
 * (bench/size.bench.ts, bench/phone.bench.ts), so they measure the same thing.
 */
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { choosePerformance } from './booking.ts';

export type PageKind = 'timer' | 'event-list' | 'flow' | 'full';
export const pageKinds: readonly PageKind[] = ['timer', 'event-list', 'flow', 'full'];

/** The seated show whose seat map the `flow` page opens (the sandbox's catalogue). */
export const FLOW_EVENT = 'The Lantern Keeper';

/** The tags on a page of this kind. */
export function tagsOf(kind: PageKind): string[] {
  return [...hostPage(kind, '').matchAll(/<([a-z]+-[a-z-]+)[\s>]/g)].map((m) => m[1] ?? '').filter((t, i, all) => all.indexOf(t) === i);
}

/**
 * A host page of this kind loading the script at `script` (e.g. `/loader/stagedoor.js`), the
 * proxy at /api; `head`: more for its <head> (modulepreload hints).
 */
export function hostPage(kind: PageKind, script: string, head = ''): string {
  const body: Record<PageKind, string> = {
    timer: '<header><a href="/">The Lyric Quarter</a> <basket-timer></basket-timer></header><main><h1>What is on</h1><p>Our season.</p></main>',
    'event-list': '<main><h1>What is on</h1><event-list></event-list></main>',
    flow: '<booking-provider endpoint="/api"><main><event-list></event-list><performance-calendar></performance-calendar><seat-picker></seat-picker></main></booking-provider>',
    full: [
      '<booking-provider endpoint="/api">',
      '<header><basket-timer></basket-timer></header>',
      '<main><event-list></event-list><performance-calendar></performance-calendar><seat-picker></seat-picker></main>',
      '<aside><checkout-form></checkout-form></aside>',
      '<booking-confirmation></booking-confirmation>',
      '</booking-provider>',
    ].join(''),
  };
  return (
    '<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<link rel="icon" href="data:,"><title>${kind}</title>` +
    '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>' +
    `<script type="module" src="${script}"></script>${head}</head><body>${body[kind]}</body></html>`
  );
}

/**
 * Wait until the page kind's milestone (see above). Each milestone is seen in
 * the page itself (a check on every animation frame), and its time there is
 * the result: milliseconds from navigation start. The last one is what the
 * page's JavaScript is counted up to. The first card is the one measurePage's
 * watcher saw, in place from the page's start.
 */
async function reachMilestone(page: Page, kind: PageKind, ready = false): Promise<Record<string, number>> {
  /** The page's performance.now() returned by a check, at the first animation frame where it holds. */
  const seen = async (check: () => number | false): Promise<number> => (await page.waitForFunction(check)).jsonValue() as Promise<number>;
  if (kind === 'timer') {
    const upgraded = await seen(() => Boolean(document.querySelector('basket-timer')?.shadowRoot?.firstElementChild) && performance.now());
    await page.waitForLoadState('networkidle');
    return { 'timer shown': upgraded, idle: await page.evaluate(() => performance.now()) };
  }
  const firstCard = await seen(() => {
    // When measurePage's watcher saw it, from the page's first frame (a card printed in the HTML shows before any script).
    const shown = (window as unknown as { stagedoorFirstCard?: number }).stagedoorFirstCard ?? false;
    // The walk's first key, marked where it lands (a step of our own between the card and the key would delay it).
    if (shown && !performance.getEntriesByName('walk-listening').length) {
      performance.mark('walk-listening');
      addEventListener('keydown', () => performance.mark('walk-event-click'), { capture: true, once: true });
      addEventListener('keydown', () => performance.mark('walk-key'), { capture: true });
    }
    return shown;
  });
  if (kind === 'event-list') return { 'first card': firstCard };
  // flow and full: the visit up to the seat map.
  // The element's own cards, which a tap opens in the page (cards printed in the HTML are links to
  // the show's address, a page load of its own, until the element takes their place).
  const cardsReady = await seen(() => {
    const list = document.querySelector('event-list') as (HTMLElement & { hasUpdated?: boolean }) | null;
    return Boolean(list?.hasUpdated && list.shadowRoot?.querySelector('[part~="card-button"]') && !list.shadowRoot.querySelector(':scope > style')) && performance.now();
  });
  // Each click is made in the first frame where what it needs shows: Playwright's own waits look
  // again after 0, 20, 50, 100, 100 and then every 500 ms, so they held the walk's clicks up to half a
  // second after their target appeared (the event's detail, the calendar's performances).
  await page.locator('event-list').locator('[part~="card-button"]', { hasText: FLOW_EVENT }).first().press('Enter');
  // Both shown, as Playwright's `visible` means it (a box, not visibility: hidden): the event's detail,
  // and what choosePerformance (./booking.ts) presses, a performance or a day to open first. (No named
  // function inside a check: tsx would name it with a helper the page does not have.)
  await seen(() => {
    const detail = document.querySelector('event-list')?.shadowRoot?.querySelectorAll('[part~="description"] p') ?? [];
    const targets =
      document
        .querySelector('performance-calendar')
        ?.shadowRoot?.querySelectorAll(
          ':is([part~="performance-button"], [part~="performance"]):not([part~="sold-out"]), :is([part~="day-button"], [part~="day"])[part~="has-performances"]:not([aria-disabled="true"])',
        ) ?? [];
    return [detail, targets].every((list) => [...list].some((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')) && performance.now();
  });
  await choosePerformance(page.locator('performance-calendar'));
  // The seat map's first paint: the picker marks it (performance.mark('booking-seat-map-paint')).
  const seatMap = await seen(() => performance.getEntriesByName('booking-seat-map-paint').at(-1)?.startTime ?? false);
  const click = (await page.evaluate(() => performance.getEntriesByName('walk-event-click')[0]?.startTime)) ?? Number.NaN;
  if (!ready) return { 'first card': firstCard, 'cards answer a tap': cardsReady, 'event click': click, 'seat map': seatMap };
  // Ready for a tap: what answers a chosen seat (the choice with its "Add") has rendered below the map
  // ("add" before issue 21's vocabulary: the benches walk a baseline build too).
  const tap = await seen(
    () => Boolean(document.querySelector('seat-picker')?.shadowRoot?.querySelector('[part~="summary"] :is([part~="add-button"], [part~="add"])')) && performance.now(),
  );
  return { 'first card': firstCard, 'cards answer a tap': cardsReady, 'event click': click, 'seat map': seatMap, 'ready for a tap': tap };
}

export interface PageWeight {
  /** gzip bytes of every JavaScript file the page started to fetch before its last milestone. */
  gzip: number;
  /** Per file: path and gzip bytes, in the order requested. */
  files: { path: string; gzip: number }[];
  /** Milliseconds from navigation start to each milestone. */
  times: Record<string, number>;
  /** Every request the page made (Resource Timing): its path and query, sent and answered in ms from navigation start. */
  requests: { path: string; start: number; end: number }[];
  /** The main thread's tasks over 50 ms (Long Tasks API, where the engine has it): start and duration, ms. */
  longTasks: { start: number; duration: number }[];
  /** When the walk pressed each key (flow and full pages: the event's card first), ms from navigation start. */
  keys: number[];
}

const isScript = (r: Response): boolean => r.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(new URL(r.url()).pathname);

/**
 * Open `url` (a page of this kind) in a new page of `browser` (a Browser or a
 * BrowserContext), reach its milestone, count the JavaScript it fetched: every
 * script whose fetch started (by the page's own clock, Resource Timing) before
 * the last milestone, each body gzip'd. `prepare` runs before the navigation
 * (throttling, routes).
 */
export async function measurePage(
  browser: { newPage(): Promise<Page> },
  url: string,
  kind: PageKind,
  prepare?: (page: Page) => Promise<void>,
  { ready = false }: { ready?: boolean } = {},
): Promise<PageWeight> {
  const page = await browser.newPage();
  try {
    await prepare?.(page);
    // Long tasks from the start (the API keeps none without an observer).
    await page.addInitScript(() => {
      const seen: { start: number; duration: number }[] = ((window as unknown as { stagedoorLongTasks: unknown[] }).stagedoorLongTasks = []) as never;
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) seen.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      } catch {
        /* no Long Tasks API */
      }
    });
    // The first frame that shows an event card (reachMilestone reads it): from the page's start, since
    // cards printed in the HTML show before any script, and a check Playwright sends in waits until a
    // busy page runs it. As text: tsx names a function given a name (`look`) with a helper the page
    // does not have, and the script would stop there.
    await page.addInitScript({
      content: `requestAnimationFrame(function look() {
        if (document.querySelector('event-list')?.shadowRoot?.querySelector('[part~="card"]:not([part~="skeleton"])')) window.stagedoorFirstCard = performance.now();
        else requestAnimationFrame(look);
      });`,
    });
    const bodies = new Map<string, Promise<number>>();
    page.on('response', (r) => {
      // A body still on its way when the page closes (a script asked for after the last milestone, not
      // counted) is lost: NaN, never an unhandled rejection; one that is counted makes the sum NaN.
      if (isScript(r) && !bodies.has(r.url())) bodies.set(r.url(), r.body().then((b) => gzipSync(b, { level: 9 }).length, () => Number.NaN));
    });
    await page.goto(url, { waitUntil: 'commit' });
    const times = await reachMilestone(page, kind, ready);
    const until = Math.max(...Object.values(times).filter(Number.isFinite));
    // Fetches started before the milestone, once they have all finished.
    await page.waitForLoadState('networkidle');
    const requests = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .sort((a, b) => a.startTime - b.startTime)
        .map((e) => ({ name: e.name, start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
    );
    const started = requests.filter((r) => r.start <= until).map((r) => r.name);
    const files: { path: string; gzip: number }[] = [];
    for (const name of started) {
      const gzip = bodies.get(name);
      if (gzip) files.push({ path: new URL(name).pathname, gzip: await gzip });
    }
    delete times.idle;
    const path = (name: string) => new URL(name).pathname + new URL(name).search;
    const longTasks = await page.evaluate(() => (window as unknown as { stagedoorLongTasks?: { start: number; duration: number }[] }).stagedoorLongTasks ?? []);
    const keys = await page.evaluate(() => performance.getEntriesByName('walk-key').map((e) => e.startTime));
    return { gzip: files.reduce((n, f) => n + f.gzip, 0), files, times, requests: requests.map((r) => ({ path: path(r.name), start: r.start, end: r.end })), longTasks, keys };
  } finally {
    await page.close();
  }
}
