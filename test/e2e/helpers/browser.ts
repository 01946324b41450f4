/**
 * Headless Chromium for Node tests (playwright-core, Debian's /usr/bin/chromium
 * or CHROME_PATH), and a page that records everything that should never
 * happen: uncaught errors, console errors, CSP violations.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs';

export { chromiumArgs } from '../../../scripts/chromium.mjs';

export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

export interface WatchedPage {
  page: Page;
  /** Uncaught exceptions, console errors and answers with an error status, in order. */
  errors: string[];
  /** Every URL the page requested, in order. */
  requests: string[];
  /** CSP violations the page reported (directive and blocked URL). */
  violations(): Promise<string[]>;
}

/** A new page in `browser` (its own context) or in an existing `context` (sharing its cookies and routes). */
export async function watchedPage(browser: Browser | BrowserContext): Promise<WatchedPage> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  // Name the address of a failed load (the console message alone does not).
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`http ${r.status()}: ${r.url()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    // The browser's own favicon probe on pages without an icon (the sandbox's payment page) is not ours.
    if (new URL(where || 'about:blank', 'http://x/').pathname === '/favicon.ico') return;
    errors.push(`console: ${message.text()}${where ? ` (${where})` : ''}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`));
  });
  return {
    page,
    errors,
    requests,
    violations: () => page.evaluate(() => [...(window as unknown as { __cspViolations: string[] }).__cspViolations]),
  };
}
