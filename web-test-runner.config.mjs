// Browser tests: real headless Chromium (Debian's /usr/bin/chromium, or CHROME_PATH).
import { chromeLauncher, defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';
import { forcedColoursPlugin } from './scripts/wtr-forced-colours.mjs';


/**
 * `executeServerCommand('emulate-time-zone', { timeZone })` sets the browser's own time zone
 * (Chromium's Emulation.setTimezoneOverride), for tests that prove the visitor's zone does not
 * change what the elements show.
 */
const timeZonePlugin = {
  name: 'emulate-time-zone',
  async executeCommand({ command, payload, session }) {
    if (command !== 'emulate-time-zone') return undefined;
    await session.browser.getPage(session.id).emulateTimezone(payload?.timeZone);
    return true;
  },
};

export default {
  files: ['test/elements/**/*.test.ts', 'test/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json' }), timeZonePlugin, forcedColoursPlugin],
  browsers: [
    chromeLauncher({
      // Each test file in its own browser context, so its own window: with
      // concurrency, tabs of one window are hidden in the background, where
      // requestAnimationFrame never fires (@open-wc's fixture waits on it) and
      // anything that pauses while the page is hidden stops.
      createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage(),
      launchOptions: chromiumLaunchOptions(),
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 300000,
  reporters: [defaultReporter(), countReporter({ out: '.test-results/browser.json' })],
};
