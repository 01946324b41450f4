/**
 * An old loader against a new deployment. `stagedoor.js` may be cached for five minutes and run
 * stale for the rest of a day (src/server/bundle-caching.ts), so a returning visitor can run the
 * loader of the release before the one deployed, and it asks for ITS chunks. Version A is built
 * from the sources as they are; version B from a copy of them with one message changed (so the
 * core chunk, and every chunk importing it, gets a new hash), built over A's bundle
 * (`--previous`, keepPreviousChunks). B's bundle is served by the real `stagedoor serve`; a
 * Chromium page whose `stagedoor.js` is A's (what a browser with A's loader cached runs) goes from
 * the list to a seat map and chooses two seats with no 404 and no console error. The same page
 * against B built without A fails on a 404 for one of A's chunks: what the kept chunks prevent.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { IMMUTABLE } from '../../src/server/bundle-caching.ts';
import * as build from '../../scripts/build.mjs';
import { stagedoor, type Running } from '../server/cli-helpers.ts';
import { closedPort } from '../server/proxy-helpers.ts';
import { chooseSeatPair, choosePerformance } from './helpers/booking.ts';
import { launchChromium, watchedPage } from './helpers/browser.ts';

const { buildBundle, KEEP_MS, KEPT_FILE, keepPreviousChunks, PRELOAD_FILE, registrationFiles, root } = build;
const tags = registrationFiles().map((r) => r.tag);
const PAGE =
  '<!doctype html>\n<html lang="en-GB"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A host page</title>' +
  '<script type="module" src="/stagedoor.js"></script></head><body>' +
  `<booking-provider endpoint="/api" currency="GBP">${tags.filter((t) => t !== 'booking-provider').map((t) => `<${t}></${t}>`).join('')}</booking-provider>` +
  '</body></html>';

/** The sources as a release B: a copy of what the bundle build reads, with one message changed. */
function sourcesOfB(into: string): string {
  for (const part of ['src', 'scripts', 'wordpress', 'package.json', 'tsconfig.json', 'custom-elements.json']) cpSync(join(root, part), join(into, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'));
  const client = join(into, 'src/api/client.ts');
  const text = readFileSync(client, 'utf8');
  const changed = text.replace('could not be reached', 'could not be reached at all');
  assert.notEqual(changed, text, 'the message B changes is still in src/api/client.ts');
  writeFileSync(client, changed);
  return into;
}

const chunksOf = (dir: string): string[] => readdirSync(dir).filter((n) => /^stagedoor-.+\.js$/.test(n));

describe('an old loader against a new deployment', () => {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-old-loader-'));
  const a = join(work, 'a');
  const b = join(work, 'b');
  const bAlone = join(work, 'b-alone');
  let browser: Browser;
  let pluginFiles: string[] = [];

  before(async () => {
    await buildBundle({ outDir: a, emptyOutDir: true, sourcemap: false });
    const buildB = (await import(pathToFileURL(join(sourcesOfB(join(work, 'src-b')), 'scripts/build.mjs')).href)) as typeof import('../../scripts/build.mjs');
    await buildB.buildBundle({ outDir: b, emptyOutDir: true, sourcemap: false, previous: a });
    await buildB.buildBundle({ outDir: bAlone, emptyOutDir: true, sourcemap: false });
    // The WordPress plugin of B, built over A's bundle as `npm run build -- --previous` does.
    pluginFiles = (await buildB.buildWordPressPlugin({ outDir: join(work, 'wp'), manifestFile: join(root, 'custom-elements.json'), previous: a })).files;
    for (const dir of [b, bAlone]) writeFileSync(join(dir, 'index.html'), PAGE);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** `stagedoor serve --dist dir`, and a booking walk in a page that runs A's loader as if from its cache. */
  async function walkWithLoaderOfA(dir: string): Promise<{ walked: boolean; errors: string[]; chunks: string[]; headers: Record<string, string | null> }> {
    const port = await closedPort();
    const app: Running = stagedoor(['serve', '--dist', dir], { PORT: String(port) });
    try {
      const [, url] = await app.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+\/)$/, 30_000);
      const context = await browser.newContext();
      // The browser's cached copy of stagedoor.js: A's, whatever the server now has.
      await context.route('**/stagedoor.js', (route) => route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(a, 'stagedoor.js'), 'utf8') }));
      const { page, errors, requests } = await watchedPage(context);
      try {
        await page.goto(url ?? '');
        const walk = async () => {
          await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter');
          await choosePerformance(page.locator('performance-calendar'));
          assert.ok(await chooseSeatPair(page, page.locator('seat-picker')), 'found two seats the service accepts');
          await page.waitForLoadState('networkidle');
        };
        // Against a deployment missing A's chunks the walk never gets there: it ends at the first 404 (in `errors`).
        const notFound = page.waitForEvent('response', { predicate: (r) => r.status() === 404, timeout: 60_000 }).then(() => false, () => false);
        const walked = await Promise.race([walk().then(() => true, (e: unknown) => (errors.push(`walk: ${String(e)}`), false)), notFound]);
        if (!walked && !errors.length) errors.push('the walk did not end');
        const defined = await page.evaluate((names) => names.filter((t) => customElements.get(t)), tags);
        if (defined.length !== tags.length) errors.push(`undefined: ${tags.filter((t) => !defined.includes(t)).join(', ')}`);
        const chunks = [...new Set(requests.map((r) => new URL(r).pathname.slice(1)).filter((n) => /^stagedoor-.+\.js$/.test(n)))];
        const headers: Record<string, string | null> = {};
        for (const name of ['stagedoor.js', chunks[0] ?? '']) headers[name] = (await fetch(`${url}${name}`)).headers.get('cache-control');
        return { walked, errors, chunks, headers };
      } finally {
        await context.close();
      }
    } finally {
      await app.stop();
    }
  }

  it('B built over A keeps A\'s chunks beside its own, and A\'s core differs from B\'s', () => {
    const coreOf = (dir: string) => chunksOf(dir).find((n) => /^stagedoor-core-/.test(n));
    assert.notEqual(coreOf(a), coreOf(bAlone), 'B changed the core chunk');
    const missing = chunksOf(a).filter((n) => !chunksOf(b).includes(n));
    assert.deepEqual(missing, [], 'every chunk of A is in B');
    assert.ok(chunksOf(a).some((n) => !chunksOf(bAlone).includes(n)), 'B alone lacks some of A\'s chunks');
    for (const name of chunksOf(bAlone)) assert.equal(readFileSync(join(b, name), 'utf8'), readFileSync(join(bAlone, name), 'utf8'), `${name}: B's own file, not overwritten`);
  });

  it("the WordPress plugin of B carries A's chunks in its assets/ (served from there as they are)", () => {
    const missing = chunksOf(a).filter((n) => !pluginFiles.includes(`stagedoor/assets/${n}`));
    assert.deepEqual(missing, []);
    assert.ok(pluginFiles.includes(`stagedoor/assets/${KEPT_FILE}`));
  });

  it("A's loader books against B built over A: every element upgrades, two seats chosen, no 404, no console error", async (t) => {
    const { walked, errors, chunks, headers } = await walkWithLoaderOfA(b);
    assert.deepEqual(errors, []);
    assert.ok(walked, 'two seats chosen');
    t.diagnostic(`fetched ${chunks.length} chunks of A: ${chunks.join(' ')}`);
    assert.ok(chunks.length > 5, `chunks fetched: ${chunks.join(', ')}`);
    assert.deepEqual(chunks.filter((n) => !chunksOf(a).includes(n)), [], "A's loader fetched A's chunks only");
    assert.equal(headers['stagedoor.js'], 'public, max-age=300, stale-while-revalidate=86100');
    assert.equal(headers[chunks[0] ?? ''], IMMUTABLE);
  });

  it("the same page against B built without A: a 404 for one of A's chunks", async (t) => {
    const { errors } = await walkWithLoaderOfA(bAlone);
    t.diagnostic(errors.filter((e) => e.startsWith('http 404')).join(' | '));
    assert.ok(
      errors.some((e) => /^http 404: .*\/stagedoor-[\w.-]+-[\w-]{8}\.js$/.test(e)),
      `a 404 for a chunk of A, in: ${errors.join(' | ')}`,
    );
  });
});

