// `npm run build`: everything a host site installs or links, built with Vite's
// JS API and INLINE configs (vite.config.ts belongs to the dev server):
//
//   dist/stagedoor*            the script-tag bundle: dist/stagedoor.js, a small loader
//                              (the one script tag), the content-hashed chunks it
//                              loads when our tags appear (dist/stagedoor-*-<hash>.js:
//                              one per element, the core with Lit, DOMPurify, ...), and
//                              dist/stagedoor-preload.json (the chunks per tag, for
//                              hosts' modulepreload hints). The bundle is exactly the
//                              top-level dist/stagedoor.js, dist/stagedoor-*.js(.map),
//                              dist/stagedoor-preload.json and, built over the last release
//                              (--previous), its chunks and dist/stagedoor-kept.json.
//   dist/lib/                  the npm package: ES modules (one per source
//                              module), .d.ts from tsc, lit/@lit/dompurify external.
//   custom-elements.json       the manifest, from the JSDoc of the element classes.
//   dist/demo/                 the demo pages for `stagedoor serve`, loading the
//                              built bundle instead of the TypeScript sources.
//   dist/stagedoor-wordpress.zip  the WordPress plugin (wordpress/stagedoor/ with
//                              the whole bundle in assets/ and elements.json),
//                              ready for Plugins → Add New → Upload Plugin.
//   src/react.ts               (with the manifest) the JSX typing for React hosts.
//
// `node scripts/build.mjs [manifest|bundle|lib|wordpress|demo ...] [--previous DIR]` builds only those parts;
// `--previous` (or STAGEDOOR_PREVIOUS_BUNDLE) names the last release's bundle folder, whose chunks the
// new bundle and the plugin's assets keep (keepPreviousChunks): a cached old loader still finds them.
// Tests and benches import the functions below.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseCli } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { reactTypes, wordpressElements } from './hosts.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fromRoot = (...p) => join(root, ...p);

/** Packages the npm build leaves to the host's bundler (they are dependencies). */
export const isPackageExternal = (id) => /^(lit|lit-html|lit-element|@lit\/[^/]+|@lit-labs\/[^/]+|dompurify)(\/|$)/.test(id);

/**
 * The registration files, read from src/index.ts (the one place that lists
 * them): `import './elements/<tag>/<tag>.ts'`. Returns `{ tag, source }`.
 */
export function registrationFiles() {
  const index = readFileSync(fromRoot('src/index.ts'), 'utf8');
  const found = [];
  for (const m of index.matchAll(/^import\s+'\.\/(elements\/([a-z0-9-]+)\/\2\.ts)';/gm)) {
    found.push({ tag: m[2], source: `src/${m[1]}` });
  }
  return found;
}

/**
 * What package.json's `sideEffects` must list: the registration modules, built
 * (dist/lib) and source (src/, which our own bundle build reads: a source file
 * left out would be tree-shaken away, element and all).
 */
export function expectedSideEffects() {
  const sources = ['src/index.ts', ...registrationFiles().map(({ source }) => source)];
  return [
    ...sources.map((s) => `./${s.replace(/^src\//, 'dist/lib/').replace(/\.ts$/, '.js')}`),
    ...sources.map((s) => `./${s}`),
  ];
}

async function vite() {
  return import('vite');
}

/** The inline Vite config every browser build of the bundle starts from. */
function browserBuild({ outDir, emptyOutDir, sourcemap } = {}) {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { outDir, emptyOutDir, target: 'es2022', minify: true, sourcemap, reportCompressedSize: false },
  };
}

/** The minifier of Lit's html`` and css`` templates (whitespace, CSS), before the JS minifier runs. */
export async function templateMinifier() {
  const { default: minifyHTML } = await import('@lit-labs/rollup-plugin-minify-html-literals');
  return {
    ...minifyHTML({
      failOnError: true,
      include: [`${root}/src/**/*.ts`],
      // Conservative: at least one space stays wherever there was whitespace (text never glues
      // together), and no attribute is dropped for being empty (alt="" means decorative).
      options: { minifyOptions: { conservativeCollapse: true, removeEmptyAttributes: false }, strategy: await cssValueSafeStrategy() },
    }),
    enforce: 'post',
  };
}

/**
 * The plugin's own strategy, with one fix: an expression anywhere in a declaration's value keeps
 * the semicolon after it. The plugin stands each expression in for `@TEMPLATE_EXPRESSION();` and
 * turns it into an identifier LightningCSS reads as a value only right after the colon
 * (`padding: ${x};`). Later in a value (`gap: 0 ${x};`, `border: ${w} solid ${c};`) it stayed an
 * at-rule-like token whose `;` swallowed the declaration's own, and the next declaration ran into
 * it: `gap:0 ${x}max-width:100%` (both lost; <basket-timer> showed "Seats held for9:59" with no
 * border). Here every expression inside a declaration's value becomes that identifier.
 */
async function cssValueSafeStrategy() {
  const { defaultStrategy } = await import('@lit-labs/rollup-plugin-minify-html-literals/lib/strategy.js');
  return { ...defaultStrategy, minifyCSS: (css, options) => defaultStrategy.minifyCSS(expressionsAsValues(css), options) };
}

const EXPRESSION = /@TEMPLATE_EXPRESSION_*\(\);/g;

/**
 * `@TEMPLATE_EXPRESSION();` → `__TEMPLATE_EXPRESSION__` (the form the plugin restores after
 * minifying) where it stands in a declaration's value: after `property:` in the same statement,
 * and not in a selector (no `{` before the statement ends). Rules and selectors are left alone.
 */
