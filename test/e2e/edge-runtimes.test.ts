/**
 * `stagedoor/proxy` on the runtimes the README names besides Node, each from
 * its npm package (devDependencies `miniflare`, `deno`, `bun`; CI installs
 * them): the package is built and packed as `npm pack` would (the server part,
 * which is all the proxy needs), installed from the tarball into an empty
 * project, and served
 * - under workerd through miniflare, bundled as a Workers build does
 *   (esbuild, conditions `workerd`/`worker`, `node:` imports left to the
 *   runtime) and started with NO compatibility flags: a bundle that imports any
 *   Node built-in is refused there;
 * - under Deno (`Deno.serve`) and under Bun (`Bun.serve`), importing the
 *   installed package by name;
 * each in front of our sandbox on loopback, and a basket is booked through
 * each: create a basket, add two seats, read the basket back.
 *
 * A runtime whose package is not installed is skipped, saying which.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildServer, root } from '../../scripts/build.mjs';
import { createApiClient } from '../../src/api/client.ts';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { findSeatPair } from '../server/booking-steps.ts';
import { run, type Running } from '../server/cli-helpers.ts';
import { listen, type Listening } from '../server/proxy-helpers.ts';

const KEY = `sk-edge-${crypto.randomUUID()}`;
const require = createRequire(import.meta.url);

/** The binary an npm package brings, or null when the package is not installed. */
function binary(name: string): string | null {
  const path = join(root, 'node_modules', '.bin', name);
  return existsSync(path) ? path : null;
}

function installed(name: string): boolean {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

const missing = (name: string) => `the ${name} package is not installed (npm install --include=dev brings it)`;

const work = mkdtempSync(join(tmpdir(), 'stagedoor-edge-'));
const stage = join(work, 'package');
const project = join(work, 'host');
const running: Running[] = [];
let sandboxServer: Listening;
let upstream = '';
let direct: ReturnType<typeof createApiClient>;

/** Two neighbouring seats still free (each runtime books its own pair). */
const freePair = async () => (await findSeatPair(direct)).tickets;

/** The environment of a host's shell: nothing of this test runner's. */
function hostEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$)/i.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, env: hostEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Create a basket, add a pair of seats and read the basket back, all through `endpoint`. */
async function bookThrough(endpoint: string, tickets: [number, number]) {
  const api = createApiClient({ endpoint });
  const { Events } = await api.getEvents();
  assert.ok(Events.length > 0, 'events are served');
  const { BasketId } = await api.createBasket();
  const added = await api.addTickets({ basketId: BasketId, body: { Tickets: tickets } });
  assert.equal(added.Success, true, added.FailureReasonText);
  const basket = await api.getBasket({ basketId: BasketId });
  assert.deepEqual(basket.Items.flatMap((item) => item.Tickets.map((t) => t.TicketId)).sort(), [...tickets].sort());
  return BasketId;
}

/** A server script's printed port, as `http://127.0.0.1:P/api`. */
async function endpointOf(server: Running): Promise<string> {
  try {
    const [, port] = await server.line(/^listening (\d+)$/, 60_000);
    return `http://127.0.0.1:${port}/api`;
  } catch (error) {
    throw new Error(`the server did not start: ${server.stderr() || server.stdout()}`, { cause: error });
  }
}

