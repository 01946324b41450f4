/**
 * The WordPress plugin in a real WordPress (Debian's 6.1 on PHP 8.2 and
 * MariaDB, started by helpers/wordpress.ts in a throwaway directory), used
 * the way a site owner, an editor and a visitor use it, in headless Chromium:
 *
 * 1. `npm run build`'s zip: the plugin folder with the WHOLE bundle build.
 * 2. WordPress's own installer, then the log-in page.
 * 3. Plugins → Add New → Upload Plugin with the zip, then "Activate Plugin".
 * 4. Settings → Stagedoor: a bad endpoint is refused with a reason (and a
 *    hostile one stays text); then the sandbox-backed proxy (another origin,
 *    allowed by CORS), EUR, and a thank-you page as the return address.
 * 5. An editor scatters the elements: the basket timer as a shortcode in the
 *    theme's footer widget area (Twenty Twenty-One, a classic theme), the
 *    seat picker as a shortcode typed into the content, the checkout form and
 *    the booking confirmation as blocks inserted in the block editor.
 * 6. A page with an event list carries the shows' schema.org JSON-LD in its
 *    HTML as fetched without a browser, valid for the structured-data validator,
 *    and the list's answer itself (the stagedoor-first-list block), from which
 *    the widget shows its cards with no request for the list, and the cards
 *    themselves inside its <event-list> (the element's declarative shadow root),
 *    the same as `stagedoor first-list --cards` prints for that answer. Opened at a
 *    show's address (?stagedoor-event=<id>), the same page's HTML carries that
 *    show's detail instead: the JSON-LD the widget's detail writes, and no cards.
 * 7. A visitor books two seats through it, goes to the payment page, pays,
 *    and lands on the thank-you page with the booking reference.
 * 8. Hostile attributes (shortcodes and block JSON) come out as inert, checked
 *    attributes; editors see what was dropped, visitors do not.
 * 9. The flow in the address turned off and its parameter renamed in the
 *    settings reach the page's configuration, the server's markup and the
 *    widget, which then leaves the address alone.
 * 10. The plugin caused no PHP notice, warning or error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildBundle, buildWordPressPlugin, root } from '../../scripts/build.mjs';
import { createApiClient } from '../../src/api/client.ts';
import type { EventInfo } from '../../src/api/types.ts';
import { firstCardsTemplate, type FirstCardsOptions } from '../../src/server/first-cards.ts';
import { chooseSeatPair, fillCheckout } from './helpers/booking.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';
import { phpHasIntl, startWordPress, type WordPressSite } from './helpers/wordpress.ts';
import { validateJsonLd } from '../elements/helpers/structured-data.ts';

const ADMIN = { user: 'stage-manager', password: 'Curtain-Up-2024!', email: 'stage@example.org' };
const STEP = 30_000;
const SHOW = 'The Lantern Keeper';

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;');

/** The cards printed inside a page's (first) plain <event-list>, or null when it has none. */
function printedCards(html: string): string | null {
  // The list's answer follows them inside the element (the stagedoor-first-list block).
  return /<event-list\b[^>]*>(<template shadowrootmode="open">[\s\S]*?<\/template>)(?:<script type="application\/json" id="stagedoor-first-list" [^>]*>[^<]*<\/script>)?<\/event-list>/.exec(html)?.[1] ?? null;
}

/**
 * The plugin's cards (PHP, wordpress/stagedoor/includes/first-cards.php) against what
 * `stagedoor first-list --cards` prints (firstCardsTemplate) for the same answer: the same bytes.
 * Two spellings aside: esc_html/esc_attr write an apostrophe as `&#039;` (the same character to the
 * browser); and without PHP's intl extension the plugin writes prices plainly (`€20.00`, the
 * element writes them in the visitor's format as it takes over), so then the price texts are left
 * out of the comparison (.ci/run installs php-intl: there the prices are compared too).
 */
async function assertCardsAsNode(printed: string | null, events: EventInfo[], options: FirstCardsOptions, intl: boolean): Promise<void> {
  assert.ok(printed, 'the <event-list> holds the printed cards');
  const node = await firstCardsTemplate(events, options);
  assert.ok(node.length > 1000);
  const prices = (html: string) =>
    html.replace(/(<p part="price" class="price">)[^<]*/g, '$1…').replace(/(<p part="offer" class="offer">(?:<span class="badge">[^<]*<\/span> )?)[^<]*/g, '$1…');
  const php = printed.replaceAll('&#039;', "'");
  if (intl) assert.equal(php, node);
  else assert.equal(prices(php), prices(node), 'the same cards but for the price texts (PHP has no intl here)');
  assert.equal((printed.match(/<li part="card"/g) ?? []).length, events.length, 'a card per show');
}

/** What the WordPress pages of this test may ask the outside world for: nothing. */
function isExternal(url: string, allowed: string[]): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return false;
  return !allowed.some((origin) => url.startsWith(`${origin}/`) || url === origin);
}

