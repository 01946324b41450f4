/**
 * @open-wc's waitUntil with room for a busy machine: `npm test` runs the three engines side by
 * side on two cores, where an answer a visitor gets at once can take over a second to reach a
 * test. It gives up after 5 s, not 1 s (a test may still pass its own timeout). The condition is
 * checked every 10 ms, not 50: a wait ends within a few milliseconds of what it waits for (the
 * suite waits thousands of times; 50 ms cost each wait 25 ms on average). Not in WebKit, which keeps
 * 50: its driver (WebDriver classic) asks the page for the run's progress, and a page polling every
 * 10 ms is the one change suspected when its runs under the three engines' load twice ended early.
 */
import { waitUntil as openWcWaitUntil } from '@open-wc/testing';

const INTERVAL = /AppleWebKit/.test(navigator.userAgent) && !/Chrome\//.test(navigator.userAgent) ? 50 : 10;

export function waitUntil(predicate: () => unknown | Promise<unknown>, message?: string, options: { timeout?: number; interval?: number } = {}): Promise<void> {
  return openWcWaitUntil(predicate, message, { timeout: 5000, interval: INTERVAL, ...options });
}