describe('stagedoor/proxy on edge runtimes, installed from its tarball', () => {
  before(async () => {
    // The package as npm pack makes it, with the server build (what stagedoor/proxy resolves to).
    mkdirSync(stage, { recursive: true });
    for (const file of ['package.json', 'README.md']) copyFileSync(join(root, file), join(stage, file));
    await buildServer({ outDir: join(stage, 'dist', 'lib'), declarations: false });
    npm(['pack', '--ignore-scripts', '--pack-destination', work], stage);
    const tarball = readdirSync(work).find((name) => /^stagedoor-.*\.tgz$/.test(name));
    assert.ok(tarball, 'npm pack made a tarball');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'edge-site', version: '1.0.0', private: true, type: 'module' }));
    npm(['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], project);

    const sandbox = createSandbox({ apiKeys: [KEY] });
    sandboxServer = await listen((request) => sandbox.fetch(request));
    upstream = sandboxServer.url;
    direct = createApiClient({ endpoint: sandboxServer.url, headers: { 'Api-Key': KEY } });
  });

  after(async () => {
    await Promise.all(running.map((server) => server.stop()));
    await sandboxServer?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('workerd (miniflare), no compatibility flags: the worker starts and books a basket', { skip: installed('miniflare') ? false : missing('miniflare') }, async () => {
    const { build } = await import('esbuild');
    const { Miniflare } = await import('miniflare');
    writeFileSync(
      join(project, 'worker.js'),
      [
        "import { createProxy } from 'stagedoor/proxy';",
        'let proxy;',
        'export default {',
        '  fetch(request, env) {',
        '    proxy ??= createProxy({ upstream: env.UPSTREAM, apiKey: env.API_KEY, log: false });',
        '    return proxy.fetch(request, env);',
        '  },',
        '};',
      ].join('\n'),
    );
    // As a Workers build bundles: the worker conditions, Node built-ins left for the runtime to provide (or refuse).
    await build({
      entryPoints: [join(project, 'worker.js')],
      outfile: join(project, 'worker.bundle.js'),
      absWorkingDir: project,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker'],
      mainFields: ['module', 'main'],
      external: ['node:*'],
      logLevel: 'error',
    });
    const mf = new Miniflare({
      modules: true,
      scriptPath: join(project, 'worker.bundle.js'),
      modulesRoot: project,
      compatibilityDate: '2025-01-01',
      compatibilityFlags: [],
      bindings: { UPSTREAM: upstream, API_KEY: KEY },
    });
    try {
      const url = await mf.ready;
      const endpoint = new URL('/api', url).href;
      await bookThrough(endpoint, await freePair());
    } finally {
      await mf.dispose();
    }
    const bundle = readFileSync(join(project, 'worker.bundle.js'), 'utf8');
    assert.doesNotMatch(bundle, /["']node:[a-z_]+["']/, 'the edge build imports no Node built-in');
  });

  test('Deno: Deno.serve with the installed package books a basket', { skip: binary('deno') ? false : missing('deno') }, async () => {
    writeFileSync(
      join(project, 'deno-server.js'),
      [
        "import { createProxy } from 'stagedoor/proxy';",
        "const proxy = createProxy({ upstream: Deno.env.get('UPSTREAM'), apiKey: Deno.env.get('API_KEY'), log: false });",
        "Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, (request) => proxy.fetch(request));",
      ].join('\n'),
    );
    const server = run(binary('deno') as string, ['run', '--quiet', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', 'deno-server.js'], hostEnv({ UPSTREAM: upstream, API_KEY: KEY, DENO_DIR: join(work, 'deno-cache'), NO_COLOR: '1' }), project);
    running.push(server);
    await bookThrough(await endpointOf(server), await freePair());
  });

  test('Bun: Bun.serve with the installed package books a basket', { skip: binary('bun') ? false : missing('bun') }, async () => {
    writeFileSync(
      join(project, 'bun-server.js'),
      [
        "import { createProxy } from 'stagedoor/proxy';",
        'const proxy = createProxy({ upstream: process.env.UPSTREAM, apiKey: process.env.API_KEY, log: false });',
        "const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => proxy.fetch(request) });",
        'console.log(`listening ${server.port}`);',
      ].join('\n'),
    );
    const server = run(binary('bun') as string, ['bun-server.js'], hostEnv({ UPSTREAM: upstream, API_KEY: KEY, NO_COLOR: '1' }), project);
    running.push(server);
    await bookThrough(await endpointOf(server), await freePair());
  });
});
