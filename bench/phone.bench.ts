/**
 * A throttled phone: today's build and the baseline (bench/baseline.ts: the
 * last commit before issue 34's work) side by side, in one run. Chromium through the
 * DevTools protocol with a 4× CPU slowdown (Emulation.setCPUThrottlingRate)
 * and the slow-4G profile of Lighthouse's mobile runs
 * (Network.emulateNetworkConditions: 150 ms RTT applied as 562.5 ms per
 * request, 1.6 Mbit/s down and 750 kbit/s up, each × 0.9). Pages are served
 * compressed by the sandbox-backed site on 127.0.0.1 (the proxy and the
 * sandbox in process, behind the same throttled network), the bundle's files
 * as `stagedoor serve` sends them: with its caching rule
 * (src/server/bundle-caching.ts), and as the build's brotli copies where the
 * build wrote them (a build that wrote none, as 2e9b7c2, goes gzip'd, as a
 * server compressing them itself would send it).
 * Both builds' pages list their chunks as modulepreload hints in their <head>
 * (dist/stagedoor-preload.json), as a server-rendered host can, and load the
 * loader by the versioned name that file gives (cached immutable), where the
 * build has one. This build is measured three times: its page preloading the list
 * of events (its client takes that answer, src/api/early.ts; so does the
 * baseline's page where its client does), its page carrying the list
 * itself (the stagedoor-first-list block, src/server/first-list.ts: the
 * proxy's answer, read as a host with a five-minute cache reads it, so always
 * within its life), and its page carrying the list and its first cards
 * (src/server/first-cards.ts, inside the page's <event-list>, the block after
 * them, as `stagedoor first-list --cards` prints them).
 *
 * Also, for the last walk of each: every request from the event's click to
 * the map ready for a tap, when it left and when its answer was in (ms from
 * the click), to see which wait on which (the requests in a row).
 *
 * Timed from navigation start (performance.now() in the page):
 * - an <event-list> page, a first visit (fresh context): to its first card;
 *   then a second visit in the same context within the caches' life (the
 *   browser's HTTP cache as the first visit left it): to its first card;
 * - the whole flow (every element, test/e2e/helpers/page-kinds.ts): to the
 *   first card, then, after opening an event and choosing a performance (by
 *   keyboard, each key pressed in the first animation frame where its target
 *   shows), to the seat map's first paint and to the map ready for a tap (the
 *   choice with its "Add" rendered below it).
 * PHONE_SCREENSHOT=FILE.png keeps a screenshot of this build's first card on
 * the first visit of the first run (taken in the first animation frame that
 * shows it).
 * Medians of PHONE_RUNS loads (default 3), the builds alternating. Nothing
 * here asserts a time; on a shared machine the numbers are noisy: compare
 * the columns of one run, not runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildBundle, LOADER, PRELOAD_FILE, preloadLinks, preloadList } from '../scripts/build.mjs';
import type { EventInfo } from '../src/api/types.ts';
import { firstCardsTemplate, firstListBlock } from '../src/server/first-cards.ts';
import { readFirstList } from '../src/server/first-list.ts';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { hostPage, measurePage, tagsOf, type PageKind, type PageWeight } from '../test/e2e/helpers/page-kinds.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import { BASELINE_COMMIT, baselineBuild, loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
const KINDS: PageKind[] = ['event-list', 'flow'];
/**
 * The baseline; this build with the list preloaded by its page (as before issue 34); this build with the list in its page;
 * this build with the list and its first cards in its page (src/server/first-cards.ts).
 */
const BUILDS = ['baseline', 'preload', 'block', 'cards'] as const;
type Build = (typeof BUILDS)[number];
const NAMES: Record<Build, string> = {
  baseline: `baseline ${BASELINE_COMMIT}`,
  preload: 'this build, list preloaded',
  block: 'this build, list in the page',
  cards: 'this build, cards in the page',
};

/** Lighthouse's mobile slow-4G and 4× CPU (its constants: rttMs 150, requestLatencyMs 150 × 3.75, throughput × 0.9). */
async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150 * 3.75,
    downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
    uploadThroughput: (750 * 1024 * 0.9) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/** Throttled, and a screenshot at the first animation frame that shows a card. */
