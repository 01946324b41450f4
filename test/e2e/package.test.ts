/**
 * The npm package as a host project sees it: build dist/lib, install it into
 * a scratch project (a symlink in node_modules) and type-check a consumer
 * against the package's `exports` map, under both `bundler` and `node16`
 * resolution. Proves the side-effect-free class exports, the per-element
 * registration entry points, their HTMLElementTagNameMap entries and the
 * `.d.ts` files; and that `sideEffects` names exactly the registration files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { buildLib, expectedSideEffects, registrationFiles, root, type CustomElementsManifest } from '../../scripts/build.mjs';
import { elementsOf } from '../../scripts/docs.mjs';

// Inside the repository, so the package's own imports (lit, @lit/*) resolve from its node_modules.
const work = join(root, 'node_modules', '.cache', `stagedoor-package-test-${process.pid}`);
const pkgDir = join(work, 'stagedoor');
const consumer = join(work, 'consumer');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  sideEffects: string[];
  types: string;
  customElements: string;
};
const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as CustomElementsManifest;

function typecheck(resolution: 'bundler' | 'node16'): { status: number | null; output: string } {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: resolution === 'bundler' ? 'ESNext' : 'Node16',
      moduleResolution: resolution,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
    },
    files: ['consumer.ts'],
  };
  writeFileSync(join(consumer, `tsconfig.${resolution}.json`), JSON.stringify(config));
  const r = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', `tsconfig.${resolution}.json`], { cwd: consumer, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the npm package', () => {
  before(async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    await buildLib({ outDir: join(pkgDir, 'dist', 'lib') });
    cpSync(join(root, 'package.json'), join(pkgDir, 'package.json'));
    cpSync(join(root, 'custom-elements.json'), join(pkgDir, 'custom-elements.json'));
    symlinkSync(pkgDir, join(consumer, 'node_modules', 'stagedoor'), 'dir');
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));

    const elements = elementsOf(manifest);
    const lines = [
      "import { BookingProvider, createApiClient, defineElement } from 'stagedoor';",
      "import { createProxy } from 'stagedoor/proxy';",
      "import { createSandbox } from 'stagedoor/sandbox';",
      // A host mounts the proxy with the sandbox as its upstream.
      "const sandbox = createSandbox({ seed: 2 });",
      "const proxy = createProxy({ upstream: (request) => sandbox.fetch(request), apiKey: 'k' });",
      "const handler: (request: Request) => Response | Promise<Response> = (request) => proxy.fetch(request);",
      'void handler;',
      "import 'stagedoor/define';",
      ...registrationFiles().map(({ tag }) => `import 'stagedoor/elements/${tag}';`),
      "import type * as Stagedoor from 'stagedoor';",
      // A host registers a class under its own tag.
      "defineElement('lyric-provider', class extends BookingProvider {});",
      "const api = createApiClient({ endpoint: '/api' });",
      'void api;',
      // Registered tags are typed through HTMLElementTagNameMap.
      ...elements.map((e, i) => `const el${i}: Stagedoor.${e.name} = document.createElement('${e.tagName}');\nvoid el${i};`),
      "const provider = document.createElement('booking-provider');",
      "const endpoint: string | null = provider.endpoint;",
      'void endpoint;',
      '// @ts-expect-error onAccount is a boolean: proves the types are real, not any',
      "provider.onAccount = 'yes';",
    ];
    writeFileSync(join(consumer, 'consumer.ts'), `${lines.join('\n')}\n`);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('names exactly the registration files in sideEffects', () => {
    assert.deepEqual(pkg.sideEffects, expectedSideEffects());
  });

  it('has a file behind every exports target, types and customElements', () => {
    const targets: string[] = [pkg.types, pkg.customElements];
    for (const [key, value] of Object.entries(pkg.exports)) {
      if (key === './stagedoor.js') continue; // the script-tag bundle: test/e2e/bundle.test.ts builds it
      const paths = typeof value === 'string' ? [value] : [value.types, value.default];
      for (const p of paths) {
        if (p.includes('*')) targets.push(...registrationFiles().map(({ tag }) => p.replaceAll('*', tag)));
        else targets.push(p);
      }
    }
    for (const target of targets) assert.ok(existsSync(join(pkgDir, target)), `missing ${target}`);
  });

  it('keeps the class exports free of registration', () => {
    const exportsJs = readFileSync(join(pkgDir, 'dist', 'lib', 'exports.js'), 'utf8');
    assert.doesNotMatch(exportsJs, /customElements\.define|defineElement\(['"]/);
    for (const { tag } of registrationFiles()) assert.ok(!exportsJs.includes(`elements/${tag}/${tag}.js`), `exports.js imports the registration file of <${tag}>`);
  });

  it('runs the built proxy in front of the built sandbox in Node', async () => {
    type ProxyModule = { createProxy(options: { upstream: (r: Request) => Promise<Response>; apiKey: string; log: false }): { fetch(r: Request): Promise<Response> } };
    type SandboxModule = { createSandbox(options: { seed: number }): { fetch(r: Request): Promise<Response> } };
    const { createProxy } = (await import(pathToFileURL(join(pkgDir, 'dist/lib/server/proxy/index.js')).href)) as ProxyModule;
    const { createSandbox } = (await import(pathToFileURL(join(pkgDir, 'dist/lib/server/sandbox/index.js')).href)) as SandboxModule;
    const sandbox = createSandbox({ seed: 1 });
    const proxy = createProxy({ upstream: (request) => sandbox.fetch(request), apiKey: 'package-test', log: false });
    const response = await proxy.fetch(new Request('http://host.test/api/rest/v2/Events'));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { Events: { Name: string }[] };
    assert.ok(body.Events.length > 0);
  });

  for (const resolution of ['bundler', 'node16'] as const) {
    it(`type-checks a consumer under moduleResolution ${resolution}`, () => {
      const { status, output } = typecheck(resolution);
      assert.equal(status, 0, output);
    });
  }
});
