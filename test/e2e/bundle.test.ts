/**
 * The built script-tag bundle in a real browser, the way a host site uses it:
 * `npm run build`'s dist/stagedoor.js loaded with a plain
 * `<script type="module">` into a bare HTML page (no dev server, no
 * TypeScript), served under a strict Content-Security-Policy by a bare host
 * that mounts the proxy at /api with the sandbox as its in-process upstream.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createApiClient } from '../../src/api/client.ts';
import { buildBundle, registrationFiles } from '../../scripts/build.mjs';
import { chooseSeatPair } from './helpers/booking.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

/**
 * What the README tells hosts to allow, with everything on the page's origin.
 * `style-src 'none'`: the elements' styles are constructed stylesheets
 * (adoptedStyleSheets), which style-src does not govern, so the widget needs
 * no style-src at all, let alone 'unsafe-inline'.
 */
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'none'; base-uri 'none'; form-action 'self'";

const tags = registrationFiles().map((r) => r.tag);
/** The lazy chunk holding DOMPurify (named after its module by the bundle build). */
const isSanitizerChunk = (url: string): boolean => /\/stagedoor-purify[^/]*\.js$/.test(new URL(url).pathname);

function page(head: string, body: string): string {
  return `<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Bare host page</title>${head}</head><body>${body}</body></html>`;
}