async function throttleAndShoot(page: Page, path: string): Promise<void> {
  await throttle(page);
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    void page
      .waitForFunction(() => Boolean(document.querySelector('event-list')?.shadowRoot?.querySelector('[part~="card"]:not([part~="skeleton"])')), undefined, { polling: 'raf' })
      .then(() => page.screenshot({ path }))
      .catch(() => undefined);
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

const phoneContext = (browser: Awaited<ReturnType<typeof launchChromium>>): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true });

export default async function phone(): Promise<BenchTable[]> {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-phone-'));
  const dirs = { baseline: join(work, 'baseline'), new: join(work, 'new') };
  const before = loadNote('before the run');
  const baseline = await baselineBuild();
  /** The build's own preload file (with its versioned loader), else the list made from its table (a build before that file). */
  const preloads = (dir: string, table: Parameters<typeof baseline.preloadList>[0], own: typeof baseline.preloadList): Record<string, string[]> =>
    existsSync(join(dir, PRELOAD_FILE)) ? (JSON.parse(readFileSync(join(dir, PRELOAD_FILE), 'utf8')) as Record<string, string[]>) : own(table);
  const baselineList = preloads(dirs.baseline, await baseline.buildBundle({ outDir: dirs.baseline, sourcemap: false }), baseline.preloadList);
  const newList = preloads(dirs.new, await buildBundle({ outDir: dirs.new, sourcemap: false }), preloadList);
  const lists: Record<Build, Record<string, string[]>> = { baseline: baselineList, preload: newList, block: newList, cards: newList };
  /** Whether the baseline's client takes a preloaded list of events (src/api/early.ts: not before 6d85a61; this build's does). */
  const takesList = existsSync(join(baseline.dir, 'src', 'api', 'early.ts'));
  /** Whose page preloads the list: each build whose client takes it, but not the page that carries the list itself. */
  const preloadsList: Record<Build, boolean> = { baseline: takesList, preload: true, block: false, cards: false };
  const mount: Record<Build, string> = { baseline: '/b/', preload: '/n/', block: '/n/', cards: '/n/' };
  const pages: Record<string, string> = {};
  // The list's answer as a host's server prints it: read through the proxy, kept a few minutes
  // (read again in the background well within its 300 s life).
  let firstList: Awaited<ReturnType<typeof readFirstList>> | undefined;
  /** The first cards of that answer, as the page's server prints them into its <event-list> (the page is in en-GB). */
  let firstCards = '';
  const readList = async () => {
    const list = await readFirstList(`${server.origin}/api`, '/api', null);
    firstCards = await firstCardsTemplate((JSON.parse(list.body) as { Events: EventInfo[] }).Events, { lang: 'en-GB' });
    firstList = list;
  };
  for (const kind of KINDS) {
    for (const build of BUILDS) {
      // The page names the loader by its versioned name where the build has one, and preloads the
      // list where the build's client takes that answer (or, the block build, holds the list itself).
      const hints = preloadLinks(lists[build], tagsOf(kind), mount[build], preloadsList[build] ? { endpoint: '/api' } : {});
      // The block alone goes in the head (docs/embedding.md: "the <head> is best"); with the cards,
      // inside the <event-list> after them, as `stagedoor first-list --cards` prints them: the cards
      // do not wait for the block's bytes to arrive.
      const page = (block = '', cards = '') =>
        hostPage(kind, `${mount[build]}${lists[build][LOADER]?.[0] ?? LOADER}`, `${cards ? '' : block}${hints}`).replace('<event-list>', `<event-list>${cards}${cards ? block : ''}`);
      if (build !== 'block' && build !== 'cards') pages[`/${build}/${kind}`] = page();
      else {
        Object.defineProperty(pages, `/${build}/${kind}`, {
          enumerable: true,
          get: () => {
            if (firstList && Date.now() - firstList.fetchedAt.getTime() > 120_000) void readList();
            return page(firstList ? firstListBlock(firstList) : '', build === 'cards' ? firstCards : '');
          },
        });
      }
    }
  }
  const server = await startSandboxSite({ files: { '/b/': dirs.baseline, '/n/': dirs.new }, pages, compress: true, bundleCaching: true });
  await readList();
  const screenshot = process.env.PHONE_SCREENSHOT;
  const browser = await launchChromium();
  // row label → build → times
  const times = new Map<string, Record<Build, number[]>>();
  const bytes: Record<string, Partial<Record<Build, number>>> = {};
  /** The last walk of each build: its requests from the event's click to the map ready for a tap (ms from the click). */
  const walks: Partial<Record<Build, { ready: number; requests: PageWeight['requests']; longTasks: PageWeight['longTasks']; keys: number[] }>> = {};
  /** The last second visit of each build: its requests up to the first card (ms from navigation). */
  const seconds: Partial<Record<Build, { card: number; requests: PageWeight['requests'] }>> = {};
  const record = (label: string, build: Build, ms: number) => {
    const row = times.get(label) ?? { baseline: [], preload: [], block: [], cards: [] };
    times.set(label, row);
    row[build].push(ms);
  };
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const kind of KINDS) {
        for (const build of run % 2 ? [...BUILDS].reverse() : BUILDS) {
          const context = await phoneContext(browser);
          try {
            const url = `${server.origin}/${build}/${kind}`;
            const shoot = screenshot && run === 0 && build === 'cards' && kind === 'event-list' ? screenshot : undefined;
            const weight = await measurePage(context, url, kind, shoot ? (page) => throttleAndShoot(page, shoot) : throttle, { ready: true });
            (bytes[kind] ??= {})[build] = weight.gzip;
            for (const [milestone, ms] of Object.entries(weight.times)) record(`${kind}: ${milestone}`, build, ms);
            const click = weight.times['event click'];
            const ready = weight.times['ready for a tap'];
            if (click !== undefined && ready !== undefined) {
              const requests = weight.requests.filter((r) => r.start >= click && r.start <= ready);
              walks[build] = {
                ready: ready - click,
                requests: requests.map((r) => ({ ...r, start: r.start - click, end: r.end - click })),
                longTasks: weight.longTasks.filter((t) => t.start + t.duration >= click && t.start <= ready).map((t) => ({ start: t.start - click, duration: t.duration })),
                // The first key is the event's card (the click itself, marked by another listener).
                keys: weight.keys.slice(1).filter((k) => k <= ready).map((k) => k - click),
              };
            }
            if (kind === 'event-list') {
              // The same visitor again, within the caches' life: what the first visit left in the HTTP cache.
              const again = await measurePage(context, url, kind, throttle);
              const card = again.times['first card'] ?? Number.NaN;
              record(`${kind}: first card, second visit`, build, card);
              seconds[build] = { card, requests: again.requests.filter((r) => r.start <= card) };
            }
          } finally {
            await context.close();
          }
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const rows: (string | number)[][] = [];
  for (const [label, cell] of times) {
    const [old, hinted, inPage, now] = [median(cell.baseline), median(cell.preload), median(cell.block), median(cell.cards)];
    rows.push([label, ...[old, hinted, inPage, now].map(Math.round), `${now <= old ? '−' : '+'}${Math.abs(Math.round(now - old))}`, `${Math.round((100 * now) / old)}%`]);
  }
  const weightRows = KINDS.map((kind) => [kind, ...BUILDS.map((build) => bytes[kind]?.[build] ?? 0)]);
  // A chunk by its name without the hash; a lookup by its path under the endpoint.
  const shortPath = (path: string): string => path.replace(/^\/[bn]\/(stagedoor-[\w.-]+?)(-[\w-]{8})?\.js$/, '$1.js').replace(/^\/api\/rest\/v2\//, '');
  const walkTables = BUILDS.map((build, i): BenchTable => ({
    title: `The flow page's last walk, ${NAMES[build]}: each request from the event's click to the map ready for a tap, ms from the click`,
    columns: ['request', 'sent', 'answered'],
    rows: [
      ...[
        ...(walks[build]?.requests ?? []).map((r) => [shortPath(r.path), Math.round(r.start), Math.round(r.end)] as [string, number, number]),
        ...(walks[build]?.longTasks ?? []).map((t) => [`(a long task, ${Math.round(t.duration)} ms)`, Math.round(t.start), Math.round(t.start + t.duration)] as [string, number, number]),
        ...(walks[build]?.keys ?? []).map((k) => ['(the walk presses a key)', Math.round(k), ''] as [string, number, string]),
      ].sort((a, b) => a[1] - b[1]),
      ['ready for a tap', Math.round(walks[build]?.ready ?? Number.NaN), ''],
    ],
    notes:
      i === BUILDS.length - 1
        ? ['Long tasks (the main thread busy over 50 ms, at the 4× slowdown) and the walk\'s keys after the event\'s click (opening the day, choosing the performance) are listed among the requests. A request sent after another was answered may be waiting on it: those are the round trips in a row (test/elements/round-trips.test.ts counts them for the lookups). The visitor chooses the performance between the two waits. Chunks are named without their hash; lookups by their path under /api/rest/v2/.']
        : [],
  }));
  const secondTables = BUILDS.map((build, i): BenchTable => ({
    title: `The event-list page's last second visit, ${NAMES[build]}: each request up to the first card, ms from navigation`,
    columns: ['request', 'sent', 'answered'],
    rows: [
      ...(seconds[build]?.requests ?? []).map((r) => [shortPath(r.path), Math.round(r.start), Math.round(r.end)]),
      ['first card', Math.round(seconds[build]?.card ?? Number.NaN), ''],
    ],
    notes: i === BUILDS.length - 1 ? ['A file the HTTP cache answered shows the time it took from the cache (a few ms); the page itself always comes over the network.'] : [],
  }));
  return [
    {
      title: `A throttled phone (4× CPU, slow 4G): ms from navigation, median of ${RUNS}, baseline ${BASELINE_COMMIT} vs this build`,
      columns: ['page: milestone', ...BUILDS.map((build) => NAMES[build]), 'change ms', 'cards/baseline'],
      rows,
      notes: [
        'Slow 4G as Lighthouse: 562.5 ms per request, 1.47 Mbit/s down, 0.66 Mbit/s up; 4× CPU slowdown; a 412 px phone viewport; a first visit in a fresh context, the second visit in the same one.',
        `Both builds: the page lists its elements' chunks as <link rel="modulepreload"> in its <head> (dist/stagedoor-preload.json), and loads the loader by its versioned name, stagedoor-loader-<hash>.js, where the build has one; the bundle's files cached as \`stagedoor serve\` caches them, and sent as it sends them (the brotli copies a build writes, else gzip'd). The list of events is preloaded (<link rel="preload" as="fetch" crossorigin>) where the build's client takes it (this build${takesList ? ' and the baseline' : '; not the baseline, which asks without credentials'}); in the third column the page carries the list itself instead (<script type="application/json" id="stagedoor-first-list">, the proxy's answer as a host prints it: no request for the list); in the last, the list and its first cards (\`stagedoor first-list --cards\`, printed inside the <event-list>: the cards, the element's declarative shadow root shown before any script, then the block; "change" and the ratio compare that column with the baseline).`,
        'Goals (issue 34): first card ≤ 1,200 ms; the whole walk to a seat map ready for a tap ≤ 2,500 ms; second visit ≤ 800 ms to the first card. "event click": when the walk pressed the event\'s card (the first card shown, then the next frame).',
        'Served over HTTP/1.1 (6 connections per origin), where every extra file costs more than behind an HTTP/2 CDN.',
        before,
        loadNote('after the run'),
      ],
    },
    ...walkTables,
    ...secondTables,
    {
      title: 'JavaScript the throttled pages fetched (gzip bytes, up to their last milestone)',
      columns: ['page', ...BUILDS.map((build) => NAMES[build])],
      rows: weightRows,
    },
  ];
}
