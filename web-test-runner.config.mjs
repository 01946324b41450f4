// Browser tests in one engine per run: STAGEDOOR_ENGINE=chromium (the default), firefox or webkit
// (`npm test` runs all three). Chromium is Debian's /usr/bin/chromium (or CHROME_PATH); Firefox
// ESR through puppeteer-core over WebDriver BiDi; WebKitGTK's MiniBrowser through WebKitWebDriver
// under an Xvfb this config starts and stops (scripts/engines.mjs).
//
// What a driver cannot emulate is given to a browser of its own at launch, as a group of the run:
// - the visitor's colour-scheme preference (Firefox, WebKit): the files that ask for one
//   (`visitorPrefers` in test/elements/helpers/engine.ts) run again in a browser that prefers dark;
// - the visitor's time zone (WebKit): its main browser runs in the last zone of VISITOR_ZONES, and
//   the files that ask for one (`visitorZones`) run once more per other zone, in a browser whose
//   process has TZ set to it;
// - forced colours (Firefox): the files that ask for them (`visitorForcedColours`) run only in two
//   browsers launched with forced colours, a light and a dark palette, not in the main one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromeLauncher, defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteer from 'puppeteer-core';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';
import {
  firefoxLaunchOptions, freePort, missing, setWebKitViewport, startWebKitDriver, startXvfb, webkitCapabilities, webkitThemeEnv,
} from './scripts/engines.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';
import { SESSION_STATUS, TestRunner } from '@web/test-runner-core';
import { inspect } from 'node:util';
import { forcedColoursPlugin } from './scripts/wtr-forced-colours.mjs';
import { lossyFrontPlugin } from './scripts/wtr-lossy-front.mjs';

const ENGINE = process.env.STAGEDOOR_ENGINE ?? 'chromium';
const lacking = missing(ENGINE);
if (lacking.length) throw new Error(`Cannot run the browser tests in ${ENGINE}: missing ${lacking.join(', ')}`);

/** Every zone a test may ask to be the visitor's own; WebKit runs the asking files once in each. */
export const VISITOR_ZONES = ['Pacific/Auckland', 'America/Los_Angeles', 'America/New_York', 'Europe/London', 'Asia/Tokyo'];

const FILES = ['test/elements/**/*.test.ts', 'test/browser/**/*.test.ts'];
const testFiles = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []);
/** Files named on the command line (a developer's run of one file): groups run only those. */
const named = process.argv.slice(2).filter((a) => a.endsWith('.test.ts')).map((f) => join(f));
/** The test files that call a helper of test/elements/helpers/engine.ts. */
const filesCalling = (name) =>
  ['test/elements', 'test/browser'].flatMap(testFiles)
    .filter((f) => readFileSync(f, 'utf8').includes(`${name}(`) && (named.length === 0 || named.includes(f)))
    .sort();

/** A launcher tagged with what the engine command needs to know about it. */
const tagged = (launcher, engine, { colorScheme = 'light', timeZone, forcedColours = false, zoneOnly = false } = {}) =>
  Object.assign(launcher, { stagedoor: { engine, colorScheme, timeZone, forcedColours, zoneOnly } });

function chromium() {
  return tagged(chromeLauncher({
    // Each test file in its own browser context, so its own window: with
    // concurrency, tabs of one window are hidden in the background, where
    // requestAnimationFrame never fires (@open-wc's fixture waits on it) and
    // anything that pauses while the page is hidden stops.
    createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage(),
    launchOptions: chromiumLaunchOptions(),
  }), 'chromium');
}

function firefox(colorScheme, { forcedColours = false } = {}) {
  const launcher = chromeLauncher({
    puppeteer,
    // A window of its own (a new page is by default a tab of the first window, where a page in
    // the background gets no animation frames).
    createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage({ type: 'window' }),
    launchOptions: firefoxLaunchOptions({ colorScheme, forcedColours }),
  });
  launcher.name = forcedColours ? `Firefox (forced colours, ${colorScheme})` : colorScheme === 'dark' ? 'Firefox (prefers dark)' : 'Firefox';
  return tagged(launcher, 'firefox', { colorScheme, forcedColours });
}

/** One Xvfb for every WebKit browser of the run. */
let xvfb;
const stoppers = [];
process.once('exit', () => { for (const stop of stoppers) stop(); });
// web-test-runner stops on SIGINT (and SIGTERM) with no report: said, so such an end is told from a crash.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => console.error(`web-test-runner (${ENGINE}): ${signal} received, stopping`));
// A runner stopped before its files have all run exits with no report and, for an error that is
// not an Error (a WebDriver rejection), says nothing. Such a stop is said, with what called it:
// WebKit's runner ended that way about once in four whole runs, with no word why (npm test then
// runs WebKit again).
const runnerStop = TestRunner.prototype.stop;
TestRunner.prototype.stop = function (error) {
  const sessions = [...(this.sessions?.all() ?? [])];
  const left = sessions.filter((s) => s.status !== SESSION_STATUS.FINISHED).length;
  if (!this.stopped && left > 0) {
    console.error(`web-test-runner (${ENGINE}): stopped with ${left} of ${sessions.length} files not run to their end (${inspect(error)})\n${new Error('stopped from').stack}`);
  }
  return runnerStop.call(this, error);
};