function expressionsAsValues(css) {
  // The same text with every expression blanked out (same length): their own `;` ends nothing.
  const plain = css.replace(EXPRESSION, (m) => ' '.repeat(m.length));
  return css.replace(EXPRESSION, (match, at) => {
    const before = plain.slice(0, at);
    const statement = before.slice(Math.max(before.lastIndexOf('{'), before.lastIndexOf(';'), before.lastIndexOf('}')) + 1);
    const after = plain.slice(at + match.length);
    const end = after.search(/[;{}]/);
    const inValue = /^\s*(--)?[a-z][\w-]*\s*:/i.test(statement) && (end < 0 || after[end] !== '{');
    return inValue ? match.replace('@', '__').replace('();', '__') : match;
  });
}

/** The element modules of the bundle: each tag's class and where it lives, read from its registration file. */
export function bundleElements() {
  return registrationFiles().map(({ tag, source }) => {
    const text = readFileSync(fromRoot(source), 'utf8');
    const define = new RegExp(`defineElement\\(\\s*['"]${tag}['"]\\s*,\\s*(\\w+)\\s*\\)`).exec(text);
    const name = define?.[1];
    const from = name && new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*['"](\\./[^'"]+)['"]`).exec(text)?.[1];
    if (!name || !from) throw new Error(`${source} must import its class and register it with defineElement('${tag}', TheClass)`);
    return { tag, name, module: join(dirname(fromRoot(source)), from) };
  });
}

/**
 * The tags an element renders inside its own shadow root (the document's
 * observer cannot see them there), found in the element folder's templates:
 * the loader defines them before the element. Comments are left out, so a
 * JSDoc line mentioning a tag does not count.
 */
function renderedTags(tag, tags) {
  const folder = fromRoot('src/elements', tag);
  const code = readdirSync(folder)
    .filter((n) => n.endsWith('.ts') && n !== `${tag}.ts`)
    .map((n) => readFileSync(join(folder, n), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, ''))
    .join('\n');
  return tags.filter((other) => other !== tag && new RegExp(`<${other}[\\s>]`).test(code));
}

/** Every chunk a chunk imports statically, transitively (what must be fetched before it runs). */
function staticClosure(fileName, chunks) {
  const seen = new Set();
  const visit = (name) => {
    for (const dep of chunks.get(name)?.imports ?? []) {
      if (!seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
    }
  };
  visit(fileName);
  return [...seen];
}

/**
 * A dynamic import of an element's later part (`<tag>.later.ts`) asks, at the same moment, for
 * the chunks it imports that the importing chunk does not: what a
 * `modulepreload` hint would do, without writing into the host's <head> (as the loader does for
 * an element's chunks). Otherwise the browser finds them only once the chunk has arrived: a round
 * trip more on every lazy part (the seat picker's choice and "Add" after its map's first paint).
 * `import("./x.js")` becomes `Promise.all([import("./x.js"),import("./dep.js")]).then(m=>m[0])`;
 * the source map follows (magic-string).
 */
function parallelImports() {
  return {
    name: 'stagedoor-parallel-imports',
    async renderChunk(code, chunk, _options, meta) {
      const chunks = meta?.chunks ?? {};
      const closure = (name, seen = new Set()) => {
        for (const dep of chunks[name]?.imports ?? []) {
          if (!seen.has(dep)) {
            seen.add(dep);
            closure(dep, seen);
          }
        }
        return seen;
      };
      const have = closure(chunk.fileName).add(chunk.fileName);
      const { default: MagicString } = await import('magic-string');
      const out = new MagicString(code);
      let changed = false;
      for (const m of code.matchAll(/\bimport\((["'`])\.\/([^"'`]+)\1\)/g)) {
        const [whole, quote, file] = m;
        // Only an element's later part (the seat picker's, after its map's first paint on every seated
        // show): elsewhere (a language, a view shown once there is a basket) the extra bytes would be
        // carried by every page's first view for a lazy part that most visits never ask for.
        if (!/\.later$/.test(chunks[file]?.name ?? '')) continue;
        const extra = [...closure(file)].filter((dep) => !have.has(dep));
        if (!extra.length) continue;
        out.overwrite(m.index, m.index + whole.length, `Promise.all([${whole},${extra.map((dep) => `import(${quote}./${dep}${quote})`).join(',')}]).then(m=>m[0])`);
        changed = true;
      }
      return changed ? { code: out.toString(), map: out.generateMap({ hires: true }) } : null;
    },
  };
}

/**
 * The core chunk, `stagedoor-core-<hash>.js`: what every element needs, i.e.
 * every module the base class (src/elements/booking-element.ts) and
 * <booking-provider> import, transitively (Lit, @lit/context, the api client,
 * the stores, the shared styles). A plugin records the module graph as it is
 * parsed; the chunking asks it afterwards.
 */
function coreChunk() {
  const imports = new Map();
  // The payment return's marker (state/return-page.ts) too: the checkout, the confirmation and the chosen show read it,
  // and the chosen show is in the shared chunk, which a confirmation alone does not load.
  const roots = [fromRoot('src/elements/booking-element.ts'), fromRoot('src/format.ts'), fromRoot('src/elements/booking-provider/booking-provider.component.ts'), fromRoot('src/state/return-page.ts')];
  let core;
  const closure = () => {
    const seen = new Set();
    const visit = (id) => {
      for (const dep of imports.get(id) ?? []) {
        if (!seen.has(dep)) {
          seen.add(dep);
          visit(dep);
        }
      }
    };
    roots.forEach(visit);
    // The roots themselves too: the provider's class is in the core (the loader defines it with the first element).
    for (const r of roots) seen.add(r);
    return seen;
  };
  return {
    plugin: { name: 'stagedoor-module-graph', moduleParsed: (info) => void imports.set(info.id, info.importedIds) },
    test: (id) => (core ??= closure()).has(id),
  };
}

/**
 * Comments the final bundle keeps: none (as the minifier already dropped every other kind). The
 * `@__PURE__` marks are for a bundler that tree-shakes this code again, and nothing does: in the
 * loader's chunks they are bytes every visitor downloads (27 of them in the core alone).
 */
