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
import { run, stagedoor } from './cli-helpers.ts';
import { closedPort } from './proxy-helpers.ts';

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
