/**
 * Caching of the script-tag bundle by `stagedoor serve`: content-hashed
 * chunks immutable for a year, the loader (a stable name) fresh for five
 * minutes, then revalidated in the background (an ETag) for up to a day in
 * all: no round trip before a returning visitor's chunks. Over the
 * real command, on a loopback port, with files named as the build names them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { IMMUTABLE, LOADER_CACHE, bundleCacheControl } from '../../src/server/bundle-caching.ts';
import { stagedoor } from './cli-helpers.ts';
import { closedPort } from './proxy-helpers.ts';

/** A GET over the loopback socket as it comes (fetch would decode the body and hide its encoding). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

describe('bundle caching', () => {
  it('names: chunks with a content hash are immutable, the loader is not, other files are left alone', () => {
    assert.equal(bundleCacheControl('/stagedoor.js'), LOADER_CACHE);
    assert.equal(bundleCacheControl('/cdn/v1/stagedoor.js.map'), LOADER_CACHE);
    assert.equal(bundleCacheControl('/stagedoor-core-CGeh_xWl.js'), IMMUTABLE);
    assert.equal(bundleCacheControl('/x/stagedoor-seat-picker-fT_NXIID.js.map'), IMMUTABLE);
    assert.equal(bundleCacheControl('/stagedoor-purify-9v--QUs_.js'), IMMUTABLE);
    assert.equal(bundleCacheControl('/stagedoor-core.js'), null, 'no hash, not immutable');
    assert.equal(bundleCacheControl('/index.html'), null);
    assert.equal(bundleCacheControl('/site.css'), null);
    assert.match(IMMUTABLE, /immutable/);
    assert.doesNotMatch(LOADER_CACHE, /immutable/);
  });

  it('stagedoor serve sends them so (the loader fresh for five minutes, stale for the rest of a day), and answers a revalidation of the loader with 304', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'stagedoor-caching-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Built</title><script type="module" src="/stagedoor.js"></script>');
    writeFileSync(join(dist, 'stagedoor.js'), 'import("./stagedoor-core-AbCd_-12.js");\n');
    writeFileSync(join(dist, 'stagedoor-core-AbCd_-12.js'), 'export const core = 1;\n');
    const port = await closedPort();
    const app = stagedoor(['serve', '--dist', dist], { PORT: String(port) });
    try {
      const [, url] = await app.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+\/)$/, 30_000);
      const chunk = await fetch(`${url}stagedoor-core-AbCd_-12.js`);
      assert.equal(chunk.status, 200);
      assert.equal(chunk.headers.get('cache-control'), IMMUTABLE);
      assert.match(chunk.headers.get('content-type') ?? '', /javascript/);
      assert.equal(await chunk.text(), 'export const core = 1;\n');

      const loader = await fetch(`${url}stagedoor.js`);
      assert.equal(loader.status, 200);
      // Five minutes without a round trip; then, up to a day after it was fetched, run while it is revalidated.
      assert.equal(loader.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=86100');
      const tag = loader.headers.get('etag');
      assert.ok(tag, 'the loader has an ETag to revalidate with');
      await loader.text();
      const again = await fetch(`${url}stagedoor.js`, { headers: { 'If-None-Match': tag } });
      assert.equal(again.status, 304);

      // A changed loader (a new version) gets a new ETag: the revalidation brings it.
      writeFileSync(join(dist, 'stagedoor.js'), 'import("./stagedoor-core-ZyXw_-98.js");\n');
      const changed = await fetch(`${url}stagedoor.js`, { headers: { 'If-None-Match': tag } });
      assert.equal(changed.status, 200);
      assert.match(await changed.text(), /ZyXw_-98/);

      const page = await fetch(url ?? '');
      assert.equal(page.headers.get('cache-control'), null, 'pages are not the bundle');
      await page.text();
      assert.equal((await fetch(`${url}stagedoor-missing-AbCd_-12.js`)).headers.get('cache-control'), null, 'a 404 is not cached for a year');
    } finally {
      await app.stop();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("stagedoor serve sends the build's brotli or gzip copy to a browser that accepts it, the file itself to one that does not", async () => {
    const dist = mkdtempSync(join(tmpdir(), 'stagedoor-encoding-'));
    const core = `export const core = ${JSON.stringify('a seat, a row, an area; '.repeat(200))};\n`;
    const loader = 'import("./stagedoor-core-AbCd_-12.js");\n';
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Built</title><script type="module" src="/stagedoor.js"></script>');
    for (const [name, text] of [['stagedoor.js', loader], ['stagedoor-core-AbCd_-12.js', core]] as const) {
      writeFileSync(join(dist, name), text);
      writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(join(dist, `${name}.gz`), gzipSync(text));
    }
    const port = await closedPort();
    const app = stagedoor(['serve', '--dist', dist], { PORT: String(port) });
    try {
      const [, url] = await app.line(/^Stagedoor demo: (http:\/\/127\.0\.0\.1:\d+\/)$/, 30_000);
      const chunk = `${url}stagedoor-core-AbCd_-12.js`;

      // What Chromium asks with (it sends br and zstd to 127.0.0.1 as to any https origin): brotli.
      const br = await rawGet(chunk, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
      assert.equal(br.status, 200);
      assert.equal(br.headers['content-encoding'], 'br');
      assert.match(String(br.headers.vary), /accept-encoding/i, 'a cache keeps the encodings apart');
      assert.match(String(br.headers['content-type']), /javascript/);
      assert.equal(br.headers['cache-control'], IMMUTABLE, 'still cached as a chunk');
      assert.equal(brotliDecompressSync(br.body).toString(), core);
      assert.ok(br.body.length < core.length / 10, `sent compressed: ${br.body.length} bytes for ${core.length}`);

      const gz = await rawGet(chunk, { 'Accept-Encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gunzipSync(gz.body).toString(), core);

      const plain = await rawGet(chunk, {});
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.body.toString(), core);

      // The loader's revalidation still answers 304 for the encoding the browser keeps.
      const first = await rawGet(`${url}stagedoor.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
      assert.equal(first.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(first.body).toString(), loader);
      const tag = String(first.headers.etag ?? '');
      assert.ok(tag);
      const again = await rawGet(`${url}stagedoor.js`, { 'Accept-Encoding': 'gzip, deflate, br', 'If-None-Match': tag });
      assert.equal(again.status, 304);
    } finally {
      await app.stop();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
