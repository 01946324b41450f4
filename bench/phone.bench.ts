/**
 * A throttled phone: today's eager bundle and the loader side by side, in one
 * run. Chromium through the DevTools protocol with a 4× CPU slowdown
 * (Emulation.setCPUThrottlingRate) and the slow-4G profile of Lighthouse's
 * mobile runs (Network.emulateNetworkConditions: 150 ms RTT applied as
 * 562.5 ms per request, 1.6 Mbit/s down and 750 kbit/s up, each × 0.9).
 * Pages are served gzip-compressed by the sandbox-backed site on 127.0.0.1
 * (the proxy and the sandbox in process, behind the same throttled network),
 * each load in a fresh browser context (a first visit: nothing cached).
 *
 * Timed from navigation start (performance.now() in the page):
 * - an <event-list> page: to its first event card;
 * - the whole flow (every element, test/e2e/helpers/page-kinds.ts): to the
 *   first card, then, after opening an event and choosing a performance (by
 *   keyboard, as fast as the page allows), to the seat map's first paint.
 * Three variants: the eager bundle, the loader, and the loader with the
 * page's chunks listed as modulepreload hints in its <head> (what a
 * server-rendered host can add from dist/stagedoor-preload.json).
 * Medians of PHONE_RUNS loads (default 3), variants alternating. Nothing here
 * asserts a time; on a shared machine the numbers are noisy: compare columns
 * of one run, not runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildBundle, buildEagerBundle, preloadLinks, preloadList } from '../scripts/build.mjs';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { hostPage, measurePage, tagsOf, type PageKind } from '../test/e2e/helpers/page-kinds.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import type { BenchTable } from './index.ts';

const RUNS = Number(process.env.PHONE_RUNS ?? 3);
const KINDS: PageKind[] = ['event-list', 'flow'];
const VARIANTS = ['eager', 'loader', 'hinted'] as const;

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

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

export default async function phone(): Promise<BenchTable[]> {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-phone-'));
  const dirs = { eager: join(work, 'eager'), loader: join(work, 'loader') };
  await buildEagerBundle({ outDir: dirs.eager });
  const list = preloadList(await buildBundle({ outDir: dirs.loader, sourcemap: false }));
  const pages: Record<string, string> = {};
  for (const kind of KINDS) {
    pages[`/eager/${kind}`] = hostPage(kind, '/e/stagedoor.js');
    pages[`/loader/${kind}`] = hostPage(kind, '/l/stagedoor.js');
    // The host lists the page's chunks as modulepreload hints in its own <head> (dist/stagedoor-preload.json).
    pages[`/hinted/${kind}`] = hostPage(kind, '/l/stagedoor.js', preloadLinks(list, tagsOf(kind), '/l/'));
  }
  const server = await startSandboxSite({ files: { '/e/': dirs.eager, '/l/': dirs.loader }, pages, compress: true });
  const browser = await launchChromium();
  // kind → milestone → variant → times
  const times = new Map<string, Map<string, Record<string, number[]>>>();
  const bytes: Record<string, Record<string, number>> = {};
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const kind of KINDS) {
        const order = run % 2 ? [...VARIANTS].reverse() : [...VARIANTS];
        for (const variant of order) {
          const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true });
          try {
            const weight = await measurePage(context, `${server.origin}/${variant}/${kind}`, kind, throttle);
            (bytes[kind] ??= {})[variant] = weight.gzip;
            for (const [milestone, ms] of Object.entries(weight.times)) {
              const key = `${kind}: ${milestone}`;
              const row = times.get(key) ?? new Map<string, Record<string, number[]>>();
              times.set(key, row);
              const cell = row.get('ms') ?? { eager: [], loader: [], hinted: [] };
              row.set('ms', cell);
              cell[variant]?.push(ms);
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
  for (const [key, row] of times) {
    const cell = row.get('ms') ?? {};
    const eager = median(cell.eager ?? []);
    const loader = median(cell.loader ?? []);
    const hinted = median(cell.hinted ?? []);
    const kind = key.split(':')[0] ?? '';
    const diff = (ms: number) => `${ms <= eager ? '-' : '+'}${Math.abs(Math.round(ms - eager))}`;
    rows.push([key, Math.round(eager), Math.round(loader), diff(loader), Math.round(hinted), diff(hinted), bytes[kind]?.eager ?? 0, bytes[kind]?.loader ?? 0]);
  }
  return [
    {
      title: `A throttled phone (4× CPU, slow 4G): ms from navigation, median of ${RUNS}`,
      columns: ['page: milestone', 'eager bundle', 'loader', 'vs eager', 'loader + hints', 'vs eager', 'JS gzip eager', 'JS gzip loader'],
      rows,
      notes: [
        'Slow 4G as Lighthouse: 562.5 ms per request, 1.47 Mbit/s down, 0.66 Mbit/s up; 4× CPU slowdown; a 412 px phone viewport; a first visit (fresh context).',
        '"loader + hints": the same page with <link rel="modulepreload"> for its elements\' chunks in its <head> (dist/stagedoor-preload.json), which a server-rendered host can add: the chunks load alongside the loader.',
        'Served over HTTP/1.1 (6 connections per origin), where every extra file costs more than behind an HTTP/2 CDN.',
        `Machine load (1-minute average) at the end: ${loadavg()[0]?.toFixed(2)}. The machine is shared: compare the columns of one run.`,
      ],
    },
  ];
}
