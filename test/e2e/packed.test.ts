/**
 * The package as a host gets it from npm: `npm pack`ed from a checkout never
 * built (its prepack script builds it), and installed
 * from the tarball into an empty project with `npm install --omit=dev` (only
 * its `dependencies`: no tsx, no Vite, no TypeScript). From that project,
 * `npx stagedoor sandbox` and `npx stagedoor proxy` run (the compiled command
 * line) and a whole booking goes through them; `npx stagedoor serve` serves the
 * demo with the proxy and the sandbox, and `npx stagedoor first-list --cards`
 * prints a page's first cards from it; `stagedoor/proxy` imports under Node
 * as the pooled proxy, and `stagedoor/proxy/redis` loads.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { root } from '../../scripts/build.mjs';
import { book, findSeatPair, RETURN_ORIGIN, rotation } from '../server/booking-steps.ts';
import { run, type Running } from '../server/cli-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const work = mkdtempSync(join(tmpdir(), 'stagedoor-packed-'));
const stage = join(work, 'package');
const project = join(work, 'host');
const running: Running[] = [];

/** The environment of a host's shell: nothing of this test runner's (no loader, no npm_* of the repository's npm). */
function hostEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$)/i.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** `npx stagedoor ...` in the host project. */
function npxStagedoor(args: string[], extra: Record<string, string> = {}): Running {
  const cli = run('npx', ['--no-install', 'stagedoor', ...args], hostEnv(extra), project);
  running.push(cli);
  return cli;
}

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env: hostEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the package installed from its tarball with --omit=dev', () => {
  before(async () => {
    // A checkout that was never built (no dist/), packed as `npm publish` would: `npm pack`
    // runs the package's prepack script, which must build what the package's bin needs.
    const skip = new Set(['node_modules', 'dist', '.git', 'docs/screenshots', 'test', 'bench', 'examples']);
    const skipped = (from: string) => {
      const [top = '', next] = from.slice(root.length + 1).split(/[\\/]/);
      return skip.has(top) || skip.has(`${top}/${next}`);
    };
    cpSync(root, stage, { recursive: true, filter: (from) => from === root || !skipped(from) });
    symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');
    assert.ok(!existsSync(join(stage, 'dist')), 'the copy starts unbuilt');
    npm(['pack', '--pack-destination', work], stage);
    const tarball = readdirSync(work).find((name) => /^stagedoor-.*\.tgz$/.test(name));
    assert.ok(tarball, 'npm pack made a tarball');

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'theatre-site', version: '1.0.0', private: true }));
    npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], project);
  });

  after(async () => {
    await Promise.all(running.map((cli) => cli.stop()));
    rmSync(work, { recursive: true, force: true });
  });

  test('brings no development dependency: no tsx, Vite or TypeScript', () => {
    const modules = join(project, 'node_modules');
    assert.ok(existsSync(join(modules, 'stagedoor', 'dist', 'lib', 'server', 'cli.js')), 'the compiled command line is in the package');
    for (const dev of ['tsx', 'vite', 'typescript', 'esbuild', 'autocannon']) assert.ok(!existsSync(join(modules, dev)), `${dev} was installed`);
    for (const runtime of ['undici', 'ioredis', 'prom-client', 'hono']) assert.ok(existsSync(join(modules, runtime)), `${runtime} is missing`);
  });

  test('npx stagedoor sandbox and npx stagedoor proxy run, and a basket is booked through them', async () => {
    const sandbox = npxStagedoor(['sandbox', '--port', '0', '--api-key', KEY]);
    const [, sandboxUrl] = await sandbox.line(/^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
    assert.ok(sandboxUrl);
    const proxy = npxStagedoor(['proxy', '--upstream', sandboxUrl, '--port', '0', '--return-origin', RETURN_ORIGIN], { STAGEDOOR_API_KEY: KEY });
    const [, endpoint] = await proxy.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//, 60_000);
    assert.ok(endpoint);

    const next = rotation([endpoint]);
    const { tickets } = await findSeatPair(next());
    const outcome = await book(next, tickets);
    assert.equal(outcome.seats.length, 2);
    assert.deepEqual(outcome.bookedSeats, outcome.seats);
    assert.match(outcome.bookingReference, /\S/);
    // Its operational endpoints answer too.
    const ready = await fetch(endpoint.replace(/\/api$/, '/readyz'));
    assert.deepEqual(await ready.json(), { status: 'ready', upstream: 'ok', store: { name: 'memory', health: 'local' }, orders: 'unchecked' });
    assert.ok(!proxy.stdout().includes(KEY) && !proxy.stderr().includes(KEY), 'the key is never printed');
  });

  test('npx stagedoor serve serves the built demo with the proxy and the sandbox on one origin', async () => {
    const serve = npxStagedoor(['serve', '--port', '0']);
    const [, origin] = await serve.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
    const page = await fetch(`${origin}/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const script = /<script type="module" src="([^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'the page loads the built bundle');
    const bundle = await fetch(new URL(script, `${origin}/`));
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
    await bundle.arrayBuffer();
    const events = await fetch(`${origin}/api/rest/v2/Events`);
    assert.equal(events.status, 200);
    assert.ok(((await events.json()) as { Events: unknown[] }).Events.length > 0);
    // The first list and its cards for a German page, as embedding.md has a host print them.
    const first = npxStagedoor(['first-list', '--proxy', `${origin}/api`, '--endpoint', '/api', '--cards', '--lang', 'de']);
    assert.equal(await first.exited, 0, first.stderr());
    assert.match(first.stdout(), /^<template shadowrootmode="open"><style>:host\{.*aria-label="Veranstaltungen".*<\/template><script type="application\/json" id="stagedoor-first-list" /s);
    // The docs pages beside it, rendered from the package's README.md and docs/.
    const [, docs] = await serve.line(/^Stagedoor docs: (http:\/\/127\.0\.0\.1:\d+\/docs\/)$/, 10_000);
    const home = await fetch(docs ?? '');
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<a href="production\.md">The proxy and production<\/a>/);
    const theming = await fetch(`${docs}theming.md`);
    assert.equal(theming.status, 200);
    assert.match(await theming.text(), /<h1 id="theming">Theming<\/h1>/);
  });

  test('stagedoor/proxy imports under Node as the pooled proxy with metrics; stagedoor/proxy/redis loads', () => {
    const script = [
      "const proxy = await import('stagedoor/proxy');",
      "const redis = await import('stagedoor/proxy/redis');",
      'console.log(JSON.stringify({ pool: typeof proxy.poolClient, create: typeof proxy.createProxy, redis: typeof redis.createRedisStore }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: hostEnv(), encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { pool: 'function', create: 'function', redis: 'function' });
  });

  test('the tarball holds what package.json promises, and no test or bench file', () => {
    const installed = join(project, 'node_modules', 'stagedoor');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    for (const target of Object.values(pkg.bin)) assert.ok(existsSync(join(installed, target)), target);
    assert.ok(existsSync(join(installed, 'dist', 'demo', 'index.html')), 'the demo pages for stagedoor serve');
    assert.ok(existsSync(join(installed, 'docs', 'elements.md')), 'the docs pages for stagedoor serve');
    assert.ok(!existsSync(join(installed, 'docs', 'screenshots')), 'the screenshots stay in the repository');
    assert.ok(!existsSync(join(installed, 'test')) && !existsSync(join(installed, 'bench')));
  });
});
