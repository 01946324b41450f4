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
import { puppeteerDriver, webkitDriver, type Driver } from './helpers/engine-drivers.ts';
import { DEMO_FLOW_TAGS, startDemo, stop } from './helpers/demo-server.ts';
import { freePort } from './helpers/free-port.ts';

const STEP = 30_000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');


/** What to find: a CSS selector within the (deep) host `within`, whose accessible name matches. */
interface Query {
  within?: string;
  css: string;
  name?: RegExp | string;
  enabled?: boolean;
}
type WireQuery = Omit<Query, 'name'> & { name?: { source: string; flags: string } };
const wire = (q: Query): WireQuery => ({
  ...q,
  name: q.name === undefined ? undefined : typeof q.name === 'string' ? { source: `^${q.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, flags: '' } : { source: q.name.source, flags: q.name.flags },
});

/** Where the press after a `center` landed (kept on window for the `landed` check). */
type ClickWatch = { target: Element; landed: EventTarget | null };

/**
 * In the page: the visible elements matching a query, through every shadow root; with `center`,
 * the first is scrolled to the middle of the view and its centre returned.
 */
function inPage(q: WireQuery, mode: 'count' | 'center' | 'text' | 'href' | 'value' | 'focused' | 'landed') {
  const deep = (root: Document | ShadowRoot, css: string): Element[] => {
    const out: Element[] = [...root.querySelectorAll(css)];
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deep(el.shadowRoot, css));
    return out;
  };
  const label = (el: Element): string => {
    const byId = el.getAttribute('aria-labelledby');
    const root = el.getRootNode() as Document | ShadowRoot;
    const labelled = byId ? byId.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ') : null;
    // A <label>'s text without the control's own (a <select> inside it has its options' text).
    const outer = (el as HTMLInputElement).labels?.[0]?.cloneNode(true) as HTMLElement | undefined;
    for (const control of outer?.querySelectorAll('select, input, textarea') ?? []) control.remove();
    const text = el.getAttribute('aria-label') ?? labelled ?? (outer ? outer.textContent : null) ?? el.textContent ?? '';
    return text.replace(/\s+/g, ' ').trim();
  };
  const scopes = q.within ? deep(document, q.within).map((h) => h.shadowRoot ?? h) : [document];
  const name = q.name ? new RegExp(q.name.source, q.name.flags) : undefined;
  const found = scopes.flatMap((s) => deep(s as Document | ShadowRoot, q.css)).filter((el) => {
    if (el.getClientRects().length === 0) return false;
    if (name && !name.test(label(el))) return false;
    if (q.enabled && ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true')) return false;
    return true;
  });
  if (mode === 'count') return found.length;
  if (mode === 'landed') {
    // Whether the press after the last `center` landed on its element (or on one matching the
    // query now, should the page have rendered it anew): true, false, or null (no press seen).
    const watch = (window as unknown as { stagedoorClick?: ClickWatch }).stagedoorClick;
    const landed = watch?.landed;
    if (!watch || !(landed instanceof Node)) return null;
    const on = (el: Element) => el === landed || el.contains(landed) || Boolean((el as HTMLInputElement).labels?.[0]?.contains(landed));
    return on(watch.target) || found.some(on);
  }
  const el = found[0];
  if (!el) return null;
  if (mode === 'text') return label(el);
  if (mode === 'href') return (el as HTMLAnchorElement).href;
  if (mode === 'value') return (el as HTMLInputElement).value;
  if (mode === 'focused') {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === el;
  }
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  const x = Math.round(r.left + r.width / 2);
  const y = Math.round(r.top + r.height / 2);
  // Only where a click would reach it (not under something else, not still moving).
  let hit: Element | null = document.elementFromPoint(x, y);
  while (hit?.shadowRoot?.elementFromPoint(x, y) && hit.shadowRoot.elementFromPoint(x, y) !== hit) hit = hit.shadowRoot.elementFromPoint(x, y);
  const reached = hit && (hit === el || el.contains(hit) || (el as HTMLInputElement).labels?.[0]?.contains(hit));
  if (!reached) return null;
  // Where the coming press lands, for `landed` (a page that moves in between takes it elsewhere).
  const watch: ClickWatch = { target: el, landed: null };
  (window as unknown as { stagedoorClick?: ClickWatch }).stagedoorClick = watch;
  window.addEventListener('pointerdown', (e) => (watch.landed = e.composedPath()[0] ?? null), { capture: true, once: true });
  return { x, y };
}


class Visitor {
  constructor(readonly driver: Driver) {}

  /** Wait (polling each frame's worth) until `check` gives a value other than null/0/false. */
  async until<T>(what: string, check: () => Promise<T>, timeout = STEP): Promise<NonNullable<T>> {
    const end = Date.now() + timeout;
    for (;;) {
      const value = await check();
      if (value !== null && value !== undefined && value !== 0 && value !== false) return value as NonNullable<T>;
      if (Date.now() > end) throw new Error(`${what}: not within ${timeout / 1000} s (at ${await this.driver.url()})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  count(q: Query): Promise<number> {
    return this.driver.evaluate(inPage as never, wire(q), 'count');
  }

  waitFor(q: Query, timeout = STEP): Promise<number> {
    return this.until(`${q.within ?? 'page'} ${q.css} ${q.name ?? ''}`, () => this.count(q), timeout);
  }

  async text(q: Query): Promise<string> {
    await this.waitFor(q);
    return this.driver.evaluate(inPage as never, wire(q), 'text');
  }

  async href(q: Query): Promise<string> {
    await this.waitFor(q);
    return this.driver.evaluate(inPage as never, wire(q), 'href');
  }

  /**
   * Click the element, again if the page moved between finding it and the press (the press then
   * went to whatever came under the pointer): as a visitor clicks again once the page is still.
   */
  async click(q: Query): Promise<void> {
    await this.until(`to click ${q.within ?? 'page'} ${q.css} ${q.name ?? ''}`, async () => {
      const at = await this.driver.evaluate<{ x: number; y: number } | null>(inPage as never, wire(q), 'center');
      if (!at) return false;
      await this.driver.clickAt(at.x, at.y);
      // A press seen elsewhere is made again; none seen (the page went to another address) is done.
      return (await this.driver.evaluate<boolean | null>(inPage as never, wire(q), 'landed').catch(() => null)) !== false;
    });
  }

  /**
   * Click into a field (again, if the page moved under the pointer meanwhile: the checkout may
   * still be bringing the added item into view) and type; then it holds what was typed.
   */
  async fill(q: Query, text: string): Promise<void> {
    await this.until(`focus in ${q.name}`, async () => {
      await this.click(q);
      return this.driver.evaluate<boolean>(inPage as never, wire(q), 'focused');
    });
    await this.driver.type(text);
    assert.equal(await this.driver.evaluate(inPage as never, wire(q), 'value'), text, `typed into ${q.name}`);
  }

  async waitForUrl(pattern: RegExp): Promise<void> {
    await this.until(`the address to match ${pattern}`, async () => pattern.test(await this.driver.url()));
  }
}



/** Steps 1 to 4 of a booking on the demo: a show, a performance, two best-available seats, the checkout filled in, on to payment. */
async function toPayment(v: Visitor): Promise<void> {
  const show = 'Much Ado About Nothing';
  // 1. The show.
  await v.click({ within: 'event-list', css: '[part~="card-button"]', name: new RegExp(show) });
  // 2. The first day with bookable performances in the next three months, then its first performance.
  await v.waitFor({ within: 'performance-calendar', css: '[role="grid"]' });
  let chosen = false;
  for (let month = 0; month < 3 && !chosen; month += 1) {
    await v.waitFor({ within: 'performance-calendar', css: '[aria-busy="false"]' });
    const day = { within: 'performance-calendar', css: 'button', name: /, (few tickets left|\d+ performances?), / };
    if ((await v.count(day)) > 0) {
      await v.click(day);
      await v.click({ within: 'performance-calendar', css: 'button', name: /\b(Available|Few left)\b/, enabled: true });
      chosen = true;
    } else {
      await v.click({ within: 'performance-calendar', css: 'button', name: 'Next month' });
    }
  }
  assert.ok(chosen, 'a bookable performance in the next three months');
  // 3. Best available for two; the first offer the service takes.
  await v.click({ within: 'seat-picker', css: 'input[type="radio"]', name: 'Best available' });
  await v.waitFor({ within: 'seat-picker', css: 'select', name: 'How many tickets?' });
  await v.driver.evaluate(() => {
    const deep = (root: Document | ShadowRoot): HTMLSelectElement | null =>
      root.querySelector('select') ?? [...root.querySelectorAll('*')].map((e) => (e.shadowRoot ? deep(e.shadowRoot) : null)).find(Boolean) ?? null;
    const select = deep(document.querySelector('seat-picker')?.shadowRoot as ShadowRoot);
    if (!select) throw new Error('no ticket count');
    select.value = '2';
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  });
  const offer = { within: 'seat-picker', css: 'button', name: /^Add 2 for / };
  const inBasket = { within: 'checkout-form', css: 'button', name: /^Remove / };
  const refused = { within: 'seat-picker', css: '[role="alert"]' };
  const offers = await v.waitFor(offer);
  let added = false;
  for (let i = 0; i < offers && !added; i += 1) {
    await v.click(offer);
    const outcome = await v.until('the basket or a refusal', async () =>
      (await v.count(inBasket)) ? 'added' : (await v.count(refused)) ? 'refused' : null);
    added = outcome === 'added';
    if (!added) await v.click({ within: 'seat-picker', css: 'button', name: 'Dismiss' });
  }
  assert.ok(added, `one of the ${offers} best-available offers was added to the basket`);
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
