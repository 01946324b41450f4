/**
 * The demo site as `stagedoor serve` ships it (dist/demo: the pages loading
 * the built bundle), on the sandbox-backed proxy, in Chromium: every page at
 * a phone's 360 px and a desktop's 1280 px upgrades every element it holds,
 * reports no error and scrolls no sideways. The themed page restyles the
 * widget only through ::part() and --booking-* custom properties.
 *
 * The sandbox's clock and the pages' run from one fixed instant in the last
 * days of a month (helpers/pinned-clock.ts), whatever today is: a show with
 * nothing left this month is walked every time.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { registrationFiles, root } from '../../scripts/build.mjs';
import { chooseSeatPair, choosePerformance } from './helpers/booking.ts';
import { builtDemo } from './helpers/built-demo.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import type { PageServer } from './helpers/page-server.ts';
import { pinnedClock } from './helpers/pinned-clock.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';
import { validateJsonLd } from '../elements/helpers/structured-data.ts';

const demoPages = ['index.html', 'cms.html', 'themed.html'];

const widths = [360, 1280];
const widgetTags = registrationFiles().map((r) => r.tag);

describe('the demo site (built)', () => {
  let demo = '';
  let built: Awaited<ReturnType<typeof builtDemo>> | undefined;
  let server: PageServer;
  let browser: Browser;

  before(async () => {
    built = await builtDemo();
    demo = built.dir;
    server = await startSandboxSite({ files: { '/': demo }, pages: {} });
    browser = await launchChromium();
  });
  /** A page of its own, its clock set to the sandbox's (closing the page ends its context). */
  async function pinnedPage(): Promise<Awaited<ReturnType<typeof watchedPage>>> {
    const context = await browser.newContext();
    await context.clock.install({ time: pinnedClock.now() });
    const watched = await watchedPage(context);
    // The browser may be closing already (the last test's page): nothing is left to end then.
    watched.page.on('close', () => void context.close().catch(() => undefined));
    return watched;
  }

  after(async () => {
    await browser?.close();
    await server?.close();
    built?.remove();
  });

  it('loads the built bundle, not the TypeScript sources, with its own chunks hinted in its <head>', () => {
    for (const name of demoPages) {
      const html = readFileSync(join(demo, name), 'utf8');
      // By its versioned name (cached immutable): the page is written with this build.
      const loader = /<script type="module" src="\/(stagedoor-loader-[\w-]{8}\.js)"><\/script>/.exec(html)?.[1] ?? '';
      assert.ok(loader && existsSync(join(demo, loader)), `${name} loads the versioned loader, which is there`);
      assert.doesNotMatch(html, /src="\/src\//, name);
      // The demo page is the host: it lists the chunks of the elements it holds (dist/stagedoor-preload.json).
      const head = html.slice(0, html.indexOf('</head>'));
      const hinted = [...head.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g)].map((m) => m[1] ?? '');
      assert.ok(hinted.some((f) => /^stagedoor-core-/.test(f)), `${name} hints the core`);
      for (const file of hinted) assert.ok(existsSync(join(demo, file)), `${name} hints ${file}, which is not there`);
    }
  });

  for (const name of demoPages) {
    for (const width of widths) {
      it(`${name} at ${width} px: every element upgrades, no error, no sideways scroll`, async () => {
        const { page, errors } = await pinnedPage();
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.origin}/${name}`);
        const tags = await page.evaluate((known) => known.filter((t) => document.querySelector(t)), widgetTags);
        assert.ok(tags.length > 0, 'the page holds Stagedoor elements');
        await page.waitForFunction((present) => present.every((t) => [...document.querySelectorAll(t)].every((el) => el.shadowRoot)), tags);
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow} px wider than the ${width} px window`);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  }

  for (const width of widths) {
    it(`cms.html at ${width} px with a performance chosen and its seat map open: no sideways scroll`, async () => {
      const { page, errors } = await pinnedPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.origin}/cms.html`);
      await choosePerformance(page.locator('performance-calendar'));
      await page.locator('seat-picker').locator('[part~="seat-button"]').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the ${width} px window`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  it('books tickets end to end on the CMS page: seats, checkout, the sandbox payment page, the confirmation', async () => {
    const { page, errors } = await pinnedPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.origin}/cms.html`);
    await choosePerformance(page.locator('performance-calendar'));
    const picker = page.locator('seat-picker');
    assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');

    // The checkout in the sidebar shares the basket the article's picker filled.
    const checkout = page.locator('checkout-form');
    await checkout.locator('[part~="item"]').first().waitFor();
    await checkout.getByLabel('First name').fill('Ada');
    await checkout.getByLabel('Last name').fill('Lovelace');
    await checkout.getByLabel('E-mail address').fill('ada@example.com');
    for (const box of await checkout.locator('[part~="notice"][part~="required"] input[type="checkbox"]').all()) await box.check();
    await checkout.locator('[part~="submit-button"]').press('Enter');

    // The sandbox's payment page, then back to the page the order named.
    await page.waitForURL(/\/sandbox\/pay\//);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/cms\.html\?.*stagedoor=success/);
    const reference = page.locator('booking-confirmation').locator('[part~="reference"]');
    await reference.waitFor();
    assert.match(await reference.innerText(), /SD-[A-Z0-9]{8}/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a general-admission show asks for its areas and prices, never for a seat map it has not got: no 400, no console error', async () => {
    const { page, errors, requests } = await pinnedPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.origin}/index.html`);
    const card = page.locator('event-list').locator('[part~="card-button"]').filter({ hasText: 'Midnight Brass' });
    await card.first().press('Enter');
    // Nothing is left of November: the calendar opens on December and says why.
    const calendar = page.locator('performance-calendar');
    await calendar.locator('[part="next-performance"]').waitFor();
    assert.match(await calendar.locator('[part="next-performance"]').innerText(), /^Nothing left to book in November 2026: the next performance is on Friday,? 4 December 2026\.$/);
    assert.equal(await calendar.locator('[part="month-heading"]').innerText(), 'December 2026');
    await choosePerformance(page.locator('performance-calendar'));
    await page.locator('seat-picker').locator('[part~="general"]').first().waitFor();
    assert.ok(requests.some((url) => url.includes('/AreasPrices')), 'asked AreasPrices');
    assert.deepEqual(requests.filter((url) => url.includes('/FullAvailability')), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('books in German end to end on the theatre site: the widget, the sandbox payment page and the confirmation all German', async () => {
    const { page, errors, requests } = await pinnedPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.origin}/index.html?lang=de`);
    await page.locator('event-list').getByRole('link', { name: /./ }).first().waitFor();
    await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter');
    await choosePerformance(page.locator('performance-calendar'));
    const picker = page.locator('seat-picker');
    await picker.getByRole('heading', { name: 'Wählen Sie Ihre Plätze' }).waitFor();
    assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    await picker.getByText('2 Karten in den Warenkorb gelegt.').first().waitFor();

    const checkout = page.locator('checkout-form');
    await checkout.getByRole('heading', { name: 'Ihr Warenkorb' }).waitFor();
    await checkout.getByLabel('Vorname').fill('Ada');
    await checkout.getByLabel('Nachname').fill('Lovelace');
    await checkout.getByLabel('E-Mail-Adresse').fill('ada@example.com');
    for (const box of await checkout.locator('[part~="notice"][part~="required"] input[type="checkbox"]').all()) await box.check();
    await checkout.getByRole('button', { name: 'Weiter zur Zahlung' }).press('Enter');

    // SubmitOrder asked for the German payment gate: the sandbox's page is German.
    await page.waitForURL(/\/sandbox\/pay\//);
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    await page.getByRole('heading', { name: 'Sandbox-Zahlung' }).waitFor();
    await page.getByRole('button', { name: /bezahlen$/ }).click();

    // Back on the page the order named, still in German.
    await page.waitForURL(/index\.html\?.*stagedoor=success/);
    const confirmation = page.locator('booking-confirmation');
    await confirmation.getByRole('heading', { name: 'Vielen Dank: Ihre Buchung ist bestätigt' }).waitFor();
    assert.match(await confirmation.locator('[part~="reference"]').innerText(), /^Buchungsnummer\s+SD-[A-Z0-9]{8}$/);
    assert.deepEqual(requests.filter((u) => /\/stagedoor-[a-z]{2}-[^/]*\.js$/.test(new URL(u).pathname)).map((u) => /stagedoor-([a-z]{2})-/.exec(u)?.[1]), ['de', 'de'], 'the German chunk, once on each page');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('switches every element to another language from the theatre\'s language menu, at run time', async () => {
    const { page, errors } = await pinnedPage();
    await page.goto(`${server.origin}/index.html`);
    const list = page.locator('event-list');
    await list.getByLabel('Type of show').waitFor();
    await page.locator('#language').selectOption('fr');
    await list.getByLabel('Type de spectacle').waitFor();
    await page.locator('performance-calendar').getByText('Choisissez un spectacle pour voir ses dates.').waitFor();
    await page.locator('#language').selectOption('nb');
    await list.getByLabel('Type forestilling').waitFor();
    assert.equal(await list.getAttribute('lang'), 'nb');
    assert.match(page.url(), /[?&]lang=nb\b/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  for (const name of demoPages) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${name}, ${scheme} scheme: axe finds no violation, shadow roots included`, async () => {
        const { page, errors } = await pinnedPage();
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${server.origin}/${name}`);
        await page.waitForLoadState('networkidle');
        await page.addScriptTag({ path: join(root, 'node_modules', 'axe-core', 'axe.min.js') });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
          const result = await axe.run(document);
          return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).join(', ')}`);
        });
        assert.deepEqual(violations, []);
        assert.deepEqual(errors, []);
        await page.close();
      });
    }
  }

  it('tells search engines its shows: the theatre page\'s JSON-LD passes the structured-data validator', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.origin}/index.html`);
      const script = page.locator('event-list > script[type="application/ld+json"][data-stagedoor-markup]');
      await script.waitFor({ state: 'attached', timeout: 20_000 });
      const items = [JSON.parse((await script.textContent()) ?? '')].flat() as Array<Record<string, unknown>>;
      assert.ok(items.length > 0 && items.length <= 20, `${items.length} shows`);
      const schemaOrg = JSON.parse(readFileSync(join(root, 'node_modules/schemaorg-jsd/dist/schemaorg.jsonld'), 'utf8'));
      const issues = await validateJsonLd(items, schemaOrg);
      assert.deepEqual(issues.filter((i) => i.severity === 'ERROR'), []);
      // What a list does not give: its shows' descriptions and casts, and the day sales opened.
      assert.deepEqual([...new Set(issues.flatMap((i) => i.fieldNames ?? []))].sort(), ['description', 'offers.validFrom', 'performer']);
    } finally {
      await page.close();
    }
  });

  it('uses every element on the theatre page', () => {
    const html = readFileSync(join(root, 'demo', 'index.html'), 'utf8');
    for (const tag of widgetTags) assert.match(html, new RegExp(`<${tag}[\\s>]`), `<${tag}> is not on the theatre page`);
  });

  it('themes the widget only through ::part() and --booking-* custom properties', () => {
    const css = readFileSync(join(root, 'demo', 'themed.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const widgetTheme = css.slice(css.indexOf(':root', css.indexOf(':root') + 1));
    for (const rule of widgetTheme.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
      const selectors = (rule[1] ?? '').split(',').map((s) => s.trim());
      for (const selector of selectors) {
        if (selector === ':root') {
          for (const decl of (rule[2] ?? '').split(';').map((d) => d.trim()).filter(Boolean)) assert.match(decl, /^--booking-[a-z0-9-]+\s*:/, `not a --booking-* property: ${decl}`);
        } else {
          // A custom element's tag, then ::part() with part names and state tokens, nothing else.
          assert.match(selector, /^[a-z][a-z0-9]*-[a-z0-9-]+::part\([a-z -]+\)$/, `not a ::part() selector: ${selector}`);
        }
      }
    }
  });

  it('the themed page really restyles the widget through those hooks', async () => {
    const { page, errors } = await pinnedPage();
    await page.goto(`${server.origin}/themed.html`);
    const picker = page.locator('seat-picker');
    await picker.locator('[part~="base"]').waitFor();
    // The brand colour reaches inside the shadow root through the custom property.
    const accent = await picker.evaluate((el) => getComputedStyle(el).getPropertyValue('--booking-accent').trim());
    assert.equal(accent, '#35e0c2');
    // And a part rule applies to the part inside the shadow root.
    const card = page.locator('event-list').locator('[part~="card-heading"]').first();
    await card.waitFor();
    assert.equal(await card.evaluate((el) => getComputedStyle(el).textTransform), 'uppercase');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
