/**
 * One basket across tabs (issue 22), measured: the built bundle in two pages
 * of one browser context over the real proxy and sandbox (in process).
 *
 * - How long a change made in one tab takes to show in the other: from the
 *   change's own event in tab A (`booking-basket-change`, fired once the
 *   service accepted it) to `booking-remote-change` in tab B (fired once B has
 *   read the basket again), both on the machine's wall clock
 *   (`performance.timeOrigin + performance.now()`). 20 changes: adds and
 *   removes in turn.
 * - How often "Hold these seats again" holds the same seats again after a
 *   lapse, with nobody else buying: 20 lapses, each made by moving the
 *   sandbox's clock and the browsers' clocks together (no waiting).
 *
 * `npm run bench -- tabs`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createApiClient } from '../src/api/client.ts';
import { buildBundle } from '../scripts/build.mjs';
import { chooseSeatPair } from '../test/e2e/helpers/booking.ts';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import type { BenchTable } from './index.ts';

const RUNS = 20;
const LAPSE_MS = 10 * 60_000 + 5_000;

const RECORDER = `var __name = (f) => f;
window.stamps = { local: [], remote: [] };
const at = () => performance.timeOrigin + performance.now();
document.addEventListener('booking-basket-change', () => window.stamps.local.push(at()));
document.addEventListener('booking-remote-change', (e) => window.stamps.remote.push([e.detail.change, at()]));`;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export default async function tabsBench(): Promise<BenchTable[]> {
  const dist = mkdtempSync(join(tmpdir(), 'stagedoor-tabs-bench-'));
  const skew = { ms: 0 };
  const pages: Record<string, string> = {};
  await buildBundle({ outDir: dist, sourcemap: false });
  const server = await startSandboxSite({ files: { '/v1/': dist }, pages, sandbox: { clock: { now: () => Date.now() + skew.ms } } });
  const browser = await launchChromium();
  try {
    const api = createApiClient({ endpoint: `${server.origin}/api` });
    const { Events } = await api.getEvents();
    const event = Events.find((e) => e.Name === 'The Lantern Keeper') ?? Events[0];
    const { Performances } = await api.getEventPerformances({ eventId: event?.EventId ?? 0 });
    const [first, second] = Performances.filter((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 60);
    const page = (id: number | undefined) =>
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script></head><body><basket-timer></basket-timer><seat-picker performance-id="${id}"></seat-picker><checkout-form></checkout-form></body></html>`;
    pages['/a'] = page(first?.PerformanceId);
    pages['/b'] = page(second?.PerformanceId);

    // ---- propagation: 20 changes made in A, seen in B
    const context = await browser.newContext();
    await context.addInitScript({ content: RECORDER });
    const a = await context.newPage();
    const b = await context.newPage();
    await a.goto(`${server.origin}/a`);
    await b.goto(`${server.origin}/a`);
    const latencies: number[] = [];
    const remoteCount = (p: Page) => p.evaluate(() => (window as unknown as { stamps: { remote: unknown[] } }).stamps.remote.length);
    for (let i = 0; i < RUNS; i++) {
      const before = await remoteCount(b);
      if (i % 2 === 0) {
        const picker = a.locator('seat-picker');
        if (!(await chooseSeatPair(a, picker))) throw new Error('no seat pair left');
        await picker.locator('[part~="add-button"]').first().press('Enter');
      } else {
        await a.locator('checkout-form').getByRole('button', { name: /^Remove / }).first().click();
      }
      await b.waitForFunction((n) => (window as unknown as { stamps: { remote: unknown[] } }).stamps.remote.length > n, before);
      const local = await a.evaluate(() => (window as unknown as { stamps: { local: number[] } }).stamps.local.at(-1) ?? NaN);
      const remote = await b.evaluate(() => (window as unknown as { stamps: { remote: [string, number][] } }).stamps.remote.at(-1)?.[1] ?? NaN);
      latencies.push(remote - local);
    }
    await context.close();

    // ---- re-hold: 20 lapses, one click each, nobody else buying
    const timed = await browser.newContext();
    await timed.clock.install({ time: Date.now() + skew.ms });
    await timed.addInitScript({ content: RECORDER });
    const c = await timed.newPage();
    await c.goto(`${server.origin}/b`);
    const picker = c.locator('seat-picker');
    if (!(await chooseSeatPair(c, picker))) throw new Error('no seat pair');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    await c.locator('basket-timer [part~="time"]').first().waitFor();
    const hold = c.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' });
    let held = 0;
    for (let i = 0; i < RUNS; i++) {
      skew.ms += LAPSE_MS;
      await timed.clock.fastForward(LAPSE_MS);
      await hold.waitFor();
      await hold.click();
      const outcome = await Promise.race([
        c.locator('basket-timer[state="normal"]').waitFor().then(() => 'held'),
        c.locator('basket-timer #rehold-message').waitFor().then(() => 'not held'),
      ]);
      if (outcome === 'held') held++;
      else await c.locator('basket-timer').getByRole('button', { name: 'Start again' }).click();
    }
    await timed.close();

    const sorted = [...latencies].sort((x, y) => x - y);
    const ms = (n: number) => n.toFixed(1);
    return [
      {
        title: 'One basket across tabs: a change in one tab, shown in the other (built bundle, proxy + sandbox in process, headless Chromium)',
        columns: ['measure', 'runs', 'median', 'p90', 'worst'],
        rows: [
          ['A: change accepted → B: basket read again and shown (ms)', latencies.length, ms(percentile(sorted, 50)), ms(percentile(sorted, 90)), ms(sorted.at(-1) ?? NaN)],
          ['"Hold these seats again" held the same seats (nobody else buying)', RUNS, `${held}/${RUNS}`, '', ''],
        ],
        notes: [
          `Changes: ${RUNS / 2} adds and ${RUNS / 2} removes in turn; each tab is a page of one browser context. Load average at the end: ${loadavg()[0]?.toFixed(2)} on this machine.`,
        ],
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  }
}
