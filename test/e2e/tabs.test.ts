/**
 * One basket per visitor, across the tabs of a site (issue 22): the built
 * script-tag bundle in bare pages, the real proxy and sandbox behind them,
 * two pages of one browser context as two tabs (and a second context, which
 * must not share). The sandbox's clock is the test's: a hold lapses by moving
 * it and the browsers' clocks together (Playwright's clock), never by waiting.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApiClient } from '../../src/api/client.ts';
import { builtBundle, type Built } from './helpers/built-demo.ts';
import { chooseSeatPair, fillCheckout } from './helpers/booking.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import type { PageServer } from './helpers/page-server.ts';
import { pinnedClock } from './helpers/pinned-clock.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

const MINUTE = 60_000;
/** How far the test has moved the sandbox's clock ahead of the pinned one (helpers/pinned-clock.ts). */
const skew = { ms: 0 };
const sandboxClock = { now: () => pinnedClock.now() + skew.ms };

function html(body: string): string {
  return `<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Tabs</title>
<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script></head><body>${body}</body></html>`;
}

/** What each page heard: the cross-tab event, the local basket events, and what its live regions said. */
const RECORDER = () => {
  const w = window as unknown as { remote: string[]; local: string[]; said: string[] };
  w.remote = [];
  w.local = [];
  w.said = [];
  document.addEventListener('booking-remote-change', (e) => w.remote.push((e as CustomEvent<{ change: string }>).detail.change));
  for (const type of ['booking-basket-change', 'booking-checkout-submitted', 'booking-order-completed']) document.addEventListener(type, () => w.local.push(type));
  // The timer's live region, as a screen reader hears it (each new text once).
  const watch = () => {
    const region = document.querySelector('basket-timer')?.shadowRoot?.querySelector('[role="status"][aria-live="polite"]');
    if (!region) return void setTimeout(watch, 50);
    new MutationObserver(() => {
      const text = region.textContent?.trim() ?? '';
      if (text) w.said.push(text);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
};

const heard = (p: Page, what: 'remote' | 'local' | 'said'): Promise<string[]> => p.evaluate((k) => [...((window as unknown as Record<string, string[]>)[k] ?? [])], what);
const waitHeard = (p: Page, change: string): Promise<unknown> =>
  p.waitForFunction((c) => (window as unknown as { remote: string[] }).remote.includes(c), change);

describe('one basket across the tabs of a site', () => {
  let dist = '';
  let built: Built | undefined;
  const pages: Record<string, string> = {};
  let server: PageServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    built = await builtBundle();
    dist = built.dist;
    // No proxy cache: which seats are gone is read right after another visitor took one.
    server = await startSandboxSite({ files: { '/v1/': dist }, pages, sandbox: { clock: sandboxClock }, proxyCache: false });
    const api = createApiClient({ endpoint: `${server.origin}/api` });
    const { Events } = await api.getEvents();
    const event = Events.find((e) => e.Name === 'The Lantern Keeper') ?? Events[0];
    assert.ok(event);
    const { Performances } = await api.getEventPerformances({ eventId: event.EventId });
    const performances = Performances.filter((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 40);
    assert.ok(performances.length >= 3, 'bookable performances');
    // Each test books its own performance, so a seat one test holds never stands in another's way.
    performances.slice(0, 6).forEach((p, i) => {
      pages[`/shop${i}`] = html(`<header><basket-timer></basket-timer></header><main><seat-picker performance-id="${p.PerformanceId}"></seat-picker><checkout-form></checkout-form></main>`);
    });
    // A page whose seat picker follows the shared selection (no performance of its own).
    pages['/follow'] = html('<header><basket-timer></basket-timer></header><main><seat-picker></seat-picker></main>');
    browser = await launchChromium();
  });

  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    built?.remove();
  });

  async function newContext(options: { clock?: boolean } = {}): Promise<BrowserContext> {
    const context = await browser.newContext();
    contexts.push(context);
    if (options.clock) await context.clock.install({ time: sandboxClock.now() });
    // As source: the test runner's compiler names inner functions with a helper the page lacks.
    await context.addInitScript({ content: `var __name = (f) => f;\n(${RECORDER.toString()})();` });
    return context;
  }

  async function open(context: BrowserContext, path: string) {
    const watched = await watchedPage(context);
    await watched.page.goto(`${server.origin}${path}`);
    await watched.page.waitForFunction(() => Boolean(document.querySelector('basket-timer')?.shadowRoot));
    return watched;
  }

  /** Choose two seats side by side in `p`'s picker and add them; resolves once the timer counts. */
  async function addSeats(p: Page): Promise<void> {
    const picker = p.locator('seat-picker');
    assert.ok(await chooseSeatPair(p, picker), 'found two seats the service accepts');
    const before = (await heard(p, 'local')).length;
    await picker.locator('[part~="add-button"]').first().press('Enter');
    await p.waitForFunction((n) => (window as unknown as { local: string[] }).local.length > n, before);
    await p.locator('basket-timer [part~="time"]').first().waitFor();
  }

  const shownTime = (p: Page) => p.locator('basket-timer [part~="time"] [aria-hidden="true"]').first().innerText();
  const seconds = (mss: string) => {
    const [m, s] = mss.split(':').map(Number);
    return (m ?? 0) * 60 + (s ?? 0);
  };
  const items = (p: Page) => p.locator('checkout-form').getByRole('button', { name: /^Remove / });
  /** GET Baskets/{id} requests a page made (reads of the basket). */
  const basketReads = (requests: string[]) => requests.filter((u) => /\/api\/rest\/v2\/Baskets\/[0-9a-f-]+$/i.test(new URL(u).pathname)).length;

  it('a second tab shows the basket and countdown of the first, and each add, remove and emptying within a message, with one read each', async () => {
    const context = await newContext();
    const a = await open(context, '/shop0');
    await addSeats(a.page);
    const b = await open(context, '/shop0');
    // Opened after: the same basket, the same countdown (within the second the two reads straddle).
    await b.page.locator('basket-timer [part~="time"]').first().waitFor();
    // B read between two readings of A falls between them (a loaded machine may take seconds to read all three).
    const before = seconds(await shownTime(a.page));
    const inB = seconds(await shownTime(b.page));
    const after = seconds(await shownTime(a.page));
    assert.ok(inB <= before + 1 && inB >= after - 1, `the same time left: A ${before}…${after}, B ${inB}`);
    await items(b.page).first().waitFor();
    assert.equal(await items(b.page).count(), 1, 'the item of the first tab');

    // Seats added in A: B shows them after one message, with one read of the basket.
    const readsBefore = basketReads(b.requests);
    await addSeats(a.page);
    await waitHeard(b.page, 'add');
    await b.page.waitForFunction(() => document.querySelector('checkout-form')?.shadowRoot?.querySelectorAll('[part~="remove-button"]').length === 2);
    assert.equal(basketReads(b.requests) - readsBefore, 1, 'one read of the basket for the message');

    // Removed in A.
    await items(a.page).first().click();
    await waitHeard(b.page, 'remove');
    await b.page.waitForFunction(() => document.querySelector('checkout-form')?.shadowRoot?.querySelectorAll('[part~="remove-button"]').length === 1);

    // Emptied in A.
    const form = a.page.locator('checkout-form');
    await form.locator('[part~="empty-button"]').click();
    await form.locator('[part~="confirm-empty-button"]').click();
    await waitHeard(b.page, 'clear');
    await b.page.waitForFunction(() => document.querySelector('basket-timer')?.getAttribute('state') === 'empty');

    // What takes in another tab's change is fetched by the tab that heard one, not by the tab that
    // only made changes (nor by any page of a visit in one tab).
    const takingIn = readdirSync(dist).filter((n) => n.endsWith('.js') && readFileSync(join(dist, n), 'utf8').includes('booking-remote-change'));
    const fetched = (requests: string[]) => takingIn.filter((n) => requests.some((u) => new URL(u).pathname.endsWith(`/${n}`)));
    assert.deepEqual(fetched(a.requests), [], 'the tab that made the changes heard none: it did not fetch what takes them in');
    assert.deepEqual(fetched(b.requests), takingIn, 'the tab that heard them did');
    // The change events fired where the visitor acted, the cross-tab event in the other tab only.
    assert.deepEqual(await heard(a.page, 'remote'), []);
    assert.deepEqual(await heard(b.page, 'local'), []);
    assert.deepEqual(await heard(b.page, 'remote'), ['add', 'remove', 'clear']);
    assert.equal((await heard(a.page, 'local')).length, 4, 'add, add, remove, clear in the tab where they happened');
    // Nothing asked of the proxy while nothing changed: no polling.
    const quiet = basketReads(b.requests);
    await b.page.waitForTimeout(0);
    assert.equal(basketReads(b.requests), quiet);
    assert.deepEqual([...a.errors, ...b.errors], []);
  });

  it('where there is no BroadcastChannel, the storage event carries the change', async () => {
    const context = await newContext();
    await context.addInitScript(() => {
      delete (window as { BroadcastChannel?: unknown }).BroadcastChannel;
    });
    const a = await open(context, '/shop3');
    const b = await open(context, '/shop3');
    await addSeats(a.page);
    await waitHeard(b.page, 'add');
    await items(b.page).first().waitFor();
    assert.equal(await b.page.locator('basket-timer').getAttribute('state'), 'normal');
    const form = a.page.locator('checkout-form');
    await form.locator('[part~="empty-button"]').click();
    await form.locator('[part~="confirm-empty-button"]').click();
    await waitHeard(b.page, 'clear');
    await b.page.waitForFunction(() => document.querySelector('basket-timer')?.getAttribute('state') === 'empty');
    assert.deepEqual([...a.errors, ...b.errors], []);
  });

  it('a payment begun in one tab is offered to continue in the other, which sends no second order; the booking completed there shows in the other', async () => {
    const context = await newContext();
    const a = await open(context, '/shop1');
    await addSeats(a.page);
    const b = await open(context, '/shop1');
    await items(b.page).first().waitFor();
    await fillCheckout(b.page.locator('checkout-form'));
    await fillCheckout(a.page.locator('checkout-form'));
    const orders = (requests: string[]) => requests.filter((u) => /\/Orders?\b|SubmitOrder/i.test(new URL(u).pathname)).length;
    await a.page.locator('checkout-form').getByRole('button', { name: 'Continue to payment' }).click();
    await a.page.getByRole('button', { name: /^Pay\b/ }).waitFor();
    await waitHeard(b.page, 'payment');
    const pending = b.page.locator('checkout-form').getByRole('heading', { name: "Your payment isn't finished" });
    await pending.waitFor();
    assert.equal(await b.page.locator('checkout-form').locator('[part~="submit-button"]').count(), 0, 'no second order can be sent');
    assert.ok(await b.page.locator('checkout-form').getByRole('link', { name: 'Continue to payment' }).isVisible());
    assert.equal(orders(b.requests), 0);

    await a.page.getByRole('button', { name: /^Pay\b/ }).click();
    await a.page.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor({ timeout: 60_000 });
    await waitHeard(b.page, 'completed');
    await b.page.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor();
    // The same booking, by its reference.
    const reference = (p: Page) => p.locator('[part~="reference"] strong').first().innerText();
    const shownInA = await reference(a.page);
    assert.match(shownInA, /\w{4,}/);
    assert.equal(await reference(b.page), shownInA);
    assert.deepEqual(await heard(b.page, 'local'), [], 'no booking-order-completed in the tab that did not book');
    assert.equal((await heard(a.page, 'local')).filter((t) => t === 'booking-order-completed').length, 1);
  });

  it('a tab that never heard of the payment still sends no second order for the basket', async () => {
    const context = await newContext();
    const a = await open(context, '/shop2');
    await addSeats(a.page);
    // B hears nothing from other tabs (no channel, no storage events): only the kept record can stop it.
    const b = await watchedPage(context);
    await b.page.addInitScript(() => {
      delete (window as { BroadcastChannel?: unknown }).BroadcastChannel;
      const add = window.addEventListener.bind(window);
      window.addEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, unknown?]) =>
        type === 'storage' ? undefined : add(type, ...(rest as [EventListenerOrEventListenerObject]))) as typeof window.addEventListener;
    });
    await b.page.goto(`${server.origin}/shop2`);
    await items(b.page).first().waitFor();
    await fillCheckout(b.page.locator('checkout-form'));
    await fillCheckout(a.page.locator('checkout-form'));
    await a.page.locator('checkout-form').getByRole('button', { name: 'Continue to payment' }).click();
    await a.page.getByRole('button', { name: /^Pay\b/ }).waitFor();
    const submits = b.requests.length;
    await b.page.locator('checkout-form').getByRole('button', { name: 'Continue to payment' }).click();
    await b.page.locator('checkout-form').getByRole('heading', { name: "Your payment isn't finished" }).waitFor();
    const sent = b.requests.slice(submits).filter((u) => /Order/i.test(new URL(u).pathname));
    assert.deepEqual(sent, [], 'the second tab sent no order');
  });

  it('two browser contexts (two visitors) do not share a basket', async () => {
    const first = await newContext();
    const a = await open(first, '/shop3');
    await addSeats(a.page);
    const other = await newContext();
    const b = await open(other, '/shop3');
    await b.page.locator('seat-picker [part~="seat-button"]').first().waitFor();
    assert.equal(await b.page.locator('basket-timer').getAttribute('state'), 'empty');
    assert.deepEqual(await b.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('stagedoor:basket:'))), []);
    assert.equal(await a.page.locator('basket-timer').getAttribute('state'), 'normal');
  });

  it('where storage is refused, books within the one tab and says nothing alarming', async () => {
    const context = await newContext();
    await context.addInitScript(() => {
      for (const name of ['localStorage', 'sessionStorage']) {
        Object.defineProperty(window, name, {
          get() {
            throw new DOMException('The operation is insecure.', 'SecurityError');
          },
        });
      }
    });
    const a = await open(context, '/shop4');
    await addSeats(a.page);
    const form = a.page.locator('checkout-form');
    await fillCheckout(form);
    await form.getByRole('button', { name: 'Continue to payment' }).click();
    await a.page.getByRole('button', { name: /^Pay\b/ }).click();
    await a.page.waitForURL(/stagedoor=success/);
    // Nothing was kept for the return (no storage): the calm note of a return with nothing to show, no alert.
    await a.page.getByText('If you completed a payment, your confirmation e-mail has the details.').waitFor();
    assert.deepEqual(a.errors, []);
    assert.equal(await a.page.getByRole('alert').count(), 0, 'no alert shown');
  });

  it('a lapsed hold reaches the other tab, is held again in one click; with a seat taken meanwhile it says which and opens the map; said once', async () => {
    const context = await newContext({ clock: true });
    const a = await open(context, '/shop5');
    await addSeats(a.page);
    const b = await open(context, '/follow');
    await b.page.locator('basket-timer [part~="time"]').first().waitFor();
    await b.page.bringToFront();
    await b.page.mouse.click(2, 2);
    const lapse = async () => {
      skew.ms += 10 * MINUTE + 5_000;
      await context.clock.fastForward(10 * MINUTE + 5_000);
    };
    await lapse();
    for (const p of [a.page, b.page]) await p.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' }).waitFor();
    const told = [...(await heard(a.page, 'said')), ...(await heard(b.page, 'said'))].filter((t) => t.startsWith('Time is up.'));
    assert.equal(told.length, 1, `the release said once over both tabs: ${told.join(' | ')}`);

    // One click in B: the same seats held again; A shows the countdown again.
    await b.page.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' }).click();
    await b.page.waitForFunction(() => (window as unknown as { said: string[] }).said.includes('Your seats are held again.'));
    await waitHeard(a.page, 'add');
    await a.page.waitForFunction(() => document.querySelector('basket-timer')?.getAttribute('state') === 'normal');
    assert.equal(await items(a.page).count(), 1, 'the same item again');

    // Lapse again; meanwhile another visitor takes one of the seats.
    const basketId = await b.page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('stagedoor:basket:'));
      return (JSON.parse(localStorage.getItem(key ?? '') ?? '{}') as { basketId?: string }).basketId ?? '';
    });
    const api = createApiClient({ endpoint: `${server.origin}/api` });
    const held = await api.getBasket({ basketId });
    const item = held.Items[0];
    assert.ok(item);
    await lapse();
    await b.page.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' }).waitFor();
    const someone = await api.createBasket();
    const taken = item.Tickets[0];
    assert.ok(taken);
    const took = await api.addTickets({ basketId: someone.BasketId, body: { Tickets: [taken.TicketId] } });
    assert.ok(took.Success, `the other visitor took ${item.Seats[0]}: ${took.FailureReasonText}`);
    await b.page.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' }).click();
    const message = `No longer free: ${item.Seats[0]}. Choose again on the seat map.`;
    await b.page
      .waitForFunction((m) => (window as unknown as { said: string[] }).said.includes(m), message, { timeout: 10_000 })
      .catch(async () => assert.fail(`not said: ${message}; said: ${(await heard(b.page, 'said')).join(' | ')}`));
    assert.equal(await b.page.locator('basket-timer [part~="message"]#rehold-message').innerText(), message);
    // The map of that performance, in the picker that follows the selection.
    await b.page.locator('seat-picker [part~="seat-button"]').first().waitFor();
    // The refused add (409) is the expected answer; nothing else went wrong.
    assert.deepEqual([...a.errors, ...b.errors].filter((e) => !/\b409\b/.test(e)), []);
  });

  it('says the time left at 5, 2 and 1 minutes and at expiry once per basket, in the tab the visitor looks at', async () => {
    const context = await newContext({ clock: true });
    const a = await open(context, '/shop5');
    await addSeats(a.page);
    const b = await open(context, '/shop5'); // opened last, and touched
    await b.page.locator('basket-timer [part~="time"]').first().waitFor();
    // Both checkouts have read their options before the clocks move. The service's clock and the
    // tabs' are moved one after the other: a basket answer read in between (B's checkout loading
    // its options once the basket showed) would be a reading of the service a move ahead of the
    // tab's clock, which the tab rightly takes for its visitor setting their clock, and count from.
    for (const p of [a.page, b.page]) await p.locator('checkout-form [part~="submit-button"]').first().waitFor();
    await b.page.bringToFront();
    await b.page.mouse.click(2, 2);
    const left = async () => seconds(await shownTime(b.page));
    for (const mark of [300, 120, 60]) {
      const move = ((await left()) - mark) * 1000;
      skew.ms += move;
      await context.clock.fastForward(move);
      await b.page.waitForFunction((m) => Number(document.querySelector('basket-timer')?.shadowRoot?.querySelector('[part~="time"] [aria-hidden="true"]')?.textContent?.split(':').reduce((x, y) => x * 60 + Number(y), 0)) <= m, mark);
    }
    skew.ms += 61_000;
    await context.clock.fastForward(61_000);
    await b.page.locator('basket-timer').getByRole('button', { name: 'Hold these seats again' }).waitFor();
    // Once over both tabs, and by the tab the visitor looks at (opened last, and touched).
    assert.deepEqual(await heard(a.page, 'said'), [], 'the other tab says nothing');
    const said = await heard(b.page, 'said');
    const minutes = said.filter((t) => t.endsWith('left to complete your booking.'));
    assert.equal(minutes.length, 3, said.join(' | '));
    assert.equal(minutes.filter((t) => /^(5 minutes|4 minutes, \d+ seconds) left/.test(t)).length, 1, said.join(' | '));
    assert.equal(minutes.filter((t) => /^(2 minutes|1 minute, \d+ seconds) left/.test(t)).length, 1, said.join(' | '));
    assert.equal(minutes.filter((t) => /^(1 minute|\d+ seconds) left/.test(t)).length, 1, said.join(' | '));
    assert.equal(said.filter((t) => t.startsWith('Time is up.')).length, 1, said.join(' | '));
  });
});
