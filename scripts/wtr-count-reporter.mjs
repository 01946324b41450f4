// A web-test-runner reporter that counts every test of every session and, at
// stop, writes the counts to a file and prints `N passed, N failed`. A session
// that did not pass but has no failed test (a file that failed to load, a
// browser error) counts as one failure, so the closing line is honest. The
// file has each session's counts and failures by name, for `npm test` (which
// names them at its end and runs such a file again).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

function countSuite(suite, acc, path = []) {
  if (!suite) return;
  for (const t of suite.tests ?? []) {
    acc.ms += t.duration ?? 0;
    if (t.skipped) acc.skipped++;
    else if (t.passed) acc.passed++;
    else {
      acc.failed++;
      const why = String(t.error?.message ?? '').split('\n')[0].slice(0, 200);
      acc.names.push(`${[...path, t.name].join(' › ')}${why ? ` (${why})` : ''}`);
    }
  }
  for (const s of suite.suites ?? []) countSuite(s, acc, [...path, s.name]);
}

export function countReporter({ out }) {
  return {
    stop({ sessions }) {
      const total = { passed: 0, failed: 0, skipped: 0, sessions: [] };
      /** Per browser (an engine may run several: launched preferring dark, or in a time zone). */
      const byBrowser = new Map();
      for (const session of sessions) {
        const acc = { passed: 0, failed: 0, skipped: 0, ms: 0, names: [] };
        countSuite(session.testResults, acc);
        const name = session.browser?.name ?? 'browser';
        const file = relative(process.cwd(), session.testFile);
        // No test failed, yet the session did not pass: the file never ran to its end (it did not
        // load, or the browser or its driver stopped answering). `npm test` runs such files again.
        const fileItself = !session.passed && acc.failed === 0;
        if (fileItself) {
          acc.failed = 1;
          const why = String(session.errors?.[0]?.message ?? 'did not pass').split('\n')[0].slice(0, 200);
          acc.names.push(`the file itself (${why})`);
        }
        // Named in the closing lines of `npm test`, where a CI log that keeps only its tail still shows them.
        const failures = acc.names.map((n) => `${name}: ${file} › ${n}`);
        total.sessions.push({ browser: name, file, passed: acc.passed, failed: acc.failed, skipped: acc.skipped, ms: Math.round(acc.ms), fileItself, failures });
        total.passed += acc.passed;
        total.failed += acc.failed;
        total.skipped += acc.skipped;
        const mine = byBrowser.get(name) ?? { passed: 0, failed: 0 };
        mine.passed += acc.passed;
        mine.failed += acc.failed;
        byBrowser.set(name, mine);
      }
      for (const [name, c] of byBrowser) console.log(`  ${name}: ${c.passed} passed, ${c.failed} failed`);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, JSON.stringify(total));
      console.log(`browser: ${total.passed} passed, ${total.failed} failed`);
    },
  };
}
