// `npm test`: type check (library, Node side, the React example), browser
// tests (web-test-runner, headless Chromium), Node tests (node:test through
// tsx, the time tests again under three time zones; test/e2e/ includes the
// real WordPress and the React example). Ends with one plain line
// `N passed, N failed` for the whole run: each type-check project counts as
// one check, and a stage that crashes without reporting counts as one failure.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const totals = { passed: 0, failed: 0 };
const bin = (name) => join('node_modules', '.bin', name);

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
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

async function typecheck(project) {
  console.log(`\n== type check (${project})`);
  const { code } = await run(bin('tsc'), ['-p', project, '--noEmit']);
  if (code === 0) totals.passed++; else totals.failed++;
}

async function nodeTests(label, files, env = {}) {
  if (!files.length) return;
  console.log(`\n== node tests (${label})`);
  const { code, output } = await run(bin('tsx'), ['--test', '--test-reporter=spec', ...files], env);
  const pass = /^\s*ℹ pass (\d+)/m.exec(output);
  const fail = /^\s*ℹ fail (\d+)/m.exec(output);
  const cancelled = /^\s*ℹ cancelled (\d+)/m.exec(output);
  if (!pass || !fail) { totals.failed++; return; }
  totals.passed += Number(pass[1]);
  totals.failed += Number(fail[1]) + Number(cancelled?.[1] ?? 0);
  if (code !== 0 && Number(fail[1]) === 0 && Number(cancelled?.[1] ?? 0) === 0) totals.failed++;
}

async function browserTests() {
  const files = [...findTests('test/elements'), ...findTests('test/browser')];
  if (!files.length) return;
  console.log('\n== browser tests (web-test-runner, headless Chromium)');
  const out = '.test-results/browser.json';
  rmSync(out, { force: true });
  const { code } = await run(bin('web-test-runner'), []);
  if (!existsSync(out)) { totals.failed++; return; }
  const counts = JSON.parse(readFileSync(out, 'utf8'));
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  if (code !== 0 && counts.failed === 0) totals.failed++;
}

await typecheck('tsconfig.json');
await typecheck('tsconfig.node.json');
await typecheck('examples/react/tsconfig.json');
await browserTests();
const nodeFiles = [...findTests('test/api'), ...findTests('test/server'), ...findTests('test/e2e')];
const isTimeTest = (f) => /(^|\/)time[^/]*\.test\.ts$/.test(f);
await nodeTests('all but time', nodeFiles.filter((f) => !isTimeTest(f)));
const timeFiles = nodeFiles.filter(isTimeTest);
for (const tz of ['UTC', 'America/New_York', 'Asia/Tokyo']) await nodeTests(`time, TZ=${tz}`, timeFiles, { TZ: tz });

console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
