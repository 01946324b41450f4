// Screenshots of the demo pages for the README: each page at desktop (1280 px)
// and mobile (360 px) width, light and dark colour scheme, in headless
// Chromium (playwright-core; /usr/bin/chromium or CHROME_PATH).
//
//   npm start &                               # the demo, proxy and sandbox
//   node scripts/screenshots.mjs [base-url]   # default http://127.0.0.1:8080
//
// Writes docs/screenshots/<page>-<width>-<scheme>.png. Each page is brought to
// an interesting state first, as a visitor would (open a show, pick a date,
// choose seats, add them), with role locators that pierce shadow DOM; a step
// that cannot be done is reported and skipped, never faked.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = (process.argv[2] ?? process.env.STAGEDOOR_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const outDir = join(root, 'docs', 'screenshots');
const args = ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const sizes = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 360, height: 780 },
];
const schemes = ['light', 'dark'];

/** Try one visitor step; say so when it cannot be done. */
async function step(label, fn) {
  try {
    await fn();
    return true;
  } catch (error) {
    console.warn(`  (skipped: ${label}: ${String(error?.message ?? error).split('\n')[0]})`);
    return false;
  }
}

/** Pick the first bookable performance in a calendar, then two seats, and add them. */
async function chooseSeats(page, scope) {
  const calendar = scope.locator('performance-calendar').first();
  await step('pick a performance', async () => {
    const day = calendar.locator('[part~="day"][part~="has-performances"]:not([disabled])').first();
    if (await day.count()) await day.click({ timeout: 5000 });
    await calendar.locator('[part~="performance"]:not([disabled]):not([part~="sold-out"])').first().click({ timeout: 10000 });
  });
  const picker = scope.locator('seat-picker').first();
  await step('choose two seats', async () => {
    const seats = picker.locator('[part~="seat"]:not([part~="in-basket"]):not([aria-disabled="true"])');
    await seats.first().waitFor({ timeout: 15000 });
    const count = await seats.count();
    const pick = Math.floor(count / 3);
    await seats.nth(pick).click({ timeout: 5000 });
    await seats.nth(pick + 1).click({ timeout: 5000 });
  });
  await step('add them to the basket', async () => {
    await picker.getByRole('button', { name: /add/i }).first().click({ timeout: 5000 });
    await page.locator('basket-timer').first().locator('[part~="time"]').first().waitFor({ timeout: 10000 });
  });
}

const pages = [
  {
    name: 'theatre',
    path: '/',
    async prepare(page) {
      await step('open a show', async () => {
        await page.locator('event-list').locator('[part~="card-button"]').first().click({ timeout: 15000 });
      });
      await chooseSeats(page, page);
    },
  },
  {
    name: 'cms',
    path: '/cms.html',
    async prepare(page) {
      await chooseSeats(page, page.locator('main'));
    },
  },
  {
    name: 'themed',
    path: '/themed.html',
    async prepare(page) {
      await step('open a show', async () => {
        await page.locator('event-list').locator('[part~="card-button"]').first().click({ timeout: 15000 });
      });
      await chooseSeats(page, page);
    },
  },
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args });
try {
  for (const demo of pages) {
    for (const size of sizes) {
      for (const scheme of schemes) {
        // A fresh context per shot: its own sessionStorage, so its own basket.
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme, reducedMotion: 'reduce' });
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        console.log(`${demo.name} ${size.name} ${scheme}`);
        await page.goto(base + demo.path, { waitUntil: 'networkidle' });
        await demo.prepare(page);
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => window.scrollTo(0, 0));
        const file = join(outDir, `${demo.name}-${size.name}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        if (errors.length) console.warn(`  page errors: ${errors.join(' | ')}`);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
console.log(`written to ${outDir}`);
