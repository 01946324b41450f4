/**
 * Sizes of what a host page downloads: the script-tag bundle (its entry file
 * and the lazy sanitizer chunk) and each element's own code. Gzip level 9 and
 * brotli quality 11, in bytes. Each element row is that element's registration
 * file built alone with Lit (lit, @lit/*) left out and minified: it includes the
 * Stagedoor code the element pulls in (api client, state, shared styles), which
 * the full bundle carries only once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, registrationFiles, root } from '../scripts/build.mjs';
import { measureDir, sizeBudget } from '../scripts/size.mjs';
import type { BenchTable } from './index.ts';

const isLit = (id: string): boolean => /^(lit|lit-html|lit-element|@lit\/[^/]+)(\/|$)/.test(id);

export default async function sizes(): Promise<BenchTable[]> {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-size-'));
  try {
    const bundleDir = join(work, 'bundle');
    await buildBundle({ outDir: bundleDir, sourcemap: false });
    const bundle = measureDir(bundleDir);
    const budget = sizeBudget(join(root, 'package.json'));

    const elementRows: (string | number)[][] = [];
    for (const { tag, source } of registrationFiles()) {
      const dir = join(work, tag);
      await buildBundle({ outDir: dir, entry: join(root, source), fileName: `${tag}.js`, external: isLit, sourcemap: false });
      const [own, ...lazy] = measureDir(dir, `${tag}.js`);
      if (!own) continue;
      elementRows.push([`<${tag}>`, own.raw, own.gzip, own.brotli, lazy.map((c) => `${c.name} ${c.gzip}`).join(', ') || '-']);
    }
    // <booking-provider> is the shared core alone (config, api client, basket store, selection,
    // context): what an element adds beyond it is roughly its row minus that one.
    const core = elementRows.find((r) => r[0] === '<booking-provider>');
    for (const row of elementRows) row.splice(4, 0, core && row !== core ? `~${Number(row[2]) - Number(core[2])}` : '-');
    // The runtime every element shares, for scale: Lit and the @lit packages the elements use.
    const runtimeDir = join(root, 'node_modules', '.cache', `stagedoor-size-${process.pid}`);
    mkdirSync(runtimeDir, { recursive: true });
    const runtimeEntry = join(runtimeDir, 'runtime.js');
    writeFileSync(runtimeEntry, "export * from 'lit';\nexport * from 'lit/decorators.js';\nexport * from '@lit/context';\nexport * from '@lit/task';\nexport * from '@lit/localize';\n");
    await buildBundle({ outDir: join(work, 'runtime'), entry: runtimeEntry, fileName: 'runtime.js', sourcemap: false });
    rmSync(runtimeDir, { recursive: true, force: true });
    const [runtime] = measureDir(join(work, 'runtime'), 'runtime.js');

    const entry = bundle[0];
    return [
      {
        title: 'Script-tag bundle (dist/stagedoor.js, minified, Lit included)',
        columns: ['file', 'raw bytes', 'gzip', 'brotli'],
        rows: bundle.map((f) => [f.name, f.raw, f.gzip, f.brotli]),
        notes: [
          `Budget (package.json stagedoor.sizeBudget.bundleGzip): ${budget.bundleGzip} gzip bytes for the entry file; now ${entry?.gzip ?? '?'} (${entry ? Math.round((100 * entry.gzip) / budget.bundleGzip) : '?'}% of budget).`,
          'Chunks other than the entry load only when needed (the DOMPurify chunk when an HTML field is shown).',
          `Of the entry, the Lit runtime (lit, its decorators, @lit/context, @lit/task, @lit/localize, minified alone) is ${runtime?.raw ?? '?'} bytes, ${runtime?.gzip ?? '?'} gzip, ${runtime?.brotli ?? '?'} brotli.`,
        ],
      },
      {
        title: "Each element's own code (registration file alone, Lit external, minified)",
        columns: ['element', 'raw bytes', 'gzip', 'brotli', 'gzip beyond the core', 'lazy chunks (gzip)'],
        rows: elementRows,
        notes: [
          'Rows overlap: each includes the shared Stagedoor core (api client, basket store, selection, styles) it imports, which the bundle carries once.',
          '"gzip beyond the core" is the row minus <booking-provider> (the core alone): an estimate, since gzip sizes do not add exactly.',
        ],
      },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
