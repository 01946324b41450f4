/**
 * End to end, as a visitor: `npm start` (demo pages, proxy at /api, sandbox
 * in-process), headless Chromium, the demo theatre page. Choose an event, a
 * performance, two seats; check out; pay on the sandbox's payment page; land
 * back on the page with the booking reference and the e-ticket links.
 *
 * Locators are role-based (they pierce shadow DOM); the tags are the
 * product's fixed names.
 */
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';
import { fillCheckout } from './helpers/booking.ts';
import { DEMO_FLOW_TAGS, startDemo, stop } from './helpers/demo-server.ts';
import { freePort } from './helpers/free-port.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STEP = 30_000;

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
    for (const tag of DEMO_FLOW_TAGS) {
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
    await page.locator('event-list').getByRole('link', { name: show }).first().click();

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

  it('books the whole flow with the keyboard alone; focus is never dropped and is where the next step is after every action', { timeout: 240_000 }, async () => {
    const page = await openDemo();
    await visiting('keyboard', page, async () => {
      let keystrokes = 0;
      /** The focused element, through shadow roots: its host chain, part, text and state. */
      const focus = () =>
        page.evaluate(() => {
          let active = document.activeElement;
          const hosts: string[] = [];
          while (active?.shadowRoot?.activeElement) {
            hosts.push(active.tagName.toLowerCase());
            active = active.shadowRoot.activeElement;
          }
          const el = active as HTMLElement | null;
          return {
            body: !el || el === document.body || el === document.documentElement,
            host: hosts[hosts.length - 1] ?? '',
            tag: el?.tagName.toLowerCase() ?? '',
            part: el?.getAttribute('part') ?? '',
            name: el?.getAttribute('name') ?? '',
            id: el?.id ?? '',
            text: (el?.getAttribute('aria-label') || el?.textContent || '').replace(/\s+/g, ' ').trim(),
            pressed: el?.getAttribute('aria-pressed') ?? null,
            disabled: el?.getAttribute('aria-disabled') === 'true',
          };
        });
      type Focus = Awaited<ReturnType<typeof focus>>;
      /** One key; focus must not fall to the page after it. */
      const trail: string[] = [];
      const press = async (key: string): Promise<Focus> => {
        await page.keyboard.press(key);
        keystrokes += 1;
        const now = await focus();
        trail.push(`${key} → ${now.host} ${now.tag}[${now.part}] ${now.text.slice(0, 40)}`);
        assert.equal(now.body, false, `after ${key} (keystroke ${keystrokes}) focus fell to the page's body; before it:\n${trail.slice(-6).join('\n')}`);
        return now;
      };
      const type = async (text: string) => {
        await page.keyboard.type(text);
        keystrokes += text.length;
      };
      /** Tab forward until the focused element is the one wanted (at most `max` Tabs). */
      const tabTo = async (what: string, wanted: (f: Focus) => boolean, max = 60): Promise<Focus> => {
        for (let i = 0; i < max; i += 1) {
          const now = await press('Tab');
          if (wanted(now)) return now;
        }
        throw new Error(`${what}: not reached in ${max} Tabs`);
      };
      /** Wait until the focus is where the next step is. */
      const focusBecomes = async (what: string, wanted: (f: Focus) => boolean): Promise<Focus> => {
        for (let i = 0; i < 100; i += 1) {
          const now = await focus();
          assert.equal(now.body, false, `${what}: focus fell to the page's body`);
          if (wanted(now)) return now;
          await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => resolve(true))));
        }
        throw new Error(`${what}: focus is at ${JSON.stringify(await focus())}`);
      };

      // 1. The show: its card, then Enter opens its detail with the focus on its title.
      await tabTo('the show', (f) => f.host === 'event-list' && f.part.includes('card-button') && f.text.includes('The Lantern Keeper'));
      await press('Enter');
      await focusBecomes('the show opened', (f) => f.host === 'event-list' && f.id === 'detail-title');

      // 2. A date: the calendar's day (one tab stop), Enter, then its first performance, Enter.
      const day = (f: Focus) => f.host === 'performance-calendar' && f.part.split(' ').includes('day-button') && f.part.includes('has-performances');
      // The grid of days is one tab stop; arrows walk the days (into the next months) to a bookable one.
      let reached = await tabTo('the calendar\'s days', (f) => f.host === 'performance-calendar' && f.part.split(' ').includes('day-button'));
      for (let step = 0; step < 90 && !day(reached); step += 1) reached = await press('ArrowRight');
      assert.ok(day(reached), 'a day with performances in the next three months');
      await press('Enter');
      await focusBecomes('the day opened', (f) => f.host === 'performance-calendar' && f.part.includes('performance-button'));
      await press('Enter');
      // The customer waits for the seats to show (as they would see them load).
      await page.locator('seat-picker').locator('[part~="seat-button"]').first().waitFor();

      // 3. Seats: a performance chosen by key hands the map (one tab stop) the focus; then two neighbours the service accepts.
      const seat = (f: Focus) => f.host === 'seat-picker' && f.part.includes('seat-button') && f.tag === 'button';
      let current = await focusBecomes('the performance handed its seats the focus', seat);
      const checked = () =>
        page.waitForResponse((r) => r.url().includes('/SeatsSelectionValidation') && (JSON.parse(r.request().postData() ?? '{}') as { TicketIds?: unknown[] }).TicketIds?.length === 2);
      let chosen = false;
      for (let attempt = 0; attempt < 12 && !chosen; attempt += 1) {
        while (current.part.includes('in-basket')) current = await press('ArrowRight');
        current = await press('Enter');
        assert.equal(current.pressed, 'true', 'Enter chose the seat and kept the focus on it');
        const validation = checked();
        current = await press('ArrowRight');
        current = await press('Enter');
        const answer = (await (await validation).json()) as { SelectionValid: boolean };
        if (answer.SelectionValid && current.pressed === 'true') {
          chosen = true;
          break;
        }
        await press('Enter');
        await press('ArrowLeft');
        await press('Enter');
        current = await press('ArrowDown');
      }
      assert.ok(chosen, 'two seats side by side that the service accepts');

      // 4. Add: Tab to "Add 2 seats", enabled once checked; Enter; focus goes to the added item in the basket.
      await tabTo('Add', (f) => f.host === 'seat-picker' && f.part.includes('add-button') && /Add 2 seats/.test(f.text) && !f.disabled, 20);
      await press('Enter');
      const item = await focusBecomes('the added item', (f) => f.host === 'checkout-form' && f.part.includes('item') && f.tag === 'li');
      assert.match(item.text, /The Lantern Keeper/);
      // And in sight (WCAG 2.4.11), below the demo's sticky masthead, once the checkout has rendered beside it.
      await page.locator('checkout-form').getByRole('button', { name: 'Continue to payment' }).waitFor();
      const inView = await page
        .waitForFunction(() => {
          let active = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          const rect = active?.getBoundingClientRect();
          const header = document.querySelector('.masthead')?.getBoundingClientRect().bottom ?? 0;
          return rect && rect.top >= Math.max(0, header) && rect.bottom <= innerHeight ? true : null;
        }, null, { timeout: 5000 })
        .then(() => true, () => false);
      assert.ok(inView, 'the focused basket item is within the viewport, not under the sticky header');

      // The countdown, against the hold's true remaining time on the service's clock.
      const countdown = await page.evaluate(async () => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('stagedoor:basket:'));
        const basketId = key ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { basketId?: string }).basketId : null;
        const response = await fetch(`/api/rest/v2/Baskets/${basketId}`);
        const stamp = Number(/desc="?(\d+)/.exec(response.headers.get('server-timing') ?? '')?.[1]);
        const { MinExpirationDate } = (await response.json()) as { MinExpirationDate: string };
        const shown = document.querySelector('basket-timer')?.shadowRoot?.querySelector('[part~="time"] [aria-hidden="true"]')?.textContent?.trim() ?? '';
        return { stamp, MinExpirationDate, shown };
      });
      const { serviceTimeToInstant } = await import('../../src/api/time.ts');
      const remaining = (serviceTimeToInstant(countdown.MinExpirationDate, 'Europe/London', { near: countdown.stamp }) - countdown.stamp) / 1000;
      const [minutes, seconds] = countdown.shown.split(':').map(Number);
      const error = (minutes ?? 0) * 60 + (seconds ?? 0) - remaining;
      console.log(`countdown over the real proxy and sandbox: shows ${countdown.shown} with ${remaining.toFixed(3)} s left (error ${error.toFixed(3)} s)`);
      assert.ok(error <= 0.05, `never more than remains (shows ${countdown.shown}, ${remaining.toFixed(3)} s left)`);
      assert.ok(error > -1.5, `less by under a second and a round trip (shows ${countdown.shown}, ${remaining.toFixed(3)} s left)`);

      // 5. Checkout, by keyboard: confirm the notices, keep the first delivery, type the details, send.
      const form = (f: Focus) => f.host === 'checkout-form';
      let field = await tabTo('the checkout', (f) => form(f) && (f.name.startsWith('notice-') || f.name === 'delivery'), 40);
      while (field.name.startsWith('notice-')) {
        await press('Space');
        field = await press('Tab');
      }
      assert.equal(field.name, 'delivery', 'the delivery choice');
      for (const [name, text] of [['firstName', 'Ada'], ['lastName', 'Lovelace'], ['email', 'ada@example.com'], ['phone', '+44 20 7946 0000']] as const) {
        field = await tabTo(name, (f) => form(f) && f.name === name, 4);
        await type(text);
      }
      await tabTo('Continue to payment', (f) => form(f) && f.part.includes('submit-button'), 20);
      await page.keyboard.press('Enter');
      keystrokes += 1;
      await page.waitForURL(/\/sandbox\/pay\//);

      // 6. The sandbox's payment page, by keyboard too; back to the confirmation.
      const pay = page.getByRole('button', { name: /^Pay\b/ });
      for (let i = 0; i < 20 && !(await pay.evaluate((b) => b === document.activeElement)); i += 1) {
        await page.keyboard.press('Tab');
        keystrokes += 1;
      }
      await page.keyboard.press('Enter');
      keystrokes += 1;
      await page.waitForURL(/[?&]stagedoor=success/);
      await page.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor({ timeout: 60_000 });
      console.log(`keyboard alone: the whole booking in ${keystrokes} keystrokes`);
      assert.deepEqual(pageErrors, []);
    });
  });

  it('back from the payment page without paying: the unfinished payment is shown, and continuing to it books the seats', { timeout: 240_000 }, async () => {
    const page = await openDemo();
    await visiting('back-from-pay', page, async () => {
    await chooseTwoSeats(page, 'Much Ado About Nothing');
    await checkOut(page, 'Much Ado About Nothing');
    const paymentUrl = page.url();
    // The browser's Back button (Playwright turns the back/forward cache off: this is the full reload path).
    await page.goBack({ waitUntil: 'load' });
    const form = page.locator('checkout-form');
    const heading = form.getByRole('heading', { name: "Your payment isn't finished" });
    await heading.waitFor();
    await form.getByText('Your basket is empty').waitFor({ state: 'detached' });
    assert.match(await form.locator('[part~="pending"]').innerText(), /Much Ado About Nothing[\s\S]*Seats [\s\S]*Total: £\d/, 'the seats and the total');
    assert.match(await form.locator('[part~="time-left"]').innerText(), /(19|20):\d\d/, 'the payment stays open for about 20 minutes');
    assert.match(await page.locator('basket-timer [part~="timer"]').first().innerText(), /Payment open for\s*(19|20):\d\d/, 'the timer shows it too');
    assert.equal(await form.evaluate((el) => el.shadowRoot?.activeElement?.id), 'pending-heading', 'focus is on its heading');
    if (process.env.SHOTS) await page.screenshot({ path: join(process.env.SHOTS, 'back-from-pay.png'), fullPage: true });
    // No way to change a basket awaiting payment: the service refuses it, and the checkout says so.
    assert.equal(await form.getByRole('button', { name: /^Remove |Empty basket/ }).count(), 0);
    await form.getByText('To change your seats, let this payment lapse or finish it.').waitFor();
    await form.getByRole('link', { name: 'Continue to payment' }).click();
    await page.waitForURL(paymentUrl);
    await page.getByRole('button', { name: /^Pay\b/ }).click();
    await page.waitForURL(/[?&]stagedoor=success/);
    await page.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor({ timeout: 60_000 });
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
    // What the customer typed is still there, the notices still ticked.
    assert.equal(await form.getByRole('textbox', { name: 'First name' }).inputValue(), 'Ada');
    assert.equal(await form.getByRole('textbox', { name: 'Last name' }).inputValue(), 'Lovelace');
    assert.equal(await form.getByRole('textbox', { name: 'E-mail address' }).inputValue(), 'ada@example.com');
    const notices = form.getByRole('group', { name: 'Before you book' }).getByRole('checkbox');
    assert.ok((await notices.count()) > 0);
    for (let i = 0; i < (await notices.count()); i += 1) assert.ok(await notices.nth(i).isChecked(), `notice ${i} still ticked`);
    // The message leads to the basket, however far down the page it is.
    await page.getByRole('button', { name: 'Go to your basket' }).first().click();
    assert.equal(await form.evaluate((el) => el.shadowRoot?.activeElement?.getAttribute('part')), 'item');
    assert.ok(await form.getByRole('listitem', { name: "A Winter's Orchard" }).isVisible());
    assert.deepEqual(pageErrors, []);
    });
  });
});
