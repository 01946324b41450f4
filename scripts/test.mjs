// `npm test`: browser tests (web-test-runner) in Chromium, Firefox ESR and
// WebKitGTK side by side; beside the last engine left running, the type checks
// (library, Node side, the React example), the Node tests that drive no browser
// (node:test through tsx, two files at a time), the time tests again under three
// time zones, and one build of the bundle and the demo; then the Node tests that
// drive browsers (test/e2e/, the real WordPress and the React example among
// them, sharing that build, two files at a time), and the fresh clone. Ends with one plain line
// `N passed, N failed` for the whole run: each type-check project counts as
// one check, and a stage that crashes without reporting counts as one failure.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, missing } from './engines.mjs';

const totals = { passed: 0, failed: 0 };
/** Per engine: its counts and time, printed before the closing line. */
const engineLines = [];
/** Every failed test by name, printed again before the closing line (a CI log may keep only its tail). */
const failureLines = [];
const bin = (name) => join('node_modules', '.bin', name);

/** Run a command; its output is echoed as it comes, or only kept (`quiet`, for runs side by side). */
function run(cmd, args, env = {}, { quiet = false } = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { output += d; if (!quiet) process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; if (!quiet) process.stderr.write(d); });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return findTests(p);
    return p.endsWith('.test.ts') ? [p] : [];
  }).sort();
}

/** The three TypeScript projects (library, Node side, the React example), one after another; their output. */
async function typechecks() {
  const said = [];
  for (const project of ['tsconfig.json', 'tsconfig.node.json', 'examples/react/tsconfig.json']) {
    const { code, output } = await run(bin('tsc'), ['-p', project, '--noEmit'], {}, { quiet: true });
    said.push(`\n== type check (${project})${output ? `\n${output}` : ': no errors'}`);
    if (code === 0) totals.passed++; else { totals.failed++; failureLines.push(`type check (${project})`); }
  }
  return said.join('\n');
}

/**
 * Node test files through tsx, `concurrency` files at a time (two: the machine's two cores;
 * node's default here is one); `quiet`: the output is printed when they end (for runs side by side).
 */
async function nodeTests(label, files, env = {}, { quiet = false, concurrency = 2 } = {}) {
  if (!files.length) return;
  if (!quiet) console.log(`\n== node tests (${label}, ${concurrency} files at a time)`);
  const { code, output } = await run(bin('tsx'), ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], env, { quiet });
  if (quiet) console.log(`\n== node tests (${label})\n${output}`);
  const pass = /^\s*ℹ pass (\d+)/m.exec(output);
  const fail = /^\s*ℹ fail (\d+)/m.exec(output);
  const cancelled = /^\s*ℹ cancelled (\d+)/m.exec(output);
  // node:test's spec reporter lists the failing tests again at its end, after "✖ failing tests:".
  const failing = output.split(/^✖ failing tests:$/m)[1] ?? '';
  let at = '';
  let why = null;
  const said = () => {
    // Why it failed, under its name: the error's first lines and its last (a message may end with a
    // command's output), not the stack. A CI log may keep only the tail, so it is said here again.
    if (!why) return;
    const lines = why.filter((l) => l.trim()).map((l) => `      ${l.trim().slice(0, 200)}`);
    const shown = lines.length > 10 ? [...lines.slice(0, 2), '      …', ...lines.slice(-8)] : lines;
    if (shown.length) failureLines[failureLines.length - 1] += `\n${shown.join('\n')}`;
    why = null;
  };
  for (const line of failing.split('\n')) {
    const where = /^\s*test at (\S+)/.exec(line);
    if (where) { said(); at = where[1]; } else if (/^\s*✖ /.test(line)) {
      said();
      failureLines.push(`node (${label}): ${at ? `${at} › ` : ''}${line.trim().slice(2)}`);
      why = [];
    } else if (why && /^\s+at |^\s+\w+: .*,$|^\s*[{}]$/.test(line)) {
      said();
    } else if (why) why.push(line);
  }
  said();
  if (!pass || !fail) { totals.failed++; failureLines.push(`node (${label}): ended without its counts (exit ${code})`); return; }
  totals.passed += Number(pass[1]);
  totals.failed += Number(fail[1]) + Number(cancelled?.[1] ?? 0);
  if (code !== 0 && Number(fail[1]) === 0 && Number(cancelled?.[1] ?? 0) === 0) totals.failed++;
}

