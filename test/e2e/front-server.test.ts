/**
 * A theatre's front server in the way: the real nginx (Debian's nginx-light,
 * started by this test on loopback, stopped by its pid) serves the built demo
 * site and passes `/api` to `stagedoor proxy` with nginx's default Host
 * rewriting (`proxy_pass` sends Host: $proxy_host, the proxy's own address).
 * The proxy's upstream is the sandbox, whose payment page the order reaches.
 * - Front trusted: the `location` of docs/production.md's nginx snippet, as
 *   written there (X-Forwarded-Host / -Proto / -For), and the proxy with
 *   `--trust-forwarded`: a visitor books end to end in Chromium and comes back
 *   to the site through nginx.
 * - Front not trusted (nginx's defaults alone): the start-up warns, /readyz
 *   says `orders: refused` once the page has made a basket, the German
 *   checkout tells the customer the site cannot take orders and nothing was
 *   charged, and the operator's text is in the proxy's log only.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { PROJECT, stagedoor, type Running } from '../server/cli-helpers.ts';
import { listen, type Listening } from '../server/proxy-helpers.ts';
import { freePort, startNginx, type RunningNginx } from '../server/servers.ts';
import { chooseSeatPair, choosePerformance, fillCheckout } from './helpers/booking.ts';
import { builtDemo } from './helpers/built-demo.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';

const KEY = `sk-e2e-${crypto.randomUUID()}`;
const STEP = 60_000;

/** The nginx `location` the production docs give, pointed at `proxy` instead of 127.0.0.1:8788. */
function documentedLocation(proxy: string): string {
  const docs = readFileSync(join(PROJECT, 'docs/production.md'), 'utf8');
  const snippet = /```nginx\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
  assert.match(snippet, /proxy_pass http:\/\/127\.0\.0\.1:8788;/, 'docs/production.md has the nginx snippet');
  return snippet.replace('http://127.0.0.1:8788', proxy);
}

describe('the proxy behind nginx on the site’s origin', () => {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-front-'));
  let sandbox: Listening;
  let trusted: Running;
  let untrusted: Running;
  let nginx: RunningNginx;
  let browser: Browser;
  let built: Awaited<ReturnType<typeof builtDemo>> | undefined;
  /** The site through nginx: front trusted, and front not trusted. */
  let site = '';
  let plainSite = '';
  /** The proxies' own addresses, for /readyz as an orchestrator asks it. */
  const proxyBase: Record<'trusted' | 'untrusted', string> = { trusted: '', untrusted: '' };

  before(async () => {
    // nginx's worker runs as another user: it must read the pages.
    chmodSync(work, 0o755);
    built = await builtDemo();
    const service = createSandbox({ apiKeys: [KEY] });
    sandbox = await listen((request) => service.fetch(request));
    const proxy = (extra: string[]) => stagedoor(['proxy', '--upstream', sandbox.url, '--port', '0', '--access-log', 'off', ...extra], { STAGEDOOR_API_KEY: KEY });
    trusted = proxy(['--trust-forwarded', '--client-address-header', 'X-Forwarded-For']);
    untrusted = proxy([]);
    for (const [name, cli] of [['trusted', trusted], ['untrusted', untrusted]] as const) {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+)\/api\//);
      proxyBase[name] = base ?? '';
    }
    const [port, plainPort] = [await freePort(), await freePort()];
    const demo = built.dir;
    nginx = await startNginx(
      work,
      `  types { text/html html; text/javascript js; text/css css; application/json json; image/svg+xml svg; image/png png; }
  server {
    listen 127.0.0.1:${port};
    root ${demo};
    ${documentedLocation(proxyBase.trusted)}
  }
  server {
    listen 127.0.0.1:${plainPort};
    root ${demo};
    location /api/ {
      proxy_pass ${proxyBase.untrusted};
    }
  }`,
    );
    site = `http://127.0.0.1:${port}`;
    plainSite = `http://127.0.0.1:${plainPort}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await nginx?.stop();
    await Promise.all([trusted?.stop(), untrusted?.stop()]);
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
    built?.remove();
  });

  const readyz = async (base: string) => (await (await fetch(`${base}/readyz`)).json()) as { status: string; orders: string };

  it('front trusted (the documented snippet, --trust-forwarded): books end to end through nginx, to the payment page and back', { timeout: 240_000 }, async () => {
    const { page, errors } = await watchedPage(browser);
    page.setDefaultTimeout(STEP);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${site}/index.html`);
    await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter');
    await choosePerformance(page.locator('performance-calendar'));
    const picker = page.locator('seat-picker');
    assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    const checkout = page.locator('checkout-form');
    await fillCheckout(checkout);
    await checkout.getByRole('button', { name: 'Continue to payment' }).press('Enter');

    // The order reached the sandbox's payment page.
    await page.waitForURL(/\/sandbox\/pay\//);
    await page.getByRole('button', { name: /^Pay\b/ }).click();
    // Back on the site through nginx, booked.
    await page.waitForURL((url) => url.origin === site && url.searchParams.get('stagedoor') === 'success');
    await page.locator('booking-confirmation').getByRole('heading', { name: /your booking is confirmed/i }).waitFor();
    assert.equal((await readyz(proxyBase.trusted)).orders, 'accepted');
    assert.equal(trusted.stderr(), '', 'no warning for the operator');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('front not trusted (nginx defaults): warned at start-up, /readyz orders: refused, the customer told in German, the operator in the log', { timeout: 240_000 }, async () => {
    await untrusted.line(/^stagedoor proxy: orders are taken only from pages on the Host each request names: behind a front server that rewrites Host/, 10_000, 'stderr');
    assert.equal((await readyz(proxyBase.untrusted)).orders, 'unchecked');
    const { page, errors } = await watchedPage(browser);
    page.setDefaultTimeout(STEP);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${plainSite}/index.html?lang=de`);
    await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter');
    await choosePerformance(page.locator('performance-calendar'));
    const picker = page.locator('seat-picker');
    assert.ok(await chooseSeatPair(page, picker), 'found two seats the service accepts');
    await picker.locator('[part~="add-button"]').first().press('Enter');
    await picker.getByText('2 Karten in den Warenkorb gelegt.').first().waitFor();
    // The basket was made from the site's page: the operator can see already that orders would fail.
    const ready = await readyz(proxyBase.untrusted);
    assert.deepEqual([ready.status, ready.orders], ['ready', 'refused']);
    await untrusted.line(new RegExp(`^stagedoor proxy: orders from the page on ${plainSite.replace(/[.]/g, '\\.')} would be refused`), 10_000, 'stderr');

    const checkout = page.locator('checkout-form');
    await checkout.getByLabel('Vorname').fill('Ada');
    await checkout.getByLabel('Nachname').fill('Lovelace');
    await checkout.getByLabel('E-Mail-Adresse').fill('ada@example.com');
    for (const box of await checkout.locator('[part~="notice"][part~="required"] input[type="checkbox"]').all()) await box.check();
    await checkout.getByRole('button', { name: 'Weiter zur Zahlung' }).press('Enter');
    const alert = checkout.getByRole('alert').filter({ hasText: 'Diese Website kann gerade keine Bestellungen annehmen; es wurde nichts abgebucht.' });
    await alert.waitFor();
    assert.equal(new URL(page.url()).origin, plainSite, 'still on the site: no payment page');
    assert.doesNotMatch(await page.locator('body').innerText(), /ReturnUrl|this proxy/);
    // The operator's text: in the proxy's log, naming the field and what to change.
    const [line] = await untrusted.line(/^stagedoor proxy: an order from a page on .* was refused: its SuccessReturnUrl .*--trust-forwarded/, 10_000, 'stderr');
    assert.match(line, new RegExp(plainSite.replace(/[.]/g, '\\.')));
    // The basket is kept: its items are still in the checkout.
    assert.equal(await checkout.getByRole('button', { name: / entfernen$/ }).count(), 1, 'the basket is still there');
    assert.deepEqual(errors.filter((e) => !/SubmitOrder|500/.test(e)), [], 'no error but the refused order');
    await page.close();
  });
});