const FINAL_COMMENTS = false;

/**
 * What the elements share beyond the core: @lit/task and Lit's directives, safeUrl, the event
 * details read on this page, the calendar's way to the look-ahead (state/lookahead-slot.ts), the
 * registry through which the list and the calendar hand the keyboard on (state/step-handoff.ts), what starts
 * the flow in the page's address with their first step (state/flow-history-start.ts) and the show chosen kept for
 * the return from payment (state/chosen-show.ts; neither in the core, so a timer's page carries none of it), and the
 * failure module with its one template, the single-seat sentence and the plural rules. One chunk, so
 * that the list and the calendar need four (their own two, the core and this) and, with the loader
 * and the list's lookup, a page showing them makes six requests: what a browser sends at once over
 * HTTP/1.1. The failure modules were a chunk of their own: the calendar's then came seventh, a round
 * trip late, and the month's lookup after the event's click waited for it (throttled phone, walk to a
 * seat map ready for a tap: 3,441 → 3,359 ms, median of 10 alternating loads, faster in each pair; the
 * flow page's first card 1,483 → 1,537 ms, as the calendar's chunk now shares the first round trip's
 * bandwidth; an event-list page alone 1,500 → 1,497 ms).
 */
const isSharedModule = (id) =>
  /[\\/]node_modules[\\/](@lit[\\/]task|lit-html[\\/](directive|async-directive|directive-helpers|directives[\\/]))/.test(id) ||
  /[\\/]src[\\/](safe-url|state[\\/](event-details|lookahead-slot|step-handoff|flow-history-start|chosen-show|failure|single-seat-words)|elements[\\/]failure-view|i18n[\\/]plural)\.ts$/.test(id);

/**
 * Small modules of our own that the elements after the calendar import (seat picker, checkout,
 * confirmation): each alone was a chunk of its own (a few hundred bytes, a request each and a worse
 * compression), loaded by the flow page anyway. Not in the shared chunk, which the event-list page
 * loads too and which would make it pay for them.
 */
const isFlowModule = (id) =>
  /[\\/]src[\\/](state[\\/](focus-handoff|return-page)|controllers[\\/]focus-recovery|elements[\\/](continue-button|order)\.styles)\.ts$/.test(id);

/**
 * What changes the basket: its requests and their failures. One chunk, loaded with the visitor's
 * first choice of seats (selection-check.ts) or the basket store's first request, and by the parts
 * shown once there is a basket (the checkout's view): not with the seat picker's later part, as it
 * was, so the walk to a seat map ready for a tap pays for none of it (the size test's flow page
 * 69,385 → 67,308 gzip bytes, full page 72,828 → 70,762).
 */
const isBasketModule = (id) => /[\\/]src[\\/]state[\\/](basket-engine|basket-failure)\.ts$/.test(id);

/**
 * What follows a payment on its clock: the payment in progress and the countdown, which the seat
 * picker's later part (its note beside Add while a payment is open), the checkout's view and the
 * timer's countdown all import. One chunk, not two (each a request: over HTTP/1.1's six connections
 * the seat picker's later part was seven requests at once, with the seat lookup queued behind them).
 * The bundler's small runtime, which this chunk and the basket chunk both use, is a chunk of its own
 * (155 gzip bytes), fetched with either.
 */
const isPaymentModule = (id) => /[\\/]src[\\/](state[\\/]pending-payment|controllers[\\/]countdown-controller)\.ts$/.test(id);

/**
 * The seat map's model and its words: one chunk, which the seat picker imports, and its later part
 * and best available too (each on its own would make the bundler cut it into two, a request more).
 */
const isSeatWordsModule = (id) => /[\\/]src[\\/](state[\\/]seat-map|elements[\\/]seat-picker[\\/](seat-words|seat-symbols|seat-colours))\.ts$/.test(id);

/**
 * V8's explicit compile hint (https://v8.dev/blog/explicit-compile-hints): Chromium compiles every
 * function of a chunk that starts with it while the file streams in, off the main thread, rather
 * than each one lazily at its first call, on the main thread, in the middle of the first render.
 * Given to the chunks whose code nearly all runs for an element's first render: the core, what the
 * elements share, and each element's own chunk; not the parts loaded later (a seat picker's later
 * part, the checkout's view, DOMPurify, the languages), much of whose code may never run. Other
 * engines read it as a comment. Throttled phone, first card of an <event-list> page: 1,567 → 1,534 ms
 * (median of 8 alternating loads; faster in each of the 8 pairs).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const compiledOnLoad = (chunk) => chunk.isEntry || ['core', 'shared'].includes(chunk.name);

/**
 * The script-tag bundle, in `outDir` (dist/ by default), all of it named
 * `stagedoor*.js` (+ `.map`):
 *
 *   stagedoor.js                  the loader (stable name: the one script tag)
 *   stagedoor-<tag>-<hash>.js     one chunk per element: its class, loaded when the tag appears
 *   stagedoor-core-<hash>.js      Lit and the shared core, which every element imports
 *   stagedoor-<name>-<hash>.js    other shared or lazy chunks (DOMPurify, locale modules, ...)
 *
 * Two builds: the element chunks first (content-hashed), then the loader,
 * given the table of those chunks (tag → class, files, rendered tags) as a
 * compile-time constant. Returns that table.
 */