/** MiniBrowser through a WebKitWebDriver of its own (the environment is the driver's). */
class WebKitLauncher extends WebdriverLauncher {
  constructor({ colorScheme = 'light', timeZone, zoneOnly = false } = {}) {
    super({ capabilities: webkitCapabilities() });
    this.env = { ...webkitThemeEnv(colorScheme), ...(timeZone ? { TZ: timeZone } : {}) };
    this.label = ['WebKit', colorScheme === 'dark' ? 'prefers dark' : '', timeZone ?? ''].filter(Boolean).join(' ');
    tagged(this, 'webkit', { colorScheme, timeZone, zoneOnly });
  }

  async initialize(config, testFiles) {
    await super.initialize(config, testFiles);
    this.name = this.label;
    xvfb ??= startXvfb().then((x) => { stoppers.push(x.stop); return x; });
    const { display } = await xvfb;
    const driver = await startWebKitDriver({ display, env: this.env });
    stoppers.push(driver.stop);
    this.stopDriver = driver.stop;
    Object.assign(this.options, { hostname: '127.0.0.1', port: driver.port, logLevel: 'error', connectionRetryCount: 3 });
  }

  async stop() {
    await super.stop();
    this.stopDriver?.();
  }

  /** One key at a time: WebKit drops characters of a string sent in one go. */
  async sendKeys(sessionId, keys) {
    for (const key of keys) await super.sendKeys(sessionId, [key]);
  }
}
const webkit = (options) => new WebKitLauncher(options);

/**
 * The languages Firefox and WebKit walk every state in (test/browser/i18n-every-state/): what is
 * theirs in it is their Intl (dates, numbers, plurals, lists), and these three differ most (German
 * as the screenshots; French's plurals and spaces in numbers; Norwegian Bokmål, the rarest locale
 * data). The translations themselves are the same code in every engine: Chromium walks all nine.
 */
const INTL_LANGUAGES = ['de', 'fr', 'nb'];

const WEBDRIVER_KEYS = { Control: '\uE009', Shift: '\uE008', Alt: '\uE00A', Meta: '\uE03D', End: '\uE010', Home: '\uE011', ArrowLeft: '\uE012', ArrowRight: '\uE014' };

/**
 * `executeServerCommand('engine', …)` (test/elements/helpers/engine.ts): the emulation each
 * engine can do, and for what it cannot, what its browser was launched with.
 */
const enginePlugin = {
  name: 'stagedoor-engine',
  async executeCommand({ command, payload, session }) {
    if (command !== 'engine') return undefined;
    const launcher = session.browser;
    const { engine, colorScheme, timeZone } = launcher.stagedoor;
    const page = engine === 'webkit' ? undefined : launcher.getPage(session.id);
    switch (payload.action) {
      case 'color-scheme':
        if (engine === 'chromium') {
          await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: payload.scheme }]);
          return { emulated: true };
        }
        return { emulated: false, launchedWith: colorScheme };
      case 'forced-colours':
        // Chromium emulates them (the emulate-forced-colours command); Firefox shows the palette
        // it was launched with, if any; WebKitGTK has no forced-colours mode.
        if (engine === 'chromium') return { emulated: true };
        if (engine === 'webkit') return { emulated: false, launchedWith: null, engineHasMode: false };
        return { emulated: false, launchedWith: launcher.stagedoor.forcedColours ? colorScheme : null, engineHasMode: true };
      case 'time-zone':
        if (engine === 'webkit') {
          const unknown = (payload.wanted ?? []).filter((z) => !VISITOR_ZONES.includes(z));
          if (unknown.length) throw new Error(`WebKit runs zone tests only in VISITOR_ZONES (web-test-runner.config.mjs); add ${unknown.join(', ')}`);
          // A browser of a zone group runs the asking files only for their tests of the visitor's zone.
          return { emulated: false, launchedWith: timeZone ?? null, zoneOnly: launcher.stagedoor.zoneOnly };
        }
        if (payload.timeZone !== undefined) await page.emulateTimezone(payload.timeZone ?? undefined);
        return { emulated: true };
      case 'languages':
        return { only: engine === 'chromium' ? null : INTL_LANGUAGES, engine };
      case 'touch':
        // A touch screen (`pointer: coarse`): Chromium's touch emulation; the others cannot.
        if (engine !== 'chromium') return { emulated: false, launchedWith: false };
        launcher.stagedoorCdp ??= new Map();
        if (!launcher.stagedoorCdp.has(session.id)) launcher.stagedoorCdp.set(session.id, await page.createCDPSession());
        await launcher.stagedoorCdp.get(session.id).send('Emulation.setTouchEmulationEnabled', { enabled: payload.enabled, maxTouchPoints: 1 });
        return { emulated: true };
      case 'viewport':
        if (engine === 'webkit') await setWebKitViewport(launcher.driver, payload);
        else await page.setViewport(payload);
        return true;
      case 'chord': {
        // Keys held while one more is pressed (Control+End).
        const { hold, press } = payload;
        if (engine === 'webkit') {
          const codes = [...hold, press].map((k) => WEBDRIVER_KEYS[k] ?? k);
          await launcher.driver.performActions([{
            type: 'key', id: 'keyboard',
            actions: [...codes.map((value) => ({ type: 'keyDown', value })), ...codes.reverse().map((value) => ({ type: 'keyUp', value }))],
          }]);
          await launcher.driver.releaseActions();
        } else {
          for (const key of hold) await page.keyboard.down(key);
          await page.keyboard.press(press);
          for (const key of [...hold].reverse()) await page.keyboard.up(key);
        }
        return true;
      }
      default:
        throw new Error(`engine command: unknown action ${payload.action}`);
    }
  },
};

