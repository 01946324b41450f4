/**
 * The flow in the page's address (issue 33), with the built bundle on a host page whose proxy and
 * sandbox run in this process (the sandbox on helpers/pinned-clock.ts), in Chromium and Firefox ESR
 * (puppeteer-core) and WebKitGTK (WebDriver), as a visitor: a show, its dates, a performance's seat
 * map (two seats added), the page reloaded at each step; Back three times to the list and Forward
 * once, the address, what shows and the focus checked at each, the basket untouched; the seat map's
 * address opened in a new browser with no storage; then the `history="off"` setting and a
 * cancelled `booking-navigate` leave the address and the history alone.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { root } from '../../scripts/build.mjs';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { firefoxLaunchOptions, missing } from '../../scripts/engines.mjs';
import { builtBundle, type Built } from './helpers/built-demo.ts';
import { FLOW_EVENT, hostPage } from './helpers/page-kinds.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';
import { addBestAvailable, chooseOpenPerformance, openFirstBookableDay, puppeteerDriver, Visitor, webkitDriver, type Driver } from './helpers/visitor.ts';

const ENGINES = [
  { engine: 'chromium' as const, label: 'Chromium', start: () => puppeteerDriver(chromiumLaunchOptions()) },
  { engine: 'firefox' as const, label: 'Firefox ESR', start: () => puppeteerDriver(firefoxLaunchOptions()) },
  { engine: 'webkit' as const, label: 'WebKitGTK', start: webkitDriver },
];

const SPA_ROUTER = "<script>document.addEventListener('booking-navigate', (e) => { e.preventDefault(); (window.routed ??= []).push(e.detail.url); });</script>";

const card = { within: 'event-list', css: '[part~="card-button"]', name: FLOW_EVENT };
const detail = { within: 'event-list', css: '[data-focus="detail"]', name: FLOW_EVENT };
const tickets = { within: 'checkout-form', css: 'li[part~="item"] [role="row"], li[part~="item"] tr' };
const noPerformance = { within: 'seat-picker', css: '[part~="empty"]', name: 'Choose a performance to see its seats.' };
const focusIn = (within: string, css = ':focus', name?: string | RegExp) => ({ within, css: `${css}:focus`, name });

/** The seat picker's performance, and the page's history length. */
const pickerPerformance = (v: Visitor) => v.driver.evaluate(() => (document.querySelector('seat-picker') as (Element & { currentPerformanceId: number | null }) | null)?.currentPerformanceId ?? null);
const historyLength = (v: Visitor) => v.driver.evaluate(() => history.length);

