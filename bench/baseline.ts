/**
 * The yardstick of the benches: the sources of an earlier commit (by default
 * e733bf6, the last commit before the work on issue 34 began: the build whose
 * figures that issue starts from, first card 1,497 ms, second visit 901 ms,
 * ready for a tap 3,341 ms; issue 24's yardstick was 2e9b7c2), checked out by the bench itself into
 * <tmpdir>/stagedoor-baseline-<commit> with `git archive` (no worktree, nothing
 * in .git changes; not under node_modules, where the TypeScript transform
 * ignores tsconfig.json), sharing this checkout's node_modules through a link. A
 * bench imports that copy's own scripts/build.mjs and builds with it, so both
 * columns of a table come from one run on one machine.
 *
 * `BENCH_BASELINE=<commit>` compares against another commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../scripts/build.mjs';

export const BASELINE_COMMIT = process.env.BENCH_BASELINE ?? 'e733bf6';

/** The baseline's sources in a folder of their own (made once per commit, kept for later runs). */
export function baselineCheckout(commit = BASELINE_COMMIT): string {
  const full = execFileSync('git', ['-C', root, 'rev-parse', `${commit}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `stagedoor-baseline-${full.slice(0, 12)}`);
  const done = join(dir, '.complete');
  if (existsSync(done)) {
    // Kept from a run in another checkout since removed: its link to node_modules points nowhere.
    const modules = join(dir, 'node_modules');
    if (!existsSync(modules)) {
      rmSync(modules, { force: true });
      symlinkSync(join(root, 'node_modules'), modules, 'dir');
    }
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', full], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(done, `${full}\n`);
  return dir;
}

type BuildModule = typeof import('../scripts/build.mjs');

/** The baseline's own build script (its `root` is the baseline's folder): buildBundle, buildServer, ... */
export async function baselineBuild(commit = BASELINE_COMMIT): Promise<BuildModule & { dir: string }> {
  const dir = baselineCheckout(commit);
  const mod = (await import(pathToFileURL(join(dir, 'scripts', 'build.mjs')).href)) as BuildModule;
  return { ...mod, dir };
}

/** `uptime`'s load averages, for every figure a bench prints (the machine is shared). */
export function loadNote(when: string): string {
  return `Load average (1 / 5 / 15 min) ${when}: ${loadavg().map((x) => x.toFixed(2)).join(' / ')} on ${availableParallelism()} CPUs.`;
}
