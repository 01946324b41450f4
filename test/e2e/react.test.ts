/**
 * The React example (examples/react/: React 19, React Router, Vite), built
 * with `vite build` and served by `vite preview` with its own proxy and
 * sandbox (as `npm run example:react` runs it), in headless Chromium:
 *
 * - a visitor books two seats through it, from what's on to the payment page
 *   and back, while the app's router follows every step taken in the
 *   elements (`booking-navigate`, cancelled → the router's URL, one history
 *   entry per step, nothing of the widget's own in it) and the app shows what its
 *   typed `booking-*` handlers heard (tickets in the basket, the booking
 *   reference);
 * - the elements follow the router: Back and Forward, and a shared link to a
 *   performance, show what the URL names.
 *
 * That the JSX typing rejects wrong props is proved against the built package
 * in package.test.ts; that the example type-checks is part of `npm test`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { PreviewServer } from 'vite';
import { root } from '../../scripts/build.mjs';
import { reactTypes } from '../../scripts/hosts.mjs';
import { chooseSeatPair, choosePerformance, fillCheckout } from './helpers/booking.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';

const example = join(root, 'examples', 'react');
const SHOW = 'The Lantern Keeper';
const STEP = 30_000;

describe('the React example', { timeout: 240_000 }, () => {
  const outDir = mkdtempSync(join(tmpdir(), 'stagedoor-react-'));
  let server: PreviewServer;
  let origin = '';
  let browser: Browser;
  /** Where the visitor's booking went: reused by the deep-link test. */
  const booked: { eventId?: string; performanceId?: string } = {};

  before(async () => {
    const { build, preview } = await import('vite');
    const configFile = join(example, 'vite.config.ts');
    await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    server = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const url = server.resolvedUrls?.local[0];
    assert.ok(url, 'vite preview is listening');
    origin = new URL(url).origin;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  async function visiting(name: string, run: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
    const { page, errors } = await watchedPage(browser);
    page.setDefaultTimeout(STEP);
    try {
      await run(page, errors);
    } catch (error) {
      await page.screenshot({ path: join(root, '.test-results', `react-${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  }

  it('has the JSX typing the manifest describes (src/react.ts; run `npm run build` after changing an element)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
    assert.equal(readFileSync(join(root, 'src', 'react.ts'), 'utf8'), reactTypes(manifest));
  });

  it('books two seats from what is on to payment and back, the URL following each choice', async () => {
    await visiting('booking', async (page, errors) => {
      await page.goto(`${origin}/`);
      const entries = await page.evaluate(() => history.length);
      await page.locator('event-list').getByRole('link', { name: SHOW }).first().click();
      await page.waitForURL(/\/events\/\d+$/);
      booked.eventId = /\/events\/(\d+)$/.exec(page.url())?.[1];

      await choosePerformance(page.locator('performance-calendar'));
      await page.waitForURL(/\/events\/\d+\/performances\/\d+$/);
      booked.performanceId = /\/performances\/(\d+)$/.exec(page.url())?.[1];
      // The router made one entry per step (the show, the seats); the widget none (a day opened is no route).
      assert.equal(await page.evaluate(() => history.length), entries + 2);
      const picker = page.locator('seat-picker');
      assert.equal(await picker.evaluate((el) => (el as HTMLElement & { performanceId: number | null }).performanceId), Number(booked.performanceId), 'the route parameter is the picker\'s property');

      assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
      await picker.locator('[part~="add-button"]').first().press('Enter');
      // What the app's own typed handlers made of the events: the element's, and the provider's (bubbled).
      await page.getByRole('status').getByText('2 tickets added.').waitFor();
      await page.getByRole('banner').getByRole('link', { name: 'Basket (2)' }).waitFor();
      await page.getByRole('banner').locator('basket-timer [part~="time"]').first().waitFor();

      // Back: the dates again, no picker; Forward: the same seats, now held.
      await page.goBack();
      await page.waitForURL(/\/events\/\d+$/);
      await page.locator('performance-calendar').getByRole('grid').waitFor();
      assert.equal(await page.locator('seat-picker').count(), 0);
      await page.goForward();
      await page.waitForURL(/\/performances\/\d+$/);
      await page.waitForFunction(() => document.querySelector('seat-picker')?.shadowRoot?.querySelectorAll('[part~="seat-button"][part~="in-basket"]').length === 2);

      await page.getByRole('banner').getByRole('link', { name: 'Basket (2)' }).click();
      await page.waitForURL(/\/checkout$/);
      const checkout = page.locator('checkout-form');
      const item = checkout.getByRole('listitem', { name: SHOW });
      // The basket's items are a part the checkout loads when it first has a basket: wait for them to show.
      await item.getByRole('row').nth(2).waitFor();
      assert.equal(await item.getByRole('row').count(), 3, 'a header row and two tickets');
      await fillCheckout(checkout);
      await checkout.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL(/\/sandbox\/pay\//);
      await page.getByRole('button', { name: /^Pay\b/ }).click();

      // The provider's success-url: the app's /booked route, whose confirmation tells the app the reference.
      await page.waitForURL((url) => url.pathname === '/booked');
      const thanks = page.getByText(/^Thank you! Keep your booking reference: \S{4,}$/);
      await thanks.waitFor({ timeout: 60_000 });
      const reference = /reference: (\S+)$/.exec((await thanks.textContent()) ?? '')?.[1];
      assert.match((await page.locator('booking-confirmation').getByText(/^Booking reference/).first().textContent()) ?? '', new RegExp(`${reference}`));
      await page.getByRole('banner').getByRole('link', { name: 'Basket', exact: true }).waitFor();
      assert.deepEqual(errors, []);
    });
  });

  it('shows what a shared link names, and says so when it names nothing', async () => {
    assert.ok(booked.eventId && booked.performanceId, 'the booking test found a performance');
    await visiting('deep-link', async (page, errors) => {
      await page.goto(`${origin}/events/${booked.eventId}/performances/${booked.performanceId}`);
      const picker = page.locator('seat-picker');
      await picker.locator('[part~="seat-button"]').first().waitFor();
      assert.equal(await picker.evaluate((el) => (el as HTMLElement & { performanceId: number | null }).performanceId), Number(booked.performanceId));
      await page.getByRole('link', { name: '← Other dates' }).click();
      await page.waitForURL(new RegExp(`/events/${booked.eventId}$`));
      assert.equal(await page.locator('performance-calendar').evaluate((el) => (el as HTMLElement & { eventId: number | null }).eventId), Number(booked.eventId));
      await page.goto(`${origin}/events/not-a-show`);
      await page.getByText('There is no such page.').waitFor();
      assert.deepEqual(errors, []);
    });
  });
});
