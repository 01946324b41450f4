/**
 * Booking by keyboard alone costs at most three times the clicks the same booking costs by mouse:
 * the built demo theatre (dist/demo, as `stagedoor serve` ships it) on the sandbox-backed proxy,
 * in Chromium at 1280 px, from the list of shows to the order's payment page
 * (test/e2e/helpers/walk.ts: what is counted, and how the visitor walks). The counts are keys and
 * clicks, not times: the sandbox's clock and the page's are fixed, so the catalogue, the calendar's
 * month and the seats offered are the same on every run, and so are the counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { ManualClock } from '../../src/server/sandbox/index.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import { builtDemo } from './helpers/built-demo.ts';
import type { PageServer } from './helpers/page-server.ts';
import { FLOW_EVENT } from './helpers/page-kinds.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';
import { ClickWalk, KeyWalk, pairChecked, type Tally } from './helpers/walk.ts';

const NOW = Date.UTC(2026, 10, 21, 10);
const RATIO = 3;
const CUSTOMER: [RegExp | string, string][] = [
  ['First name', 'Ada'],
  ['Last name', 'Lovelace'],
  ['E-mail address', 'ada@example.com'],
  [/^Phone/, '+44 20 7946 0000'],
];

const card = (page: Page) => page.locator('event-list').locator('[part~="card-button"]', { hasText: FLOW_EVENT });
const bookableDay = ':is([part~="day-button"])[part~="has-performances"]:not([aria-disabled="true"])';
const bookablePerformance = '[part~="performance-button"]:not([part~="sold-out"]):not([disabled])';
const seatButtons = (page: Page) => page.locator('seat-picker').locator('[part~="seat-button"]:not([part~="in-basket"])');
const addButton = (page: Page) => page.locator('seat-picker').locator('[part~="summary"] [part~="add-button"][aria-disabled="false"]');
const checkout = (page: Page) => page.locator('checkout-form');
const notices = (page: Page) => checkout(page).getByRole('group', { name: 'Before you book' }).getByRole('checkbox');
const pay = (page: Page) => checkout(page).getByRole('button', { name: 'Continue to payment' });
const inBasket = (page: Page) => checkout(page).getByRole('button', { name: /^Remove / }).first();

/**
 * The checkout's notices ticked and the customer's details typed (typing is not counted), each
 * control reached by `reach` (Tab to it, or a click on it); `tick`: what ticks a reached box.
 */
async function details(page: Page, reach: (target: Locator) => Promise<void>, tick: () => Promise<void>): Promise<void> {
  // The notices come with the checkout's data: counted before they show (a loaded machine), none
  // was ticked and the payment page refused the order (the demo's checkout always has one).
  await notices(page).first().waitFor();
  for (let i = 0; i < (await notices(page).count()); i += 1) {
    await reach(notices(page).nth(i));
    await tick();
  }
  for (const [name, text] of CUSTOMER) {
    await reach(checkout(page).getByRole('textbox', { name }));
    await page.keyboard.type(text);
  }
}

/**
 * The payment page (the sandbox's, on the same origin): reached when the page leaves the demo. When it
 * is not, the failure names what the checkout says instead (its alert, its message), not only a time-out.
 */
async function onPayment(page: Page): Promise<void> {
  try {
    await page.waitForURL((url) => !url.pathname.endsWith('/index.html') && url.pathname !== '/');
  } catch (error) {
    const said = await checkout(page).locator('[role="alert"], [part~="message"]').allInnerTexts().catch(() => []);
    throw new Error(`the payment page was not reached (at ${page.url()}); the checkout says: ${JSON.stringify(said)}`, { cause: error });
  }
}

