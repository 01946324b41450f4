// Screenshots of the demo pages for the docs (docs/screenshots/): each page at desktop (1280 px)
// and mobile (360 px) width, light and dark colour scheme, in headless
// Chromium (playwright-core; /usr/bin/chromium or CHROME_PATH).
//
//   npm start &                               # the demo, proxy and sandbox
//   node scripts/screenshots.mjs [base-url] [page,...]   # default http://127.0.0.1:8080, every page
//
// Writes docs/screenshots/<page>-<width>-<scheme>.png (the full page) and
// <page>-<width>-<scheme>-seats.png (the screen around the seat map); the theatre in German
// (theatre-de-...) also gets -checkout.png: its checkout after a submit with nothing filled in,
// where the longest German words and the error messages are. Each page is brought to
// an interesting state first, as a visitor would (open a show, pick a date,
// choose seats, add them) from the keyboard, with locators that pierce shadow
// DOM (parts and roles); each shot is a fresh visitor in its scheme. A step
// that cannot be done is reported and skipped, never faked.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const base = (process.argv[2] ?? process.env.STAGEDOOR_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const outDir = join(root, 'docs', 'screenshots');
const only = process.argv[3]?.split(',').filter(Boolean);

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

/**
 * Pick the first bookable performance in a calendar, then two seats side by
 * side, and add them. Buttons are activated from the keyboard (focus + Enter),
 * as a keyboard user would: the sticky page header would cover a pointer click
 * after scrolling, and the seat map takes Enter on its focused seat.
 */
async function chooseSeats(page, scope) {
  const calendar = scope.locator('performance-calendar').first();
  await step('pick a performance', async () => {
    // Grid view (wide): open a day first; list view (narrow): performances are listed.
    // Both views are in the DOM, one hidden by a container query: use what is visible.
    const day = calendar.locator('[part~="day-button"][part~="has-performances"]:not([aria-disabled="true"])').filter({ visible: true }).first();
    const performance = calendar.locator('[part~="performance-button"]:not([part~="sold-out"])').filter({ visible: true }).first();
    await day.or(performance).first().waitFor({ timeout: 15000 });
    if (!(await performance.count())) await day.press('Enter');
    await performance.press('Enter', { timeout: 10000 });
  });
  const picker = scope.locator('seat-picker').first();
  const added = await step('choose two seats side by side', async () => {
    const seats = picker.locator('[part~="seat-button"]:not([part~="in-basket"])');
    await seats.nth(1).waitFor({ timeout: 15000 }); // the other seats become focusable a frame after the first paint
    // Each context is its own visitor: start somewhere different so two runs do not want the same seats.
    const count = await seats.count();
    let k = (Math.floor(count / 3) + (shotNumber % 12) * 4) % Math.max(1, count - 2);
    const isPairValidation = (r) => r.url().includes('/SeatsSelectionValidation') && JSON.parse(r.request().postData() ?? '{}').TicketIds?.length === 2;
    for (let attempt = 0; attempt < 8; attempt++, k = (k + 3) % Math.max(1, count - 2)) {
      await seats.nth(k).press('Enter');
      // The service validates the pair (the single-seat rule): wait for its answer.
      const validation = page.waitForResponse(isPairValidation, { timeout: 10000 });
      await seats.nth(k + 1).press('Enter');
      if ((await (await validation).json()).SelectionValid) return;
      await seats.nth(k).press('Enter');
      await seats.nth(k + 1).press('Enter');
    }
    throw new Error('no valid pair of seats found');
  });
  if (!added) return;
  await step('add them to the basket', async () => {
    // "Add" is enabled once the picker has the service's answer about the pair.
    await picker.locator('[part~="add-button"][aria-disabled="false"]').first().press('Enter', { timeout: 5000 });
    await page.locator('basket-timer').first().locator('[part~="time"]').first().waitFor({ timeout: 10000 });
  });
}

let shotNumber = 0;

/** Scroll through the page so lazy images load (a full-page shot does not scroll), then back up. */
async function loadLazyImages(page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = page.viewportSize()?.height ?? 800;
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForLoadState('networkidle');
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Submit the checkout empty, so it shows its problem list and every field's message. */
async function checkoutProblems(page) {
  await step('submit the checkout empty', async () => {
    const checkout = page.locator('checkout-form').first();
    await checkout.locator('[part~="submit-button"]').press('Enter', { timeout: 10000 });
    await checkout.locator('[part~="error-summary"]').waitFor({ timeout: 5000 });
  });
}

const pages = [
  {
    name: 'theatre-de',
    path: '/?lang=de',
    schemes: ['light'],
    async prepare(page) {
      await step('open a show', async () => {
        await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter', { timeout: 15000 });
      });
      await chooseSeats(page, page);
    },
    async extra(page, file) {
      await checkoutProblems(page);
      await step('checkout close-up', async () => {
        await page.locator('checkout-form').first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: file('checkout') });
      });
    },
  },
  {
    name: 'theatre',
    path: '/',
    async prepare(page) {
      await step('open a show', async () => {
        await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter', { timeout: 15000 });
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
        await page.locator('event-list').locator('[part~="card-button"]').first().press('Enter', { timeout: 15000 });
      });
      await chooseSeats(page, page);
    },
  },
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const demo of pages.filter((p) => !only || only.includes(p.name))) {
    for (const size of sizes) {
      for (const scheme of demo.schemes ?? schemes) {
        // A fresh context per shot, loaded in its colour scheme (as a visitor's system
        // setting would be): its own sessionStorage, so its own basket.
        shotNumber += 1;
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme, reducedMotion: 'reduce' });
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        console.log(`${demo.name} ${size.name} ${scheme}`);
        await page.goto(base + demo.path, { waitUntil: 'networkidle' });
        await demo.prepare(page);
        await loadLazyImages(page);
        await page.screenshot({ path: join(outDir, `${demo.name}-${size.name}-${scheme}.png`), fullPage: true });
        // And one screen's worth around the seat map, which a full phone page shrinks to nothing.
        await step('seat map close-up', async () => {
          await page.locator('seat-picker').first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
          await page.screenshot({ path: join(outDir, `${demo.name}-${size.name}-${scheme}-seats.png`) });
        });
        await demo.extra?.(page, (what) => join(outDir, `${demo.name}-${size.name}-${scheme}-${what}.png`));
        if (errors.length) console.warn(`  page errors: ${errors.join(' | ')}`);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
console.log(`written to ${outDir}`);
