// `executeServerCommand('emulate-forced-colours', { forcedColors: 'active' | 'none', colorScheme: 'light' | 'dark' })`:
// Windows High Contrast as Chromium emulates it (DevTools' Emulation.setEmulatedMedia), with the
// visitor's preferred scheme, which picks the light or the dark forced palette. Neither
// @web/test-runner-commands' emulateMedia (forcedColors is Playwright-only) nor puppeteer's
// emulateMediaFeatures (it checks names against a list without forced-colors) passes it on, so
// the DevTools command is sent as it is, on a session kept per page (emulation lasts as long as
// its session). Answers false on a browser it cannot drive so; there the tests ask
// visitorForcedColours() (test/elements/helpers/engine.ts) what the browser was launched with.
const sessions = new WeakMap();

export const forcedColoursPlugin = {
  name: 'emulate-forced-colours',
  async executeCommand({ command, payload, session }) {
    if (command !== 'emulate-forced-colours') return undefined;
    // Chromium only: Firefox is driven by puppeteer too, but over WebDriver BiDi (no DevTools).
    if (session.browser.type !== 'puppeteer' || (session.browser.stagedoor?.engine ?? 'chromium') !== 'chromium') return false;
    const page = session.browser.getPage(session.id);
    if (!sessions.has(page)) sessions.set(page, await page.createCDPSession());
    await sessions.get(page).send('Emulation.setEmulatedMedia', {
      features: [
        { name: 'forced-colors', value: payload?.forcedColors ?? 'none' },
        { name: 'prefers-color-scheme', value: payload?.colorScheme ?? 'light' },
      ],
    });
    return true;
  },
};
