/**
 * The npm package as a host project sees it: build dist/lib, install it into
 * a scratch project (a symlink in node_modules) and type-check a consumer
 * against the package's `exports` map, under both `bundler` and `node16`
 * resolution. Proves the side-effect-free class exports, the per-element
 * registration entry points, their HTMLElementTagNameMap entries and the
 * `.d.ts` files; and that `sideEffects` names exactly the registration files.
 * A React + TypeScript host's JSX (`stagedoor/react`) is type-checked too:
 * right usage passes, and each kind of wrong prop is an error naming it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { buildLib, expectedSideEffects, registrationFiles, root, type CustomElementsManifest } from '../../scripts/build.mjs';
import { elementsOf } from '../../scripts/docs.mjs';

// Inside the repository, so the package's own imports (lit, @lit/*) resolve from its node_modules.
const work = join(root, 'node_modules', '.cache', `stagedoor-package-test-${process.pid}`);
const pkgDir = join(work, 'stagedoor');
const consumer = join(work, 'consumer');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
  sideEffects: string[];
  types: string;
  customElements: string;
};
const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as CustomElementsManifest;

function typecheck(resolution: 'bundler' | 'node16', files = ['consumer.ts'], name: string = resolution): { status: number | null; output: string } {
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
      jsx: 'react-jsx',
    },
    files,
  };
  writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify(config));
  const r = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', `tsconfig.${name}.json`], { cwd: consumer, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/**
 * A React 19 host's JSX with our tags (React and its types come from this
 * repository's devDependencies, as a host's own would). Right: properties,
 * attributes, typed event handlers, React's own props, children.
 */
const reactConsumer = `import 'stagedoor/define';
import type {} from 'stagedoor/react';
import type { BookingEvent, SeatPicker } from 'stagedoor';

const onOrder = (event: BookingEvent<'booking-order-completed'>): string => event.detail.bookingReference;
export const right = (
  <booking-provider endpoint="/api" currency="EUR" successUrl="/booked" onbooking-order-completed={onOrder}
    onbooking-basket-change={(event) => void event.detail.basket?.Items.length}>
    <basket-timer showItems emptyText="Nothing held" warning-seconds={90} />
    <event-list showTypeFilter eventType={1} onbooking-selection={(event) => { const kind: 'event' | 'dates' | 'performance' = event.detail.kind; void kind; }} />
    <performance-calendar eventId={7} month="2025-05" few-left-ratio="0.2" />
    <seat-picker performanceId={1042} mode="best-available" maxSeats={4} className="seats" ref={(el: SeatPicker | null) => void el?.performanceId}
      onbooking-basket-change={(event) => { const count: number = event.detail.basket?.Items.length ?? 0; void count; }} />
    <seat-picker performance-id="1042" max-seats={4} />
    <checkout-form onbooking-checkout-submitted={(event) => void event.detail.paymentRedirectUrl} />
    <booking-confirmation outcome="success" retryLimit={3} />
  </booking-provider>
);
`;

/** Wrong, each in its own file: the message tsc must give. */
const reactMistakes: Record<string, { jsx: string; error: RegExp }> = {
  'misspelt property': { jsx: '<seat-picker performanceID={1042} />', error: /Property 'performanceID' does not exist/ },
  'value outside the allowed words': { jsx: '<seat-picker mode="cheapest" />', error: /Type '"cheapest"' is not assignable/ },
  'text for a number property': { jsx: '<seat-picker performanceId="1042" />', error: /Type 'string' is not assignable to type 'number'/ },
  'a read-only state': { jsx: '<basket-timer state="final" />', error: /Property 'state' does not exist/ },
  'a field the event does not carry': { jsx: '<seat-picker onbooking-basket-change={(event) => event.detail.total} />', error: /Property 'total' does not exist/ },
  'an unknown tag of ours': { jsx: '<seat-pickers />', error: /Property 'seat-pickers' does not exist on type 'JSX.IntrinsicElements'/ },
};

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
    writeFileSync(join(consumer, 'react-right.tsx'), reactConsumer);
    Object.values(reactMistakes).forEach(({ jsx }, i) => {
      writeFileSync(join(consumer, `react-wrong-${i}.tsx`), `import 'stagedoor/define';\nimport type {} from 'stagedoor/react';\nexport const wrong = ${jsx};\n`);
    });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('names exactly the registration files in sideEffects', () => {
    assert.deepEqual(pkg.sideEffects, expectedSideEffects());
  });

  it('has a file behind every exports target, types and customElements', () => {
    const targets: string[] = [pkg.types, pkg.customElements];
    for (const [key, value] of Object.entries(pkg.exports)) {
      if (key === './stagedoor.js') continue; // the script-tag bundle: test/e2e/bundle.test.ts builds it
      // Every condition's target (`node`, `workerd`, `types`, `default`...).
      const paths = typeof value === 'string' ? [value] : Object.values(value);
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

  it('keeps the edge proxy (stagedoor/proxy outside Node) free of Node built-ins and Node-only packages', () => {
    const seen = new Set<string>();
    const nodeOnly: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const specifier = m[1] ?? m[2] ?? '';
        if (specifier.startsWith('.')) walk(join(dirname(file), specifier));
        else if (/^(node:|undici|ioredis|prom-client|@hono\/node-server)/.test(specifier)) nodeOnly.push(`${file} imports ${specifier}`);
      }
    };
    walk(join(pkgDir, 'dist', 'lib', 'server', 'proxy', 'index.js'));
    assert.ok(seen.size > 5, `followed ${seen.size} modules`);
    assert.deepEqual(nodeOnly, []);
    // What edge runtimes resolve stagedoor/proxy to: one file with lru-cache's browser build inlined, whose
    // default build imports node:diagnostics_channel (workerd refuses that without nodejs_compat).
    const edge = readFileSync(join(pkgDir, 'dist', 'lib', 'server', 'proxy', 'edge.js'), 'utf8');
    assert.doesNotMatch(edge, /['"]node:[a-z_]+['"]/);
    assert.deepEqual([...new Set([...edge.matchAll(/from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]))].sort(), ['hono', 'hono/cors']);
  });

  for (const resolution of ['bundler', 'node16'] as const) {
    it(`type-checks a consumer under moduleResolution ${resolution}`, () => {
      const { status, output } = typecheck(resolution);
      assert.equal(status, 0, output);
    });
  }

  it('types our tags in a React host\'s JSX: properties, attributes, typed event handlers (stagedoor/react)', () => {
    const { status, output } = typecheck('bundler', ['react-right.tsx'], 'react-right');
    assert.equal(status, 0, output);
  });

  it('makes each wrong prop in JSX a type error that names it', () => {
    const files = Object.keys(reactMistakes).map((_, i) => `react-wrong-${i}.tsx`);
    const { status, output } = typecheck('bundler', files, 'react-wrong');
    assert.notEqual(status, 0);
    // One diagnostic: its `file(line,col): error ...` line and the indented lines that explain it.
    const diagnostics = output.split(/\n(?=\S)/);
    Object.entries(reactMistakes).forEach(([mistake, { error }], i) => {
      const errors = diagnostics.filter((d) => d.startsWith(`react-wrong-${i}.tsx(`));
      assert.ok(errors.some((d) => error.test(d)), `${mistake}: expected ${error} for react-wrong-${i}.tsx, got:\n${errors.join('\n') || output}`);
    });
  });
});
