/**
 * @open-wc's waitUntil with room for a busy machine: `npm test` runs the three engines side by
 * side on two cores, where an answer a visitor gets at once can take over a second to reach a
 * test. It gives up after 5 s, not 1 s (a test may still pass its own timeout). A wait that
 * succeeds takes no longer for it: the condition is checked every 50 ms as before.
 */
import { waitUntil as openWcWaitUntil } from '@open-wc/testing';

export function waitUntil(predicate: () => unknown | Promise<unknown>, message?: string, options: { timeout?: number; interval?: number } = {}): Promise<void> {
  return openWcWaitUntil(predicate, message, { timeout: 5000, ...options });
}
