/**
 * A throttled phone: today's build and the baseline (bench/baseline.ts: the
 * commit issue 24 measured) side by side, in one run. Chromium through the
 * DevTools protocol with a 4× CPU slowdown (Emulation.setCPUThrottlingRate)
 * and the slow-4G profile of Lighthouse's mobile runs
 * (Network.emulateNetworkConditions: 150 ms RTT applied as 562.5 ms per
 * request, 1.6 Mbit/s down and 750 kbit/s up, each × 0.9). Pages are served
 * compressed by the sandbox-backed site on 127.0.0.1 (the proxy and the
 * sandbox in process, behind the same throttled network), the bundle's files
 * as `stagedoor serve` sends them: with its caching rule
 * (src/server/bundle-caching.ts), and as the build's brotli copies where the
 * build wrote them (this build; the baseline's wrote none, so its files go
 * gzip'd, as a server compressing them itself would send them).
 * Both builds' pages list their chunks as modulepreload hints in their <head>
 * (dist/stagedoor-preload.json), as a server-rendered host can; this build's
 * pages also carry the list of events itself (the stagedoor-first-list block,
 * src/server/first-list.ts: the proxy's answer, read as a host with a
 * five-minute cache reads it, so always within its life) and load its loader
 * by the versioned name that file gives (cached immutable).
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
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildBundle, LOADER, PRELOAD_FILE, preloadLinks } from '../scripts/build.mjs';
import { firstListBlock, readFirstList } from '../src/server/first-list.ts';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { hostPage, measurePage, tagsOf, type PageKind } from '../test/e2e/helpers/page-kinds.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import { BASELINE_COMMIT, baselineBuild, loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
const KINDS: PageKind[] = ['event-list', 'flow'];
/** The baseline; this build with the list preloaded by its page (as before issue 34); this build with the list in its page. */
const BUILDS = ['baseline', 'preload', 'block'] as const;
type Build = (typeof BUILDS)[number];

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
  const baselineList = baseline.preloadList(await baseline.buildBundle({ outDir: dirs.baseline, sourcemap: false }));
  await buildBundle({ outDir: dirs.new, sourcemap: false });
  const newList = JSON.parse(readFileSync(join(dirs.new, PRELOAD_FILE), 'utf8')) as Record<string, string[]>;
  const lists: Record<Build, Record<string, string[]>> = { baseline: baselineList, preload: newList, block: newList };
  const mount: Record<Build, string> = { baseline: '/b/', preload: '/n/', block: '/n/' };
  const pages: Record<string, string> = {};
  // The list's answer as a host's server prints it: read through the proxy, kept a few minutes
  // (read again in the background well within its 300 s life).
  let firstList: Awaited<ReturnType<typeof readFirstList>> | undefined;
  const readList = async () => void (firstList = await readFirstList(`${server.origin}/api`, '/api', null));
  for (const kind of KINDS) {
    for (const build of BUILDS) {
      // This build's pages name the loader by its versioned name (the baseline has none). The
      // baseline's hints cannot help its list (its client asks without credentials); this build's
      // preload it (its client takes that answer), or hold the list itself.
      const hints = preloadLinks(lists[build], tagsOf(kind), mount[build], build === 'preload' ? { endpoint: '/api' } : {});
      const page = (block = '') => hostPage(kind, `${mount[build]}${lists[build][LOADER]?.[0] ?? LOADER}`, `${block}${hints}`);
      if (build !== 'block') pages[`/${build}/${kind}`] = page();
      else {
        Object.defineProperty(pages, `/${build}/${kind}`, {
          enumerable: true,
          get: () => {
            if (firstList && Date.now() - firstList.fetchedAt.getTime() > 120_000) void readList();
            return page(firstList ? firstListBlock(firstList) : '');
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
  const record = (label: string, build: Build, ms: number) => {
    const row = times.get(label) ?? { baseline: [], preload: [], block: [] };
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
            const shoot = screenshot && run === 0 && build === 'block' && kind === 'event-list' ? screenshot : undefined;
            const weight = await measurePage(context, url, kind, shoot ? (page) => throttleAndShoot(page, shoot) : throttle, { ready: true });
            (bytes[kind] ??= {})[build] = weight.gzip;
            for (const [milestone, ms] of Object.entries(weight.times)) record(`${kind}: ${milestone}`, build, ms);
            if (kind === 'event-list') {
              // The same visitor again, within the caches' life: what the first visit left in the HTTP cache.
              const again = await measurePage(context, url, kind, throttle);
              record(`${kind}: first card, second visit`, build, again.times['first card'] ?? Number.NaN);
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
    const [old, hinted, now] = [median(cell.baseline), median(cell.preload), median(cell.block)];
    rows.push([label, Math.round(old), Math.round(hinted), Math.round(now), `${now <= old ? '−' : '+'}${Math.abs(Math.round(now - old))}`, `${Math.round((100 * now) / old)}%`]);
  }
  const weightRows = KINDS.map((kind) => [kind, ...BUILDS.map((build) => bytes[kind]?.[build] ?? 0)]);
  return [
    {
      title: `A throttled phone (4× CPU, slow 4G): ms from navigation, median of ${RUNS}, baseline ${BASELINE_COMMIT} vs this build`,
      columns: ['page: milestone', `baseline ${BASELINE_COMMIT}`, 'this build, list preloaded', 'this build, list in the page', 'change ms', 'in the page/baseline'],
      rows,
      notes: [
        'Slow 4G as Lighthouse: 562.5 ms per request, 1.47 Mbit/s down, 0.66 Mbit/s up; 4× CPU slowdown; a 412 px phone viewport; a first visit in a fresh context, the second visit in the same one.',
        'Both builds: the page lists its elements\' chunks as <link rel="modulepreload"> in its <head> (dist/stagedoor-preload.json); this build\'s pages also preload the list of events (<link rel="preload" as="fetch" crossorigin>, which its client takes; the baseline\'s cannot: it asks without credentials) or carry the list itself (<script type="application/json" id="stagedoor-first-list">, the proxy\'s answer as a host prints it: no request for the list; "change" and the ratio compare that column with the baseline), and load the loader by its versioned name, stagedoor-loader-<hash>.js (the baseline has only stagedoor.js, revalidated on every visit); the bundle\'s files cached as `stagedoor serve` caches them, and sent as it sends them: this build\'s as the brotli copies its build writes, the baseline\'s (which has none) gzip\'d.',
        'Goals (issue 34): first card ≤ 1,200 ms; ready for a tap ≤ 2,500 ms; second visit ≤ 800 ms to the first card.',
        'Served over HTTP/1.1 (6 connections per origin), where every extra file costs more than behind an HTTP/2 CDN.',
        before,
        loadNote('after the run'),
      ],
    },
    {
      title: 'JavaScript the throttled pages fetched (gzip bytes, up to their last milestone)',
      columns: ['page', `baseline ${BASELINE_COMMIT}`, 'this build, list preloaded', 'this build, list in the page'],
      rows: weightRows,
    },
  ];
}
