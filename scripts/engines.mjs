// The three browser engines the tests run in, started one way for web-test-runner, the end-to-end
// tests and screenshots: Chromium (scripts/chromium.mjs), Firefox ESR (puppeteer-core over
// WebDriver BiDi, headless, no geckodriver) and WebKitGTK (its MiniBrowser through WebKitWebDriver
// under Xvfb; W3C WebDriver classic). Debian's packages: chromium, firefox-esr, webkit2gtk-driver
// and xvfb (.ci/run installs them).
//
// What each engine cannot be told from outside, it is given at launch:
// - the visitor's colour-scheme preference: Firefox by a pref, WebKitGTK by the GTK theme;
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

/** puppeteer-core's launch options for Firefox; `colorScheme` is the visitor's preference it starts with. */
export function firefoxLaunchOptions({ colorScheme = 'light' } = {}) {
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
    },
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
  const child = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, ...env, DISPLAY: display },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  for (let i = 0; i < 200; i += 1) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) return { port, stop: () => stopChild(child) };
    await sleep(50);
  }
  stopChild(child);
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
