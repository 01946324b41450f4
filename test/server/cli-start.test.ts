/**
 * The newcomer's run: `npm start` on a free port, the printed URL opened, the
 * demo page and the events through the proxy from the in-process sandbox.
 * Also `stagedoor serve` with built pages, on one origin with the proxy.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { EventsResult } from '../../src/api/types.ts';
import { run, stagedoor, type Running } from './cli-helpers.ts';
import { closedPort } from './proxy-helpers.ts';

/**
 * The docs pages beside the demo, as a newcomer reads them: the address printed,
 * the README rendered at /docs/, every page it links to rendered, every link
 * between the pages and every #anchor landing on a page that has it.
 */
async function readDocs(app: Running, demoUrl: string): Promise<void> {
  const [, docsUrl] = await app.line(/^Stagedoor docs: (http:\/\/127\.0\.0\.1:\d+\/docs\/)$/, 10_000);
  assert.equal(docsUrl, `${demoUrl}docs/`);
  const home = await fetch(docsUrl ?? '');
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
  const homeHtml = await home.text();
  assert.match(homeHtml, /<h1 id="stagedoor">Stagedoor<\/h1>/, 'the README, rendered');
  assert.match(homeHtml, /npm install &amp;&amp; npm start/);
  const pages = new Map<string, string>();
  const toVisit = [...new Set([...homeHtml.matchAll(/href="([a-z0-9-]+\.md)(?:#[^"]*)?"/g)].map((m) => m[1] as string))];
  assert.ok(toVisit.includes('elements.md') && toVisit.includes('architecture.md'), `the README links the pages: ${toVisit.join(', ')}`);
  while (toVisit.length) {
    const name = toVisit.shift() as string;
    if (pages.has(name)) continue;
    const page: Response = await fetch(new URL(name, docsUrl));
    assert.equal(page.status, 200, `/docs/${name}`);
    const html = await page.text();
    assert.match(html, /<h1 id="[^"]+">/, `/docs/${name} is rendered`);
    pages.set(name, html);
    for (const m of html.matchAll(/href="([a-z0-9-]+\.md)(?:#[^"]*)?"/g)) if (!pages.has(m[1] as string)) toVisit.push(m[1] as string);
  }
  for (const [name, html] of [['', homeHtml] as const, ...pages]) {
    for (const m of html.matchAll(/href="([a-z0-9-]+\.md)?#([^"]+)"/g)) {
      const target = m[1] ? pages.get(m[1]) : html;
      assert.ok(target?.includes(`id="${m[2]}"`), `/docs/${name}: the link to ${m[1] ?? ''}#${m[2]} has no such anchor`);
    }
  }
  assert.match(pages.get('elements.md') ?? '', /<th>Part<\/th>/, 'the element reference, tables rendered');
  const shot = /<img src="(screenshots\/[a-z0-9-]+\.png)"/.exec(pages.get('languages.md') ?? '')?.[1];
  assert.ok(shot, 'the languages page shows screenshots');
  const image = await fetch(new URL(shot, docsUrl));
  assert.equal(image.status, 200);
  assert.equal(image.headers.get('content-type'), 'image/png');
  assert.equal((await fetch(new URL('no-such-page.md', docsUrl))).status, 404);
  assert.equal((await fetch(`${docsUrl}%2e%2e%2fpackage.json`)).status, 404, 'nothing outside docs/');
  assert.equal((await fetch(`${docsUrl}..%2f..%2fpackage.json`)).status, 404, 'nothing outside docs/');
}

async function eventsThrough(base: string): Promise<EventsResult> {
  const response = await fetch(`${base}api/rest/v2/Events`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('cache-control') ?? '', /max-age=/);
  assert.ok(response.headers.get('date'), 'Date passes through for the widget’s clock');
  return (await response.json()) as EventsResult;
}

test('npm start: one process serves the demo page, the proxy at /api and the sandbox behind it', async () => {
  const port = await closedPort();
  const app = run('npm', ['start'], { PORT: String(port), STAGEDOOR_API_KEY: '' });
  try {
    const [, url] = await app.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+\/)$/, 60_000);
    assert.equal(url, `http://127.0.0.1:${port}/`);

    const page = await fetch(url ?? '');
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(html, /<title>The Lyric Quarter/);
    assert.match(html, /\/@vite\/client/, 'served through Vite, with reload');
    assert.match(html, /<script type="module" src="\/src\/index\.ts"><\/script>/, 'the page loads the widget from its sources');
    const script = await fetch(`${url}src/index.ts`);
    assert.equal(script.status, 200);
    assert.match(await script.text(), /booking-provider/, 'the TypeScript is served as JavaScript');

    const { Events } = await eventsThrough(url ?? '');
    assert.ok(Events.length > 0, 'the sandbox has events');
    for (const event of Events) assert.equal(typeof event.Name, 'string');
    // Absolute URLs from the sandbox point at the same origin, and its pages are served there.
    const image = Events[0]?.MainImageUrl ?? '';
    assert.ok(image.startsWith(`${url}sandbox/`), image);
    assert.equal((await fetch(image)).status, 200);

    await readDocs(app, url ?? '');

    // The demo on-sale, said in the banner (test/server/demo-on-sale.test.ts tries the room itself).
    const [, show] = await app.line(/^Stagedoor demo on-sale: (.+) goes on sale at \d\d:\d\d:\d\d, a minute from now, behind a waiting room .*docs\/waiting-room\.md/, 10_000);
    assert.equal(show, 'Swan Lake');
  } finally {
    await app.stop();
  }
});

test('stagedoor serve: the built pages, with the proxy and the sandbox on the same origin', async () => {
  const dist = mkdtempSync(join(tmpdir(), 'stagedoor-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Built</title><h1>Built demo</h1>');
  const port = await closedPort();
  const app = stagedoor(['serve', '--dist', dist], { PORT: String(port) });
  try {
    const [, url] = await app.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+\/)$/, 30_000);
    const page = await fetch(url ?? '');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Built demo/);
    assert.equal((await fetch(`${url}missing.html`)).status, 404);
    const { Events } = await eventsThrough(url ?? '');
    assert.ok(Events.length > 0);
  } finally {
    await app.stop();
  }
});