function engineSetup() {
  if (ENGINE === 'chromium') return { browsers: [chromium()], groups: [], concurrency: 2 };
  const dark = filesCalling('visitorPrefers');
  if (ENGINE === 'firefox') {
    const forced = filesCalling('visitorForcedColours');
    return {
      browsers: [firefox('light')],
      // The main browser has no forced colours: the files asking for them run only in theirs
      // (named on the command line, such a file loads there too and registers no test).
      files: [...FILES, ...forced.map((f) => `!${f}`)],
      groups: [
        { name: 'firefox-prefers-dark', files: dark, browsers: [firefox('dark')] },
        {
          name: 'firefox-forced-colours',
          files: forced,
          browsers: [firefox('light', { forcedColours: true }), firefox('dark', { forcedColours: true })],
        },
      ],
      // One test file at a time per browser: with two windows, a key pressed for one page
      // sometimes reached the other (the same test passed alone and failed beside another).
      concurrency: 1,
    };
  }
  if (ENGINE === 'webkit') {
    const zoned = filesCalling('visitorZones');
    // The main browser is in the last zone itself (every other file runs there too).
    const [main, ...others] = [...VISITOR_ZONES].reverse();
    // One WebKit browser for the files (a second one beside it, each taking half the files, twice
    // ended the run with no report and no error halfway, on the machine's two cores).
    return {
      browsers: [webkit({ timeZone: main })],
      groups: [
        { name: 'webkit-prefers-dark', files: dark, browsers: [webkit({ colorScheme: 'dark', timeZone: main })] },
        ...others.map((timeZone) => ({ name: `webkit-${timeZone.replace('/', '-')}`, files: zoned, browsers: [webkit({ timeZone, zoneOnly: true })] })),
      ],
      // One window per browser, each test file in it in turn (the WebDriver launcher's iframes
      // for concurrency would not be a window of their own, so no viewport of their own).
      concurrency: 1,
    };
  }
  throw new Error(`STAGEDOOR_ENGINE=${ENGINE}: one of chromium, firefox, webkit`);
}

const setup = engineSetup();
const { browsers, concurrency, files = FILES } = setup;
const groups = setup.groups.filter((g) => g.files.length > 0);

export default {
  // A port the system hands out (web-test-runner's own search from 8000 raced when the three
  // engines' runs started at once: two took 8000).
  port: await freePort(),
  files,
  nodeResolve: true,
  concurrency,
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json' }), enginePlugin, forcedColoursPlugin, lossyFrontPlugin],
  browsers,
  groups,
  // WebKit through WebDriver classic (a round trip per key, software rendering under Xvfb) takes
  // about twice as long per test.
  // Three engines side by side on two cores (with software rendering, WebKit under WebDriver
  // classic): a test that misses a wait once under that load runs once more before it counts as
  // failed, in every engine (CI once failed a whole stop on one such Chromium miss). A test that
  // fails twice fails; every failure is named at the end of `npm test`.
  testFramework: { config: { timeout: ENGINE === 'webkit' ? 30000 : 10000, retries: 1 } },
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  // A file's tests (i18n-every-state/<element>: one element in every state in nine languages) take
  // WebKit up to a minute alone, more beside the other engines.
  testsFinishTimeout: ENGINE === 'webkit' ? 600000 : 300000,
  reporters: [defaultReporter(), countReporter({ out: process.env.STAGEDOOR_RESULTS ?? `.test-results/browser-${ENGINE}.json` })],
};
