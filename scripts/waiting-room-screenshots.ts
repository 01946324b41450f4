// Screenshots of <seat-picker>'s waiting view for docs/waiting-room.md, as a visitor sees them:
// the built bundle on a bare page, the real proxy with a room (memory store) and the sandbox,
// in headless Chromium (playwright-core; /usr/bin/chromium or CHROME_PATH). English at 1280 px
// and German at 360 px, of the countdown before an on-sale and of the queue after it.
//
//   npx tsx scripts/waiting-room-screenshots.ts
//
// Nothing is staged in the page: the countdown is a room opening in ten minutes; the queue is a
// room that opened a minute ago with 3,000 visitors who joined first (plain HTTP joins), and the
// shot waits for the visitor's next poll, so the room has admitted some of them and the progress
// is real. Writes docs/screenshots/waiting-room-<lang>-<width>-<state>.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createApiClient } from '../src/api/client.ts';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import { buildBundle, root } from './build.mjs';

const ADMIN = 'screenshot-room-admin-secret';
const AHEAD = 3000;
const shots = [
  { lang: 'en', locale: 'en-GB', width: 1280, height: 760 },
  { lang: 'de', locale: 'de-DE', width: 360, height: 780 },
];

const dist = mkdtempSync(join(tmpdir(), 'stagedoor-room-shots-'));
await buildBundle({ outDir: dist, sourcemap: false });
const pages: Record<string, string> = {};
const server = await startSandboxSite({ files: { '/v1/': dist }, pages, rooms: { secret: 'screenshot-room-secret-of-32-bytes-or-more', adminSecret: ADMIN } });
let browser: Browser | undefined;
try {
  const api = createApiClient({ endpoint: `${server.origin}/api` });
  const { Events } = await api.getEvents();
  const event = Events.find((e) => e.Name === 'The Lantern Keeper') ?? Events[0];
  const performance = event && (await api.getEventPerformances({ eventId: event.EventId })).Performances.find((p) => p.DirectlyBookablePerformance);
  if (!event || !performance) throw new Error('the sandbox has no bookable performance');
  for (const { lang, locale } of shots) {
    pages[`/${lang}`] =
      `<!doctype html>\n<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<link rel="icon" href="data:,"><title>${event.Name}</title><script type="module" src="/v1/stagedoor.js"></script>` +
      '<style>body{font-family:system-ui,sans-serif;margin:0;padding:1rem;max-width:60rem}h1{font-size:1.5rem}</style></head><body>' +
      `<h1>${event.Name}</h1><seat-picker performance-id="${performance.PerformanceId}"></seat-picker></body></html>`;
  }
  const room = async (id: string, opensAt: number, method = 'PUT') => {
    const config = { id, scope: { kind: 'performance', performanceId: performance.PerformanceId }, opensAt: new Date(opensAt).toISOString(), ratePerMinute: 1200, maxActive: null, passSeconds: 900, keepSeconds: 120, proofBits: 0, state: 'open' };
    const response = await fetch(`${server.origin}/stagedoor/rooms/${id}`, { method, headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' }, body: method === 'PUT' ? JSON.stringify(config) : undefined });
    if (!response.ok) throw new Error(`room ${id}: ${response.status} ${await response.text()}`);
  };
  browser = await launchChromium();
  const shoot = async (state: string, ready: string, settle = 0) => {
    await Promise.all(shots.map(async ({ lang, width, height }) => {
      const page = await browser!.newPage({ viewport: { width, height } });
      await page.goto(`${server.origin}/${lang}`);
      await page.locator(`seat-picker [data-status="${ready}"]`).waitFor({ timeout: 20_000 });
      if (settle) await page.locator('seat-picker [part~="queue-progress"]').waitFor({ timeout: settle });
      await page.screenshot({ path: join(root, 'docs', 'screenshots', `waiting-room-${lang}-${width}-${state}.png`) });
      await page.close();
    }));
  };
  // Before the on-sale: ten minutes to go.
  await room('on-sale', Date.now() + 10 * 60_000);
  await shoot('countdown', 'before');
  await room('on-sale', 0, 'DELETE');
  // After it: 3,000 visitors ahead, admitted at the room's rate while the visitor waits.
  await room('queue', Date.now() - 60_000);
  for (let i = 0; i < AHEAD; i += 100) {
    await Promise.all(Array.from({ length: 100 }, (_, j) =>
      fetch(`${server.origin}/api/stagedoor/room/queue`, { method: 'POST', headers: { 'Stagedoor-Queue-Id': `ahead-${i + j}`, 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.text())));
  }
  await shoot('waiting', 'waiting', 90_000);
} finally {
  await browser?.close();
  await server.close();
  rmSync(dist, { recursive: true, force: true });
}
