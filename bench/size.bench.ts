/**
 * Sizes: what a host page downloads, today's eager bundle (one module with
 * every element, the yardstick) and the loader side by side, in one run.
 *
 * 1. Per kind of host page (test/e2e/helpers/page-kinds.ts): the JavaScript a
 *    browser really fetches, gzip'd, counted from the network of a page
 *    served by the sandbox-backed site, against the budgets in package.json.
 * 2. The loader's files, raw, gzip (level 9) and brotli (quality 11).
 * 3. Each element's own weight: its chunk, and what a page holding only that
 *    element fetches (the loader, the core, the shared chunks it imports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, buildEagerBundle, root } from '../scripts/build.mjs';
import { measureDir, sizeBudget } from '../scripts/size.mjs';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { hostPage, measurePage, pageKinds } from '../test/e2e/helpers/page-kinds.ts';
import { startSandboxSite } from '../test/e2e/helpers/sandbox-site.ts';
import { BASELINE_COMMIT, baselineBuild } from './baseline.ts';
import type { BenchTable } from './index.ts';

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

export default async function sizes(): Promise<BenchTable[]> {
  const work = mkdtempSync(join(tmpdir(), 'stagedoor-size-'));
  try {
    const eagerDir = join(work, 'eager');
    const loaderDir = join(work, 'loader');
    await buildEagerBundle({ outDir: eagerDir });
    const table = await buildBundle({ outDir: loaderDir, sourcemap: false });
    const budget = sizeBudget(join(root, 'package.json'));

    const baselineDir = join(work, 'baseline');
    const baseline = await baselineBuild();
    await baseline.buildBundle({ outDir: baselineDir, sourcemap: false });

    const pages: Record<string, string> = {};
    for (const kind of pageKinds) {
      pages[`/eager/${kind}`] = hostPage(kind, '/e/stagedoor.js');
      pages[`/loader/${kind}`] = hostPage(kind, '/l/stagedoor.js');
      pages[`/baseline/${kind}`] = hostPage(kind, '/b/stagedoor.js');
    }
    const server = await startSandboxSite({ files: { '/e/': eagerDir, '/l/': loaderDir, '/b/': baselineDir }, pages });
    const browser = await launchChromium();
    const pageRows: (string | number)[][] = [];
    const readyRows: (string | number)[][] = [];
    try {
      for (const kind of pageKinds) {
        const eager = await measurePage(browser, `${server.origin}/eager/${kind}`, kind);
        const loader = await measurePage(browser, `${server.origin}/loader/${kind}`, kind);
        const limit = budget.pagesGzip[kind];
        const within = limit === undefined ? '-' : loader.gzip <= limit ? 'yes' : 'NO';
        pageRows.push([kind, eager.gzip, loader.gzip, `${Math.round((100 * loader.gzip) / eager.gzip)}%`, limit ?? '-', within, loader.files.length]);
      }
      // The walk further, to a map ready for a tap (the picker's later part in): issues 24's and 34's measure.
      for (const kind of ['flow', 'full'] as const) {
        const old = await measurePage(browser, `${server.origin}/baseline/${kind}`, kind, undefined, { ready: true });
        const now = await measurePage(browser, `${server.origin}/loader/${kind}`, kind, undefined, { ready: true });
        readyRows.push([kind, old.gzip, now.gzip, now.gzip - old.gzip, old.files.length, now.files.length]);
      }
    } finally {
      await browser.close();
      await server.close();
    }

    const files = measureDir(loaderDir);
    const size = new Map(files.map((f) => [f.name, f]));
    const loader = size.get('stagedoor.js');
    const tags = Object.keys(table);
    /** An element's lazy parts: its view or later chunk (src/elements/<tag>/<tag>.view.ts, .later.ts). */
    const lazyOf = (tag: string): string[] => files.map((f) => f.name).filter((n) => n.startsWith(`stagedoor-${tag}.`));
    const role = (name: string): string => {
      if (name === 'stagedoor.js') return 'loader';
      if (/^stagedoor-core-/.test(name)) return 'core: Lit, api, basket, <booking-provider>';
      if (/^stagedoor-purify-/.test(name)) return 'DOMPurify (lazy: an HTML field shown)';
      if (/^stagedoor-shared-/.test(name)) return 'shared: @lit/task, directives, failures';
      const lazy = tags.find((tag) => lazyOf(tag).includes(name));
      if (lazy) return `<${lazy}> later (lazy)`;
      const tag = Object.entries(table).find(([, [, own]]) => own[0] === name)?.[0];
      if (tag) return `<${tag}>`;
      return 'shared by some elements';
    };
    const gz = (name: string): number => size.get(name)?.gzip ?? 0;
    const elementRows = Object.entries(table).map(([tag, [, chunkFiles, renders]]) => {
      const [first = '', ...rest] = chunkFiles;
      // The provider's class is in the core: it has no chunk of its own.
      const inCore = /^stagedoor-core-/.test(first);
      const own = inCore ? '' : first;
      const needs = inCore ? chunkFiles : rest;
      const withProvider = tag === 'booking-provider' ? chunkFiles : [...new Set([...chunkFiles, ...(table['booking-provider']?.[1] ?? [])])];
      const rendered = (renders ?? []).flatMap((t) => table[t]?.[1] ?? []);
      const alone = [...new Set(['stagedoor.js', ...withProvider, ...rendered])].reduce((n, f) => n + gz(f), 0);
      const later = lazyOf(tag);
      return [
        `<${tag}>`,
        own ? (size.get(own)?.raw ?? 0) : 'in core',
        own ? gz(own) : 'in core',
        alone,
        later.length ? later.reduce((n, f) => n + gz(f), 0) : '-',
        needs.map((f) => f.replace(/^stagedoor-|-[\w-]{8}\.js$/g, '')).join(', ') + (renders?.length ? `; renders ${renders.map((t) => `<${t}>`).join(' ')}` : ''),
      ];
    });
    const eagerEntry = measureDir(eagerDir)[0];
    return [
      {
        title: 'JavaScript a page fetches, gzip bytes (served, counted from the network): eager bundle vs loader',
        columns: ['page', 'eager bundle', 'loader', 'loader/eager', 'budget', 'within', 'files'],
        rows: pageRows,
        notes: [
          'timer: only <basket-timer> in a header, until idle. event-list: only <event-list>, until its first card shows.',
          'flow: the booking flow up to the seat map (<event-list>, <performance-calendar>, <seat-picker> in a provider): open an event (detail, sanitized description), choose a performance, until the seat map first paints.',
          'full: the same visit on the README page, which also holds <basket-timer>, <checkout-form> and <booking-confirmation> (empty until seats are added), with a budget of its own.',
          `Budgets: package.json stagedoor.sizeBudget.pagesGzip (1 KB = 1024 bytes), enforced by test/e2e/size.test.ts.`,
          `"eager bundle": these sources built the way the script tag was built before the loader (one module registering every element, src/index.ts; entry ${eagerEntry?.gzip ?? '?'} gzip, ${kib(eagerEntry?.gzip ?? 0)}); the elements' later parts still split off it, in its favour.`,
        ],
      },
      {
        title: `Walked to a seat map ready for a tap: JavaScript gzip bytes, baseline ${BASELINE_COMMIT} vs this build`,
        columns: ['page', `baseline ${BASELINE_COMMIT}`, 'this build', 'change', `files ${BASELINE_COMMIT}`, 'files now'],
        rows: readyRows,
        notes: [
          'The flow and full pages walked past the first paint until the choice with its "Add" has rendered below the map (the picker\'s later part, and what it imports). Issue 34 for the full page: held at 72 KB (73,728 bytes); the goal is 64 KB (65,536 bytes).',
        ],
      },
      {
        title: 'The loader and its chunks (dist/stagedoor*.js, minified)',
        columns: ['file', 'what', 'raw bytes', 'gzip', 'brotli'],
        rows: files.map((f) => [f.name, role(f.name), f.raw, f.gzip, f.brotli]),
        notes: [`Loader budget (stagedoor.sizeBudget.loaderGzip): ${budget.loaderGzip} gzip bytes; now ${loader?.gzip ?? '?'}.`],
      },
      {
        title: "Each element's own weight (gzip)",
        columns: ['element', 'own chunk raw', 'own chunk gzip', 'a page with only it', 'later parts (lazy)', 'imports'],
        rows: elementRows,
        notes: [
          '"a page with only it": the loader, the element\'s chunk and every chunk it imports (the core, once), each gzip\'d as served, before its first view needs more.',
          '"later parts": what the element loads only when it shows more (the timer once there is a basket, the checkout\'s items and form, the confirmation after payment, the seat picker after its map paints); DOMPurify and locale modules are other lazy chunks.',
        ],
      },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