export async function buildBundle({ outDir = fromRoot('dist'), emptyOutDir = false, sourcemap = true, precompress = true, previous = undefined, now = new Date() } = {}) {
  // A registration file missing from sideEffects would be tree-shaken away from the npm package.
  checkPackageJson();
  const { build } = await vite();
  const elements = bundleElements();
  const tags = elements.map((e) => e.tag);
  const minifier = await templateMinifier();
  const core = coreChunk();
  const chunksOutput = await build({
    ...browserBuild(),
    // The loader defines <booking-provider> before any other of our tags, so no element of the
    // bundle upgrades before its provider: the ContextRoot the npm entry points need stays out
    // (src/controllers/booking-controller.ts).
    define: { ...browserBuild().define, __STAGEDOOR_SCRIPT_TAG__: 'true' },
    plugins: [minifier, core.plugin, parallelImports()],
    build: {
      ...browserBuild({ outDir, emptyOutDir, sourcemap }).build,
      // Library mode: dynamic imports stay plain import() (no preload helper writing into <head>).
      lib: {
        entry: Object.fromEntries(elements.map((e) => [e.tag, e.module])),
        formats: ['es'],
        fileName: () => 'stagedoor-[name]-[hash].js',
      },
      rolldownOptions: {
        output: {
          // Named after their module: stagedoor-purify-<hash>.js for DOMPurify (purify.es.mjs).
          chunkFileNames: (chunk) => `stagedoor-${chunk.name.replace(/\.es$/, '')}-[hash].js`,
          codeSplitting: {
            groups: [
              { name: 'core', test: core.test, priority: 2 },
              // What several elements share beyond the core (see isSharedModule): one chunk.
              { name: 'shared', test: isSharedModule, priority: 1, minShareCount: 2 },
              { name: 'flow', test: isFlowModule, priority: 1, minShareCount: 2 },
              { name: 'basket', test: isBasketModule, priority: 1 },
              { name: 'payment', test: isPaymentModule, priority: 1 },
              { name: 'seat-words', test: isSeatWordsModule, priority: 1 },
            ],
          },
          // Whitespace too (Vite keeps it in library builds, for the host's own minifier; this is final).
          minify: true,
          comments: FINAL_COMMENTS,
          postBanner: (chunk) => (compiledOnLoad(chunk) ? COMPILE_HINT : ''),
        },
        // The template minifier takes a few seconds on a busy machine; that is expected, not news.
        checks: { bundlerTimings: false },
      },
    },
  });
  const output = (Array.isArray(chunksOutput) ? chunksOutput[0] : chunksOutput).output;
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const table = {};
  for (const element of elements) {
    const chunk = [...chunks.values()].find((c) => c.isEntry && c.name === element.tag);
    if (!chunk) throw new Error(`the bundle build made no chunk for <${element.tag}>`);
    if (!chunk.exports.includes(element.name)) throw new Error(`${chunk.fileName} does not export ${element.name}`);
    const renders = renderedTags(element.tag, tags);
    const extra = renders.length ? [renders] : [];
    // An entry whose module went into the core (the provider) is a one-line re-export of it:
    // point the table at the core chunk and its export instead, and drop that file (a request saved).
    const facade = new RegExp(`^export\\s*\\{\\s*(\\w+) as ${element.name}\\s*\\}\\s*from\\s*["']\\./([^"']+)["'];?\\s*(//.*)?$`).exec(chunk.code.replace(COMPILE_HINT, '').trim());
    if (facade && chunk.imports.length === 1 && facade[2] === chunk.imports[0]) {
      table[element.tag] = [facade[1], [facade[2], ...staticClosure(facade[2], chunks)], ...extra];
      rmSync(join(outDir, chunk.fileName), { force: true });
      rmSync(join(outDir, `${chunk.fileName}.map`), { force: true });
    } else {
      table[element.tag] = [element.name, [chunk.fileName, ...staticClosure(chunk.fileName, chunks)], ...extra];
    }
  }
  const loaderBuild = browserBuild({ outDir, emptyOutDir: false, sourcemap });
  await build({
    ...loaderBuild,
    define: { ...loaderBuild.define, __STAGEDOOR_TABLE__: JSON.stringify(table) },
    build: {
      ...loaderBuild.build,
      lib: { entry: fromRoot('src/loader.ts'), formats: ['es'], fileName: () => 'stagedoor.js' },
      rolldownOptions: { output: { minify: true, comments: FINAL_COMMENTS } },
    },
  });
  const loader = versionedLoader(outDir);
  writeFileSync(join(outDir, PRELOAD_FILE), `${JSON.stringify({ [LOADER]: [loader], ...preloadList(table) }, null, 2)}\n`);
  if (previous) keepPreviousChunks(outDir, previous, now);
  if (precompress) precompressBundle(outDir);
  return table;
}

/**
 * Beside every `stagedoor*.js` of a bundle build, the same bytes compressed once, at the highest
 * levels: `.br` (brotli 11) and `.gz` (gzip 9). `stagedoor serve` sends them to a browser that
 * accepts them (@hono/node-server's serveStatic, `precompressed`), as nginx's `brotli_static` and
 * `gzip_static` do: no compressing per request, and brotli's smaller bytes where a server would
 * gzip on the fly at a low level, or not compress at all (the built demo sent its JavaScript
 * uncompressed before).
 */
