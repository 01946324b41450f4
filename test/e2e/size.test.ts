/**
 * The size budget, enforced: build the script-tag bundle and fail when its
 * entry file's gzip size is over package.json's stagedoor.sizeBudget.bundleGzip.
 * Also the bundle's shape: DOMPurify lives in a lazy chunk, not in the entry.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildBundle, root } from '../../scripts/build.mjs';
import { measureDir, sizeBudget } from '../../scripts/size.mjs';

describe('script-tag bundle size', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'stagedoor-size-test-'));
  before(async () => {
    await buildBundle({ outDir, sourcemap: false });
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps the entry file within the gzip budget in package.json', () => {
    const budget = sizeBudget(join(root, 'package.json'));
    const [entry] = measureDir(outDir);
    assert.ok(entry, 'dist/stagedoor.js was not built');
    assert.equal(entry.name, 'stagedoor.js');
    console.log(`stagedoor.js: ${entry.raw} bytes, ${entry.gzip} gzip, ${entry.brotli} brotli; budget ${budget.bundleGzip} gzip`);
    assert.ok(entry.gzip <= budget.bundleGzip, `stagedoor.js is ${entry.gzip} gzip bytes, over the budget of ${budget.bundleGzip}`);
  });

  it('is one entry file that registers the elements, plus lazy chunks only', () => {
    const files = readdirSync(outDir).filter((n) => n.endsWith('.js'));
    assert.ok(files.includes('stagedoor.js'));
    for (const name of files) assert.match(name, /^stagedoor(-[\w.-]+)?\.js$/, `unexpected file ${name}`);
    const entry = readFileSync(join(outDir, 'stagedoor.js'), 'utf8');
    // Lit is inside: no bare import is left for a browser to fail on.
    assert.doesNotMatch(entry, /\bfrom\s*["'](lit|@lit\/|dompurify)/);
    assert.doesNotMatch(entry, /process\.env/);
  });

  it('keeps DOMPurify out of the entry file, in a chunk loaded on demand', { skip: !existsSync(join(root, 'src/sanitize.ts')) && 'src/sanitize.ts (the sanitizer) is not on this branch yet' }, () => {
    const files = readdirSync(outDir).filter((n) => n.endsWith('.js'));
    const entry = readFileSync(join(outDir, 'stagedoor.js'), 'utf8');
    // A string only DOMPurify's own code carries (its hook name; our sanitizer's options do not).
    const marker = 'uponSanitizeElement';
    assert.ok(!entry.includes(marker), 'DOMPurify was bundled into stagedoor.js');
    const chunks = files.filter((n) => n !== 'stagedoor.js' && readFileSync(join(outDir, n), 'utf8').includes(marker));
    assert.equal(chunks.length, 1, 'expected one lazy chunk holding DOMPurify');
    assert.match(entry, new RegExp(`import\\(["']\\./${(chunks[0] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']\\)`), 'the entry loads the chunk with a dynamic import');
  });
});
