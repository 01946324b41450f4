/**
 * The built script-tag bundle in a real browser, the way a host site uses it:
 * `npm run build`'s dist/stagedoor.js loaded with a plain
 * `<script type="module">` into a bare HTML page (no dev server, no
 * TypeScript), served under a strict Content-Security-Policy.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildBundle, registrationFiles } from '../../scripts/build.mjs';
import { launchChromium, watchedPage } from './helpers/browser.ts';
import { startPageServer, type PageServer } from './helpers/page-server.ts';

/** What the README tells hosts to allow: nothing inline, nothing eval'd. */
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; base-uri 'none'; form-action 'self'";

const tags = registrationFiles().map((r) => r.tag);

function page(head: string, body: string): string {
  return `<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Bare host page</title>${head}</head><body>${body}</body></html>`;
}

describe('the script-tag bundle in a bare page', () => {
  const dist = mkdtempSync(join(tmpdir(), 'stagedoor-bundle-test-'));
  let server: PageServer;
  let browser: Browser;

  before(async () => {
    await buildBundle({ outDir: dist, sourcemap: false });
    server = await startPageServer({
      csp: CSP,
      files: { '/v1/': dist, '/v2/': dist },
      pages: {
        '/once': page('<script type="module" src="/v1/stagedoor.js"></script>', '<booking-provider id="provider" endpoint="/api"><p>inside</p></booking-provider>'),
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
      },
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
