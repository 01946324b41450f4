/**
 * The built script-tag bundle in a real browser, the way a host site uses it:
 * `npm run build`'s dist/stagedoor.js (the loader) loaded with a plain
 * `<script type="module">` into a bare HTML page (no dev server, no
 * TypeScript), served under a strict Content-Security-Policy by a bare host
 * that mounts the proxy at /api with the sandbox as its in-process upstream
 * (and a second proxy and service at /box-office/api, for two endpoints on
 * one page). The loader defines each tag when it appears: at load, or later.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createApiClient } from '../../src/api/client.ts';
import { bundleCacheControl, IMMUTABLE } from '../../src/server/bundle-caching.ts';
import { PRELOAD_FILE, preloadLinks, registrationFiles } from '../../scripts/build.mjs';
import { builtBundle, type Built } from './helpers/built-demo.ts';
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
/** The element chunk of a tag (named after the tag by the bundle build). */
const isChunkOf = (tag: string) => (url: string): boolean => new RegExp(`/stagedoor-${tag}-[\\w-]+\\.js$`).test(new URL(url).pathname);
const SECOND = '/box-office/api';

/** A watched page at `url`, once its list shows a card (not a skeleton) and its network is quiet. */
async function withList(browser: Browser, url: string): Promise<Awaited<ReturnType<typeof watchedPage>>> {
  const watched = await watchedPage(browser);
  await watched.page.goto(url);
  await watched.page.locator('event-list').locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
  await watched.page.waitForLoadState('networkidle');
  return watched;
}

/** The tags of `names` that are defined in the page. */
const definedTags = (p: Page, names: string[]): Promise<string[]> => p.evaluate((n) => n.filter((t) => customElements.get(t)), names);
/** A lazy chunk of one language's text (stagedoor-de-<hash>.js): the language, or null. */
/** @lit/localize's runtime and ours, fetched with a language other than English. */
const isLocalizeRuntime = (url: string): boolean => /\/stagedoor-(runtime|lit-localize)-[^/]*\.js$/.test(new URL(url).pathname);
const languageChunk = (url: string): string | null => /\/stagedoor-([a-z]{2})-[^/]*\.js$/.exec(new URL(url).pathname)?.[1] ?? null;

function page(head: string, body: string, lang = 'en-GB'): string {
  return `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Bare host page</title>${head}</head><body>${body}</body></html>`;
}

