/**
 * The repository stands alone: a fresh clone with nothing beside it passes
 * its tests, so no test, script, page or config may read or point outside it.
 *
 * - Every file the repository holds is read for paths that leave it: a
 *   relative path (`../…` in code, a markdown link) that climbs above the
 *   repository from where it is written, a path joined onto the repository's
 *   root that climbs out of it (root, then '..'), or a path of the
 *   machine it was written on.
 * - Every include and exclude of the TypeScript projects matches a file.
 * - The repository is cloned into an empty temporary folder (node_modules
 *   hard-linked from this checkout, as installed), and there the api tests,
 *   the docs and manifest tests and a browser test run (`node
 *   scripts/fresh-clone.mjs` runs all of `npm test` there).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { root } from '../../scripts/build.mjs';
import { freshClone, runIn } from '../../scripts/fresh-clone.mjs';

/** The files a clone would hold (committed, and new files git does not ignore), less deletions. */
function repositoryFiles(): string[] {
  const list = (args: string[]) => execFileSync('git', ['ls-files', '-z', ...args], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const deleted = new Set(list(['--deleted']));
  return [...new Set([...list(['--cached']), ...list(['--others', '--exclude-standard'])])].filter((f) => !deleted.has(f) && existsSync(join(root, f)));
}

const TEXT = new Set(['.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs', '.json', '.md', '.html', '.css', '.php', '.txt', '.xlf', '.yml', '.yaml', '']);
const files = repositoryFiles().filter((f) => TEXT.has(extname(f)) && f !== 'package-lock.json');

const outside = (from: string, path: string) => relative(root, resolve(root, dirname(from), path)).startsWith('..');

describe('the repository stands alone', () => {
  test('no file names a path outside the repository', () => {
    // A relative path in quotes, backticks or a markdown link, e.g. '../../src/x.ts' or ](../x.md).
    const relativePath = /(?:['"`(]|\]\()((?:\.\.\/)+[^'"`)\s]*)/g;
    // The repository's root with '..' joined on, in resolve() or join().
    const rootClimb = /\b(?:resolve|join)\(\s*(?:root|repoRoot|projectRoot|ROOT)\s*,\s*['"]\.\.['"]/;
    // Paths of the machine the repository was written on (spelt in two parts, or this file would name them).
    const machine = new RegExp(['/wo', 'rk/|/ho', 'me/[a-z]'].join(''));
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const m of text.matchAll(relativePath)) if (outside(file, m[1] as string)) found.push(`${file}: ${m[1]}`);
      if (rootClimb.test(text)) found.push(`${file}: ${rootClimb.exec(text)?.[0]}`);
      if (machine.test(text)) found.push(`${file}: ${machine.exec(text)?.[0]}`);
    }
    assert.deepEqual(found, [], 'paths outside the repository');
  });

  test('every include and exclude of the TypeScript projects matches a file', () => {
    const globToRegExp = (glob: string) =>
      new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}(?:/.*)?$`);
    const projects = files.filter((f) => /(^|\/)tsconfig[^/]*\.json$/.test(f));
    assert.ok(projects.length >= 4, projects.join(', '));
    for (const project of projects) {
      const config = JSON.parse(readFileSync(join(root, project), 'utf8')) as { include?: string[]; exclude?: string[] };
      for (const pattern of [...(config.include ?? []), ...(config.exclude ?? [])]) {
        const full = relative(root, resolve(root, dirname(project), pattern));
        const re = globToRegExp(full);
        assert.ok(files.some((f) => re.test(f)), `${project}: "${pattern}" matches no file`);
      }
    }
  });

  test('in a fresh clone with nothing beside it, the api, docs and manifest tests and a browser test pass', { skip: process.env.STAGEDOOR_FRESH_CLONE === '1' && 'already in a fresh clone', timeout: 300_000 }, async () => {
    const { dir, remove } = freshClone();
    /** What a failed run said: its failing tests, then its last lines (a CI log keeps only a failure's first and last lines). */
    const why = (what: string, run: { code: number; output: string }) =>
      `${what} (exit ${run.code}):\n${run.output.split('\n').filter((l) => /^\s*(✖|not ok)/.test(l)).slice(0, 10).join('\n')}\n…\n${run.output.slice(-2000)}`;
    try {
      for (const bin of ['tsx', 'web-test-runner']) assert.ok(existsSync(join(dir, 'node_modules', '.bin', bin)), `the clone has no node_modules/.bin/${bin}`);
      const node = await runIn(dir, 'node_modules/.bin/tsx', [
        '--test',
        'test/api/operations.test.ts',
        'test/api/match.test.ts',
        'test/e2e/docs.test.ts',
        'test/e2e/manifest.test.ts',
      ]);
      assert.equal(node.code, 0, why('Node tests in the clone', node));
      assert.match(node.output, /^# fail 0$/m);
      const browser = await runIn(dir, 'node_modules/.bin/web-test-runner', ['test/elements/context-root.test.ts']);
      assert.equal(browser.code, 0, why('browser test in the clone', browser));
      assert.match(browser.output, /\d+ passed, 0 failed/);
    } finally {
      remove();
    }
  });
});