/** One web-test-runner run in an engine (all its files, or those named); its report, or null if it wrote none. */
async function webTestRunner(engine, files, out) {
  const started = Date.now();
  rmSync(out, { force: true });
  // --trace-exit: a run that ends with no report (WebKit's, twice, under the three engines' load)
  // then says where it was ended from.
  const env = { STAGEDOOR_ENGINE: engine, STAGEDOOR_RESULTS: out, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --trace-exit --trace-uncaught`.trim() };
  const { code, output } = await run(bin('web-test-runner'), files, env, { quiet: true });
  const seconds = (Date.now() - started) / 1000;
  return { code, output, seconds, report: existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null };
}

/** Sum of the sessions' counts, and their failures by name. */
function tally(sessions) {
  const t = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const s of sessions) {
    t.passed += s.passed;
    t.failed += s.failed;
    t.skipped += s.skipped;
    t.failures.push(...s.failures);
  }
  return t;
}

/** One engine's browser tests (its own web-test-runner run); its output is printed when it ends. */
async function browserTestsIn(engine, again = false) {
  const started = Date.now();
  const lacking = missing(engine);
  if (lacking.length) {
    const note = `cannot run here: missing ${lacking.join(', ')} (.ci/run installs them)`;
    console.error(`\n!! browser tests in ${engine}: ${note}. Counted as one failure.`);
    return { engine, passed: 0, failed: 1, seconds: 0, note };
  }
  const first = await webTestRunner(engine, [], `.test-results/browser-${engine}.json`);
  console.log(`\n== browser tests in ${engine} (web-test-runner, ${first.seconds.toFixed(0)} s)\n${first.output}`);
  if (!first.report) {
    // The runner itself ended with no report (seen once in WebKitGTK, whose web process can crash):
    // the whole engine runs once more, said here and in its closing line; a second such end fails.
    if (!again) {
      console.error(`\n!! browser tests in ${engine} ended after ${first.seconds.toFixed(0)} s without a report (exit ${first.code}): running them once more`);
      const rerun = await browserTestsIn(engine, true);
      return { ...rerun, note: [`run again after an end without a report at ${first.seconds.toFixed(0)} s`, rerun.note].filter(Boolean).join('; ') };
    }
    return { engine, passed: 0, failed: 1, seconds: first.seconds, note: 'ended without a report' };
  }
  let sessions = first.report.sessions;
  let unexplained = first.code !== 0 && first.report.failed === 0;
  const notes = [];
  // A file that never ran to its end with no test of it failing (seen in WebKitGTK: its driver gave
  // no answer to a navigation for two minutes) runs once more, alone in its engine; its sessions'
  // counts are then those of the second run. A file that fails so twice fails, named.
  const stopped = [...new Set(sessions.filter((s) => s.fileItself).map((s) => s.file))];
  if (stopped.length) {
    console.error(`\n!! browser tests in ${engine}: ${stopped.join(', ')} did not run to the end: running ${stopped.length === 1 ? 'it' : 'them'} once more`);
    const rerun = await webTestRunner(engine, stopped, `.test-results/browser-${engine}-again.json`);
    console.log(`\n== browser tests in ${engine}, run again: ${stopped.join(', ')} (${rerun.seconds.toFixed(0)} s)\n${rerun.output}`);
    if (rerun.report) {
      sessions = [...sessions.filter((s) => !stopped.includes(s.file)), ...rerun.report.sessions];
      unexplained ||= rerun.code !== 0 && rerun.report.failed === 0;
      notes.push(`run again: ${stopped.join(', ')}`);
    } else {
      notes.push(`run again without a report: ${stopped.join(', ')}`);
    }
  }
  const counts = tally(sessions);
  const failed = counts.failed + (unexplained && counts.failed === 0 ? 1 : 0);
  failureLines.push(...counts.failures);
  if (unexplained && counts.failed === 0) failureLines.push(`${engine}: web-test-runner exited with no failed test`);
  return { engine, passed: counts.passed, failed, skipped: counts.skipped, seconds: (Date.now() - started) / 1000, note: notes.join('; ') || undefined };
}

/**
 * The browser tests in every engine (STAGEDOOR_ENGINES=chromium,firefox to choose), side by side:
 * each mostly waits on its own browser processes. `lastOne()` is called when one engine is left
 * running (or none).
 */
async function browserTests(lastOne) {
  const files = [...findTests('test/elements'), ...findTests('test/browser')];
  if (!files.length) return lastOne();
  const engines = process.env.STAGEDOOR_ENGINES ? process.env.STAGEDOOR_ENGINES.split(',') : ENGINES;
  console.log(`\n== browser tests in ${engines.join(', ')} (side by side; each engine's output when it ends)`);
  let running = engines.length;
  if (running <= 1) lastOne();
  const results = await Promise.all(engines.map(async (engine) => {
    const result = await browserTestsIn(engine);
    if (--running === 1) lastOne();
    return result;
  }));
  for (const r of results) {
    totals.passed += r.passed;
    totals.failed += r.failed;
    // Skipped: tests whose names say why they cannot apply to that engine.
    const skipped = r.skipped ? `, ${r.skipped} skipped` : '';
    engineLines.push(`browser tests in ${r.engine}: ${r.passed} passed, ${r.failed} failed${skipped}, ${r.seconds.toFixed(0)} s${r.note ? ` (${r.note})` : ''}`);
  }
}

/**
 * The bundle and the demo built once for every Node test that only reads them
 * (test/e2e/helpers/built-demo.ts); its folder, or undefined when the build failed (counted as
 * one failure: each such file then builds its own, and says why it fails).
 */
async function sharedBuild() {
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-test-build-'));
  // nginx's worker, another user, serves the demo from it (test/e2e/front-server.test.ts).
  chmodSync(dir, 0o755);
  console.log(`\n== the bundle and the demo, built once for the Node tests (${dir})`);
  try {
    const { buildBundle, buildDemo } = await import('./build.mjs');
    await buildBundle({ outDir: join(dir, 'dist'), sourcemap: false });
    buildDemo({ outDir: join(dir, 'demo'), bundleDir: join(dir, 'dist') });
    return dir;
  } catch (error) {
    console.error(error);
    totals.failed++;
    failureLines.push('the shared build for the Node tests');
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const isTimeTest = (f) => /(^|\/)time[^/]*\.test\.ts$/.test(f);
/** A Node test file that starts a browser (puppeteer, playwright, WebDriver, web-test-runner) by what it reads. */
const drivesBrowser = (f) => /puppeteer|playwright|webkitDriver|web-test-runner|chromiumLaunchOptions|helpers\/visitor\.ts/.test(readFileSync(f, 'utf8'));
const nodeFiles = [...findTests('test/api'), ...findTests('test/server'), ...findTests('test/e2e')];
// The fresh-clone test alone, at the end: its clone hard-links this checkout's node_modules, which
// other files write into while they run (node_modules/.cache, .vite).
const alone = (f) => /(^|\/)stands-alone\.test\.ts$/.test(f);

/**
 * What needs no browser, beside the last engine's browser tests (WebKit's, for its last minutes
 * alone: a core is free): the type checks, the Node tests that drive no browser (two files at a
 * time), the time tests again under three time zones, and the shared build. Each is printed when
 * it ends. (From the start, beside all three engines, these took 651 s instead of about 200 and
 * slowed the engines by a fifth; the type checks and the build beside the browsers' start made
 * WebKit's first files miss their waits. With the type checks moved after WebKit, the Node tests
 * began as soon as WebKit was alone, and its runner twice ended with no report in one run.)
 */
async function besideTheLastEngine() {
  console.log(await typechecks());
  await nodeTests('no browser', nodeFiles.filter((f) => !isTimeTest(f) && !alone(f) && !drivesBrowser(f)), {}, { quiet: true });
  // Three short runs side by side (each mostly tsx starting).
  const timeFiles = nodeFiles.filter(isTimeTest);
  await Promise.all(['UTC', 'America/New_York', 'Asia/Tokyo'].map((tz) => nodeTests(`time, TZ=${tz}`, timeFiles, { TZ: tz }, { quiet: true })));
  return sharedBuild();
}

/**
 * The Node tests that drive browsers (end to end, two files at a time, sharing one build), after
 * every engine's browser tests (beside WebKit's, WebKit's browser dropped its session in the
 * longest file and the Firefox booking end to end missed its 30 s); then the fresh clone alone.
 * (Three at a time took 229 s instead of 284 alone, but in two whole runs in a row the Firefox
 * booking of booking-engines.test.ts then missed a 30 s wait.)
 */
async function browserNodeTests(built) {
  try {
    await nodeTests('end to end, in browsers', nodeFiles.filter((f) => !alone(f) && drivesBrowser(f)), built ? { STAGEDOOR_TEST_BUILD: built } : {});
    await nodeTests('the repository alone, in a fresh clone', nodeFiles.filter(alone));
  } finally {
    if (built) rmSync(built, { recursive: true, force: true });
  }
}

const started = Date.now();
let lastOne;
const oneEngineLeft = new Promise((resolve) => { lastOne = resolve; });
const browsers = browserTests(() => lastOne());
await oneEngineLeft;
const beside = besideTheLastEngine();
await browsers;
await browserNodeTests(await beside);

console.log('');
if (failureLines.length) {
  console.log(`failed (${failureLines.length}):`);
  for (const line of failureLines.slice(0, 30)) console.log(`  ${line}`);
  if (failureLines.length > 30) console.log(`  … and ${failureLines.length - 30} more, above`);
}
for (const line of engineLines) console.log(line);
console.log(`whole run: ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