describe('the flow in the page address, in three engines', () => {
  let built: Built | undefined;
  let server: PageServer;

  before(async () => {
    mkdirSync(join(root, '.test-results'), { recursive: true });
    built = await builtBundle();
    const page = hostPage('full', '/cdn/stagedoor.js');
    server = await startSandboxSite({
      files: { '/cdn/': built.dist },
      pages: {
        '/tickets': page,
        '/off': page.replace('<booking-provider endpoint="/api">', '<booking-provider endpoint="/api" history="off">'),
        '/spa': hostPage('full', '/cdn/stagedoor.js', SPA_ROUTER),
      },
    });
  });
  after(async () => {
    await server?.close();
    built?.remove();
  });

  const chosen = process.env.STAGEDOOR_ENGINES?.split(',');
  for (const { engine, label, start } of ENGINES) {
    const skip = chosen && !chosen.includes(engine) ? `not in STAGEDOOR_ENGINES=${chosen.join(',')}` : false;
    it(`${label}: list → detail → dates → seat map with a reload at each, Back ×3, Forward; the address in a new browser; off and cancelled leave it alone`, { timeout: 300_000, skip }, async () => {
      assert.deepEqual(missing(engine), [], `${engine} cannot run here (.ci/run installs what it needs)`);
      const visit = async (name: string, walk: (v: Visitor) => Promise<void>): Promise<void> => {
        const driver: Driver = await start();
        const v = new Visitor(driver);
        try {
          await walk(v);
        } catch (error) {
          await driver.screenshot(join(root, '.test-results', `flow-history-${name}-${engine}.png`)).catch(() => undefined);
          throw error;
        } finally {
          await driver.close();
        }
      };
      const home = `${server.origin}/tickets?from=newsletter#whats-on`;
      let seatsUrl = '';
      let performanceId: number | null = null;

      await visit('walk', async (v) => {
        await v.driver.goto(home);
        // The list → the show's detail: its own entry, the host's parameter and hash kept; the focus on its name.
        await v.click(card);
        await v.waitForUrl(/\/tickets\?from=newsletter&stagedoor-event=\d+#whats-on$/);
        const showUrl = await v.driver.url();
        const eventId = /stagedoor-event=(\d+)/.exec(showUrl)?.[1];
        await v.waitFor(focusIn('event-list', '[data-focus="detail"]'));
        await v.driver.reload();
        await v.waitFor(detail);
        assert.equal(await v.driver.url(), showUrl, 'a reload keeps the show');

        // Its dates: a day opened.
        await openFirstBookableDay(v);
        await v.waitForUrl(new RegExp(`stagedoor-event=${eventId}-dates#whats-on$`));
        await v.driver.reload();
        await v.waitFor(detail);
        await v.waitFor({ within: 'performance-calendar', css: '[role="grid"]' });
        assert.match(await v.driver.url(), /-dates#whats-on$/, 'a reload keeps the dates');

        // A performance: its seat map; two seats added.
        await openFirstBookableDay(v);
        await chooseOpenPerformance(v);
        await v.waitForUrl(new RegExp(`stagedoor-event=${eventId}-\\d+#whats-on$`));
        seatsUrl = await v.driver.url();
        performanceId = Number(/-(\d+)#/.exec(seatsUrl)?.[1]);
        assert.equal(await pickerPerformance(v), performanceId);
        await addBestAvailable(v);
        await v.driver.reload();
        await v.waitFor({ within: 'seat-picker', css: 'input[type="radio"]', name: 'Best available' });
        assert.equal(await pickerPerformance(v), performanceId, 'a reload keeps the seat map');
        await v.waitFor(tickets);
        assert.equal(await v.count(tickets), 3, 'a header row and the two tickets');

        // Back: the dates (no seat map; the calendar has the focus), the detail (its name), the list (the card left).
        await v.driver.evaluate(() => history.back());
        await v.waitForUrl(new RegExp(`stagedoor-event=${eventId}-dates#whats-on$`));
        await v.waitFor(noPerformance);
        await v.waitFor(focusIn('performance-calendar'));
        await v.driver.evaluate(() => history.back());
        await v.waitForUrl(new RegExp(`stagedoor-event=${eventId}#whats-on$`));
        await v.waitFor(focusIn('event-list', '[data-focus="detail"]'));
        await v.driver.evaluate(() => history.back());
        await v.waitForUrl(/\/tickets\?from=newsletter#whats-on$/);
        await v.waitFor(focusIn('event-list', '[part~="card-button"]', FLOW_EVENT));
        // Forward: the detail again.
        await v.driver.evaluate(() => history.forward());
        await v.waitForUrl(new RegExp(`stagedoor-event=${eventId}#whats-on$`));
        await v.waitFor(focusIn('event-list', '[data-focus="detail"]'));
        assert.equal(await v.count(tickets), 3, 'the basket untouched by Back and Forward');
      });

      // The seat map's address, copied into a new browser (no storage): the same show and performance.
      await visit('shared', async (v) => {
        await v.driver.goto(seatsUrl);
        await v.waitFor(detail);
        await v.waitFor({ within: 'seat-picker', css: 'input[type="radio"]', name: 'Best available' });
        assert.equal(await pickerPerformance(v), performanceId, 'the shared address opens the same performance');
        assert.equal(await v.count(tickets), 0, 'a new visitor, an empty basket');

        // history="off": the show opens, the address and history stay as they were.
        await v.driver.goto(`${server.origin}/off?from=newsletter`);
        const [offUrl, offLength] = [await v.driver.url(), await historyLength(v)];
        await v.click(card);
        await v.waitFor(detail);
        await openFirstBookableDay(v);
        assert.equal(await v.driver.url(), offUrl, 'the setting off leaves the address alone');
        assert.equal(await historyLength(v), offLength, 'and the history');

        // A host that cancels booking-navigate routes itself: it is told where, the widget routes nothing.
        await v.driver.goto(`${server.origin}/spa`);
        const [spaUrl, spaLength] = [await v.driver.url(), await historyLength(v)];
        await v.click(card);
        await v.waitFor(detail);
        assert.equal(await v.driver.url(), spaUrl, 'a cancelled booking-navigate leaves the address alone');
        assert.equal(await historyLength(v), spaLength, 'and the history');
        const routed = await v.driver.evaluate(() => (window as unknown as { routed?: string[] }).routed ?? []);
        assert.equal(routed.length, 1);
        assert.match(routed[0] ?? '', /\/spa\?stagedoor-event=\d+$/, 'the host was told the address of the step');
      });
    });
  }
});
