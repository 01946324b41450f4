/**
 * The page's visibility under a test's control. web-test-runner runs test
 * files in parallel pages, and a page in the background really is hidden, so
 * anything that pauses while hidden (the CountdownController) must be tested
 * with visibility set explicitly.
 *
 *   const page = controlVisibility();   // in beforeEach: 'visible'
 *   page.set('hidden');                  // fires visibilitychange
 *   page.restore();                      // in afterEach
 */
export interface VisibilityControl {
  set(state: DocumentVisibilityState): void;
  restore(): void;
}

export function controlVisibility(initial: DocumentVisibilityState = 'visible'): VisibilityControl {
  let state = initial;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  return {
    set(next) {
      state = next;
      document.dispatchEvent(new Event('visibilitychange'));
    },
    restore() {
      Reflect.deleteProperty(document, 'visibilityState');
    },
  };
}
