/**
 * The bundle as `npm run build` emits it (no source maps), and the demo theatre as `stagedoor serve`
 * ships it (dist/demo's pages loading that bundle). Both are only read by the tests that use them.
 *
 * `npm test` builds them once before the Node tests and names the folder in STAGEDOOR_TEST_BUILD
 * (scripts/test.mjs): a dozen files then share one build instead of each making its own. A file run
 * alone (`npx tsx --test test/e2e/demo.test.ts`) builds its own in a temporary folder.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, buildDemo } from '../../../scripts/build.mjs';

export interface Built {
  /** The folder holding the bundle's files (stagedoor.js, its chunks, their .gz and .br). */
  dist: string;
  /** Removes a build made for this file alone; leaves the shared one to `npm test`. */
  remove(): void;
}

/** The shared build's folder, when `npm test` made one (its `dist` and `demo`). */
function shared(): string | undefined {
  const dir = process.env.STAGEDOOR_TEST_BUILD;
  return dir && existsSync(join(dir, 'dist', 'stagedoor.js')) ? dir : undefined;
}

/** Builds the bundle (and the demo) into `work`, readable by every user (nginx's worker serves the demo). */
async function buildInto(work: string, { demo = false } = {}): Promise<void> {
  chmodSync(work, 0o755);
  await buildBundle({ outDir: join(work, 'dist'), sourcemap: false });
  if (demo) buildDemo({ outDir: join(work, 'demo'), bundleDir: join(work, 'dist') });
}

/** The built bundle: the shared one, else one of this file's own. */
export async function builtBundle(): Promise<Built> {
  const dir = shared();
  if (dir) return { dist: join(dir, 'dist'), remove: () => {} };
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-built-'));
  await buildInto(work);
  return { dist: join(work, 'dist'), remove: () => rmSync(work, { recursive: true, force: true }) };
}

/** The built demo theatre (`dir`: its pages, the bundle beside them): the shared one, else one of this file's own. */
export async function builtDemo(): Promise<Built & { dir: string }> {
  const dir = shared();
  if (dir && existsSync(join(dir, 'demo'))) return { dir: join(dir, 'demo'), dist: join(dir, 'dist'), remove: () => {} };
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-built-demo-'));
  await buildInto(work, { demo: true });
  return { dir: join(work, 'demo'), dist: join(work, 'dist'), remove: () => rmSync(work, { recursive: true, force: true }) };
}
