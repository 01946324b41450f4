/**
 * The size budgets, enforced (package.json stagedoor.sizeBudget, gzip bytes,
 * 1 KB = 1024): the loader itself, and what a browser really fetches for each
 * kind of host page (test/e2e/helpers/page-kinds.ts: a page served, the
 * JavaScript responses counted from the network, gzip'd). Also the bundle's
 * shape: every file named stagedoor*.js, the loader importing nothing
 * statically, no bare import left for a browser to fail on, DOMPurify in a
 * chunk of its own loaded on demand.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { root } from '../../scripts/build.mjs';
import { measureDir, sizeBudget } from '../../scripts/size.mjs';
import { builtBundle, type Built } from './helpers/built-demo.ts';
import { launchChromium } from './helpers/browser.ts';
import { hostPage, measurePage, pageKinds } from './helpers/page-kinds.ts';
import type { PageServer } from './helpers/page-server.ts';
import { startSandboxSite } from './helpers/sandbox-site.ts';

describe('script-tag bundle size', () => {
  let outDir = '';
  let built: Built | undefined;
  const budget = sizeBudget(join(root, 'package.json'));
  const pages: Record<string, string> = {};
  let server: PageServer;
  let browser: Browser;

  before(async () => {
    built = await builtBundle();
    outDir = built.dist;
    for (const kind of pageKinds) pages[`/${kind}`] = hostPage(kind, '/cdn/stagedoor.js');
    server = await startSandboxSite({ files: { '/cdn/': outDir }, pages });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    built?.remove();
  });

  it('keeps the loader within its gzip budget', () => {
    const [loader] = measureDir(outDir);
    assert.ok(loader, 'stagedoor.js was not built');
    assert.equal(loader.name, 'stagedoor.js');
    console.log(`stagedoor.js: ${loader.raw} bytes, ${loader.gzip} gzip; budget ${budget.loaderGzip}`);
    assert.ok(loader.gzip <= budget.loaderGzip, `stagedoor.js is ${loader.gzip} gzip bytes, over the budget of ${budget.loaderGzip}`);
  });

  // Every kind of page with a budget: the timer alone, the list alone, the flow up to the seat map, and the README's page holding every element on the same visit.
  for (const kind of pageKinds.filter((k) => k in budget.pagesGzip)) {
    it(`the ${kind} page fetches no more JavaScript than its budget`, async () => {
      const limit = budget.pagesGzip[kind];
      assert.equal(typeof limit, 'number', `package.json has no budget for the ${kind} page`);
      const weight = await measurePage(browser, `${server.origin}/${kind}`, kind);
      console.log(`${kind} page: ${weight.gzip} gzip bytes of JavaScript (budget ${limit}): ${weight.files.map((f) => `${f.path.slice(f.path.lastIndexOf('/') + 1)} ${f.gzip}`).join(', ')}`);
      assert.ok(weight.files.some((f) => f.path === '/cdn/stagedoor.js'), 'the page loaded the loader');
      assert.ok(weight.gzip <= (limit ?? 0), `the ${kind} page fetches ${weight.gzip} gzip bytes of JavaScript, over its budget of ${limit}`);
    });
  }

  it('comes with a brotli and a gzip copy of every file, the same bytes once decoded, for a server to send as they are', () => {
    const files = readdirSync(outDir).filter((n) => n.endsWith('.js'));
    let js = 0;
    let br = 0;
    for (const name of files) {
      const bytes = readFileSync(join(outDir, name));
      const brotli = readFileSync(join(outDir, `${name}.br`));
      assert.deepEqual(brotliDecompressSync(brotli), bytes, `${name}.br`);
      assert.deepEqual(gunzipSync(readFileSync(join(outDir, `${name}.gz`))), bytes, `${name}.gz`);
      js += bytes.length;
      br += brotli.length;
    }
    console.log(`${files.length} files: ${js} bytes, ${br} as brotli`);
    assert.ok(br < js / 2.5, `compressed: ${br} brotli bytes for ${js}`);
  });

  it('is a loader and content-hashed chunks, all named stagedoor*.js, with nothing left for the browser to resolve', () => {
    const files = readdirSync(outDir).filter((n) => n.endsWith('.js'));
    assert.ok(files.includes('stagedoor.js'));
    for (const name of files) assert.match(name, /^stagedoor(-[\w.]+(-[\w.]+)*-[\w-]{8})?\.js$/, `unexpected file ${name}`);
    const loader = readFileSync(join(outDir, 'stagedoor.js'), 'utf8');
    assert.doesNotMatch(loader, /^import\s|[;}]import\s*[{*"]/m, 'the loader imports nothing statically: it is the first and only request before the chunks');
    for (const name of files) {
      const code = readFileSync(join(outDir, name), 'utf8');
      // Lit is inside: no bare import is left for a browser to fail on.
      assert.doesNotMatch(code, /\bfrom\s*["'](?!\.\/)/, `${name} has a bare import`);
      assert.doesNotMatch(code, /process\.env/, name);
      assert.doesNotMatch(code, /document\.head|modulepreload/, `${name} writes into the host's <head>`);
    }
  });

  it('keeps DOMPurify out of every element chunk, in a chunk loaded on demand', () => {
    const files = readdirSync(outDir).filter((n) => n.endsWith('.js'));
    // A string only DOMPurify's own code carries (its hook name; our sanitizer's options do not).
    const marker = 'uponSanitizeElement';
    const holding = files.filter((n) => readFileSync(join(outDir, n), 'utf8').includes(marker));
    assert.equal(holding.length, 1, `expected one lazy chunk holding DOMPurify: ${holding.join(', ')}`);
    const [purify] = holding;
    assert.match(purify ?? '', /^stagedoor-purify-/);
    const importers = files.filter((n) => new RegExp(`import\\(["'\`]\\./${(purify ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]\\)`).test(readFileSync(join(outDir, n), 'utf8')));
    assert.ok(importers.length > 0, 'a chunk loads DOMPurify with a dynamic import');
  });
});