function precompressBundle(outDir) {
  for (const name of readdirSync(outDir).filter((n) => /^stagedoor.*\.js$/.test(n))) {
    const bytes = readFileSync(join(outDir, name));
    writeFileSync(join(outDir, `${name}.br`), brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
    writeFileSync(join(outDir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  }
}

/**
 * The files of earlier releases a bundle keeps, `stagedoor-kept.json`: `{ "<file>": "<when a newer
 * build replaced it>" }`. A browser may run a cached `stagedoor.js` of an earlier release for up to
 * a day (max-age plus stale-while-revalidate, src/server/bundle-caching.ts), and that loader asks
 * for ITS chunks: they must still be there.
 */
export const KEPT_FILE = 'stagedoor-kept.json';

/** How long a replaced release's chunks are kept: the longest a cached loader may still run (a day). */
export const KEEP_MS = 24 * 60 * 60 * 1000;

/** A content-hashed file of a bundle (chunk or versioned loader), which a loader of its release may ask for. */
const HASHED_FILE = /^stagedoor-[\w.-]+-[\w-]{8}\.js$/;

/**
 * Into a new bundle in `outDir`, the content-hashed files of the release built before it, from
 * `previous` (that release's bundle folder, e.g. its dist/ or the plugin's assets/): its own files,
 * and those it kept itself that were replaced less than KEEP_MS before `now`. A file of the new
 * build is never overwritten (same name, same content). Source maps come along when the new build
 * writes them. Records what was kept, and when it was replaced, in stagedoor-kept.json. Returns the
 * kept file names.
 */
export function keepPreviousChunks(outDir, previous, now = new Date()) {
  checkPrevious(previous, outDir);
  const theirKept = existsSync(join(previous, KEPT_FILE)) ? JSON.parse(readFileSync(join(previous, KEPT_FILE), 'utf8')) : {};
  const replaced = now.toISOString();
  const kept = {};
  for (const name of readdirSync(previous).filter((n) => HASHED_FILE.test(n)).sort()) {
    const since = theirKept[name] ?? replaced;
    if (now.getTime() - Date.parse(since) >= KEEP_MS || existsSync(join(outDir, name))) continue;
    cpSync(join(previous, name), join(outDir, name));
    if (existsSync(join(outDir, `${LOADER}.map`)) && existsSync(join(previous, `${name}.map`))) cpSync(join(previous, `${name}.map`), join(outDir, `${name}.map`));
    kept[name] = since;
  }
  writeFileSync(join(outDir, KEPT_FILE), `${JSON.stringify(kept, null, 2)}\n`);
  return Object.keys(kept);
}

/** Fail early on a `previous` that is no bundle build's folder, or is the folder being built. */
function checkPrevious(previous, outDir) {
  if (!existsSync(join(previous, PRELOAD_FILE))) throw new Error(`${previous} holds no ${PRELOAD_FILE}: --previous must name an earlier bundle build's folder.`);
  if (resolve(previous) === resolve(outDir)) throw new Error('--previous must be a copy of the last release, not the folder being built (the build replaces it).');
}

/** Every file a bundle build writes: the loader, the chunks, their maps and compressed copies, the preload list. */
const BUNDLE_FILE = /^stagedoor.*\.(js(\.map|\.br|\.gz)?|json)$/;

/** The loader's stable name: the one script tag a host pastes. */
export const LOADER = 'stagedoor.js';

/**
 * The loader again under a name with a hash of its content, `stagedoor-loader-<hash>.js`: for a
 * page that writes its own <head> from this build's stagedoor-preload.json (its `"stagedoor.js"`
 * entry), and so always names the version it was written with. Served immutable like the chunks,
 * a later page of a visit runs it from the cache with no round trip, where `stagedoor.js` (which
 * keeps its name across versions) is asked for again once five minutes old. Returns its file name.
 */
function versionedLoader(outDir) {
  const code = readFileSync(join(outDir, LOADER), 'utf8');
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
  const name = `stagedoor-loader-${hash}.js`;
  const hasMap = existsSync(join(outDir, `${LOADER}.map`));
  writeFileSync(join(outDir, name), hasMap ? code.replace(/sourceMappingURL=stagedoor\.js\.map/, `sourceMappingURL=${name}.map`) : code);
  if (hasMap) cpSync(join(outDir, `${LOADER}.map`), join(outDir, `${name}.map`));
  return name;
}

/**
 * For hosts that write their own <head> (a server-rendered page, a CMS
 * plugin): per tag, the files a page showing it should list as
 * `<link rel="modulepreload">` so the browser fetches them alongside the
 * loader instead of after it (the loader itself never writes into a page),
 * and under `"stagedoor.js"` this build's loader by a versioned name.
 * `dist/stagedoor-preload.json`, written by each bundle build.
 */
export const PRELOAD_FILE = 'stagedoor-preload.json';

/** tag → every chunk the loader fetches to define it (the provider's and the element's own, with their imports). */
export function preloadList(table) {
  const provider = table['booking-provider']?.[1] ?? [];
  const files = (tag, seen = new Set()) => {
    if (seen.has(tag)) return [];
    seen.add(tag);
    const [, own = [], renders = []] = table[tag] ?? [];
    return [...own, ...renders.flatMap((t) => files(t, seen))];
  };
  return Object.fromEntries(Object.keys(table).map((tag) => [tag, [...new Set([...files(tag), ...provider])]]));
}

/**
 * The `<head>` hints for a page holding these tags (in the page's order), with the bundle at
 * `base` (e.g. `/`): its chunks as `<link rel="modulepreload">`, and, given the `endpoint` its `<event-list>` uses (in
 * its plain form: all events, no venue-id or event-id), that list as `<link rel="preload"
 * as="fetch" crossorigin>`, first: asked for with the page itself, not by the loader once it has
 * arrived (src/api/early.ts; the api client asks with the same credentials mode, so the
 * browser hands it that answer instead of asking again).
 */
export function preloadLinks(list, tags, base, { endpoint } = {}) {
  // In the order of the page's tags, each tag's own chunk before its imports: over HTTP/1.1's six
  // connections, what the first element shows is asked for in the first six requests.
  const files = [...new Set(tags.flatMap((tag) => list[tag] ?? []))];
  const data = endpoint && tags.includes('event-list') ? [`<link rel="preload" as="fetch" href="${endpoint.replace(/\/+$/, '')}${EVENTS_PATH}" crossorigin />`] : [];
  return [...data, ...files.map((file) => `<link rel="modulepreload" href="${base}${file}" />`)].join('\n    ');
}

/** The path of the list of events under an endpoint (src/api/early.ts's EVENTS_PATH; test/api/early.test.ts keeps them the same). */
export const EVENTS_PATH = '/rest/v2/Events';

/**
 * Today's bundle before the loader, kept as the yardstick of the benches: one
 * eager ES module registering every element (src/index.ts), Lit inside, with
 * DOMPurify as its only lazy chunk. `entry` and `external` let the size bench
 * build other single entries the same way.
 */
export async function buildEagerBundle({
  outDir,
  entry = fromRoot('src/index.ts'),
  fileName = 'stagedoor.js',
  external = undefined,
  emptyOutDir = false,
  sourcemap = false,
}) {
  const { build } = await vite();
  const base = fileName.replace(/\.js$/, '');
  const config = browserBuild({ outDir, emptyOutDir, sourcemap });
  return build({
    ...config,
    build: {
      ...config.build,
      lib: { entry, formats: ['es'], fileName: () => fileName },
      rolldownOptions: {
        external,
        // Code the lazy chunks share with the entry (the language modules use @lit/localize's \`str\`)
        // stays in the entry, which they import from: the yardstick stays one eager file.
        preserveEntrySignatures: 'allow-extension',
        output: { chunkFileNames: (chunk) => `${base}-${chunk.name.replace(/\.es$/, '')}-[hash].js` },
      },
    },
  });
}

/** The npm package's JavaScript: one ES module per source module. */
export async function buildLib({ outDir = fromRoot('dist/lib') } = {}) {
  const { build } = await vite();
  const input = {
    exports: fromRoot('src/exports.ts'),
    index: fromRoot('src/index.ts'),
    define: fromRoot('src/define.ts'),
    react: fromRoot('src/react.ts'),
  };
  for (const { source } of registrationFiles()) input[source.replace(/^src\//, '').replace(/\.ts$/, '')] = fromRoot(source);
  rmSync(outDir, { recursive: true, force: true });
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      lib: { entry: input, formats: ['es'] },
      rolldownOptions: {
        external: isPackageExternal,
        output: {
          preserveModules: true,
          preserveModulesRoot: fromRoot('src'),
          entryFileNames: '[name].js',
          virtualDirname: '_helpers',
        },
      },
    },
  });
  buildDeclarations({ outDir });
  await buildServer({ outDir });
}

/**
 * The server side of the package, one module per source file under
 * dist/lib/server/: what a host imports (`stagedoor/proxy` on any runtime, its
 * Node flavour `proxy/node`, `stagedoor/proxy/redis`, `stagedoor/sandbox`) and
 * the command line that `npx stagedoor` runs (`server/cli`, compiled: an
 * installed package has no tsx).
 */
export const serverEntries = {
  'server/proxy/index': 'src/server/proxy/index.ts',
  'server/proxy/node': 'src/server/proxy/node.ts',
  'server/proxy/redis-store': 'src/server/proxy/redis-store.ts',
  'server/sandbox/index': 'src/server/sandbox/index.ts',
  'server/cli': 'src/server/cli.ts',
};

/** What the server build leaves as imports: Node built-ins and the package's runtime dependencies. */
const isServerExternal = (id) => /^(node:|hono(\/|$)|@hono\/|lru-cache(\/|$)|undici(\/|$)|ioredis(\/|$)|prom-client(\/|$)|marked(\/|$)|vite(\/|$))/.test(id);

/**
 * The proxy, the sandbox and the command line for the package, built for
 * servers (Vite's SSR mode), one module per source file, into dist/lib/server/
 * beside the browser modules, with their .d.ts (tsconfig.lib-server.json).
 * The proxy's index.js uses only Fetch-API globals, so the same file runs on
 * serverless and edge runtimes; node.js adds the Node-only parts.
 */
export async function buildServer({ outDir = fromRoot('dist/lib'), declarations = true } = {}) {
  const { build } = await vite();
  const input = Object.fromEntries(Object.entries(serverEntries).map(([name, source]) => [name, fromRoot(source)]));
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      rolldownOptions: {
        input,
        external: isServerExternal,
        output: { format: 'es', preserveModules: true, preserveModulesRoot: fromRoot('src'), entryFileNames: '[name].js' },
      },
    },
  });
  await buildEdgeProxy({ outDir });
  if (declarations) buildDeclarations({ outDir, project: 'tsconfig.lib-server.json' });
}

