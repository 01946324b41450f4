/**
 * The seat map under real touches on a 360 px phone (Chromium: touch events dispatched through the
 * DevTools protocol, which go through the browser's own gesture handling and scrolling, as a
 * finger's would), on the built demo theatre: before the visitor engages the map, a one-finger
 * vertical pan over it scrolls the page; a tap engages it, and then the same pan moves the map,
 * not the page; two fingers pinch the map at once, never the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { ManualClock } from '../../src/server/sandbox/index.ts';
import { choosePerformance } from './helpers/booking.ts';
import { launchChromium } from './helpers/browser.ts';
import { builtDemo } from './helpers/built-demo.ts';
import { FLOW_EVENT } from './helpers/page-kinds.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

const NOW = Date.UTC(2026, 10, 21, 10);
type Point = { x: number; y: number };

describe('the seat map under touch at 360 px (Chromium, the built demo)', () => {
  let demo: Awaited<ReturnType<typeof builtDemo>> | undefined;
  let site: PageServer | undefined;
  let browser: Browser;

  before(async () => {
    demo = await builtDemo();
    site = await startSandboxSite({ files: { '/': demo.dir }, pages: {}, sandbox: { clock: new ManualClock(NOW) } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    demo?.remove();
  });

  /** A phone on the demo, a performance chosen, its seat map in the middle of the screen. */
  async function phoneOnMap(): Promise<{ page: Page; cdp: CDPSession; map: Locator; centre: Point }> {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.clock.setFixedTime(NOW);
    await page.goto(`${site?.origin}/index.html`);
    await page.locator('event-list').locator('[part~="card-button"]', { hasText: FLOW_EVENT }).first().press('Enter');
    await choosePerformance(page.locator('performance-calendar'));
    const picker = page.locator('seat-picker');
    await picker.locator('[part~="seat-button"]').nth(1).waitFor();
    await picker.locator('[part~="zoom"]').waitFor();
    const map = picker.locator('[part~="map-viewport"]');
    assert.ok(((await map.boundingBox())?.height ?? 0) > 200, 'the map covers much of the screen');
    return { page, cdp: await context.newCDPSession(page), map, centre: await centred(map) };
  }

  /** Fingers down at `from`, moved by (dx, dy) in small steps, lifted. */
  async function pan(cdp: CDPSession, from: Point[], dx: number, dy: number, spread = 0): Promise<void> {
    const at = (step: number, steps: number) =>
      from.map((p, i) => ({ x: p.x + (dx * step) / steps + (i === 0 ? -1 : 1) * ((spread * step) / steps), y: p.y + (dy * step) / steps, id: i }));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0, 1) });
    const steps = 12;
    for (let s = 1; s <= steps; s += 1) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(s, steps) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  /** Put the map in the middle of the screen again; its centre on the screen. */
  async function centred(map: Locator): Promise<Point> {
    await map.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = await map.boundingBox();
    assert.ok(box, 'the map has a box');
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }

  const pageScroll = (page: Page) => page.evaluate(() => scrollY);
  const zoomText = (page: Page) => page.locator('seat-picker').locator('[part~="zoom"] span').innerText();

  it('one finger pans the page over the map until a tap engages it; then it pans the map', async () => {
    const { page, cdp, map, centre } = await phoneOnMap();
    const start = await pageScroll(page);
    await pan(cdp, [centre], 0, -180);
    await page.waitForFunction((y) => scrollY > y + 60, start);
    const fitted = await zoomText(page);

    // A tap on the map engages it (on seats smaller than a fingertip, it zooms in about the tap).
    const here = await centred(map);
    await pan(cdp, [here], 0, 0);
    await page.waitForFunction(
      (text) => document.querySelector('seat-picker')?.shadowRoot?.querySelector('[part~="zoom"] span')?.textContent !== text,
      fitted,
    );
    const engagedAt = await pageScroll(page);
    const mapTop = await map.evaluate((el) => el.scrollTop);
    await pan(cdp, [here], 0, -120);
    await page.waitForFunction((top) => (document.querySelector('seat-picker')?.shadowRoot?.querySelector('[part~="map-viewport"]')?.scrollTop ?? 0) > top + 40, mapTop);
    assert.equal(await pageScroll(page), engagedAt, 'the page stays where it was: the finger moved the map');
    await page.context().close();
  });

  it('two fingers on the map pinch it, and never scroll the page, before any tap', async () => {
    const { page, cdp, centre } = await phoneOnMap();
    const start = await pageScroll(page);
    const fitted = await zoomText(page);
    await pan(cdp, [{ x: centre.x - 30, y: centre.y }, { x: centre.x + 30, y: centre.y }], 0, -60, 60);
    await page.waitForFunction(
      (text) => document.querySelector('seat-picker')?.shadowRoot?.querySelector('[part~="zoom"] span')?.textContent !== text,
      fitted,
    );
    assert.ok(Number.parseInt(await zoomText(page), 10) > Number.parseInt(fitted, 10), 'the map zoomed in');
    assert.equal(await pageScroll(page), start, 'the page did not move');
    await page.context().close();
  });
});
