// The repository as a newcomer gets it: `git clone` into an empty temporary
// folder (nothing beside the clone, so nothing outside the repository can be
// read), `npm install`, and a command run there (default: the whole `npm test`).
//
//   node scripts/fresh-clone.mjs                 # npm test in a fresh clone
//   node scripts/fresh-clone.mjs -- npx tsx --test test/api/operations.test.ts
//   node scripts/fresh-clone.mjs --registry      # npm install from the registry, not this checkout's node_modules
//   node scripts/fresh-clone.mjs --keep          # leave the clone for a look
//
// The clone is of the last commit, with this checkout's uncommitted changes
// (tracked and new files that git does not ignore) laid over it, so what is
// tested is what would be committed. By default `node_modules` is this
// checkout's as installed, copied as hard links (seconds, no network; the files
// are inside the clone). No npm runs on those links: npm writes some files in
// place (node_modules/.package-lock.json), which would write into this
// checkout's too, and in `npm test` its `install --offline` once left the clone
// with no node_modules/.bin/tsx. `--registry` installs from the registry instead.
// test/e2e/stands-alone.test.ts uses freshClone() for its part of `npm test`.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The environment of a newcomer's shell: nothing of an npm script or test runner around this one. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$|NODE_TEST_CONTEXT$)/i.test(name)) env[name] = value;
  }
  return { ...env, STAGEDOOR_FRESH_CLONE: '1', ...extra };
}

const git = (args, cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const nulList = (text) => text.split('\0').filter(Boolean);

/**
 * A fresh clone in `<tmp>/stagedoor-clone-XXXX/stagedoor`, with node_modules. Returns
 * its folder and `remove()`. `registry: true` installs from the npm registry
 * instead of hard-linking this checkout's node_modules.
 */
export function freshClone({ registry = false, log = () => {} } = {}) {
  const parent = mkdtempSync(join(tmpdir(), 'stagedoor-clone-'));
  const dir = join(parent, 'stagedoor');
  const remove = () => rmSync(parent, { recursive: true, force: true });
  try {
    git(['clone', '--quiet', '--no-hardlinks', root, dir], parent);
    // Uncommitted work laid over the commit: changed and new files, and deletions.
    const changed = nulList(git(['ls-files', '-z', '--modified', '--others', '--exclude-standard']));
    const deleted = new Set(nulList(git(['ls-files', '-z', '--deleted'])));
    for (const file of changed) {
      if (deleted.has(file)) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(root, file), join(dir, file));
    }
    for (const file of deleted) rmSync(join(dir, file), { force: true });
    log(`cloned into ${dir} (${changed.length} uncommitted files laid over, ${deleted.size} deleted)`);

    if (registry) {
      execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      log('npm install (from the registry): done');
    } else {
      execFileSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')]);
      log('node_modules: hard links to this checkout\'s');
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/** Run a command in the clone; resolves with its exit code and output. */
export function runIn(dir, command, args, { echo = false, env = {} } = {}) {
  return new Promise((resolvePromise) => {
    let output = '';
    const child = spawn(command, args, { cwd: dir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (stream) => (chunk) => {
      output += chunk;
      if (echo) stream.write(chunk);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    // A command that cannot start (ENOENT) says so in its output.
    child.on('error', (error) => { output += `\n${command}: ${error.message}\n`; });
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const dash = argv.indexOf('--');
  const flags = dash < 0 ? argv : argv.slice(0, dash);
  const [command, ...args] = dash < 0 ? ['npm', 'test'] : argv.slice(dash + 1);
  const unknown = flags.filter((flag) => !['--registry', '--keep'].includes(flag));
  if (unknown.length || !command) {
    console.error('usage: node scripts/fresh-clone.mjs [--registry] [--keep] [-- command args...]');
    process.exit(2);
  }
  const { dir, remove } = freshClone({ registry: flags.includes('--registry'), log: (line) => console.log(`fresh clone: ${line}`) });
  console.log(`fresh clone: ${command} ${args.join(' ')}`);
  const { code } = await runIn(dir, command, args, { echo: true });
  if (flags.includes('--keep')) console.log(`fresh clone: kept at ${dir}`);
  else remove();
  process.exit(code);
}
