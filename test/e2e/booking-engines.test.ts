/**
 * The booking over `npm start`, as a visitor, in the two engines besides Chromium
 * (booking-flow.test.ts covers Chromium through Playwright, which cannot drive Debian's Firefox
 * or WebKit): Firefox ESR through puppeteer-core over WebDriver BiDi, and WebKitGTK's MiniBrowser
 * through WebKitWebDriver (webdriverio, WebDriver classic) under an Xvfb the test starts. Paying
 * again after a declined payment is walked in those two and in Chromium (puppeteer-core).
 *
 * Elements are found in the page through every shadow root by their accessible name, scrolled to
 * the middle of the view, and clicked by the driver's real pointer at their position; text is
 * typed key by key (WebKit drops characters of a fast string).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { firefoxLaunchOptions, missing } from '../../scripts/engines.mjs';
import { DEMO_FLOW_TAGS, startDemo, stop } from './helpers/demo-server.ts';
import { freePort } from './helpers/free-port.ts';
import { addBestAvailable, chooseFirstPerformance, puppeteerDriver, Visitor, webkitDriver, type Driver } from './helpers/visitor.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Steps 1 to 4 of a booking on the demo: a show, a performance, two best-available seats, the checkout filled in, on to payment. */
async function toPayment(v: Visitor): Promise<void> {
  const show = 'Much Ado About Nothing';
  // 1. The show.
  await v.click({ within: 'event-list', css: '[part~="card-button"]', name: new RegExp(show) });
  // 2. The first bookable performance; 3. best available for two.
  await chooseFirstPerformance(v);
  await addBestAvailable(v);
  // 4. Checkout.
  const form = 'checkout-form';
  await v.fill({ within: form, css: 'input', name: 'First name' }, 'Ada');
  const notices = await v.count({ within: form, css: 'fieldset input[type="checkbox"]:not(:checked)' });
  for (let i = 0; i < notices; i += 1) await v.click({ within: form, css: 'fieldset input[type="checkbox"]:not(:checked)' });
  await v.fill({ within: form, css: 'input', name: 'Last name' }, 'Lovelace');
  await v.fill({ within: form, css: 'input', name: 'E-mail address' }, 'ada@example.com');
  await v.fill({ within: form, css: 'input', name: /^Phone/ }, '+44 20 7946 0000');
  assert.equal(await v.count({ within: form, css: 'li[part~="item"] [role="row"], li[part~="item"] tr' }), 3, 'a header row and two tickets');
  await v.click({ within: form, css: 'button', name: 'Continue to payment' });
  await v.waitForUrl(/\/sandbox\/pay\//);
}

const ENGINES = [
  { engine: 'firefox' as const, label: 'Firefox ESR (WebDriver BiDi)', start: () => puppeteerDriver(firefoxLaunchOptions()) },
  { engine: 'webkit' as const, label: 'WebKitGTK MiniBrowser (WebDriver)', start: webkitDriver },
];
/** Chromium too, for the walks booking-flow.test.ts (Playwright) does not take. */
const CHROMIUM = { engine: 'chromium' as const, label: 'Chromium', start: () => puppeteerDriver(chromiumLaunchOptions()) };

/** A visitor in a new browser of `engine` on the demo's page, every element of the flow defined; what they saw kept when `walk` fails. */
async function onDemo(demoUrl: string, { engine, start }: { engine: Parameters<typeof missing>[0]; start: () => Promise<Driver> }, name: string, walk: (v: Visitor) => Promise<void>): Promise<void> {
  const lacking = missing(engine);
  assert.deepEqual(lacking, [], `${engine} cannot run here: install ${lacking.join(', ')} (.ci/run installs them)`);
  const driver = await start();
  const v = new Visitor(driver);
  try {
    await driver.goto(demoUrl);
    for (const tag of DEMO_FLOW_TAGS) {
      await v.until(`a defined <${tag}> on ${demoUrl}`, () => driver.evaluate((name: string) => Boolean(customElements.get(name) && document.querySelector(name)), tag));
    }
    await walk(v);
  } catch (error) {
    // What the visitor saw, kept in .test-results/.
    await driver.screenshot(join(ROOT, '.test-results', `e2e-${name}-${engine}.png`)).catch(() => undefined);
    throw error;
  } finally {
    await driver.close();
  }
}

const CONFIRMED = { css: 'h1, h2, h3, [role="heading"]', name: /your booking is confirmed/i };
const REFERENCE = { css: '*', name: /^Booking reference\s*\S{4,}$/ };

/** Step 5: pay on the sandbox's payment page; back to the confirmation, its booking reference. */
async function payAndConfirm(v: Visitor): Promise<string> {
  await v.click({ css: 'button', name: /^Pay\b/ });
  await v.waitForUrl(/[?&]stagedoor=success/);
  await v.waitFor(CONFIRMED, 60_000);
  return v.text(REFERENCE);
}

describe('booking flow in Firefox and WebKit (and paying again after a decline in Chromium too) over npm start', () => {
  let demo: Awaited<ReturnType<typeof startDemo>> | undefined;
  before(async () => {
    mkdirSync(join(ROOT, '.test-results'), { recursive: true });
    demo = await startDemo(await freePort());
  });
  after(() => stop(demo?.child));

  // STAGEDOOR_ENGINES=webkit (as for `npm test`): only the engines named.
  const chosen = process.env.STAGEDOOR_ENGINES?.split(',');
  for (const browser of ENGINES) {
    const { engine, label } = browser;
    const skip = chosen && !chosen.includes(engine) ? `not in STAGEDOOR_ENGINES=${chosen.join(',')}` : false;
    it(`${label}: event, performance, two best-available seats, checkout, payment, confirmation with booking reference and e-tickets, the same after a reload`, { timeout: 240_000, skip }, async () => {
      if (!demo) throw new Error('npm start did not start');
      await onDemo(demo.url, browser, 'booking', async (v) => {
        await toPayment(v);
        const reference = await payAndConfirm(v);
        const pdf = { css: 'a', name: /^PDF ticket/ };
        await v.waitFor(pdf, 60_000);
        assert.equal(await v.count(pdf), 2, 'a PDF link per ticket');
        assert.equal(await v.count({ css: 'a', name: /^Apple Wallet/ }), 2);
        assert.equal(await v.count({ css: 'a', name: /^Google Wallet/ }), 2);
        const href = await v.href(pdf);
        assert.equal(await v.driver.evaluate(async (url: string) => (await fetch(url)).status, href), 200, 'the PDF e-ticket downloads');
        // 6. Reload: the same booking.
        await v.driver.goto(await v.driver.url());
        await v.waitFor(CONFIRMED, 60_000);
        assert.equal(await v.text(REFERENCE), reference, 'the same booking reference after a reload');
        await v.waitFor(pdf, 60_000);
        assert.equal(await v.count(pdf), 2, 'the e-tickets again');
      });
    });
  }

  // Paying again after a declined payment, in all three engines.
  for (const browser of [CHROMIUM, ...ENGINES]) {
    const { engine, label } = browser;
    const skip = chosen && !chosen.includes(engine) ? `not in STAGEDOOR_ENGINES=${chosen.join(',')}` : false;
    it(`${label}: a declined payment, back to the basket with both seats, continue to payment again, pay, confirmation`, { timeout: 240_000, skip }, async () => {
      if (!demo) throw new Error('npm start did not start');
      await onDemo(demo.url, browser, 'decline', async (v) => {
        await toPayment(v);
        await v.click({ css: 'button', name: /^Decline\b/ });
        await v.waitForUrl(/[?&]stagedoor=failure/);
        await v.waitFor({ css: '*', name: /^Your payment did not go through/ }, 60_000);
        await v.click({ within: 'booking-confirmation', css: 'button', name: 'Go to your basket' });
        const form = 'checkout-form';
        await v.waitFor({ within: form, css: 'li[part~="item"]' });
        assert.equal(await v.count({ within: form, css: 'li[part~="item"] [role="row"], li[part~="item"] tr' }), 3, 'both seats are still in the basket');
        assert.equal(await v.count({ within: form, css: '[part~="hold"]', name: /^Seats held for \d+:\d\d/ }), 1, 'the seats are held');
        await v.click({ within: form, css: 'button', name: 'Continue to payment' });
        await v.waitForUrl(/\/sandbox\/pay\//);
        assert.match(await payAndConfirm(v), /^Booking reference\s*\S{4,}$/);
      });
    });
  }
});