describe('keepPreviousChunks: what a bundle keeps of the release before it', () => {
  const DAY = KEEP_MS;
  /** A bundle folder holding these files (each file's text is its name). */
  function bundle(dir: string, files: string[], kept: Record<string, string> = {}): string {
    for (const name of [PRELOAD_FILE, 'stagedoor.js', ...files]) writeFileSync(join(dir, name), name === PRELOAD_FILE ? '{}' : name);
    if (Object.keys(kept).length) writeFileSync(join(dir, KEPT_FILE), JSON.stringify(kept));
    return dir;
  }

  it('keeps the last release and what it kept for less than a day, never overwrites, and records when each was replaced', () => {
    const work = mkdtempSync(join(tmpdir(), 'stagedoor-kept-'));
    try {
      const now = new Date('2026-11-29T12:00:00Z');
      const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();
      const previous = bundle(mkdtempSync(join(work, 'b-')), ['stagedoor-core-BBBBBBBB.js', 'stagedoor-core-BBBBBBBB.js.map', 'stagedoor-same-SSSSSSSS.js', 'stagedoor-core-AAAAAAAA.js', 'stagedoor-core-00000000.js', 'stagedoor-preview.js'], {
        'stagedoor-core-AAAAAAAA.js': hoursAgo(23),
        'stagedoor-core-00000000.js': hoursAgo(25),
      });
      const out = bundle(mkdtempSync(join(work, 'c-')), ['stagedoor-core-CCCCCCCC.js', 'stagedoor.js.map']);
      writeFileSync(join(out, 'stagedoor-same-SSSSSSSS.js'), 'the new build\'s own');
      const kept = keepPreviousChunks(out, previous, now);
      assert.deepEqual(kept, ['stagedoor-core-AAAAAAAA.js', 'stagedoor-core-BBBBBBBB.js']);
      assert.deepEqual(JSON.parse(readFileSync(join(out, KEPT_FILE), 'utf8')), { 'stagedoor-core-AAAAAAAA.js': hoursAgo(23), 'stagedoor-core-BBBBBBBB.js': now.toISOString() });
      assert.equal(readFileSync(join(out, 'stagedoor-core-BBBBBBBB.js.map'), 'utf8'), 'stagedoor-core-BBBBBBBB.js.map', 'its source map too, as this build writes maps');
      assert.equal(readFileSync(join(out, 'stagedoor-same-SSSSSSSS.js'), 'utf8'), "the new build's own");
      assert.equal(readFileSync(join(out, 'stagedoor.js'), 'utf8'), 'stagedoor.js', 'the loader is the new one');
      assert.ok(!chunksOf(out).includes('stagedoor-core-00000000.js'), 'replaced more than a day ago: gone');
      assert.ok(!chunksOf(out).includes('stagedoor-preview.js'), 'no content hash: not a chunk');
      assert.equal(DAY, 86_400_000);
      assert.throws(() => keepPreviousChunks(out, work, now), /holds no stagedoor-preload\.json/);
      assert.throws(() => keepPreviousChunks(out, out, now), /not the folder being built/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
