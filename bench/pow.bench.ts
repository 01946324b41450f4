/**
 * The waiting room's proof of work in the browser: how long the widget takes to solve a challenge
 * (docs/waiting-room.md, "Proof of work"), the solver of src/state/proof-of-work.ts beside the one
 * before it (Web Crypto, 4,096 digests a batch: `POW_BASELINE`, default 052fea8), in one run.
 *
 * Both solvers are bundled into one page of headless Chromium (http://localhost/, a secure context,
 * as Web Crypto needs), and given the same challenges (the proxy's format: expiry, 16 random
 * base64url characters, a 43-character signature), in turn, old and new alternating, at 14, 16 and
 * 18 bits, with the CPU as it is and slowed 4× (CDP Emulation.setCPUThrottlingRate, a phone).
 * Time to solve is performance.now() in the page around one `solveProof`; the work of a challenge is
 * the same for both (the first nonce that solves it), and varies a lot between challenges, so
 * medians and p90 of POW_RUNS challenges each (default 15). Also the longest task the page saw while
 * solving (PerformanceObserver 'longtask': only tasks of 50 ms or more are reported), the time a tap
 * could wait.
 *
 * `npm run bench -- pow`. Nothing here asserts a time; on a shared machine compare the columns of
 * one run, not runs.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from '../scripts/build.mjs';
import { launchChromium } from '../test/e2e/helpers/browser.ts';
import { loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';

const RUNS = Number(process.env.POW_RUNS ?? 15);
const BASELINE = process.env.POW_BASELINE ?? '052fea8';
const BITS = [14, 16, 18];
const RATES = [1, 4];
const SOLVERS = ['old', 'new'] as const;

/** A challenge shaped as the proxy makes them (src/server/proxy/room/pass.ts). */
const challenge = () => `${Date.now() + 120_000}.${randomBytes(12).toString('base64url')}.${randomBytes(32).toString('base64url')}`;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** Both solvers in one script: `window.solvers.old` and `.new`, and a long-task recorder. */
async function solversScript(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-pow-bench-'));
  try {
    const old = join(dir, 'old-proof-of-work.ts');
    writeFileSync(old, execFileSync('git', ['-C', root, 'show', `${BASELINE}:src/state/proof-of-work.ts`]));
    const entry = `import { solveProof as old } from ${JSON.stringify(old)};
import { solveProof as now } from ${JSON.stringify(join(root, 'src/state/proof-of-work.ts'))};
window.solvers = { old, new: now };
window.longest = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longest = Math.max(window.longest, e.duration); }).observe({ type: 'longtask' });`;
    const out = await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, format: 'iife', minify: true, write: false, target: 'es2022' });
    return out.outputFiles[0]?.text ?? '';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Solved = { ms: number; nonce: string; longest: number };

export default async function powBench(): Promise<BenchTable[]> {
  const script = await solversScript();
  const before = loadNote('before the run');
  const browser = await launchChromium();
  const rows: (string | number)[][] = [];
  try {
    const page = await browser.newPage();
    await page.route('http://localhost/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>pow</title><script>${script.replace(/<\/script/g, '<\\/script')}</script>` }),
    );
    await page.goto('http://localhost/');
    const cdp = await page.context().newCDPSession(page);
    for (const rate of RATES) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      for (const bits of BITS) {
        const times: Record<(typeof SOLVERS)[number], number[]> = { old: [], new: [] };
        const longest = { old: 0, new: 0 };
        for (let run = 0; run < RUNS; run++) {
          const given = challenge();
          const order = run % 2 ? [...SOLVERS].reverse() : SOLVERS;
          const nonces = new Set<string>();
          for (const solver of order) {
            const solved = await page.evaluate(
              async ([solver, given, bits]) => {
                const w = window as unknown as { solvers: Record<string, (c: string, b: number) => Promise<string>>; longest: number };
                // Let the last solve's long tasks be reported before counting this one's.
                await new Promise((resolve) => setTimeout(resolve, 50));
                w.longest = 0;
                const start = performance.now();
                const nonce = await w.solvers[solver]!(given, bits);
                const ms = performance.now() - start;
                await new Promise((resolve) => setTimeout(resolve, 50));
                return { ms, nonce, longest: w.longest } satisfies Solved;
              },
              [solver, given, bits] as const,
            );
            times[solver].push(solved.ms);
            longest[solver] = Math.max(longest[solver], solved.longest);
            nonces.add(solved.nonce);
          }
          if (nonces.size !== 1) throw new Error(`the solvers disagree on ${given} at ${bits} bits: ${[...nonces].join(', ')}`);
        }
        const cpu = rate === 1 ? 'as it is' : `${rate}× slower`;
        for (const solver of SOLVERS) {
          const label = solver === 'old' ? `Web Crypto, 4,096 a batch (${BASELINE})` : 'noble SHA-256, prefix hashed once, 10 ms slices';
          rows.push([`${bits} bits, CPU ${cpu}: ${label}`, Math.round(percentile(times[solver], 50)), Math.round(percentile(times[solver], 90)), longest[solver] ? Math.round(longest[solver]) : '< 50']);
        }
      }
    }
  } finally {
    await browser.close();
  }
  return [
    {
      title: `Proof of work: time to solve in headless Chromium (${RUNS} challenges each, the same for both solvers)`,
      columns: ['Bits, CPU, solver', 'median ms', 'p90 ms', 'longest task ms'],
      rows,
      notes: [
        'Each challenge is solved by both solvers in turn (alternating which goes first); both find the same nonce, so the same number of digests: 2^bits on average, but any one challenge may need several times that, hence p90.',
        '"longest task": the longest main-thread task (PerformanceObserver longtask, reported from 50 ms) during any solve of that row; "< 50" when there was none.',
        `${before} ${loadNote('after the run')}`,
      ],
    },
  ];
}