describe('the script-tag bundle in a bare page', () => {
  const dist = mkdtempSync(join(tmpdir(), 'stagedoor-bundle-test-'));
  let server: PageServer;
  let browser: Browser;
  /** A performance with a seat map, and an event whose description is HTML. */
  let performanceId = 0;
  let eventId = 0;
  const pages: Record<string, string> = {};

  before(async () => {
    await buildBundle({ outDir: dist, sourcemap: false });
    server = await startSandboxSite({ csp: CSP, files: { '/v1/': dist, '/v2/': dist }, pages });
    const origin = server.origin;
    const api = createApiClient({ endpoint: `${origin}/api` });
    const { Events } = await api.getEvents();
    const seated = Events.filter((e) => e.Name === 'The Lantern Keeper');
    const event = seated[0] ?? Events[0];
    assert.ok(event, 'the sandbox has events');
    eventId = event.EventId;
    const { Performances } = await api.getEventPerformances({ eventId });
    const performance = Performances.find((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 20);
    assert.ok(performance, 'a bookable performance');
    performanceId = performance.PerformanceId;
    Object.assign(pages, {
      '/once': page('<script type="module" src="/v1/stagedoor.js"></script>', '<booking-provider id="provider" endpoint="/api"><p>inside</p></booking-provider>'),
      // A seat picker alone: no HTML field on the page, so no sanitizer chunk.
      '/seats': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<header><basket-timer></basket-timer></header><article><seat-picker performance-id="${performanceId}"></seat-picker></article>`,
      ),
      // An event's detail: its description is HTML, so the sanitizer chunk loads.
      '/event': page('<script type="module" src="/v1/stagedoor.js"></script>', `<event-list endpoint="/api" event-id="${eventId}"></event-list>`),
      // The same bundle three times as three module instances (a CMS that injects the
      // tag twice, and a second copy from another path or version): each run defines nothing new.
      '/twice': page(
        [
          '<script type="module" src="/v1/stagedoor.js"></script>',
          '<script type="module" src="/v1/stagedoor.js?injected-again"></script>',
          '<script type="module" src="/v2/stagedoor.js"></script>',
        ].join(''),
        '<booking-provider id="provider" endpoint="/api"><p>inside</p></booking-provider>',
      ),
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('registers every element, with no error and no CSP violation', async () => {
    const { page: p, errors, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/once`);
    await p.waitForFunction((names) => names.every((n) => customElements.get(n)), tags);
    const defined = await p.evaluate((names) => names.filter((n) => customElements.get(n)), tags);
    assert.deepEqual(defined, tags);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('completes a seat selection against the sandbox-backed proxy, without loading the sanitizer', { skip: !tags.includes('seat-picker') && '<seat-picker> is not on this branch yet' }, async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/seats`);
    const picker = p.locator('seat-picker');

    // Two seats side by side that the service accepts (the single-seat rule may refuse a pair).
    const chosen = await chooseSeatPair(p, picker);
    assert.ok(chosen, 'found two seats the service accepts');

    const change = p.evaluate(
      () =>
        new Promise<{ action: string; basketId: string | null; items: number; seats: number }>((resolve) => {
          document.addEventListener(
            'booking-basket-change',
            (e) => {
              const d = (e as CustomEvent<{ action: string; basketId: string | null; basket: { Items: { Seats: string[] }[] } | null }>).detail;
              resolve({ action: d.action, basketId: d.basketId, items: d.basket?.Items.length ?? 0, seats: d.basket?.Items[0]?.Seats.length ?? 0 });
            },
            { once: true },
          );
        }),
    );
    await picker.locator('[part~="add"]').first().press('Enter');
    const detail = await change;
    assert.deepEqual({ action: detail.action, items: detail.items, seats: detail.seats }, { action: 'add', items: 1, seats: 2 });
    assert.ok(detail.basketId);

    // The service really holds them, under the basket the page keeps.
    const api = createApiClient({ endpoint: `${server.origin}/api` });
    const basket = await api.getBasket({ basketId: detail.basketId });
    assert.equal(basket.Items.length, 1);
    assert.equal(basket.Items[0]?.Seats.length, 2);
    // The timer in the header, another part of the page, shares that basket and counts down.
    await p.locator('basket-timer').locator('[part~="time"]').first().waitFor();

    // Removed and added again (a single-page site's navigation), the picker renders its map
    // again and shows the two seats as in the basket.
    await p.evaluate(async () => {
      const el = document.querySelector('seat-picker');
      const parent = el?.parentElement;
      if (!el || !parent) throw new Error('no seat-picker');
      el.remove();
      await new Promise((r) => requestAnimationFrame(r));
      parent.append(el);
    });
    await p.waitForFunction(() => document.querySelector('seat-picker')?.shadowRoot?.querySelectorAll('[part~="seat"][part~="in-basket"]').length === 2);

    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    assert.deepEqual(requests.filter(isSanitizerChunk), [], 'no HTML field was shown, so DOMPurify was not fetched');
    await p.close();
  });

  it('fetches the sanitizer chunk when an HTML field is shown, under the same CSP', { skip: !tags.includes('event-list') && '<event-list> is not on this branch yet' }, async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/event`);
    const description = p.locator('event-list').locator('[part~="description"]');
    await description.locator('p').first().waitFor();
    assert.match(await description.innerText(), /\S/);
    assert.equal(requests.filter(isSanitizerChunk).length, 1, 'the sanitizer chunk was fetched once');
    // Images come from the sandbox through the page's own origin: img-src 'self' covers them.
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('loads twice, and as a second copy, without throwing; the first definition stays', async () => {
    const { page: p, errors, violations } = await watchedPage(browser);
    const loaded: string[] = [];
    p.on('response', (r) => {
      if (r.url().includes('stagedoor.js')) loaded.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await p.goto(`${server.origin}/twice`);
    await p.waitForLoadState('networkidle');
    assert.equal(loaded.length, 3, `all three copies ran: ${loaded.join(', ')}`);
    const defined = await p.evaluate((names) => names.filter((n) => customElements.get(n)), tags);
    assert.deepEqual(defined, tags);
    // The element on the page upgraded to a class of one copy and works (its shadow root renders its slot).
    const upgraded = await p.evaluate(() => {
      const el = document.getElementById('provider');
      return Boolean(el && el.shadowRoot && el.shadowRoot.querySelector('slot'));
    });
    assert.ok(upgraded);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('survives being removed and added again (single-page navigation)', async () => {
    const { page: p, errors } = await watchedPage(browser);
    await p.goto(`${server.origin}/once`);
    await p.waitForFunction(() => Boolean(document.getElementById('provider')?.shadowRoot));
    const again = await p.evaluate(async () => {
      const el = document.getElementById('provider');
      if (!el) return false;
      const parent = el.parentNode;
      el.remove();
      await new Promise((r) => requestAnimationFrame(r));
      parent?.appendChild(el);
      await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      return Boolean(el.shadowRoot?.querySelector('slot')) && el.isConnected;
    });
    assert.ok(again);
    assert.deepEqual(errors, []);
    await p.close();
  });
});
