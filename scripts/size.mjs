// Bundle sizes: raw, gzip (level 9) and brotli (quality 11) bytes of built
// files, and the budgets in package.json. Shared by the size bench
// (bench/size.bench.ts) and the budget test (test/e2e/size.test.ts), so both
// measure the same thing.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export function sizeOf(bytes) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Sizes of every `.js` file a bundle build wrote into `dir` (entry first, then chunks by name). */
export function measureDir(dir, entry = 'stagedoor.js') {
  const names = readdirSync(dir).filter((n) => n.endsWith('.js')).sort((a, b) => (a === entry ? -1 : b === entry ? 1 : a.localeCompare(b)));
  return names.map((name) => ({ name, ...sizeOf(readFileSync(join(dir, name))) }));
}

/**
 * The size budgets from package.json (`stagedoor.sizeBudget`), gzip bytes
 * (1 KB = 1024 bytes): `loaderGzip` for dist/stagedoor.js itself, and
 * `pagesGzip`, per kind of host page (test/e2e/helpers/page-kinds.ts), for
 * all the JavaScript a browser fetches for that page.
 */
export function sizeBudget(packageJsonPath) {
  const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  const budget = pkg.stagedoor?.sizeBudget;
  if (!budget || typeof budget.loaderGzip !== 'number' || typeof budget.pagesGzip !== 'object') {
    throw new Error('package.json lacks stagedoor.sizeBudget.loaderGzip and stagedoor.sizeBudget.pagesGzip');
  }
  return budget;
}
