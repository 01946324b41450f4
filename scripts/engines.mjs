// The three browser engines the tests run in, started one way for web-test-runner, the end-to-end
// tests and screenshots: Chromium (scripts/chromium.mjs), Firefox ESR (puppeteer-core over
// WebDriver BiDi, headless, no geckodriver) and WebKitGTK (its MiniBrowser through WebKitWebDriver
// under Xvfb; W3C WebDriver classic). Debian's packages: chromium, firefox-esr, webkit2gtk-driver
// and xvfb (.ci/run installs them).
//
// What each engine cannot be told from outside, it is given at launch:
// - the visitor's colour-scheme preference: Firefox by a pref, WebKitGTK by the GTK theme;
// - forced colours (Windows High Contrast): Firefox by the pref that forces document colours, in a
//   light or a dark palette (WebKitGTK has no forced-colours mode at all);
// - the time zone (WebKit only; Chromium and Firefox emulate it per page): TZ in its environment.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromiumPath } from './chromium.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

export function firefoxPath() {
  return process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
}

export function miniBrowserPath() {
  return process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

function onPath(name) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/${name}`));
}

/** What an engine needs on this machine and is missing (empty: it can run). */
export function missing(engine) {
  if (engine === 'chromium') return existsSync(chromiumPath()) ? [] : [`${chromiumPath()} (Debian package chromium, or set CHROME_PATH)`];
  if (engine === 'firefox') return existsSync(firefoxPath()) ? [] : [`${firefoxPath()} (Debian package firefox-esr, or set FIREFOX_PATH)`];
  if (engine === 'webkit') {
    return [
      ...(onPath('WebKitWebDriver') ? [] : ['WebKitWebDriver (Debian package webkit2gtk-driver)']),
      ...(existsSync(miniBrowserPath()) ? [] : [`${miniBrowserPath()} (Debian package webkit2gtk-driver brings it)`]),
      ...(onPath('Xvfb') ? [] : ['Xvfb (Debian package xvfb)']),
    ];
  }
  throw new Error(`unknown engine '${engine}': one of ${ENGINES.join(', ')}`);
}

/**
 * puppeteer-core's launch options for Firefox; `colorScheme` is the visitor's preference it starts
 * with; `forcedColours` forces every page's colours (`forced-colors: active`), in the light or the
 * dark palette by `colorScheme`.
 */
export function firefoxLaunchOptions({ colorScheme = 'light', forcedColours = false } = {}) {
  return {
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    extraPrefsFirefox: {
      // 0 dark, 1 light: what `prefers-color-scheme` answers in pages (BiDi cannot emulate it).
      'layout.css.prefers-color-scheme.content-override': colorScheme === 'dark' ? 0 : 1,
      // Focus and its events in every window, as if each had the system's focus (tests run in
      // two windows at once; Firefox's own harness does the same).
      'focusmanager.testmode': true,
      ...(forcedColours ? firefoxForcedColourPrefs(colorScheme) : {}),
    },
  };
}

/**
 * Firefox's forced colours: 2 forces the page's colours always (0 only in a high-contrast system
 * theme), from its own palette; a forced page's `prefers-color-scheme` follows that palette's
 * background, not the content override, so the dark one is a palette of dark background.
 */
function firefoxForcedColourPrefs(colorScheme) {
  // Windows' High Contrast Black and White: links, visited links and the selection (Highlight and
  // HighlightText, the `ui.*` system colours; Firefox's own are white on #3399ff, 2.9:1).
  const [background, foreground, link, visited, highlight, highlightText] = colorScheme === 'dark'
    ? ['#000000', '#ffffff', '#ffff00', '#3ff23f', '#1aebff', '#000000']
    : ['#ffffff', '#000000', '#00009f', '#600000', '#37006e', '#ffffff'];
  const palette = {
    background_color: background, foreground_color: foreground, anchor_color: link, visited_color: visited,
  };
  return {
    'browser.display.document_color_use': 2,
    'browser.display.use_system_colors': false,
    'ui.highlight': highlight,
    'ui.highlighttext': highlightText,
    ...Object.fromEntries(Object.entries(palette).flatMap(([name, colour]) => {
      const pref = name.startsWith('anchor') || name.startsWith('visited') ? `browser.${name}` : `browser.display.${name}`;
      return [[pref, colour], [`${pref}.dark`, colour]];
    })),
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An X display number nobody uses (no socket, no lock file), from a range desktops and CI rarely take. */
function freeDisplay() {
  const start = 200 + Math.floor(Math.random() * 600);
  for (let n = start; n < start + 200; n += 1) {
    if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) return n;
  }
  throw new Error('no free X display number');
}

function stopChild(child) {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

/** A child started `detached` (its own process group) and what it started in that group. */
function stopGroup(child) {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    stopChild(child);
  }
}

/** Xvfb on a free display; resolves once its socket exists. */
export async function startXvfb() {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const display = freeDisplay();
    const child = spawn('Xvfb', [`:${display}`, '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    let exited = false;
    child.once('exit', () => { exited = true; });
    for (let i = 0; i < 200 && !exited && !existsSync(`/tmp/.X11-unix/X${display}`); i += 1) await sleep(50);
    if (!exited && existsSync(`/tmp/.X11-unix/X${display}`)) {
      return { display: `:${display}`, stop: () => stopChild(child) };
    }
    stopChild(child); // taken meanwhile: try another number
  }
  throw new Error('Xvfb did not start');
}

/**
 * WebKitWebDriver on a free port, its browsers on `display`, with `env` (TZ, GTK_THEME) passed on
 * to MiniBrowser and its web processes. Resolves once it answers /status.
 */
export async function startWebKitDriver({ display, env = {} }) {
  const port = await freePort();
  // A process group of its own, with the MiniBrowsers it starts: a signal to their group (as a
  // browser is ended) then never reaches the test runner that started the driver. Without it,
  // web-test-runner ended with no report, stopped by a SIGINT halfway through WebKit's files
  // (--trace-exit: its SIGINT handler), when the zone browsers' sessions ended under load.
  const child = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, ...env, DISPLAY: display },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  for (let i = 0; i < 200; i += 1) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) return { port, stop: () => stopGroup(child) };
    await sleep(50);
  }
  stopGroup(child);
  throw new Error(`WebKitWebDriver did not start on port ${port}: ${stderr}`);
}

/**
 * W3C capabilities for a MiniBrowser session (WebDriver classic: WebKitGTK has no BiDi). Full
 * screen: no toolbar, so the window's size is the viewport's, down to phone widths (with its
 * toolbar the window is at least 447 px wide).
 */
export function webkitCapabilities() {
  return {
    browserName: 'MiniBrowser',
    'wdio:enforceWebDriverClassic': true,
    'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: ['--automation', '--full-screen'] },
  };
}

/** Size a MiniBrowser's viewport (webdriverio session) through its window; fails if it cannot. */
export async function setWebKitViewport(driver, { width, height }) {
  const [innerHeight, outerHeight] = await driver.execute('return [window.innerHeight, window.outerHeight]');
  await driver.setWindowRect(null, null, width, height + (outerHeight - innerHeight));
  let got;
  for (let i = 0; i < 40; i += 1) {
    got = await driver.execute('return [window.innerWidth, window.innerHeight]');
    if (got[0] === width && got[1] === height) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`WebKit's viewport is ${got.join('×')} after asking for ${width}×${height}`);
}

/** The GTK theme that makes WebKitGTK answer `prefers-color-scheme` with `colorScheme`. */
export function webkitThemeEnv(colorScheme = 'light') {
  return { GTK_THEME: colorScheme === 'dark' ? 'Adwaita:dark' : 'Adwaita' };
}