/**
 * dist/lib/server/proxy/edge.js: the proxy for runtimes without Node built-ins (workerd, Deno, Bun, Vercel's
 * edge: package.json's export conditions for `stagedoor/proxy`), one file with lru-cache inlined from its own
 * `browser` build. lru-cache's default build imports `node:diagnostics_channel` (inside an `import()`), which
 * workerd refuses without the nodejs_compat flag; its browser build needs nothing but the language. Hono stays
 * an import (a dependency of the package). Any `node:` import would fail this build: none may reach edge.js.
 */
export async function buildEdgeProxy({ outDir = fromRoot('dist/lib') } = {}) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [fromRoot('src/server/proxy/index.ts')],
    outfile: join(outDir, 'server/proxy/edge.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['browser'],
    mainFields: ['module', 'main'],
    external: ['hono', 'hono/*'],
    sourcemap: true,
    logLevel: 'warning',
  });
}

/**
 * `.d.ts` for the package, emitted by tsc (TypeScript 7) from tsconfig.lib.json.
 * tsc keeps the sources' `.ts` import specifiers in declarations; they are
 * rewritten to `.js` so any consumer resolution (node16, bundler) finds the
 * `.d.ts` beside each module.
 */
export function buildDeclarations({ outDir = fromRoot('dist/lib'), project = 'tsconfig.lib.json' } = {}) {
  const tsc = fromRoot('node_modules/.bin/tsc');
  const r = spawnSync(tsc, ['-p', fromRoot(project), '--outDir', outDir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc declaration emit failed:\n${r.stdout}${r.stderr}`);
  for (const file of walk(outDir).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2.js$3');
    if (fixed !== text) writeFileSync(file, fixed);
  }
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/**
 * An analyzer plugin: our registration files call `defineElement('tag', Class)`
 * (the guard against double registration) instead of customElements.define,
 * so teach the analyzer that this call defines a custom element.
 */
async function defineElementPlugin() {
  const { resolveModuleOrPackageSpecifier } = await import('@custom-elements-manifest/analyzer/src/utils/index.js');
  return {
    name: 'stagedoor-define-element',
    analyzePhase({ ts, node, moduleDoc, context }) {
      if (node.kind !== ts.SyntaxKind.CallExpression) return;
      if (node.expression?.kind !== ts.SyntaxKind.Identifier || node.expression.text !== 'defineElement') return;
      const [tagArg, classArg] = node.arguments;
      if (!tagArg || !classArg || tagArg.kind !== ts.SyntaxKind.StringLiteral || classArg.kind !== ts.SyntaxKind.Identifier) return;
      moduleDoc.exports = [
        ...(moduleDoc.exports ?? []),
        {
          kind: 'custom-element-definition',
          name: tagArg.text,
          declaration: { name: classArg.text, ...resolveModuleOrPackageSpecifier(moduleDoc, context, classArg.text) },
        },
      ];
    },
  };
}

/** The custom-elements manifest, as an object (deterministic: sorted input, no timestamps). */
export async function createManifest() {
  const { create, ts } = await import('@custom-elements-manifest/analyzer');
  const { litPlugin } = await import('@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js');
  // The elements' lazy parts (*.view.ts, *.later.ts) are their internals, not API.
  const files = walk(fromRoot('src/elements'))
    .filter((f) => f.endsWith('.ts') && !/\.(view|later)\.ts$/.test(f))
    .map((f) => relative(root, f).split('\\').join('/'))
    .sort();
  const modules = files.map((f) => ts.createSourceFile(f, readFileSync(fromRoot(f), 'utf8'), ts.ScriptTarget.ES2022, true));
  const manifest = create({ modules, plugins: [...litPlugin(), await defineElementPlugin()] });
  // The manifest documents the public surface: private members are no one's API, and listing
  // them would make every internal refactor a manifest change.
  const tokens = await (await import('./docs.mjs')).loadTokens();
  for (const mod of manifest.modules ?? []) {
    for (const d of mod.declarations ?? []) {
      if (d.members) d.members = d.members.filter((m) => m.privacy !== 'private' && !String(m.name).startsWith('#'));
      // Every custom property's default comes from src/elements/tokens.ts, written there once.
      for (const p of d.cssProperties ?? []) {
        if (p.default !== undefined) throw new Error(`${mod.path}: ${p.name} has a default in its JSDoc; defaults live in src/elements/tokens.ts only.`);
        const value = tokens.documentedDefault(p.name.replace(/^--booking-/, ''));
        if (value === undefined) throw new Error(`${mod.path}: ${p.name} has no default in src/elements/tokens.ts.`);
        p.default = value;
      }
    }
  }
  return manifest;
}



export function manifestText(manifest) {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export async function buildManifest({ outFile = fromRoot('custom-elements.json') } = {}) {
  const manifest = await createManifest();
  const text = manifestText(manifest);
  writeFileSync(outFile, text);
  return text;
}

/** docs/elements.md's element reference and docs/theming.md's colour table, regenerated (scripts/docs.mjs). */
export async function updateElementReference(manifest) {
  const { withReference, withTokens, loadTokens, REFERENCE_PAGE, TOKENS_PAGE } = await import('./docs.mjs');
  const path = fromRoot(REFERENCE_PAGE);
  writeFileSync(path, withReference(readFileSync(path, 'utf8'), manifest));
  const tokensPath = fromRoot(TOKENS_PAGE);
  writeFileSync(tokensPath, withTokens(readFileSync(tokensPath, 'utf8'), await loadTokens()));
}

/** src/react.ts, the JSX typing of our tags for React hosts, regenerated from the manifest. */
export function updateReactTypes(manifest) {
  writeFileSync(fromRoot('src/react.ts'), reactTypes(manifest));
}

/** The version the WordPress plugin's header and constant must both carry: package.json's. */
function checkPluginVersion(pluginFile) {
  const want = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')).version;
  const text = readFileSync(pluginFile, 'utf8');
  const header = /^\s*\*\s*Version:\s*(\S+)/m.exec(text)?.[1];
  const constant = /const VERSION = '([^']+)';/.exec(text)?.[1];
  if (header !== want || constant !== want) {
    throw new Error(`${relative(root, pluginFile)}: "Version: ${header}" and VERSION '${constant}' must both be package.json's version ${want}.`);
  }
}

/**
 * The WordPress plugin as a site owner installs it: a zip holding one folder,
 * stagedoor/, with the plugin's PHP and editor script (wordpress/stagedoor/),
 * elements.json (what its shortcodes and blocks accept, from the manifest) and
 * assets/: the WHOLE output of a bundle build made into that empty folder (the
 * entry and every chunk it loads, whatever their names; source maps left out).
 * Returns the zip's path and the names inside it.
 */
export async function buildWordPressPlugin({ outDir = fromRoot('dist'), manifestFile = fromRoot('custom-elements.json'), previous = undefined } = {}) {
  const source = fromRoot('wordpress/stagedoor');
  checkPluginVersion(join(source, 'stagedoor.php'));
  const stage = join(outDir, 'wordpress', 'stagedoor');
  rmSync(join(outDir, 'wordpress'), { recursive: true, force: true });
  cpSync(source, stage, { recursive: true });
  // No precompressed copies: WordPress (and PHP's server) sends the .js files as they are, and the zip stays lean.
  // With the last release's chunks (`previous`): a visitor's cached assets/stagedoor.js may still ask for them.
  await buildBundle({ outDir: join(stage, 'assets'), emptyOutDir: true, sourcemap: false, precompress: false, previous });
  if (!existsSync(join(stage, 'assets', 'stagedoor.js'))) throw new Error('The bundle build made no assets/stagedoor.js for the WordPress plugin.');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  writeFileSync(join(stage, 'elements.json'), `${JSON.stringify(wordpressElements(manifest), null, 2)}\n`);
  // The first cards' styles and words in every language, from the one source the Node side prints
  // them with (src/server/first-cards.ts firstCardsKit): the plugin's PHP prints the same cards from it.
  const { firstCardsKit } = await importSource('src/server/first-cards.ts');
  writeFileSync(join(stage, 'first-cards.json'), `${JSON.stringify(await firstCardsKit())}\n`);
  const { zipSync } = await import('fflate');
  // A fixed date: the same sources make the same zip.
  const mtime = new Date('2024-01-01T00:00:00Z');
  const entries = {};
  for (const file of walk(stage).sort()) entries[`stagedoor/${relative(stage, file).split(sep).join('/')}`] = [readFileSync(file), { mtime }];
  const zip = join(outDir, 'stagedoor-wordpress.zip');
  writeFileSync(zip, zipSync(entries, { level: 9 }));
  return { zip, files: Object.keys(entries) };
}

/**
 * A TypeScript module of src/ for this script (plain Node, no tsx): bundled by esbuild for Node,
 * its dependencies inlined, and imported from memory.
 */
async function importSource(file) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({ entryPoints: [fromRoot(file)], bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

/**
 * The demo site for `stagedoor serve`: the pages of demo/, each loading the
 * built bundle (`/stagedoor.js`) where the dev pages load `/src/index.ts`,
 * plus the bundle and its lazy chunk beside them.
 */
export function buildDemo({ outDir = fromRoot('dist/demo'), bundleDir = fromRoot('dist') } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(fromRoot('demo'), outDir, { recursive: true });
  // The demo pages are the host here: they list their elements' chunks as modulepreload hints in
  // their own <head> (dist/stagedoor-preload.json), as a server-rendered host page can.
  const list = JSON.parse(readFileSync(join(bundleDir, PRELOAD_FILE), 'utf8'));
  const tags = Object.keys(list).filter((key) => key !== LOADER);
  for (const file of walk(outDir).filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(file, 'utf8');
    const present = tags.filter((tag) => html.includes(`<${tag}`)).sort((a, b) => html.indexOf(`<${a}`) - html.indexOf(`<${b}`));
    const hints = preloadLinks(list, present, '/', { endpoint: '/api' });
    const loader = list[LOADER]?.[0] ?? LOADER;
    const built = html.replace(/<script type="module" src="\/src\/index\.ts"><\/script>/g, `<script type="module" src="/${loader}"></script>${hints ? `\n    ${hints}` : ''}`);
    writeFileSync(file, built);
  }
  for (const name of readdirSync(bundleDir).filter((n) => BUNDLE_FILE.test(n))) {
    cpSync(join(bundleDir, name), join(outDir, name));
  }
}

/** Fail the build when package.json's sideEffects would let a bundler drop a registration file. */
export function checkPackageJson() {
  const pkg = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8'));
  const want = expectedSideEffects();
  const have = pkg.sideEffects;
  if (JSON.stringify(have) !== JSON.stringify(want)) {
    throw new Error(
      `package.json "sideEffects" must list exactly the registration files (src/index.ts imports them), or bundlers drop them:\n` +
        `  "sideEffects": ${JSON.stringify(want)}\nnow:\n  ${JSON.stringify(have)}`,
    );
  }
}

/**
 * `--previous DIR` (or STAGEDOOR_PREVIOUS_BUNDLE=DIR): the last release's bundle folder, whose
 * chunks the new bundle keeps (keepPreviousChunks). Returns it and the parts asked for.
 */
function parseArgs(argv) {
  const { values, positionals } = parseCli({ args: argv, options: { previous: { type: 'string' } }, allowPositionals: true });
  const given = values.previous ?? process.env.STAGEDOOR_PREVIOUS_BUNDLE;
  const previous = given ? resolve(given) : undefined;
  if (previous) checkPrevious(previous, fromRoot('dist'));
  return { parts: positionals, previous };
}

async function main() {
  const { parts, previous } = parseArgs(process.argv.slice(2));
  const want = (p) => parts.length === 0 || parts.includes(p);
  const started = Date.now();
  // The manifest first: the React typing (src/react.ts, part of the package) and the plugin's elements.json come from it.
  if (want('manifest')) {
    const text = await buildManifest();
    await updateElementReference(JSON.parse(text));
    updateReactTypes(JSON.parse(text));
    console.log('built custom-elements.json, the element reference (docs/elements.md) and src/react.ts');
  }
  if (want('bundle')) {
    for (const name of existsSync(fromRoot('dist')) ? readdirSync(fromRoot('dist')) : []) {
      if (BUNDLE_FILE.test(name)) rmSync(fromRoot('dist', name));
    }
    const table = await buildBundle({ previous });
    const kept = previous ? `, keeping ${Object.keys(JSON.parse(readFileSync(fromRoot('dist', KEPT_FILE), 'utf8'))).length} files of ${previous}` : '';
    console.log(`built dist/stagedoor.js (the loader) and the chunks of ${Object.keys(table).length} elements${kept}`);
  }
  if (want('lib')) {
    checkPackageJson();
    await buildLib();
    console.log('built dist/lib/ (ES modules and .d.ts)');
  }
  if (want('wordpress')) {
    const { zip } = await buildWordPressPlugin({ previous });
    console.log(`built ${relative(root, zip)} (the WordPress plugin)`);
  }
  if (want('demo')) {
    buildDemo();
    console.log('built dist/demo/');
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