describe('booking by keyboard alone against by mouse (the demo theatre, built)', () => {
  let demo: Awaited<ReturnType<typeof builtDemo>> | undefined;
  const sites: PageServer[] = [];
  let browser: Browser;

  before(async () => {
    demo = await builtDemo();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    for (const site of sites) await site.close();
    demo?.remove();
  });

  /** The demo on a sandbox of its own (a walk's seats are not in the other's way), both clocks fixed. */
  async function open(): Promise<{ page: Page; errors: string[] }> {
    if (!demo) throw new Error('no demo built');
    const site = await startSandboxSite({ files: { '/': demo.dir }, pages: {}, sandbox: { clock: new ManualClock(NOW) } });
    sites.push(site);
    const { page, errors } = await watchedPage(browser);
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.clock.setFixedTime(NOW);
    await page.goto(`${site.origin}/index.html`);
    await card(page).first().waitFor();
    return { page, errors };
  }

  const report = (name: string, tally: Tally) =>
    `${name}: ${tally.count} (${tally.steps.map(([step, n]) => `${step} ${n}`).join(', ')})`;

  let chosen: number[] = [];
  let keys: Tally | undefined;
  let clicks: Tally | undefined;

  it('by keyboard alone: from the list of shows to the payment page', async () => {
    const { page, errors } = await open();
    const walk = new KeyWalk(page);
    // The page's skip link, when it leads to the shows (a visitor takes it: it is the first Tab).
    const skipLink = page.locator('a.skip');
    const skipsToList = await skipLink.evaluateAll((links) => links.some((a) => document.querySelector((a as HTMLAnchorElement).hash || 'none')?.querySelector('event-list')));
    if (skipsToList) {
      await walk.tabTo(skipLink);
      await walk.press('Enter');
    }
    await walk.tabTo(card(page));
    await walk.press('Enter');
    walk.done('show');

    // The show's detail: a skip to its dates when it offers one (a visitor takes it), else Tab on.
    await page.locator('event-list').locator('[part~="detail"]:not([part~="loading"]) [part~="heading"]').first().waitFor();
    const skip = page.locator('event-list').locator('[part~="dates-button"]');
    if (await skip.count()) {
      await walk.tabTo(skip);
      await walk.press('Enter');
    }
    const calendar = page.locator('performance-calendar');
    await walk.tabTo(calendar.locator(`${bookableDay}, [part~="day-button"][tabindex="0"], ${bookablePerformance}`));
    if (!(await calendar.locator(bookablePerformance).filter({ visible: true }).count())) {
      await walk.pressUntil('ArrowRight', bookableDay);
      await walk.press('Enter');
      await walk.tabTo(calendar.locator(bookablePerformance));
    }
    await walk.press('Enter');
    walk.done('performance');

    await walk.tabTo(seatButtons(page));
    // Seat by seat from where the map's focus starts: a pair the service refuses is let go.
    const focusedSeat = () => page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return Number((active as HTMLElement | null)?.dataset.seat);
    });
    for (let tries = 0; ; tries += 1) {
      assert.ok(tries < 30, 'a pair of seats the service accepts');
      const first = await focusedSeat();
      await walk.press('Enter');
      const checked = page.waitForResponse(pairChecked);
      await walk.press('ArrowRight');
      await walk.press('Enter');
      const answer = (await (await checked).json()) as { SelectionValid: boolean };
      if (answer.SelectionValid) {
        chosen = [first, await focusedSeat()];
        break;
      }
      await walk.press('Enter');
      await walk.press('ArrowLeft');
      await walk.press('Enter');
      await walk.press('ArrowRight');
    }
    walk.done('two seats');
    await walk.tabTo(addButton(page));
    await walk.press('Enter');
    await inBasket(page).waitFor();
    walk.done('add');

    await details(page, (target) => walk.tabTo(target), () => walk.press('Space'));
    walk.done('details');
    await walk.tabTo(pay(page));
    await walk.press('Enter');
    await onPayment(page);
    walk.done('pay');
    keys = walk.tally;
    console.log(report('keys', keys));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('by mouse: the same booking, the same seats', async () => {
    assert.equal(chosen.length, 2, 'the keyboard walk found the seats');
    const { page, errors } = await open();
    const walk = new ClickWalk(page);
    await walk.click(card(page));
    walk.done('show');
    const calendar = page.locator('performance-calendar');
    await calendar.locator(`${bookableDay}, ${bookablePerformance}`).filter({ visible: true }).first().waitFor();
    if (!(await calendar.locator(bookablePerformance).filter({ visible: true }).count())) await walk.click(calendar.locator(bookableDay));
    await walk.click(calendar.locator(bookablePerformance).filter({ visible: true }));
    walk.done('performance');
    const seat = (index: number): Locator => page.locator('seat-picker').locator(`[part~="seat-button"][data-seat="${index}"]`);
    await seatButtons(page).nth(1).waitFor();
    const checked = page.waitForResponse(pairChecked);
    for (const index of chosen) await walk.click(seat(index));
    assert.equal(((await (await checked).json()) as { SelectionValid: boolean }).SelectionValid, true);
    walk.done('two seats');
    await walk.click(addButton(page));
    await inBasket(page).waitFor();
    walk.done('add');
    await details(page, (target) => walk.click(target), async () => undefined);
    walk.done('details');
    await walk.click(pay(page));
    await onPayment(page);
    walk.done('pay');
    clicks = walk.tally;
    console.log(report('clicks', clicks));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it(`keys are at most ${RATIO}× the clicks`, () => {
    assert.ok(keys && clicks, 'both walks ran');
    const ratio = keys.count / clicks.count;
    console.log(`ratio: ${keys.count} / ${clicks.count} = ${ratio.toFixed(2)}`);
    assert.ok(ratio <= RATIO, `${report('keys', keys)}; ${report('clicks', clicks)}: ${ratio.toFixed(2)}× > ${RATIO}×`);
  });
});