describe('the WordPress plugin in a real WordPress', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-wp-build-'));
  let plugin: { zip: string; files: string[] };
  let wp: WordPressSite;
  let service: PageServer;
  let browser: Browser;
  let admin: BrowserContext;
  let performanceId = 0;
  /** Whether the site's PHP formats money with intl (NumberFormatter). */
  let intl = false;
  /** Requests to anywhere but WordPress and the proxy, refused and remembered. */
  const external: string[] = [];
  const pages: { booking?: string; thanks?: string; list?: string } = {};

  before(async () => {
    [plugin, wp] = await Promise.all([buildWordPressPlugin({ outDir: work }), startWordPress({ themes: ['twentytwentyone'] })]);
    service = await startSandboxSite({ pages: {}, files: {}, allowedOrigins: [wp.origin] });
    const api = createApiClient({ endpoint: `${service.origin}/api` });
    const { Events } = await api.getEvents();
    const event = Events.find((e) => e.Name === SHOW);
    assert.ok(event, `the sandbox has ${SHOW}`);
    const { Performances } = await api.getEventPerformances({ eventId: event.EventId });
    const performance = Performances.find((p) => p.DirectlyBookablePerformance && p.TotalAvailableTickesCount > 20);
    assert.ok(performance, 'a bookable performance');
    performanceId = performance.PerformanceId;
    browser = await launchChromium();
    admin = await contextFor(browser);
    intl = await phpHasIntl();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await wp?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function contextFor(b: Browser): Promise<BrowserContext> {
    const context = await b.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(STEP);
    // A closed network: what would leave the machine is refused at once and noted.
    await context.route(
      (url) => isExternal(url.href, [wp.origin, service.origin]),
      (route) => {
        external.push(route.request().url());
        return route.abort();
      },
    );
    return context;
  }

  /** Run a step in a fresh admin tab; on failure keep a screenshot of what the site owner saw. */
  async function asAdmin(name: string, step: (page: Page) => Promise<void>): Promise<void> {
    const page = await admin.newPage();
    try {
      await step(page);
    } catch (error) {
      await page.screenshot({ path: join(root, '.test-results', `wordpress-${name}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await page.close();
    }
  }

  /** The block editor, ready to type in (its first-run guide closed). */
  async function openBlockEditor(page: Page, title: string): Promise<void> {
    await page.goto(`${wp.origin}/wp-admin/post-new.php?post_type=page`);
    const titleField = page.getByRole('textbox', { name: 'Add title' });
    // A new user first meets the editor's welcome guide (rendered with the editor, hiding it from the accessibility tree).
    const guide = page.getByRole('dialog', { name: /welcome/i });
    await titleField.or(guide).first().waitFor();
    if (await guide.isVisible()) await guide.getByRole('button', { name: 'Close dialog' }).click();
    await titleField.fill(title);
    await titleField.press('Enter');
  }

  /** Type "/" and a block's name into an empty paragraph, and take the first match. */
  async function insertBlock(page: Page, search: string, expectedTitle: string): Promise<void> {
    await page.keyboard.type(`/${search}`);
    const option = page.getByRole('option', { name: expectedTitle });
    await option.first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('document', { name: `Block: ${expectedTitle}` }).waitFor();
  }

  /** Publish the page in the editor; returns its address (its permalink). */
  async function publish(page: Page): Promise<string> {
    await page.locator('.editor-post-publish-panel__toggle').click();
    await page.locator('.editor-post-publish-panel .editor-post-publish-button').click();
    await page.locator('.post-publish-panel__postpublish').waitFor();
    const link = await page.evaluate(() => (window as unknown as { wp: { data: { select(s: string): { getPermalink(): string } } } }).wp.data.select('core/editor').getPermalink());
    assert.ok(link.startsWith(`${wp.origin}/`), link);
    return link;
  }

  /** The JSON-LD scripts of a page's HTML as a crawler fetches it (no browser), each parsed; and the HTML. */
  async function markupOf(url: string): Promise<{ scripts: unknown[]; html: string }> {
    const html = await (await fetch(url)).text();
    const scripts = [...html.matchAll(/<script type="application\/ld\+json" data-stagedoor-markup>(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1] ?? 'null') as unknown);
    return { scripts, html };
  }

  /** The list page's address with `name=value` in its query. */
  function listAt(name: string, value: string): string {
    assert.ok(pages.list);
    const url = new URL(pages.list);
    url.searchParams.set(name, value);
    return url.href;
  }

  it('is a zip of the plugin folder holding every file the bundle build emits', async () => {
    assert.ok(plugin.files.every((f) => f.startsWith('stagedoor/')), 'one folder, stagedoor/');
    const header = readFileSync(join(root, 'wordpress/stagedoor/stagedoor.php'), 'utf8');
    assert.match(header, /^\s*\*\s*Plugin Name:\s*Stagedoor$/m);
    const bundle = join(work, 'bundle-only');
    await buildBundle({ outDir: bundle, emptyOutDir: true, sourcemap: false, precompress: false });
    const emitted = readdirSync(bundle).sort();
    assert.ok(emitted.includes('stagedoor.js'));
    const assets = plugin.files.filter((f) => f.startsWith('stagedoor/assets/')).map((f) => f.slice('stagedoor/assets/'.length)).sort();
    assert.deepEqual(assets, emitted, 'assets/ is exactly what a bundle build emits');
    for (const f of ['stagedoor/stagedoor.php', 'stagedoor/elements.json', 'stagedoor/first-cards.json', 'stagedoor/blocks/editor.js', 'stagedoor/uninstall.php']) assert.ok(plugin.files.includes(f), f);
  });

  it('installs WordPress through its own installer and logs in', async () => {
    await asAdmin('install', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/install.php`);
      await page.locator('#weblog_title').fill('The Lyric Quarter');
      await page.locator('#user_login').fill(ADMIN.user);
      await page.locator('#pass1').fill(ADMIN.password);
      await page.locator('#admin_email').fill(ADMIN.email);
      await page.getByRole('button', { name: 'Install WordPress' }).click();
      await page.getByRole('heading', { name: 'Success!' }).waitFor();
      await page.goto(`${wp.origin}/wp-login.php`);
      await page.locator('#user_login').fill(ADMIN.user);
      await page.locator('#user_pass').fill(ADMIN.password);
      await page.locator('#wp-submit').click();
      await page.waitForURL(/\/wp-admin\/?$/);
    });
  });

  it('takes the zip through Plugins → Add New → Upload Plugin, and activates it', async () => {
    await asAdmin('upload', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/plugin-install.php?tab=upload`);
      await page.locator('#pluginzip').setInputFiles(plugin.zip);
      await page.getByRole('button', { name: 'Install Now' }).click();
      await page.getByText('Plugin installed successfully.').waitFor();
      await page.getByRole('link', { name: 'Activate Plugin' }).click();
      await page.getByText('Plugin activated.').waitFor();
      const row = page.locator('tr[data-slug="stagedoor"]');
      await row.getByRole('link', { name: 'Settings' }).waitFor();
      assert.equal(await row.getByRole('link', { name: /^Deactivate/ }).count(), 1, 'Stagedoor is active');
    });
  });

  it('refuses a bad proxy endpoint on Settings → Stagedoor, saying why, with what was typed shown as text', async () => {
    await asAdmin('settings-refused', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/options-general.php?page=stagedoor`);
      const hostile = '"><img src=x onerror="window.__stagedoorXss=1">';
      await page.getByLabel('Proxy endpoint').fill(hostile);
      await page.getByLabel('Currency').fill('pounds');
      await page.getByLabel('Show page address pattern').fill('/shows/wicked');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const endpointError = page.locator('#setting-error-stagedoor-endpoint');
      await endpointError.waitFor();
      assert.match((await endpointError.textContent()) ?? '', /Proxy endpoint: .*is not an address the widget can use/);
      assert.ok(((await endpointError.textContent()) ?? '').includes(hostile), 'the refused value is quoted, as text');
      assert.match((await page.locator('#setting-error-stagedoor-currency').textContent()) ?? '', /“pounds” is not a currency code/);
      assert.equal(await page.evaluate(() => (window as unknown as { __stagedoorXss?: number }).__stagedoorXss), undefined, 'nothing typed ran');
      assert.equal(await page.getByLabel('Proxy endpoint').inputValue(), '', 'the refused endpoint was not saved');
      assert.equal(await page.getByLabel('Currency').inputValue(), 'GBP', 'the refused currency was not saved');
      assert.match((await page.locator('#setting-error-stagedoor-event_href').textContent()) ?? '', /Show page address pattern: “\/shows\/wicked” has no \{EventId\}/);
      // Another site's show page over plain http, or no web address at all: refused too.
      for (const [typed, why] of [['http://elsewhere.example/shows/{EventId}', /must be an https:\/\/ address/], ['javascript:alert(1)//{EventId}', /is not an address the widget can use/]] as const) {
        await page.getByLabel('Show page address pattern').fill(typed);
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.locator('#setting-error-stagedoor-event_href').waitFor();
        assert.match((await page.locator('#setting-error-stagedoor-event_href').textContent()) ?? '', why, typed);
        assert.equal(await page.getByLabel('Show page address pattern').inputValue(), '', `${typed} was not saved`);
      }
    });
  });

  it('lets an editor scatter the elements: timer in a widget area, seat picker as a shortcode, checkout and confirmation as blocks', async () => {
    await asAdmin('thank-you-page', async (page) => {
      await openBlockEditor(page, 'Thank you');
      await insertBlock(page, 'booking confirmation', 'Booking confirmation');
      // The return page is not the booking page: tell the confirmation it shows a success.
      await page.getByLabel('Outcome').selectOption('success');
      pages.thanks = await publish(page);
    });
    await asAdmin('booking-page', async (page) => {
      await openBlockEditor(page, `Tickets: ${SHOW}`);
      await page.keyboard.type('A lamplit ghost story for winter evenings. Choose your seats below.');
      await page.keyboard.press('Enter');
      await page.keyboard.type(`[stagedoor-seat-picker performance-id="${performanceId}"]`);
      await page.keyboard.press('Enter');
      await page.keyboard.type('When your seats are in the basket, check out here:');
      await page.keyboard.press('Enter');
      await insertBlock(page, 'checkout', 'Checkout form');
      pages.booking = await publish(page);
    });
    await asAdmin('widgets', async (page) => {
      // Appearance → Widgets is the block widget editor; it saves through the REST API with the page's nonce, as here.
      await page.goto(`${wp.origin}/wp-admin/widgets.php`);
      await page.waitForFunction(() => typeof (window as unknown as { wp?: { apiFetch?: unknown } }).wp?.apiFetch === 'function');
      // As the widget editor saves: the new widget, then the area's list of widgets with it at the end.
      const footer = await page.evaluate(async (content) => {
        type Sidebar = { id: string; widgets: string[] };
        const { apiFetch } = (window as unknown as { wp: { apiFetch<T>(o: object): Promise<T> } }).wp;
        const widget = await apiFetch<{ id: string }>({ path: '/wp/v2/widgets', method: 'POST', data: { id_base: 'block', sidebar: 'sidebar-1', instance: { raw: { content } } } });
        const area = await apiFetch<Sidebar>({ path: '/wp/v2/sidebars/sidebar-1' });
        const widgets = [...area.widgets.filter((id) => id !== widget.id), widget.id];
        await apiFetch({ path: '/wp/v2/sidebars/sidebar-1', method: 'POST', data: { widgets } });
        return { widget: widget.id, area: await apiFetch<Sidebar>({ path: '/wp/v2/sidebars/sidebar-1' }) };
      }, '<!-- wp:shortcode -->\n[stagedoor-basket-timer show-items empty-text="Your basket is empty"]\n<!-- /wp:shortcode -->');
      assert.ok(footer.area.widgets.includes(footer.widget), 'the timer is in the footer widget area');
    });
  });

  it('points the plugin at the proxy, in euros and British English, returning to the thank-you page', async () => {
    await asAdmin('settings', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/options-general.php?page=stagedoor`);
      await page.getByLabel('Proxy endpoint').fill(`${service.origin}/api/`);
      await page.getByLabel('Currency').fill('eur');
      // The site speaks WordPress's default en-US; the theatre sells in British English (WordPress's own spelling of the tag is accepted).
      await page.getByLabel('Language').fill('en_GB');
      await page.getByLabel('Return page after payment', { exact: true }).fill(pages.thanks ?? '');
      await page.getByLabel('Analytics').selectOption('ga4');
      await page.getByLabel('Show page address pattern').fill('/shows/{EventId}/?from=list');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Settings saved.').waitFor();
      assert.equal(await page.getByLabel('Proxy endpoint').inputValue(), `${service.origin}/api`, 'kept without the trailing slash');
      assert.equal(await page.getByLabel('Currency').inputValue(), 'EUR');
      assert.equal(await page.getByLabel('Language').inputValue(), 'en-GB');
      assert.equal(await page.getByLabel('Analytics').inputValue(), 'ga4');
    });
  });

  it('prints the shows as schema.org JSON-LD in the page\'s HTML, valid for a crawler that runs no script', async () => {
    let url = '';
    await asAdmin('markup-page', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/widgets.php`);
      await page.waitForFunction(() => typeof (window as unknown as { wp?: { apiFetch?: unknown } }).wp?.apiFetch === 'function');
      const created = await page.evaluate(async () => {
        const { apiFetch } = (window as unknown as { wp: { apiFetch(o: object): Promise<{ link: string }> } }).wp;
        return apiFetch({ path: '/wp/v2/pages', method: 'POST', data: { title: 'What is on', content: '[stagedoor-event-list]', status: 'publish' } });
      });
      url = created.link; // the page's permalink: the Offer's url
    });
    pages.list = url;
    // No browser: the HTML as a crawler fetches it.
    const html = await (await fetch(url)).text();
    const scripts = [...html.matchAll(/<script type="application\/ld\+json" data-stagedoor-markup>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
    assert.equal(scripts.length, 1, 'one JSON-LD script');
    assert.ok(html.indexOf('data-stagedoor-markup') < html.indexOf('</head>'), 'in the head');
    const items = [JSON.parse(scripts[0]!)].flat() as Array<Record<string, any>>;
    const { Events } = await createApiClient({ endpoint: `${service.origin}/api` }).getEvents();
    assert.equal(items.length, Math.min(Events.length, 20));
    const show = items.find((i) => i.name === SHOW);
    assert.ok(show, `${SHOW} is marked`);
    assert.match(show.startDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    assert.equal(show.offers.priceCurrency, 'EUR');
    assert.equal(show.offers.url, url);
    assert.equal(show.location['@type'], 'Place');
    const schemaOrg = JSON.parse(readFileSync(join(root, 'node_modules/schemaorg-jsd/dist/schemaorg.jsonld'), 'utf8'));
    const issues = await validateJsonLd(items, schemaOrg);
    assert.deepEqual(issues.filter((i) => i.severity === 'ERROR'), []);
    // What a list does not give: its shows' descriptions and casts, and the day sales opened.
    assert.deepEqual([...new Set(issues.flatMap((i) => i.fieldNames ?? []))].sort(), ['description', 'offers.validFrom', 'performer']);

    // The list's answer as the proxy sent it, for the widget (the one fetch the JSON-LD reads, kept in a transient).
    const blocks = [...html.matchAll(/<script type="application\/json" id="stagedoor-first-list" ([^>]*)>(.*?)<\/script>/gs)];
    assert.equal(blocks.length, 1, 'one first-list block');
    const [, attributes = '', body = ''] = blocks[0] ?? [];
    const data = Object.fromEntries([...attributes.matchAll(/data-([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    assert.equal(data.endpoint, `${service.origin}/api`);
    assert.equal(data['max-age'], '300', "the proxy's cache life of the list");
    const fetchedAt = Date.parse(data['fetched-at'] ?? '');
    assert.ok(Math.abs(Date.now() - fetchedAt) < 120_000, `fetched just now (${data['fetched-at']})`);
    assert.deepEqual(JSON.parse(body), JSON.parse(await (await fetch(`${service.origin}/api/rest/v2/Events`)).text()));
    assert.doesNotMatch(body, /</, 'nothing in it can close the script element');
    assert.doesNotMatch(html, /rel="preload" as="fetch"/, 'the list the page carries is not asked for');
    // Read again from the transient: the same fetch, not a new one.
    const again = await (await fetch(url)).text();
    assert.ok(again.includes(`data-fetched-at="${data['fetched-at']}"`), 'the second page view reuses the first fetch');

    // The cards themselves inside the <event-list>, from that same answer: what `stagedoor first-list --cards` prints for it,
    // in the configured language and currency, linking to the configured show page.
    const listed = (JSON.parse(body) as { Events: EventInfo[] }).Events;
    const cards = printedCards(html);
    await assertCardsAsNode(cards, listed, { lang: 'en-GB', currency: 'EUR', pageUrl: url, eventParam: 'stagedoor-event', eventHref: '/shows/{EventId}/?from=list' }, intl);
    assert.ok(cards?.includes(`>${SHOW}</a>`) && cards.includes('href="/shows/'), 'the show, linking to its page');
    assert.ok(html.indexOf('<event-list><template shadowrootmode="open">') > html.indexOf('</head>'), 'in the body, inside the element');
    // The list's answer right after them, inside the element: the first card does not wait for its bytes.
    assert.match(html, /<\/template><script type="application\/json" id="stagedoor-first-list" [^>]*>[^<]*<\/script><\/event-list>/, "the list's answer follows the cards");
    // A plugin that runs the post's content in the head and drops it (for a description, a reading
    // time) does not take the block with it: the page still carries it once, after the cards.
    const mu = join(wp.dir, 'www', 'wp-content', 'mu-plugins');
    mkdirSync(mu, { recursive: true });
    writeFileSync(join(mu, 'content-in-head.php'), "<?php\nadd_action( 'wp_head', function () { if ( is_singular() ) { apply_filters( 'the_content', get_post()->post_content ); } }, 1 );\n");
    try {
      const dropped = await (await fetch(url)).text();
      assert.equal([...dropped.matchAll(/id="stagedoor-first-list"/g)].length, 1, 'one block, with the content run in the head');
      assert.match(dropped, /<\/template><script type="application\/json" id="stagedoor-first-list" [^>]*>[^<]*<\/script><\/event-list>/, 'after the cards');
    } finally {
      rmSync(join(mu, 'content-in-head.php'));
    }

    // The widget shows its cards from it and never asks for the list.
    const visitor = await contextFor(browser);
    const { page, errors, requests } = await watchedPage(visitor);
    try {
      await page.goto(url);
      await page.locator('event-list').getByRole('link', { name: SHOW }).waitFor();
      assert.deepEqual(requests.filter((u) => /\/rest\/v2\/Events(\?|$)/.test(u)), [], 'no request for the list');
      assert.deepEqual(errors, []);
    } finally {
      await visitor.close();
    }
  });

  it("prints one show's detail as JSON-LD in the HTML of the list's page opened at its address: the widget's own, valid for the validator", async () => {
    const api = createApiClient({ endpoint: `${service.origin}/api` });
    const { Events } = await api.getEvents();
    const event = Events.find((e) => e.Name === SHOW);
    assert.ok(event);
    const { Performances } = await api.getEventPerformances({ eventId: event.EventId });
    const next = [...Performances].sort((a, b) => a.PerformanceDate.localeCompare(b.PerformanceDate)).slice(0, 10);
    const address = listAt('stagedoor-event', String(event.EventId));
    const { scripts, html } = await markupOf(address);
    assert.equal(scripts.length, 1, 'one JSON-LD script');
    assert.ok(html.indexOf('data-stagedoor-markup') < html.indexOf('</head>'), 'in the head');
    // The element opens the show at once: no cards of the list are printed for it.
    assert.match(html, /<event-list><\/event-list>/);
    assert.doesNotMatch(html, /shadowrootmode/);
    const items = [scripts[0]].flat() as Array<Record<string, any>>;
    // One TheaterEvent per performance, the next 10, each at its date with the venue's offset, its lowest price and whether seats are left.
    assert.equal(items.length, next.length);
    assert.ok(next.length > 3, 'the show has more than three performances');
    items.forEach((item, i) => {
      const p = next[i]!;
      assert.equal(item['@type'], 'TheaterEvent');
      assert.equal(item.name, SHOW);
      assert.match(item.startDate, new RegExp(`^${p.PerformanceDate.slice(0, 19)}[+-]\\d\\d:\\d\\d$`));
      assert.deepEqual(item.offers, {
        '@type': 'Offer',
        price: p.MinimumTicketPrice,
        priceCurrency: 'EUR',
        availability: p.TotalAvailableTickesCount > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
        url: address,
      });
      assert.equal(item.location['@type'], 'Place');
    });
    assert.ok(items.some((i) => i.offers.availability.endsWith('SoldOut')), 'a sold-out performance says so');
    // The service's description as text (its markup gone), and the cast as performers.
    const first = items[0]!;
    assert.match(first.description, /storm-wrecked island/);
    assert.doesNotMatch(first.description, /[<>]/);
    assert.ok(first.performer.length > 0 && first.performer.every((p: Record<string, unknown>) => p['@type'] === 'Person' && typeof p.name === 'string'));
    const schemaOrg = JSON.parse(readFileSync(join(root, 'node_modules/schemaorg-jsd/dist/schemaorg.jsonld'), 'utf8'));
    const issues = await validateJsonLd(items, schemaOrg);
    assert.deepEqual(issues.filter((i) => i.severity === 'ERROR'), []);
    // What a performance does not give: its end, and the day sales opened (as the widget's detail, test/elements/event-markup.test.ts).
    assert.deepEqual([...new Set(issues.flatMap((i) => i.fieldNames ?? []))].sort(), ['endDate', 'offers.validFrom']);
    // The later steps of the same show (its dates, a seat map) name the same show: the same markup.
    for (const value of [`${event.EventId}-dates`, `${event.EventId}-${performanceId}`]) {
      assert.deepEqual((await markupOf(listAt('stagedoor-event', value))).scripts, scripts, value);
    }
    // An event the list does not hold, or no event at all: no markup (and no PHP warning: the last test).
    for (const value of ['999999999', '0', 'abc', '', `${event.EventId}-x`, `${event.EventId}-dates-2`, `-${event.EventId}`, '1'.repeat(40)]) {
      assert.deepEqual((await markupOf(listAt('stagedoor-event', value))).scripts, [], JSON.stringify(value));
    }
    // Another parameter (as the browser reads names: `stagedoor-event[]` is not `stagedoor-event`): the list, as the widget shows it.
    const array = `${pages.list}${pages.list!.includes('?') ? '&' : '?'}stagedoor-event[]=${event.EventId}`;
    assert.deepEqual((await markupOf(array)).scripts, (await markupOf(pages.list!)).scripts, 'stagedoor-event[]');

    // The widget, on the page opened at that address, writes the same JSON-LD in its own light DOM.
    const visitor = await contextFor(browser);
    const { page, errors } = await watchedPage(visitor);
    try {
      await page.goto(address);
      const written = await page.waitForFunction(() => {
        const text = document.querySelector('event-list > script[data-stagedoor-markup]')?.textContent;
        const parsed = text ? ([JSON.parse(text)].flat() as Array<{ offers?: { url?: string } }>) : [];
        return parsed.length > 0 && parsed[0]?.offers?.url === location.href ? parsed : null;
      });
      assert.deepEqual(await written.jsonValue(), items);
      assert.deepEqual(errors, []);
    } finally {
      await visitor.close();
    }
  });

  it('lets a visitor book two seats through it, pay on the payment page, and come back to the booking', async () => {
    assert.ok(pages.booking && pages.thanks);
    const visitor = await contextFor(browser);
    const { page, errors, requests } = await watchedPage(visitor);
    try {
      const response = await page.goto(pages.booking);
      // The page as WordPress wrote it: one module script, the bundle's entry from the plugin's own folder
      // (the entry may fetch more files from beside itself: all of them must be files of the zip).
      const html = (await response?.text()) ?? '';
      const entries = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*\/plugins\/stagedoor\/[^"]*)"[^>]*>/g)];
      assert.equal(entries.length, 1, 'one script tag for the widget');
      const [tag = '', src = ''] = entries[0] ?? [];
      assert.match(tag, /type="module"/);
      assert.ok(src.startsWith(`${wp.origin}/wp-content/plugins/stagedoor/assets/stagedoor.js`), src);
      const config = await page.evaluate(() => JSON.parse(document.querySelector('script[data-stagedoor-config]')?.textContent ?? 'null'));
      assert.deepEqual(config, { currency: 'EUR', endpoint: `${service.origin}/api`, locale: 'en-GB', successUrl: pages.thanks, analytics: 'ga4', eventHref: '/shows/{EventId}/?from=list' });
      // Where the editor put each element.
      const timer = page.locator('.widget-area basket-timer');
      const picker = page.locator('.entry-content seat-picker');
      const checkout = page.locator('.entry-content checkout-form');
      assert.equal(await page.locator('.entry-content basket-timer').count(), 0, 'the timer is in the widget area, not the content');
      assert.equal(await picker.getAttribute('performance-id'), String(performanceId));
      await timer.getByText('Your basket is empty').waitFor();
      // What the three elements load is asked for beside the entry (modulepreload hints from the build's
      // stagedoor-preload.json), not a round trip after it has run, and each file once: the entry's
      // imports took the hinted ones.
      const preload = JSON.parse(readFileSync(join(work, 'wordpress', 'stagedoor', 'assets', 'stagedoor-preload.json'), 'utf8')) as Record<string, string[]>;
      const wanted = new Set(['seat-picker', 'checkout-form', 'basket-timer'].flatMap((tag) => preload[tag] ?? []));
      const hinted = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1] ?? '');
      assert.ok(wanted.size >= 3, 'the build lists the elements\' files');
      assert.deepEqual(new Set(hinted.map((u) => u.replace(`${wp.origin}/wp-content/plugins/stagedoor/assets/`, ''))), wanted);
      assert.ok(html.indexOf('rel="modulepreload"') < html.indexOf(src), 'the hints come before the entry');
      for (const file of wanted) assert.equal(requests.filter((u) => u.endsWith(`/assets/${file}`)).length, 1, `${file} was fetched once`);
      assert.doesNotMatch(html, /rel="preload" as="fetch"/, 'no list of events on this page, so none asked for');

      assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
      await picker.locator('[part~="add-button"]').first().press('Enter');
      // The timer in the footer and the checkout in the content share the basket the picker filled.
      await timer.locator('[part~="time"]').first().waitFor();
      const item = checkout.getByRole('listitem', { name: SHOW });
      await item.waitFor();
      assert.equal(await item.getByRole('row').count(), 3, 'a header row and two tickets');
      assert.match((await item.textContent()) ?? '', /€/, 'prices in the configured currency');

      await fillCheckout(checkout);
      await checkout.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL((url) => url.href.startsWith(`${service.origin}/sandbox/pay/`));
      await page.getByRole('button', { name: /^Pay\b/ }).click();

      // The payment page sends the customer to the configured return page (it may add its own query parameters).
      await page.waitForURL((url) => url.href.split('?')[0] === pages.thanks);
      await page.getByRole('heading', { name: /your booking is confirmed/i }).first().waitFor({ timeout: 60_000 });
      assert.match((await page.getByText(/^Booking reference/).first().textContent()) ?? '', /Booking reference\s*\S{4,}/);
      assert.deepEqual(errors, []);
      // Only WordPress and the proxy were asked for anything by our elements; the plugin loads nothing from a CDN.
      assert.deepEqual(external.filter((u) => /stagedoor|\/api\//.test(u)), []);
      const fetched = requests.filter((u) => u.includes('/plugins/stagedoor/')).map((u) => new URL(u).pathname.replace(/^\/wp-content\/plugins\//, ''));
      assert.ok(fetched.includes('stagedoor/assets/stagedoor.js'));
      for (const file of fetched) assert.ok(plugin.files.includes(file), `${file} was requested and is in the zip`);
    } catch (error) {
      await page.screenshot({ path: join(root, '.test-results', 'wordpress-visitor.png'), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await visitor.close();
    }
  });

  it('writes what editors type as checked, inert attributes, and tells editors (only) what it dropped', async () => {
    const content = [
      `[stagedoor-seat-picker performance-id='1" onmouseover="window.__stagedoorXss=1' mode="best-available"]`,
      '[stagedoor-basket-timer empty-text="<img src=x onerror=window.__stagedoorXss=2>Nothing held" show-items="yes"]',
      // A show page pattern written as a character reference: the printed cards must not link to javascript:.
      '[stagedoor-event-list endpoint="https://evil.example/api" onclick="window.__stagedoorXss=3" event-type="2" event-href="&#x6A;avascript:alert({EventId})"]',
      // Pasted from a word processor: typographic quotes, taken off as the editor meant.
      '[stagedoor-performance-calendar event-id=”12″]',
      // A word that is no attribute.
      '[stagedoor-checkout-form now]',
      '<!-- wp:stagedoor/seat-picker {"performanceId":"1\\u0022 onfocus=\\u0022window.__stagedoorXss=4","mode":"\\u003cscript\\u003e","maxSeats":4} /-->',
    ].join('\n\n');
    let url = '';
    await asAdmin('hostile-page', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/widgets.php`);
      await page.waitForFunction(() => typeof (window as unknown as { wp?: { apiFetch?: unknown } }).wp?.apiFetch === 'function');
      const created = await page.evaluate(async (text) => {
        const { apiFetch } = (window as unknown as { wp: { apiFetch(o: object): Promise<{ id: number }> } }).wp;
        return apiFetch({ path: '/wp/v2/pages', method: 'POST', data: { title: 'Hostile attributes', content: text, status: 'publish' } });
      }, content);
      url = `${wp.origin}/?page_id=${created.id}`;
      // The editor sees what was dropped, and why.
      await page.goto(url);
      const notes = (await page.locator('.stagedoor-problems').allTextContents()).join('\n');
      assert.match(notes, /performance-id="1" onmouseover="window.__stagedoorXss=1" was ignored: it must be a number/);
      assert.match(notes, /“endpoint” is not an attribute of this shortcode/);
      assert.match(notes, /“onclick” is not an attribute of this shortcode/);
      assert.match(notes, /“now” could not be read: write name="value"/);
    });

    const visitor = await contextFor(browser);
    const page = await visitor.newPage();
    try {
      const response = await page.goto(url);
      const html = (await response?.text()) ?? '';
      const content = html.slice(html.indexOf('entry-content'), html.indexOf('</article>'));
      const tags = [...content.matchAll(/<(seat-picker|basket-timer|event-list|performance-calendar|checkout-form)\b[^>]*>/g)].map((m) => m[0]);
      assert.deepEqual(tags, [
        '<seat-picker mode="best-available">',
        '<basket-timer show-items empty-text="Nothing held">',
        '<event-list event-type="2" event-href="&#x6A;avascript:alert({EventId})">',
        '<performance-calendar event-id="12">',
        '<checkout-form>',
        '<seat-picker max-seats="4">',
      ]);
      assert.doesNotMatch(content, /__stagedoorXss|evil\.example|stagedoor-problems/, 'nothing hostile, and no editor note for visitors');
      // The list of events its <event-list> asks for first, in the page itself: on the page's
      // endpoint (never the one typed into the shortcode), so not asked for again beside the entry.
      assert.match(html, new RegExp(`<script type="application/json" id="stagedoor-first-list" data-endpoint="${service.origin}/api" data-event-type="2" `), 'the list of type 2 is in the page');
      assert.doesNotMatch(html, /rel="preload" as="fetch"/);
      assert.doesNotMatch(html, /evil\.example/);
      // The cards printed for that list link only to web addresses, read as the browser reads their attributes.
      const cards = printedCards(html);
      assert.ok(cards, 'the list of type 2 has its cards');
      const hrefs = [...cards.matchAll(/ href="([^"]*)"/g)].map((m) => m[1] ?? '');
      assert.ok(hrefs.length > 0);
      for (const href of await page.evaluate((all) => all.map((h) => new URL(new DOMParser().parseFromString(`<a href="${h}">`, 'text/html').querySelector('a')!.getAttribute('href') ?? '', location.href).protocol), hrefs)) {
        assert.match(href, /^https?:$/);
      }
      await page.locator('seat-picker').first().hover();
      await page.locator('seat-picker').nth(1).focus();
      assert.equal(await page.evaluate(() => (window as unknown as { __stagedoorXss?: number }).__stagedoorXss), undefined);
    } finally {
      await visitor.close();
    }
  });

  it('turns the flow in the address off and renames its parameter in the settings: the page, the server and the widget follow, and the address is left alone', async () => {
    await asAdmin('settings-history', async (page) => {
      await page.goto(`${wp.origin}/wp-admin/options-general.php?page=stagedoor`);
      assert.equal(await page.getByLabel('Booking steps in the address').inputValue(), '', 'on by default');
      // The payment return's marker, WordPress's own parameters and what no address can hold are refused, saying why.
      for (const [typed, why] of [['stagedoor', /marks the customer’s return from payment/], ['page_id', /one of WordPress’s own address parameters/], ['show&x', /cannot name the parameter/]] as const) {
        await page.getByLabel('Address parameter').fill(typed);
        await page.getByRole('button', { name: 'Save Changes' }).click();
        await page.locator('#setting-error-stagedoor-event_param').waitFor();
        assert.match((await page.locator('#setting-error-stagedoor-event_param').textContent()) ?? '', why, typed);
        assert.equal(await page.getByLabel('Address parameter').inputValue(), '', `${typed} was not saved`);
      }
      await page.getByLabel('Address parameter').fill('show');
      await page.getByLabel('Booking steps in the address').selectOption('off');
      // The cards then link to the list's own page, naming the show under the new name.
      await page.getByLabel('Show page address pattern').fill('');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Settings saved.').waitFor();
      assert.equal(await page.getByLabel('Address parameter').inputValue(), 'show');
      assert.equal(await page.getByLabel('Booking steps in the address').inputValue(), 'off');
    });
    const { EventId } = (await createApiClient({ endpoint: `${service.origin}/api` }).getEvents()).Events.find((e) => e.Name === SHOW)!;
    const address = listAt('show', String(EventId));
    // The page's configuration carries both; the server's markup reads the new name (and no longer the old one).
    const { scripts, html } = await markupOf(address);
    const config = JSON.parse(/<script type="application\/json" data-stagedoor-config>(.*?)<\/script>/s.exec(html)?.[1] ?? 'null');
    assert.equal(config.history, 'off');
    assert.equal(config.eventParam, 'show');
    const items = [scripts[0]].flat() as Array<Record<string, any>>;
    assert.ok(items.length > 0 && items.every((i) => i.name === SHOW && i.offers.url === address), "the show's detail, under ?show=");
    const old = [(await markupOf(listAt('stagedoor-event', String(EventId)))).scripts[0]].flat() as Array<Record<string, any>>;
    assert.ok(new Set(old.map((i) => i.name)).size > 1, '?stagedoor-event= is now just another parameter: the list');
    // The printed cards: none at the show's address under the new name; on the list, links to this page with ?show=<id>.
    assert.doesNotMatch(html, /shadowrootmode/);
    // Without cards, the list's answer is still in the page, after the content (the footer).
    assert.ok(html.indexOf('id="stagedoor-first-list"') > html.indexOf('</event-list>'), "the list's answer, in the footer");
    const list = (await markupOf(pages.list!)).html;
    const body = /<script type="application\/json" id="stagedoor-first-list" [^>]*>(.*?)<\/script>/s.exec(list)?.[1] ?? '';
    await assertCardsAsNode(printedCards(list), (JSON.parse(body) as { Events: EventInfo[] }).Events, { lang: 'en-GB', currency: 'EUR', pageUrl: pages.list, eventParam: 'show' }, intl);
    assert.ok(printedCards(list)?.includes(`href="${escapeHtml(listAt('show', String(EventId)))}"`), `the card links to ${listAt('show', String(EventId))}`);

    // The widget opens the show the address names under the new name, and going back to the list leaves the address (and the history) as they were.
    const visitor = await contextFor(browser);
    const { page, errors } = await watchedPage(visitor);
    try {
      await page.goto(address);
      const list = page.locator('event-list');
      await list.getByRole('heading', { name: SHOW, level: 2 }).waitFor();
      const entries = await page.evaluate(() => history.length);
      await list.getByRole('button', { name: 'Back to all shows' }).click();
      await list.getByRole('link', { name: SHOW }).waitFor();
      assert.equal(page.url(), address, 'the address is as the page was opened');
      assert.equal(await page.evaluate(() => history.length), entries, 'no history entry was added');
      assert.equal(await page.evaluate(() => history.state), null, 'nor the entry marked');
      assert.deepEqual(errors, []);
    } finally {
      await visitor.close();
    }
  });

  it('caused no PHP notice, warning or error in the plugin', () => {
    const ours = wp.debugLog().split('\n').filter((line) => line.includes('/plugins/stagedoor/'));
    assert.deepEqual(ours, []);
  });
});
