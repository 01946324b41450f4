/**
 * The three engines as a test drives them (puppeteer-core for Chromium and Firefox ESR over
 * WebDriver BiDi, webdriverio for WebKitGTK's MiniBrowser under an Xvfb it starts): one small
 * interface, so an end-to-end walk is written once and run in each.
 */
import assert from 'node:assert/strict';
import { launch, type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { remote } from 'webdriverio';
import { setWebKitViewport, startWebKitDriver, startXvfb, webkitCapabilities, webkitThemeEnv } from '../../../scripts/engines.mjs';

/** What the test asks of a browser; one implementation per driver. */
export interface Driver {
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Run `fn` (self-contained) in the page with JSON arguments. */
  evaluate<T>(fn: (...args: never[]) => T | Promise<T>, ...args: unknown[]): Promise<T>;
  clickAt(x: number, y: number): Promise<void>;
  type(text: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A function and its arguments as one script for the page. tsx compiles with esbuild's keepNames,
 * which wraps named functions in a `__name` helper the page does not have: it is defined here.
 */
export function inPageScript(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `(async () => { const __name = (f) => f; return (${fn.toString()})(...${JSON.stringify(args)}); })()`;
}

/** A browser puppeteer drives: Firefox over WebDriver BiDi, Chromium over its own protocol. */
export async function puppeteerDriver(options: Parameters<typeof launch>[0]): Promise<Driver> {
  const browser: PuppeteerBrowser = await launch(options);
  const page: PuppeteerPage = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    goto: async (url) => { await page.goto(url, { waitUntil: 'load' }); },
    url: async () => page.url(),
    evaluate: (fn, ...args) => page.evaluate(inPageScript(fn, args)) as never,
    clickAt: (x, y) => page.mouse.click(x, y),
    type: (text) => page.keyboard.type(text),
    screenshot: async (path) => { await page.screenshot({ path, fullPage: true }); },
    close: async () => {
      await browser.close();
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
    },
  };
}

export async function webkitDriver(): Promise<Driver> {
  const xvfb = await startXvfb();
  const driver = await startWebKitDriver({ display: xvfb.display, env: webkitThemeEnv('light') }).catch((error) => {
    xvfb.stop();
    throw error;
  });
  const browser = await remote({ hostname: '127.0.0.1', port: driver.port, logLevel: 'error', capabilities: webkitCapabilities() });
  await setWebKitViewport(browser, { width: 1280, height: 1000 });
  return {
    goto: async (url) => { await browser.navigateTo(url); },
    url: () => browser.getUrl(),
    evaluate: (fn, ...args) => browser.execute(`return ${inPageScript(fn, args)}`) as never,
    clickAt: async (x, y) => {
      await browser.performActions([{
        type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
        actions: [{ type: 'pointerMove', duration: 0, origin: 'viewport', x, y }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }],
      }]);
      await browser.releaseActions();
    },
    // One key at a time: WebKit drops characters of a string sent at once.
    type: async (text) => { for (const key of text) await browser.keys(key); },
    screenshot: async (path) => { await browser.saveScreenshot(path); },
    close: async () => {
      try {
        await browser.deleteSession();
      } finally {
        driver.stop();
        xvfb.stop();
      }
    },
  };
}
