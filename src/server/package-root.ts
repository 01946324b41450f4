/**
 * The package's own folder, found from a module inside it: the repository in
 * a checkout (src/server/...), node_modules/stagedoor when installed
 * (dist/lib/server/...). The nearest folder above whose package.json names
 * `stagedoor`. Node only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'stagedoor') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No stagedoor package.json above ${fileURLToPath(moduleUrl)}.`);
    dir = parent;
  }
}
