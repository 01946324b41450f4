/**
 * A visitor in a browser that Playwright cannot drive here (Debian's Firefox and WebKit), or in
 * Chromium through puppeteer: one small driver interface per engine, and the visitor's moves
 * over it (find through every shadow root by accessible name, click at the element's position,
 * type key by key). Used by booking-engines.test.ts and flow-history.test.ts.
 */
import assert from 'node:assert/strict';
import { launch, type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { remote } from 'webdriverio';
import { setWebKitViewport, startWebKitDriver, startXvfb, webkitCapabilities, webkitThemeEnv } from '../../../scripts/engines.mjs';

export const STEP = 30_000;

/** What the test asks of a browser; one implementation per driver. */
export interface Driver {
  goto(url: string): Promise<void>;
  /** Load the page again (the browser's reload: the history stays). */
  reload(): Promise<void>;
  url(): Promise<string>;
  /** Run `fn` (self-contained) in the page with JSON arguments. */
  evaluate<T>(fn: (...args: never[]) => T | Promise<T>, ...args: unknown[]): Promise<T>;
  clickAt(x: number, y: number): Promise<void>;
  type(text: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/** What to find: a CSS selector within the (deep) host `within`, whose accessible name matches. */
export interface Query {
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

/**
 * A function and its arguments as one script for the page. tsx compiles with esbuild's keepNames,
 * which wraps named functions in a `__name` helper the page does not have: it is defined here.
 */
function inPageScript(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `(async () => { const __name = (f) => f; return (${fn.toString()})(...${JSON.stringify(args)}); })()`;
}

export class Visitor {
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

  /** Whether the first element matching is where the focus is (through shadow roots), once it shows. */
  async focused(q: Query): Promise<boolean> {
    await this.waitFor(q);
    return this.driver.evaluate(inPage as never, wire(q), 'focused');
  }

  async waitForUrl(pattern: RegExp): Promise<void> {
    await this.until(`the address to match ${pattern}`, async () => pattern.test(await this.driver.url()));
  }
}

/** A browser puppeteer drives: Firefox over WebDriver BiDi, Chromium over its own protocol. */
export async function puppeteerDriver(options: Parameters<typeof launch>[0]): Promise<Driver> {
  const browser: PuppeteerBrowser = await launch(options);
  const page: PuppeteerPage = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    goto: async (url) => { await page.goto(url, { waitUntil: 'load' }); },
    reload: async () => { await page.reload({ waitUntil: 'load' }); },
    url: async () => page.url(),
    evaluate: (fn, ...args) => page.evaluate(inPageScript(fn, args)) as never,
    clickAt: (x, y) => page.mouse.click(x, y),
    type: (text) => page.keyboard.type(text),
    screenshot: async (path) => { await page.screenshot({ path, fullPage: true }); },
    close: async () => {
      await browser.close();
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
    },
  };
}

export async function webkitDriver(): Promise<Driver> {
  const xvfb = await startXvfb();
  const driver = await startWebKitDriver({ display: xvfb.display, env: webkitThemeEnv('light') }).catch((error) => {
    xvfb.stop();
    throw error;
  });
  const browser = await remote({ hostname: '127.0.0.1', port: driver.port, logLevel: 'error', capabilities: webkitCapabilities() });
  await setWebKitViewport(browser, { width: 1280, height: 1000 });
  return {
    goto: async (url) => { await browser.navigateTo(url); },
    reload: async () => { await browser.refresh(); },
    url: () => browser.getUrl(),
    evaluate: (fn, ...args) => browser.execute(`return ${inPageScript(fn, args)}`) as never,
    clickAt: async (x, y) => {
      await browser.performActions([{
        type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
        actions: [{ type: 'pointerMove', duration: 0, origin: 'viewport', x, y }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }],
      }]);
      await browser.releaseActions();
    },
    // One key at a time: WebKit drops characters of a string sent at once.
    type: async (text) => { for (const key of text) await browser.keys(key); },
    screenshot: async (path) => { await browser.saveScreenshot(path); },
    close: async () => {
      try {
        await browser.deleteSession();
      } finally {
        driver.stop();
        xvfb.stop();
      }
    },
  };
}


/** In <performance-calendar>: the first day with bookable performances in the next three months opened. */
export async function openFirstBookableDay(v: Visitor): Promise<void> {
  await v.waitFor({ within: 'performance-calendar', css: '[role="grid"]' });
  for (let month = 0; month < 3; month += 1) {
    await v.waitFor({ within: 'performance-calendar', css: '[aria-busy="false"]' });
    const day = { within: 'performance-calendar', css: 'button', name: /, (few tickets left|\d+ performances?), / };
    if ((await v.count(day)) > 0) return v.click(day);
    await v.click({ within: 'performance-calendar', css: 'button', name: 'Next month' });
  }
  assert.fail('a bookable performance in the next three months');
}

/** In the open day of <performance-calendar>: its first performance with tickets. */
export const chooseOpenPerformance = (v: Visitor): Promise<void> =>
  v.click({ within: 'performance-calendar', css: 'button', name: /\b(Available|Few left)\b/, enabled: true });

/** In <performance-calendar>: the first bookable performance in the next three months. */
export async function chooseFirstPerformance(v: Visitor): Promise<void> {
  await openFirstBookableDay(v);
  await chooseOpenPerformance(v);
}

/** In <seat-picker>: best available for two, the first offer the service takes added to the basket (a <checkout-form> shows it). */
export async function addBestAvailable(v: Visitor): Promise<void> {
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
}