describe('the script-tag bundle in a bare page', () => {
  let dist = '';
  let built: Built | undefined;
  let server: PageServer;
  let browser: Browser;
  /** A performance with a seat map, and an event whose description is HTML. */
  let performanceId = 0;
  let eventId = 0;
  const pages: Record<string, string> = {};

  before(async () => {
    built = await builtBundle();
    dist = built.dist;
    server = await startSandboxSite({ csp: CSP, files: { '/v1/': dist, '/v2/': dist }, pages, secondEndpoint: SECOND });
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
    // A general-admission show: its first tap is "Add".
    const standing = Events.find((e) => e.Name.startsWith('Midnight Brass'));
    assert.ok(standing, 'the sandbox has a general-admission show');
    const standingPerformance = (await api.getEventPerformances({ eventId: standing.EventId })).Performances.find((p) => p.TotalAvailableTickesCount > 20);
    assert.ok(standingPerformance, 'a bookable general-admission performance');
    const script = '<script type="module" src="/v1/stagedoor.js"></script>';
    Object.assign(pages, {
      '/once': page(script, '<booking-provider id="provider" endpoint="/api"><p>inside</p></booking-provider>'),
      // Every element of the README's page, at once.
      '/all': page(script, `<booking-provider endpoint="/api">${tags.filter((t) => t !== 'booking-provider').map((t) => `<${t}></${t}>`).join('')}</booking-provider>`),
      // The list and the calendar, no seat picker: how a theatre's "what is on" page may begin.
      '/list-calendar': page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}`, '<main><event-list></event-list><performance-calendar></performance-calendar></main>'),
      // A header with a timer: nothing else is fetched.
      '/timer': page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}`, '<header><basket-timer></basket-timer></header><main><p>An article.</p></main>'),
      // The list of events alone: the loader asks for the list itself, beside the chunks.
      '/list': page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}`, '<main><event-list></event-list></main>'),
      // The same, from a host that writes its own <head>: the chunks and the list itself as hints (the build's preloadLinks).
      '/list-hinted': page(
        `<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}${preloadLinks(JSON.parse(readFileSync(join(dist, PRELOAD_FILE), 'utf8')), ['event-list'], '/v1/', { endpoint: '/api' })}`,
        '<main><event-list></event-list></main>',
      ),
      // A page whose lang Intl refuses: the loader's early Intl warm-up says nothing, the list shows in English.
      '/list-odd-lang': page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}`, '<main><event-list></event-list></main>', 'not a language!'),
      // No element at load: a single-page router or a CMS adds them later.
      '/later': page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script>${script}`, '<main id="app"><p>Loading…</p></main>'),
      // Two widgets on two endpoints: each its own service, basket and timer.
      '/two': page(
        script,
        `<booking-provider endpoint="/api"><basket-timer id="timer-1"></basket-timer><seat-picker performance-id="${performanceId}"></seat-picker></booking-provider>` +
          `<booking-provider endpoint="${SECOND}"><basket-timer id="timer-2"></basket-timer><event-list></event-list></booking-provider>`,
      ),
      // A seat picker alone: no HTML field on the page, so no sanitizer chunk.
      '/seats': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<header><basket-timer></basket-timer></header><article><seat-picker performance-id="${performanceId}"></seat-picker></article>`,
      ),
      // A seat picker alone, nothing else on the page.
      '/picker': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<main><seat-picker performance-id="${performanceId}"></seat-picker></main>`,
      ),
      // A general-admission performance's picker: areas and prices, no map.
      '/standing': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<main><seat-picker performance-id="${standingPerformance.PerformanceId}"></seat-picker></main>`,
      ),
      // A seat picker and a checkout: the checkout's view loads once seats are added.
      '/basket': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<article><seat-picker performance-id="${performanceId}"></seat-picker></article><aside><checkout-form></checkout-form></aside>`,
      ),
      // The same in an Austrian page: the page's lang picks the German text.
      '/seats-de': page(
        '<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/stagedoor.js"></script>',
        `<header><basket-timer></basket-timer></header><article><seat-picker performance-id="${performanceId}"></seat-picker></article>`,
        'de-AT',
      ),
      // An event's detail: its description is HTML (sanitized by the browser, or by DOMPurify's chunk where it cannot).
      '/event': page('<script type="module" src="/v1/stagedoor.js"></script>', `<event-list endpoint="/api" event-id="${eventId}"></event-list>`),
      // The same bundle three times as three module instances (a CMS that injects the
      // tag twice, and a second copy from another path or version): each run defines nothing new.
      '/twice': page(
        [
          '<script type="module" src="/v1/stagedoor.js"></script>',
          '<script type="module" src="/v1/stagedoor.js?injected-again"></script>',
          '<script type="module" src="/v2/stagedoor.js"></script>',
        ].join(''),
        '<booking-provider id="provider" endpoint="/api"><event-list></event-list></booking-provider>',
      ),
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    built?.remove();
  });

  it('defines every element of a page that holds them all, with no error and no CSP violation', async () => {
    const { page: p, errors, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/all`);
    await p.waitForFunction((names) => names.every((n) => customElements.get(n)), tags);
    await p.waitForFunction((names) => names.every((n) => [...document.querySelectorAll(n)].every((el) => el.shadowRoot)), tags);
    await p.locator('event-list').locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    assert.deepEqual(await definedTags(p, tags), tags);
    await p.waitForLoadState('networkidle');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('fetches only what the page shows: a page with a timer loads the timer, not the other elements', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/timer`);
    await p.waitForFunction(() => Boolean(document.querySelector('basket-timer')?.shadowRoot));
    await p.waitForLoadState('networkidle');
    // The provider comes with the first element (its class is in the core), so one added later finds itself defined.
    assert.deepEqual(await definedTags(p, tags), ['booking-provider', 'basket-timer']);
    assert.equal(requests.filter(isChunkOf('basket-timer')).length, 1);
    for (const other of tags.filter((t) => t !== 'basket-timer' && t !== 'booking-provider')) assert.deepEqual(requests.filter(isChunkOf(other)), [], `<${other}> was fetched`);
    assert.deepEqual(requests.filter(isSanitizerChunk), []);
    // No basket yet: the timer's countdown (its view chunk) is not fetched either.
    assert.deepEqual(requests.filter((u) => /\/stagedoor-basket-timer\.view-/.test(u)), [], 'the countdown was fetched with no basket');
    assert.equal(await p.locator('basket-timer').getAttribute('state'), 'empty');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('asks for the list of events beside the chunks, not after them, once, of the endpoint the list uses', async () => {
    const { page: p, errors, requests } = await withList(browser, `${server.origin}/list`);
    const isList = (path: string) => (u: string) => new URL(u).pathname === path;
    assert.equal(requests.filter(isList('/api/rest/v2/Events')).length, 1, 'the list asked for once (the loader asked, the element took its answer)');
    const timing = await p.evaluate(() => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const list = entries.find((e) => new URL(e.name).pathname === '/api/rest/v2/Events');
      const core = entries.find((e) => /\/stagedoor-core-[\w-]+\.js$/.test(new URL(e.name).pathname));
      return { listStart: list?.startTime ?? Number.NaN, coreEnd: core?.responseEnd ?? Number.NaN };
    });
    assert.ok(timing.listStart < timing.coreEnd, `the list was asked for at ${timing.listStart} ms, after the core chunk arrived at ${timing.coreEnd} ms`);
    assert.deepEqual(errors, []);
    await p.close();

    // A list in a provider of its own endpoint: asked of that endpoint, once.
    const second = await withList(browser, `${server.origin}/two`);
    assert.equal(second.requests.filter(isList(`${SECOND}/rest/v2/Events`)).length, 1);
    assert.equal(second.requests.filter(isList('/api/rest/v2/Events')).length, 0, 'nothing asked of the page\'s default endpoint');
    assert.deepEqual(second.errors, []);
    await second.page.close();
  });

  it('names its loader by a versioned name too, which a page that writes its own head loads (served immutable)', async () => {
    const list = JSON.parse(readFileSync(join(dist, PRELOAD_FILE), 'utf8')) as Record<string, string[]>;
    const versioned = list['stagedoor.js']?.[0] ?? '';
    assert.match(versioned, /^stagedoor-loader-[\w-]{8}\.js$/);
    // The same code as stagedoor.js, but for its source map's name.
    const plain = (name: string) => readFileSync(join(dist, name), 'utf8').replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
    assert.equal(plain(versioned), plain('stagedoor.js'));
    assert.deepEqual(bundleCacheControl(`/v1/${versioned}`), IMMUTABLE);
    pages['/versioned'] = page(`<script type="application/json" data-stagedoor-config>{"endpoint": "/api"}</script><script type="module" src="/v1/${versioned}"></script>`, '<main><event-list></event-list></main>');
    const { page: p, errors, requests, violations } = await withList(browser, `${server.origin}/versioned`);
    assert.deepEqual(requests.filter((u) => new URL(u).pathname === '/v1/stagedoor.js'), []);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('shows the list on a page whose lang Intl refuses, with nothing on the console', async () => {
    const { page: p, errors, violations } = await withList(browser, `${server.origin}/list-odd-lang`);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('takes the list a host\'s <head> preloads: asked for once, with the page, and shown', async () => {
    const { page: p, errors, requests, violations } = await withList(browser, `${server.origin}/list-hinted`);
    const isList = (u: string) => new URL(u).pathname === '/api/rest/v2/Events';
    assert.equal(requests.filter(isList).length, 1, 'the list asked for once');
    // One resource entry, the hint's: neither the loader nor the element sent a request of their own.
    const entries = await p.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => new URL(e.name).pathname === '/api/rest/v2/Events').map((e) => e.initiatorType),
    );
    assert.deepEqual(entries, ['link']);
    assert.ok((await p.locator('event-list').locator('[part~="card"]:not([part~="skeleton"])').count()) > 1, 'the list shows its events');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('defines elements added after load, in new subtrees, a provider before the elements inside it', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/later`);
    await p.waitForLoadState('networkidle');
    assert.deepEqual(await definedTags(p, tags), [], 'nothing on the page, nothing defined');
    // A router renders a list: the loader sees it and defines it.
    await p.evaluate(() => {
      const view = document.createElement('section');
      view.innerHTML = '<h2>What is on</h2><event-list id="first"></event-list>';
      document.getElementById('app')?.replaceChildren(view);
    });
    const cards = (id: string) => p.locator(`#${id}`).locator('[part~="card"]:not([part~="skeleton"])').first();
    await cards('first').waitFor();
    // Later, a provider on another endpoint with a list inside, in one piece of HTML: the provider is
    // defined first, so the list uses the provider's endpoint, not the page's.
    const before = requests.length;
    await p.evaluate((endpoint) => {
      document.getElementById('app')?.insertAdjacentHTML('beforeend', `<booking-provider endpoint="${endpoint}"><div><event-list id="second"></event-list></div></booking-provider>`);
    }, SECOND);
    await cards('second').waitFor();
    const later = requests.slice(before).map((u) => new URL(u).pathname);
    assert.ok(later.some((u) => u.startsWith(`${SECOND}/`)), `the provider's endpoint was used: ${later.join(', ')}`);
    assert.ok(!later.some((u) => u.startsWith('/api/')), 'the list inside the provider did not use the page endpoint');
    // Added and removed before its chunk arrived, then added again: defined once, shown.
    await p.evaluate(() => {
      const el = document.createElement('performance-calendar');
      el.id = 'calendar';
      document.body.append(el);
      el.remove();
      setTimeout(() => document.body.append(el), 0);
    });
    await p.waitForFunction(() => Boolean(document.getElementById('calendar')?.shadowRoot?.firstElementChild));
    assert.equal(requests.filter(isChunkOf('event-list')).length, 1, 'each chunk is fetched once');
    assert.equal(requests.filter(isChunkOf('performance-calendar')).length, 1);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it("defines our elements inside a host's own shadow root when asked to (discover)", async () => {
    const { page: p, errors, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/later`);
    await p.waitForLoadState('networkidle');
    const defined = await p.evaluate(async () => {
      // A host's own component renders a list inside its shadow root, where the document's observer cannot see.
      const host = document.createElement('div');
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<event-list></event-list>';
      document.getElementById('app')?.append(host);
      const url = '/v1/stagedoor.js';
      const loader = (await import(url)) as { discover(root: ShadowRoot): Promise<void> };
      await loader.discover(root);
      return Boolean(customElements.get('event-list'));
    });
    assert.ok(defined);
    await p.waitForFunction(() => {
      const list = document.querySelector('#app > div')?.shadowRoot?.querySelector('event-list');
      return Boolean(list?.shadowRoot?.querySelector('[part~="card"]:not([part~="skeleton"])'));
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('reports an element whose chunk fails to load, loads the others, and tries again when the tag next appears', async () => {
    const { page: p, requests, violations } = await watchedPage(browser);
    const consoleErrors: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    let refused = 0;
    await p.route((url) => isChunkOf('event-list')(url.href), async (route) => {
      if (refused++ === 0) return route.abort('connectionfailed');
      return route.continue();
    });
    await p.goto(`${server.origin}/later`);
    await p.evaluate(() => document.getElementById('app')?.insertAdjacentHTML('beforeend', '<basket-timer></basket-timer><event-list></event-list>'));
    await p.waitForFunction(() => Boolean(document.querySelector('basket-timer')?.shadowRoot));
    await p.waitForLoadState('networkidle');
    assert.ok(consoleErrors.some((e) => /stagedoor: <event-list> could not be loaded/.test(e)), consoleErrors.join('\n'));
    assert.deepEqual(await definedTags(p, ['basket-timer', 'event-list']), ['basket-timer']);
    // The list appears again (the visitor navigates back to it): this time it loads.
    await p.evaluate(() => document.getElementById('app')?.insertAdjacentHTML('beforeend', '<event-list id="again"></event-list>'));
    await p.locator('#again').locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    assert.ok(requests.filter(isChunkOf('event-list')).length >= 2);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it("keeps a held basket when the basket's requests cannot be fetched in another tab, which shows it once they can", async () => {
    const context = await browser.newContext();
    try {
      const first = await watchedPage(context);
      await first.page.goto(`${server.origin}/seats`);
      const picker = first.page.locator('seat-picker');
      assert.ok(await chooseSeatPair(first.page, picker), 'found two seats the service accepts');
      await picker.locator('[part~="add-button"]').first().press('Enter');
      await first.page.locator('basket-timer [part~="time"]').first().waitFor();
      const stored = await first.page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('stagedoor:basket:'))?.[1] ?? '');
      assert.match(stored, /"basketId":"[0-9a-f-]{8,}"/);
      await first.page.close();

      // A page with only the timer, opened while the basket's requests (basket-engine.ts, in the basket chunk) cannot be fetched.
      const second = await watchedPage(context);
      const isEngine = (url: URL): boolean => /\/stagedoor-basket-[\w-]{8}\.js$/.test(url.pathname);
      let refused = 0;
      let reachable = false;
      await second.page.route(isEngine, (route) => (reachable ? route.continue() : (refused++, route.abort('connectionfailed'))));
      await second.page.goto(`${server.origin}/timer`);
      await second.page.waitForFunction(() => Boolean(document.querySelector('basket-timer')?.shadowRoot));
      await second.page.waitForLoadState('networkidle');
      assert.ok(refused >= 1, 'the engine was asked for, and refused');
      // Nothing the customer did is lost: the basket is still kept for the site's tabs.
      assert.equal(await second.page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('stagedoor:basket:'))?.[1] ?? ''), stored);
      // Once it can be fetched, the same page shows the hold.
      reachable = true;
      const before = refused;
      await second.page.reload();
      await second.page.locator('basket-timer [part~="time"]').first().waitFor();
      assert.equal(await second.page.locator('basket-timer').getAttribute('state'), 'normal');
      assert.equal(refused, before);
    } finally {
      await context.close();
    }
  });

  it("says so when the checkout's view cannot be fetched once seats are added, and fetches it again when asked", async () => {
    const { page: p, requests, violations } = await watchedPage(browser);
    const isView = (url: string): boolean => /\/stagedoor-checkout-form\.view-[\w-]+\.js$/.test(new URL(url).pathname);
    let refused = 0;
    await p.route((url) => isView(url.href), async (route) => {
      if (refused++ === 0) return route.abort('connectionfailed');
      return route.continue();
    });
    await p.goto(`${server.origin}/basket`);
    const checkout = p.locator('checkout-form');
    await checkout.getByText('Your basket is empty.').waitFor();
    assert.deepEqual(requests.filter(isView), [], 'an empty basket fetches no more of the checkout');
    const reported = p.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('booking-error', (e) => resolve((e as CustomEvent<{ source: string }>).detail.source), { once: true });
        }),
    );
    const picker = p.locator('seat-picker');
    assert.ok(await chooseSeatPair(p, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    const alert = checkout.locator('[role="alert"]');
    await alert.getByText('We could not reach the box office').waitFor();
    assert.equal(await reported, 'checkout-form');
    await alert.locator('[part~="retry-button"]').click();
    await checkout.locator('[part~="item"]').first().waitFor();
    await checkout.locator('[part~="submit-button"]').waitFor();
    assert.equal(requests.filter(isView).length, 2);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('keeps two endpoints on one page apart: seats added through one leave the other empty', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/two`);
    const picker = p.locator('seat-picker');
    assert.ok(await chooseSeatPair(p, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    await p.locator('#timer-1').locator('[part~="time"]').first().waitFor();
    await p.locator('event-list').locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    // The second widget's timer: its own (empty) basket, on its own endpoint.
    assert.equal(await p.locator('#timer-2').getAttribute('state'), 'empty');
    assert.equal(await p.locator('#timer-2').locator('[part~="time"]').count(), 0);
    const paths = requests.map((u) => new URL(u).pathname);
    assert.ok(paths.some((u) => u.startsWith(`${SECOND}/`)), 'the second widget asked its own endpoint');
    assert.ok(paths.some((u) => u.startsWith('/api/') && /Basket/i.test(u)), 'the first widget built its basket on its endpoint');
    assert.ok(!paths.some((u) => u.startsWith(`${SECOND}/`) && /Basket/i.test(u)), 'no basket operation went to the second endpoint');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('completes a seat selection against the sandbox-backed proxy, without loading the sanitizer', async () => {
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
    await picker.locator('[part~="add-button"]').first().press('Enter');
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
    // Styled as built (the minified view's styles): a bordered box, the label and the time apart.
    const look = await p.evaluate(() => {
      const root = document.querySelector('basket-timer')?.shadowRoot;
      const box = root?.querySelector('[part~="timer"]');
      const label = root?.querySelector('[part~="label"]')?.getBoundingClientRect();
      const time = root?.querySelector('[part~="time"]')?.getBoundingClientRect();
      if (!box || !label || !time) return null;
      const style = getComputedStyle(box);
      return { border: `${style.borderTopWidth} ${style.borderTopStyle}`, gap: style.columnGap, apart: Math.round(time.left - label.right) };
    });
    assert.deepEqual(look, { border: '1px solid', gap: '6px', apart: 6 }, 'the countdown shows as its styles say: "Seats held for 9:59" in a box, not "Seats held for9:59"');

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
    await p.waitForFunction(() => document.querySelector('seat-picker')?.shadowRoot?.querySelectorAll('[part~="seat-button"][part~="in-basket"]').length === 2);

    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    assert.deepEqual(requests.filter(isSanitizerChunk), [], 'no HTML field was shown, so DOMPurify was not fetched');
    assert.deepEqual(requests.filter(languageChunk), [], 'English is built in: no language chunk was fetched');
    assert.deepEqual(requests.filter(isLocalizeRuntime), [], 'nor the runtime that switches languages');
    await p.close();
  });

  it('shows the list and the calendar from four chunks, six requests with the loader and the list, and looks ahead at nothing with no seat picker', async () => {
    // Over HTTP/1.1 a browser sends six requests to a host at once: a seventh waits a round trip,
    // and the calendar's month, asked for on the event's click, waited for the calendar's code.
    const isScript = (url: string) => /\/stagedoor[^/]*\.js$/.test(new URL(url).pathname);
    const isLookup = (url: string) => /\/Performances\/\d+\/(Full)?Availability|\/AreasPrices/.test(new URL(url).pathname);
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/list-calendar`);
    const list = p.locator('event-list');
    await list.locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    await p.waitForLoadState('networkidle');
    // The schema.org markup for search engines is asked for once the list has rested, never in the first round.
    const isMarkup = (name: string) => name.startsWith('stagedoor-event-markup-');
    const scripts = requests.filter(isScript).map((u) => new URL(u).pathname.replace(/^\/v1\//, '')).filter((name) => !isMarkup(name));
    assert.equal(scripts.length, 5, `the loader and four chunks: ${scripts.join(', ')}`);
    // The markup reads each show's venue (Get Venue) for its Place, with its chunk, should the list rest that long.
    const isVenue = (path: string) => /^\/api\/rest\/v2\/Venues\/\d+$/.test(path);
    assert.equal(requests.filter((u) => new URL(u).pathname.startsWith('/api/') && !isVenue(new URL(u).pathname)).length, 1, 'and the list of events');
    for (const prefix of ['stagedoor.js', 'stagedoor-core-', 'stagedoor-shared-', 'stagedoor-event-list-', 'stagedoor-performance-calendar-']) {
      assert.ok(scripts.some((s) => s.startsWith(prefix)), `${prefix} is among ${scripts.join(', ')}`);
    }
    // Pointed at, a performance's seats would be asked for ahead: with no seat picker to take them, nothing is.
    await list.locator('[part~="card-button"]', { hasText: 'The Lantern Keeper' }).first().press('Enter');
    const choice = p.locator('performance-calendar').locator(':is([part~="day-button"][part~="has-performances"], [part~="performance-button"])').first();
    await choice.waitFor();
    await choice.hover();
    await choice.focus();
    await p.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isLookup), [], 'no seats looked up ahead for a picker that is not there');
    // (The flow chunk is stagedoor-flow-<hash>; the history's, fetched with the click, is another: stagedoor-flow-history-<hash>.)
    const forPicker = requests.filter((u) => /\/stagedoor-(seat-[^/]*|flow-[\w-]{8})\.js$/.test(new URL(u).pathname));
    assert.deepEqual(forPicker, [], 'and no seat picker code (where the look-ahead lives) fetched for it');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('with a seat picker on the page, the performance the calendar offers first has its seats asked for ahead, once, and choosing it takes that answer', async () => {
    // The calendar reaches the look-ahead through a slot the seat picker's chunk fills (state/lookahead-slot.ts).
    const isFull = (url: string) => /\/Performances\/\d+\/FullAvailability/.test(new URL(url).pathname);
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/all`);
    // Its lookup leaves once the dates and the event's detail are both in, which may be after the
    // dates show (the page's 'networkidle' was reached at its load, so waiting for it waits for nothing).
    const lookedUp = p.waitForResponse((r) => isFull(r.url()), { timeout: 10_000 });
    await p.locator('event-list').locator('[part~="card-button"]', { hasText: 'The Lantern Keeper' }).first().press('Enter');
    const day = p.locator('performance-calendar').locator('[part~="day-button"][part~="has-performances"]:not([aria-disabled="true"])').first();
    await day.waitFor();
    await lookedUp;
    // The first day with tickets holds one performance to book: its seats are asked for with nothing pointed at.
    const offered = await day.getAttribute('data-day');
    const asked = requests.filter(isFull);
    assert.equal(asked.length, 1, `the offered performance's seats asked for once the dates are in (day ${offered})`);
    // Opened by keyboard, the day's panel takes the focus to its one performance, and Enter chooses it.
    await day.press('Enter');
    await p.keyboard.press('Enter');
    await p.locator('seat-picker').locator('[part~="summary"] [part~="add-button"]').first().waitFor();
    await p.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isFull), asked, 'one request: asked for ahead, and taken by the picker');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it("asks for the seat picker's later part and the chunks it imports at once, not a round trip after it", async () => {
    const later = readdirSync(dist).find((n) => /^stagedoor-seat-picker\.later-[\w-]+\.js$/.test(n));
    assert.ok(later, 'the bundle has the picker\'s later part');
    const imports = [...readFileSync(join(dist, later), 'utf8').matchAll(/\bfrom\s*["']\.\/([^"']+)["']/g)].map((m) => m[1] ?? '');
    const { page: p, errors, requests } = await watchedPage(browser);
    const name = (url: string) => new URL(url).pathname.slice(new URL(url).pathname.lastIndexOf('/') + 1);
    // The later part's answer is held until every chunk it imports that the page has not fetched yet
    // has been asked for (or 5 s have passed): with the later part alone asked for, those are only
    // found once it has arrived, so they are not asked for while it is held.
    let missing: string[] = [];
    let released = -1;
    await p.route(`**/${later}`, async (route) => {
      missing = imports.filter((file) => !requests.some((url) => name(url) === file));
      const until = Date.now() + 5000;
      while (missing.some((file) => !requests.some((url) => name(url) === file)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      released = requests.length;
      await route.continue();
    });
    await p.goto(`${server.origin}/picker`);
    await p.locator('seat-picker').locator('[part~="summary"] [part~="add-button"]').first().waitFor();
    assert.ok(missing.length > 0, `the later part imports chunks the page had not fetched (${imports.join(', ')})`);
    for (const file of missing) {
      const at = requests.findIndex((url) => name(url) === file);
      assert.ok(at >= 0 && at < released, `${file} was asked for only after the later part had arrived`);
    }
    assert.deepEqual(errors, []);
    await p.close();
  });

  it("asks for the seat picker's later part while the seat lookup is still on its way, not a round trip after it", async () => {
    const isLater = (url: string) => /\/stagedoor-seat-picker\.later-[\w-]+\.js$/.test(new URL(url).pathname);
    const { page: p, errors, requests } = await watchedPage(browser);
    // The lookup's answer is held until the later part has been asked for (or 5 s have passed).
    let laterBeforeAnswer: boolean | null = null;
    await p.route(/\/Performances\/\d+\/(Full)?Availability/, async (route) => {
      const until = Date.now() + 5000;
      while (!requests.some(isLater) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      laterBeforeAnswer ??= requests.some(isLater);
      await route.continue();
    });
    await p.goto(`${server.origin}/picker`);
    await p.locator('seat-picker').locator('[part~="summary"] [part~="add-button"]').first().waitFor();
    assert.equal(laterBeforeAnswer, true, 'the later part was asked for only after the lookup answered');
    assert.equal(requests.filter(isLater).length, 1);
    assert.deepEqual(errors, []);
    await p.close();
  });

  it("leaves the basket's requests and the payment's note out of the way to a seat map ready for a tap; the first seat chosen asks for the requests", async () => {
    // The basket chunk (basket-engine.ts, basket-failure.ts), not <basket-timer>'s: named stagedoor-basket-<8-character hash>.js.
    const isBasketChunk = (url: string) => /\/stagedoor-basket-[\w-]{8}\.js$/.test(new URL(url).pathname);
    // The payment in progress with the countdown (stagedoor-payment-<hash>.js) and the seat picker's note (stagedoor-payment-note-<hash>.js).
    const isPaymentChunk = (url: string) => /\/stagedoor-payment-(note-)?[\w-]{8}\.js$/.test(new URL(url).pathname);
    for (const [is, what] of [[isBasketChunk, 'basket'], [isPaymentChunk, 'payment']] as const) assert.ok(readdirSync(dist).some((n) => is(`http://x/${n}`)), `the bundle has a ${what} chunk`);
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/picker`);
    const picker = p.locator('seat-picker');
    const seat = picker.locator('[part~="seat-button"]:not([part~="in-basket"])').nth(1);
    await picker.locator('[part~="summary"] [part~="add-button"]').first().waitFor();
    await seat.waitFor();
    await p.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isBasketChunk), [], 'ready for a tap, with nothing chosen: the basket\'s requests were not fetched');
    assert.deepEqual(requests.filter(isPaymentChunk), [], 'no payment kept: the payment in progress and its note were not fetched');
    // Nor the bundler's runtime (made for a chunk imported both ways, which the later part was while the note imported from it): a request less.
    assert.deepEqual(requests.filter((u) => /\/stagedoor-rolldown-runtime-[\w-]+\.js$/.test(new URL(u).pathname)), [], 'no runtime chunk on the way to a tap');
    const asked = p.waitForRequest((r) => isBasketChunk(r.url()), { timeout: 10_000 });
    await seat.press('Enter');
    await asked;
    await p.waitForLoadState('networkidle');
    assert.equal(requests.filter(isBasketChunk).length, 1, 'a seat chosen: they are fetched, once, before Add is pressed');
    assert.deepEqual(requests.filter(isPaymentChunk), []);
    assert.equal(await picker.locator('[part~="notice"][part~="payment"]').count(), 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it("asks for the basket's requests as soon as a general-admission choice shows, where Add is the first tap", async () => {
    const isBasketChunk = (url: string) => /\/stagedoor-basket-[\w-]{8}\.js$/.test(new URL(url).pathname);
    const { page: p, errors, requests } = await watchedPage(browser);
    const asked = p.waitForRequest((r) => isBasketChunk(r.url()), { timeout: 10_000 });
    await p.goto(`${server.origin}/standing`);
    const picker = p.locator('seat-picker');
    await picker.locator('[part~="general"] [part~="add-button"]').first().waitFor();
    // Asked for with the choice, before any tap: the first Add waits for no download.
    await asked;
    await p.waitForLoadState('networkidle');
    assert.equal(requests.filter(isBasketChunk).length, 1);
    assert.deepEqual(errors, []);
    await p.close();
  });

  it("asks for the seat picker's later part once an event is chosen, before a performance is, not before", async () => {
    const isLater = (url: string) => /\/stagedoor-seat-picker\.later-[\w-]+\.js$/.test(new URL(url).pathname);
    const isLookup = (url: string) => /\/Performances\/\d+\/(Full)?Availability/.test(new URL(url).pathname);
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/all`);
    const list = p.locator('event-list');
    await list.locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    await p.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isLater), [], 'no event chosen yet: nothing fetched for below a seat map');
    const asked = p.waitForRequest((r) => isLater(r.url()), { timeout: 10_000 });
    // The offered performance's lookup leaves once the dates and the detail are both in (see above).
    const lookedUp = p.waitForResponse((r) => isLookup(r.url()), { timeout: 10_000 });
    await list.locator('[part~="card-button"]', { hasText: 'The Lantern Keeper' }).first().press('Enter');
    await asked;
    await p.locator('performance-calendar').locator(':is([part~="day-button"], [part~="performance-button"])').first().waitFor();
    await lookedUp;
    assert.equal(requests.filter(isLater).length, 1, 'the dates show: the later part is fetched ahead, once');
    // No performance chosen: the only lookup is the one the calendar offers first (the pinned Sunday's one matinee), asked ahead.
    assert.equal(await p.locator('seat-picker').locator('[part~="empty"]').count(), 1, 'no performance chosen');
    const lookups = requests.filter(isLookup).map((u) => new URL(u).pathname);
    assert.equal(lookups.length, 1, `one lookup: ${lookups.join(', ')}`);
    assert.match(lookups[0] ?? '', /\/FullAvailability$/);
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('fetches the visitor\'s language, and only that one, as a lazy chunk under the same CSP', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/seats-de`);
    const picker = p.locator('seat-picker');
    await picker.locator('[part~="heading"]').getByText('Wählen Sie Ihre Plätze').waitFor();
    await picker.locator('[part~="seat-button"]').first().waitFor();
    const label = await picker.locator('[part~="seat-button"]').first().getAttribute('aria-label');
    assert.match(label ?? '', /, Reihe \S+, Platz \S+, /, 'the seats are named in German');
    assert.match(label ?? '', /£\s\d+,\d\d/, 'money in Austrian German');
    assert.equal(await picker.getAttribute('lang'), 'de-AT');
    assert.deepEqual(requests.map(languageChunk).filter(Boolean), ['de'], 'the German chunk alone, once');
    assert.ok(requests.some(isLocalizeRuntime), 'with the runtime that switches the text');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it("shows an HTML field through the browser's own Sanitizer API, fetching no sanitizer chunk, under the same CSP", async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    await p.goto(`${server.origin}/event`);
    assert.equal(await p.evaluate(() => typeof (Element.prototype as { setHTML?: unknown }).setHTML), 'function', 'this Chromium has the Sanitizer API');
    const description = p.locator('event-list').locator('[part~="description"]');
    await description.locator('p').first().waitFor();
    assert.match(await description.innerText(), /\S/);
    await p.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter(isSanitizerChunk), [], 'the platform sanitized: DOMPurify was not fetched');
    // Images come from the sandbox through the page's own origin: img-src 'self' covers them.
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('fetches the DOMPurify chunk, once, when an HTML field is shown in a browser without the Sanitizer API, under the same CSP', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    // As in Safari: no Element.setHTML, no Sanitizer.
    await p.addInitScript(() => {
      delete (Element.prototype as { setHTML?: unknown }).setHTML;
      Reflect.deleteProperty(globalThis, 'Sanitizer');
    });
    await p.goto(`${server.origin}/event`);
    const description = p.locator('event-list').locator('[part~="description"]');
    await description.locator('p').first().waitFor();
    assert.match(await description.innerText(), /\S/);
    assert.equal(requests.filter(isSanitizerChunk).length, 1, 'the sanitizer chunk was fetched once');
    assert.deepEqual(errors, []);
    assert.deepEqual(await violations(), []);
    await p.close();
  });

  it('loads twice, and as a second copy, without throwing; the first copy does the work', async () => {
    const { page: p, errors, requests, violations } = await watchedPage(browser);
    const loaded: string[] = [];
    p.on('response', (r) => {
      if (r.url().includes('stagedoor.js')) loaded.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await p.goto(`${server.origin}/twice`);
    await p.locator('event-list').locator('[part~="card"]:not([part~="skeleton"])').first().waitFor();
    await p.waitForLoadState('networkidle');
    assert.equal(loaded.length, 3, `all three copies ran: ${loaded.join(', ')}`);
    assert.deepEqual(await definedTags(p, tags), ['booking-provider', 'event-list']);
    // One copy's chunks only: elements from two copies would have two cores that share no basket.
    const chunkDirs = new Set(requests.filter((u) => /\/stagedoor-[^/]+\.js$/.test(u)).map((u) => new URL(u).pathname.split('/')[1]));
    assert.equal(chunkDirs.size, 1, `chunks came from ${[...chunkDirs].join(' and ')}`);
    // The element on the page upgraded and works (its shadow root renders its slot).
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
