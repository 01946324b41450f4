// A web-test-runner reporter that counts every test of every session and, at
// stop, writes the counts to a file and prints `N passed, N failed`. A session
// that did not pass but has no failed test (a file that failed to load, a
// browser error) counts as one failure, so the closing line is honest.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

function countSuite(suite, acc) {
  if (!suite) return;
  for (const t of suite.tests ?? []) {
    if (t.skipped) acc.skipped++;
    else if (t.passed) acc.passed++;
    else acc.failed++;
  }
  for (const s of suite.suites ?? []) countSuite(s, acc);
}

export function countReporter({ out }) {
  return {
    stop({ sessions }) {
      const total = { passed: 0, failed: 0, skipped: 0 };
      /** Per browser (an engine may run several: launched preferring dark, or in a time zone). */
      const byBrowser = new Map();
      for (const session of sessions) {
        const acc = { passed: 0, failed: 0, skipped: 0 };
        countSuite(session.testResults, acc);
        if (!session.passed && acc.failed === 0) acc.failed = 1;
        total.passed += acc.passed;
        total.failed += acc.failed;
        total.skipped += acc.skipped;
        const name = session.browser?.name ?? 'browser';
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
