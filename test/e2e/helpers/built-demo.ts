/** The demo theatre as `stagedoor serve` ships it (the bundle built, dist/demo's pages loading it), in a temporary folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, buildDemo } from '../../../scripts/build.mjs';

export async function builtDemo(): Promise<{ dir: string; remove(): void }> {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-built-demo-'));
  await buildBundle({ outDir: join(work, 'dist'), sourcemap: false });
  buildDemo({ outDir: join(work, 'demo'), bundleDir: join(work, 'dist') });
  return { dir: join(work, 'demo'), remove: () => rmSync(work, { recursive: true, force: true }) };
}
