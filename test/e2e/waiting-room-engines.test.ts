/**
 * The waiting room as a visitor meets it, in Chromium, Firefox ESR and WebKitGTK (issue 32): the
 * built bundle on a bare page, a `<seat-picker>` for a performance the real proxy (a room in its
 * memory store) holds behind a room that opens seconds later, the sandbox behind it. The visitor
 * joins the pre-queue, sees the countdown to the on-sale, is admitted once it opens (and its rate
 * allows) and lands on the seat map of that performance, told so, the pass kept, the title back.
 * The proxy's clock is the real one (the room's `opensAt` is seconds ahead of it); the sandbox's
 * is the pinned one (helpers/pinned-clock.ts) as in every e2e site.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { firefoxLaunchOptions, missing } from '../../scripts/engines.mjs';
import { createApiClient } from '../../src/api/client.ts';
import { builtBundle, type Built } from './helpers/built-demo.ts';
import { puppeteerDriver, webkitDriver, type Driver } from './helpers/visitor.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

const ADMIN = 'e2e-room-admin-secret';
const TITLE = 'Hot show on sale';
/** How long after the room is opened its on-sale comes: time for a browser to start and join the pre-queue. */
const LEAD_MS = 15_000;

const ENGINES = [
  { engine: 'chromium' as const, start: () => puppeteerDriver(chromiumLaunchOptions()) },
  { engine: 'firefox' as const, start: () => puppeteerDriver(firefoxLaunchOptions()) },
  { engine: 'webkit' as const, start: webkitDriver },
];

/** In the page: what the seat picker shows, through its shadow root. */
function seen() {
  const picker = document.querySelector('seat-picker');
  const root = picker?.shadowRoot;
  const part = (name: string) => root?.querySelector(`[part~="${name}"]`) ?? null;
  return {
    status: part('queue')?.getAttribute('data-status') ?? null,
    countdown: part('queue-countdown')?.textContent?.trim() ?? null,
    seats: root?.querySelectorAll('.sizer button').length ?? 0,
    said: part('status')?.textContent?.trim() ?? '',
    title: document.title,
    pass: Object.keys(localStorage).some((k) => k.startsWith('stagedoor:pass:')),
    admitted: (window as unknown as { admitted?: unknown }).admitted ?? null,
  };
}
type Seen = ReturnType<typeof seen>;

async function until(driver: Driver, what: string, check: (s: Seen) => boolean, timeout = 30_000): Promise<Seen> {
  const end = Date.now() + timeout;
  let last: Seen | undefined;
  for (;;) {
    last = await driver.evaluate(seen);
    if (check(last)) return last;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeout / 1000} s (last seen ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the waiting room in three engines: pre-queue, countdown, admitted, the seat map', () => {
  let dist = '';
  let built: Built | undefined;
  let server: PageServer;
  let performanceId = 0;

  before(async () => {
    built = await builtBundle();
    dist = built.dist;
    const pages: Record<string, string> = {};
    server = await startSandboxSite({ files: { '/v1/': dist }, pages, rooms: { secret: 'e2e-room-secret-of-at-least-32-bytes!!', adminSecret: ADMIN } });
    const api = createApiClient({ endpoint: `${server.origin}/api` });
    const { Events } = await api.getEvents();
    const event = Events.find((e) => e.Name === 'The Lantern Keeper') ?? Events[0];
    assert.ok(event, 'the sandbox has events');
    const { Performances } = await api.getEventPerformances({ eventId: event.EventId });
    const performance = Performances.find((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 20);
    assert.ok(performance, 'a bookable performance');
    performanceId = performance.PerformanceId;
    pages['/'] =
      `<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${TITLE}</title>` +
      '<script type="module" src="/v1/stagedoor.js"></script></head><body>' +
      `<main><seat-picker performance-id="${performanceId}"></seat-picker></main>` +
      '<script>addEventListener("booking-queue-admitted", (e) => { window.admitted = e.detail; });</script></body></html>';
  });

  after(async () => {
    await server?.close();
    built?.remove();
  });

  /** Opens (or opens again) the room over the operator's endpoint, its on-sale `LEAD_MS` from now. */
  async function openRoom(id: string): Promise<void> {
    const config = {
      id, scope: { kind: 'performance', performanceId }, opensAt: new Date(Date.now() + LEAD_MS).toISOString(),
      ratePerMinute: 600, maxActive: null, passSeconds: 900, keepSeconds: 60, proofBits: 0, state: 'open',
    };
    const response = await fetch(`${server.origin}/stagedoor/rooms/${id}`, {
      method: 'PUT', headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(config),
    });
    assert.ok(response.ok, `the room opened: ${response.status} ${await response.text()}`);
  }

  /** Closes it (its places dropped), so the next engine's room is the only one on the performance. */
  async function closeRoom(id: string): Promise<void> {
    const response = await fetch(`${server.origin}/stagedoor/rooms/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${ADMIN}` } });
    assert.ok(response.ok, `the room closed: ${response.status}`);
  }

  for (const { engine, start } of ENGINES) {
    it(`${engine}: waits before the on-sale, counts down, is admitted and lands on the seat map`, { timeout: 120_000 }, async () => {
      assert.deepEqual(missing(engine), [], `${engine} cannot run here`);
      const driver = await start();
      try {
        // Opened once the browser runs: its start (seconds on a loaded machine) does not eat the lead.
        await openRoom(`on-sale-${engine}`);
        await driver.goto(`${server.origin}/`);
        const before = await until(driver, 'the countdown before the on-sale', (s) => s.status === 'before' && /^\d+:\d\d$/.test(s.countdown ?? ''));
        assert.equal(before.seats, 0, 'no seat before admission');
        assert.equal(before.title, `Waiting room – ${TITLE}`);
        assert.match(before.said, /The sale opens in/);
        const [m, s] = (before.countdown ?? '').split(':').map(Number);
        const left = (m ?? 0) * 60 + (s ?? 0);
        assert.ok(left > 0 && left <= LEAD_MS / 1000, `the countdown (${before.countdown}) is within the lead`);
        const admitted = await until(driver, 'the seat map after the on-sale', (x) => x.seats > 0, LEAD_MS + 45_000);
        assert.equal(admitted.status, null, 'the waiting view is gone');
        assert.equal(admitted.pass, true, 'the pass is kept');
        assert.equal(admitted.title, TITLE, 'the title is the page\'s own again');
        assert.match(admitted.said, /It is your turn: choose your seats\./);
        assert.deepEqual(Object.keys(admitted.admitted as object).sort(), ['expiresAt', 'room']);
      } finally {
        await driver.close();
        await closeRoom(`on-sale-${engine}`);
      }
    });
  }
});
