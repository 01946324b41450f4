/**
 * End to end, as a visitor: `npm start` (demo pages, proxy at /api, sandbox
 * in-process), headless Chromium, the demo theatre page. Choose an event, a
 * performance, two seats; check out; pay on the sandbox's payment page; land
 * back on the page with the booking reference and the e-ticket links.
 *
 * Locators are role-based (they pierce shadow DOM); the tags are the
 * product's fixed names.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { fillCheckout } from './helpers/booking.ts';
import { freePort } from './helpers/free-port.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FLOW_TAGS = ['event-list', 'performance-calendar', 'seat-picker', 'checkout-form'];
const START_TIMEOUT = 90_000;
const STEP = 30_000;

/** Start `npm start`'s command on a free port; resolve with the URL it prints. */
function startDemo(port: number): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/server/cli.ts', 'start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the whole tree stops with it
    });
    let output = '';
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`npm start printed no URL within ${START_TIMEOUT / 1000} s. Output:\n${output}`));
    }, START_TIMEOUT);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(https?:\/\/(?:127\.0\.0\.1|localhost):\d+\/\S*)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing a URL. Output:\n${output}`));
    });
  });
}

function stop(child: ChildProcess | undefined): void {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

describe('booking flow over npm start', () => {
  let demo: Awaited<ReturnType<typeof startDemo>> | undefined;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];

  before(async () => {
    demo = await startDemo(await freePort());
    browser = await chromium.launch(chromiumLaunchOptions());
  });

  after(async () => {
    await browser?.close();
    stop(demo?.child);
  });

  /** Run a step; on failure keep a screenshot in .test-results/ to see what the visitor saw. */
  async function visiting(name: string, page: Page, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      await page.screenshot({ path: join(ROOT, '.test-results', `e2e-${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  }

  /** How many booking-order-completed events this tab has seen, across reloads. */
  const completedEvents = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('e2e:completed') ?? 0));

  async function openDemo(): Promise<Page> {
    if (!browser || !demo) throw new Error('not started');
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(STEP);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('booking-order-completed', () => {
        sessionStorage.setItem('e2e:completed', String(Number(sessionStorage.getItem('e2e:completed') ?? 0) + 1));
      });
    });
    await page.goto(demo.url, { waitUntil: 'load' });
    // Say plainly what is missing, rather than time out on a locator.
    for (const tag of FLOW_TAGS) {
      const present = await page.evaluate((name) => Boolean(customElements.get(name) && document.querySelector(name)), tag);
      assert.ok(present, `the demo page ${demo.url} has a defined <${tag}>`);
    }
    return page;
  }

  /**
   * Event → performance → two seats → in the basket. Each test books a different
   * show: the proxy may serve availability cached for a few seconds, and seats
   * booked by the previous test would then be offered again (and refused, 409).
   */
  async function chooseTwoSeats(page: Page, show: string): Promise<void> {
    // 1. An event with a seating plan.
    await page.locator('event-list').getByRole('button', { name: show }).first().click();

    // 2. The first day with bookable performances, this month or one of the next two; then its first performance.
    const calendar = page.locator('performance-calendar');
    await calendar.getByRole('grid').waitFor();
    let chosen = false;
    for (let month = 0; month < 3 && !chosen; month += 1) {
      await calendar.locator('[aria-busy="false"]').first().waitFor();
      const day = calendar.getByRole('button', { name: /, (few tickets left|\d+ performances?), / }).first();
      if ((await day.count()) > 0) {
        await day.click();
        await calendar.getByRole('button', { name: /\b(Available|Few left)\b/, disabled: false }).first().click();
        chosen = true;
      } else {
        await calendar.getByRole('button', { name: 'Next month' }).click();
      }
    }
    assert.ok(chosen, 'a bookable performance in the next three months');

    // 3. Two seats: best available for two, then add them.
    const picker = page.locator('seat-picker');
    await picker.getByRole('radio', { name: 'Best available' }).check();
    await picker.getByRole('combobox', { name: 'How many tickets?' }).selectOption('2');
    // The offers in order; one the service refuses (taken meanwhile, or the single-seat rule) is followed by the next.
    const offers = picker.getByRole('button', { name: /^Add 2 for / });
    await offers.first().waitFor();
    const inBasket = page.locator('checkout-form').getByRole('button', { name: /^Remove / }).first();
    const refused = picker.getByRole('alert').first();
    const count = await offers.count();
    let added = false;
    for (let i = 0; i < count && !added; i += 1) {
      await offers.nth(i).click();
      added = await Promise.race([
        inBasket.waitFor().then(() => true),
        refused.waitFor().then(() => false),
      ]);
      if (!added) await refused.getByRole('button', { name: 'Dismiss' }).click();
    }
    assert.ok(added, `one of the ${count} best-available offers was added to the basket`);
    await page.locator('checkout-form').getByRole('button', { name: 'Continue to payment' }).waitFor();
  }

  async function checkOut(page: Page, show: string): Promise<void> {
    const form = page.locator('checkout-form');
    assert.equal(await form.getByRole('button', { name: /^Remove / }).count(), 1, 'one basket item');
    const item = form.getByRole('listitem', { name: show });
    assert.equal(await item.getByRole('row').count(), 3, 'a header row and two tickets');
    await fillCheckout(form);
    await form.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/sandbox\/pay\//);
  }

  it('event, performance, two seats, checkout, payment, confirmation with booking reference and e-tickets', { timeout: 240_000 }, async () => {
    const page = await openDemo();
    await visiting('pay', page, async () => {
    await chooseTwoSeats(page, 'Much Ado About Nothing');
    await checkOut(page, 'Much Ado About Nothing');

    // The sandbox's payment page: pay.
    await page.getByRole('button', { name: /^Pay\b/ }).click();
    await page.waitForURL(/[?&]stagedoor=success/);

    // Back on the theatre page: the booking and its e-tickets.
    const confirmation = page.getByRole('heading', { name: /your booking is confirmed/i });
    await confirmation.first().waitFor({ timeout: 60_000 });
    const reference = await page.getByText(/^Booking reference/).first().textContent();
    assert.match(reference ?? '', /Booking reference\s*\S{4,}/, 'a booking reference is shown');
    const pdfLinks = page.getByRole('link', { name: /^PDF ticket/ });
    await pdfLinks.first().waitFor({ timeout: 60_000 });
    assert.equal(await pdfLinks.count(), 2, 'a PDF link per ticket');
    assert.equal(await page.getByRole('link', { name: /^Apple Wallet/ }).count(), 2);
    assert.equal(await page.getByRole('link', { name: /^Google Wallet/ }).count(), 2);
    const href = await pdfLinks.first().getAttribute('href');
    assert.ok(href, 'the PDF link has an address');
    const download = await page.request.get(new URL(href, page.url()).href);
    assert.equal(download.status(), 200, 'the PDF e-ticket downloads');

    // Reloading the confirmation page: the same booking and e-tickets again, the order announced once.
    assert.equal(await completedEvents(page), 1, 'booking-order-completed fired once');
    await page.reload({ waitUntil: 'load' });
    await confirmation.first().waitFor({ timeout: 60_000 });
    assert.equal(await page.getByText(/^Booking reference/).first().textContent(), reference, 'the same booking reference after a reload');
    await pdfLinks.first().waitFor({ timeout: 60_000 });
    assert.equal(await pdfLinks.count(), 2, 'the e-tickets again');
    assert.equal(await completedEvents(page), 1, 'not announced a second time');
    assert.deepEqual(pageErrors, []);
    });
  });

  it('an order whose answer is lost on the way back still takes the customer to the payment page', { timeout: 240_000 }, async () => {
    const page = await openDemo();
    await visiting('lost-answer', page, async () => {
    await chooseTwoSeats(page, 'La Traviata');
    // The first SubmitOrder reaches the proxy and the service takes the order, but its answer
    // never reaches the browser (the connection drops). The widget sends it again.
    const orders: string[] = [];
    await page.route('**/SubmitOrder', async (route) => {
      if (orders.length === 0) {
        const answer = await route.fetch();
        orders.push(`taken ${answer.status()}`);
        await route.abort('connectionreset');
      } else {
        orders.push('sent again');
        await route.continue();
      }
    });
    await checkOut(page, 'La Traviata');
    assert.deepEqual(orders, ['taken 200', 'sent again']);
    await page.getByRole('button', { name: /^Pay\b/ }).waitFor();
    assert.deepEqual(pageErrors, []);
    });
  });

  it('a declined payment comes back to the basket, still held', { timeout: 240_000 }, async () => {
    const page = await openDemo();
    await visiting('decline', page, async () => {
    await chooseTwoSeats(page, "A Winter's Orchard");
    await checkOut(page, "A Winter's Orchard");
    await page.getByRole('button', { name: /^Decline\b/ }).click();
    await page.waitForURL(/[?&]stagedoor=failure/);
    await page.getByRole('heading', { name: 'Your payment did not go through' }).first().waitFor();
    await page.getByText('Your tickets are still in your basket').first().waitFor();
    const form = page.locator('checkout-form');
    await form.getByRole('button', { name: 'Continue to payment' }).waitFor();
    assert.equal(await form.getByRole('listitem', { name: "A Winter's Orchard" }).getByRole('row').count(), 3);
    assert.deepEqual(pageErrors, []);
    });
  });
});
