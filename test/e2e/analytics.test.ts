/**
 * Bookings the theatre can count, end to end: the built bundle on a host page whose
 * <booking-provider analytics="ga4"> talks to the real proxy and sandbox. The page's
 * `dataLayer` is recorded in every tab of the visit (as a tag manager would read it):
 * a whole booking, the sandbox payment page's return, a reload of the confirmation and a
 * second tab. Each GA4 e-commerce event is found once (`view_item_list` too: the list shows once), `purchase` carries the booking
 * reference, and nothing the customer typed (name, e-mail, phone) is in any of them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { builtBundle, type Built } from './helpers/built-demo.ts';
import { chooseSeatPair, choosePerformance, fillCheckout } from './helpers/booking.ts';
import { launchChromium } from './helpers/browser.ts';
import { FLOW_EVENT, hostPage } from './helpers/page-kinds.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

const STEP = 30_000;
const PERSONAL = ['Ada', 'Lovelace', 'ada@example.com', '7946'];

describe('analytics: the dataLayer of a whole booking', () => {
  let outDir = '';
  let built: Built | undefined;
  let server: PageServer;
  let browser: Browser;

  before(async () => {
    built = await builtBundle();
    outDir = built.dist;
    const page = hostPage('full', '/cdn/stagedoor.js').replace('<booking-provider endpoint="/api">', '<booking-provider endpoint="/api" analytics="ga4">');
    assert.match(page, /analytics="ga4"/);
    server = await startSandboxSite({ files: { '/cdn/': outDir }, pages: { '/tickets': page } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    built?.remove();
  });

  it('finds each e-commerce event once through payment, a reload and a second tab, with no personal data', { timeout: 240_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const pushed: Record<string, unknown>[] = [];
    const errors: string[] = [];
    // Every push to any tab's dataLayer, as a tag manager sees it.
    await context.exposeBinding('recordDataLayer', (_source, json: string) => void pushed.push(JSON.parse(json) as Record<string, unknown>));
    await context.addInitScript(() => {
      const record = (window as unknown as { recordDataLayer: (json: string) => void }).recordDataLayer;
      const layer: unknown[] = [];
      layer.push = (...entries: unknown[]) => {
        for (const entry of entries) record(JSON.stringify(entry));
        return Array.prototype.push.apply(layer, entries);
      };
      (window as unknown as { dataLayer: unknown[] }).dataLayer = layer;
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP);
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${server.origin}/tickets`);
      await page.locator('event-list').getByRole('link', { name: FLOW_EVENT }).first().click();
      await choosePerformance(page.locator('performance-calendar'));
      const picker = page.locator('seat-picker');
      assert.ok(await chooseSeatPair(page, picker), 'two seats side by side the service accepts');
      await picker.locator('[part~="add-button"][aria-disabled="false"]').first().click();
      const form = page.locator('checkout-form');
      await form.getByRole('button', { name: /^Remove / }).first().waitFor();
      await fillCheckout(form);
      await form.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL(/\/sandbox\/pay\//);
      await page.getByRole('button', { name: /^Pay\b/ }).click();
      await page.waitForURL(/[?&]stagedoor=success/);
      const confirmed = page.getByRole('heading', { name: /your booking is confirmed/i }).first();
      await confirmed.waitFor({ timeout: 60_000 });
      const shown = (await page.getByText(/^Booking reference/).first().textContent()) ?? '';
      await page.waitForFunction(() => (window as unknown as { dataLayer: { event?: string }[] }).dataLayer.some((e) => e.event === 'purchase'));

      // The confirmation reloaded, and the same page open in a second tab.
      await page.reload();
      await confirmed.waitFor({ timeout: 60_000 });
      const second = await context.newPage();
      await second.goto(page.url());
      await second.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor({ timeout: 60_000 });
      // What the page could still push has been pushed once its booking confirmation is shown and its chunks are idle.
      await page.waitForLoadState('networkidle');
      await second.waitForLoadState('networkidle');

      const events = pushed.filter((e) => 'event' in e).map((e) => String(e.event));
      const counts = Object.fromEntries(events.map((name) => [name, events.filter((n) => n === name).length]));
      console.log(`dataLayer events: ${JSON.stringify(counts)}`);
      // The list showed once: the show opened from it, and every later page (the return, the reload, the second tab) opens at the show.
      for (const name of ['view_item_list', 'select_item', 'view_item', 'add_to_cart', 'begin_checkout', 'add_shipping_info', 'add_payment_info', 'purchase']) {
        assert.equal(counts[name], 1, `${name} once (all: ${events.join(', ')})`);
      }
      // Google's advice: clear the previous ecommerce object before each e-commerce event.
      pushed.forEach((entry, i) => {
        if ('event' in entry) assert.deepEqual(pushed[i - 1], { ecommerce: null }, `{ ecommerce: null } before ${String(entry.event)}`);
      });
      const list = pushed.find((e) => e.event === 'view_item_list')?.ecommerce as { item_list_id: string; items: { item_id: string; item_name: string; index: number }[] };
      assert.equal(list.item_list_id, 'events');
      assert.deepEqual(list.items.map((item) => item.index), list.items.map((_, i) => i), 'each show with its place in the list');
      assert.ok(list.items.some((item) => item.item_name === FLOW_EVENT), `${FLOW_EVENT} among the shows listed`);
      const purchase = pushed.find((e) => e.event === 'purchase')?.ecommerce as { transaction_id: string; value: number; currency: string; items: { price: number; quantity: number }[] };
      assert.ok(shown.includes(purchase.transaction_id), `purchase carries the booking reference shown (${shown})`);
      assert.equal(purchase.currency, 'GBP');
      assert.equal(purchase.items.reduce((n, item) => n + item.quantity, 0), 2, 'two tickets');
      assert.equal(purchase.value, Math.round(purchase.items.reduce((sum, item) => sum + item.price * item.quantity, 0) * 100) / 100);
      const all = JSON.stringify(pushed);
      for (const word of PERSONAL) assert.ok(!all.includes(word), `no "${word}" in the dataLayer`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
