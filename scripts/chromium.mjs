// The one way this project starts headless Chromium (tests, screenshots,
// benchmarks): Debian's /usr/bin/chromium or CHROME_PATH, as root without a
// sandbox, and without the background traffic a closed network refuses.
export const chromiumArgs = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumPath() {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

/** Launch options for playwright-core's `chromium.launch` and web-test-runner's chromeLauncher. */
export function chromiumLaunchOptions() {
  return { executablePath: chromiumPath(), headless: true, args: [...chromiumArgs] };
}
