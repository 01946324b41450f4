/**
 * Large answers sent gzip'd (a seat map's availability is about 170 KB of JSON): over a loopback
 * socket through @hono/node-server, read with node:http, which (unlike fetch) shows the bytes
 * as sent. Small answers are left as they are; every large answer says it varies by encoding.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createProxy } from '../../src/server/proxy/index.ts';
import { acceptsGzip } from '../../src/server/proxy/reply.ts';
import { listen, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
/** Events of type 9 and above: a long list (about 60 KB of JSON). */
const LONG = { Events: Array.from({ length: 300 }, (_, i) => ({ EventId: i + 1, Name: `Show number ${i + 1}`, TagLine: 'An evening to remember, night after night.' })) };

let upstream: Listening;
let proxy: Listening;

before(async () => {
  upstream = await listen(
    stubService((op, request) => {
      if (op.name === 'getEvents' && Number(new URL(request.url).searchParams.get('type')) >= 9) return Response.json(LONG);
      return undefined;
    }).fetch,
  );
  proxy = await listen(createProxy({ upstream: upstream.url, apiKey: KEY, rateLimit: false }).fetch);
});
after(async () => {
  await Promise.all([proxy.close(), upstream.close()]);
});

/** GET through node:http: status, headers and the body's bytes as they came. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${proxy.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compressed answers', () => {
  test('a large answer goes gzip\'d to a client that accepts it, the same JSON, about a tenth of the bytes', async () => {
    const plain = await get('/api/rest/v2/Events?type=9');
    const zipped = await get('/api/rest/v2/Events?type=9', { 'Accept-Encoding': 'br, gzip;q=0.8' });
    assert.equal(plain.status, 200);
    assert.equal(zipped.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    for (const answer of [plain, zipped]) assert.equal(answer.headers.vary, 'Accept-Encoding');
    assert.deepEqual(JSON.parse(gunzipSync(zipped.body).toString('utf8')), JSON.parse(plain.body.toString('utf8')));
    assert.deepEqual(JSON.parse(plain.body.toString('utf8')), LONG);
    assert.ok(zipped.body.length * 8 < plain.body.length, `gzip'd ${zipped.body.length} bytes, plain ${plain.body.length}`);
    // The same entity either way: one validator, and a 304 for it.
    assert.equal(zipped.headers.etag, plain.headers.etag);
    const again = await get('/api/rest/v2/Events?type=9', { 'Accept-Encoding': 'gzip', 'If-None-Match': String(plain.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  test('a cached answer is compressed once, however many clients ask for it', async () => {
    const Original = globalThis.CompressionStream;
    let made = 0;
    globalThis.CompressionStream = class extends Original {
      constructor(format: CompressionFormat) {
        super(format);
        made++;
      }
    };
    try {
      const ask = async () => (await get('/api/rest/v2/Events?type=10', { 'Accept-Encoding': 'gzip' })).body;
      // The miss (the upstream's text), then the first answer from the cache: each compressed.
      const bodies = [await ask(), await ask()];
      assert.equal(made, 2);
      // Every later answer from the cache sends the bytes compressed then.
      for (let i = 0; i < 5; i++) bodies.push(await ask());
      assert.equal(made, 2, `compressed ${made - 2} more times for 5 more answers from the cache`);
      for (const body of bodies) assert.deepEqual(JSON.parse(gunzipSync(body).toString('utf8')), LONG);
    } finally {
      globalThis.CompressionStream = Original;
    }
  });

  test('a small answer, or a client that refuses gzip, gets the body as it is', async () => {
    const small = await get('/api/rest/v2/Events/1001', { 'Accept-Encoding': 'gzip' });
    assert.equal(small.status, 200);
    assert.ok(small.body.length < 1024, `the stub's event is ${small.body.length} bytes`);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.headers.vary, undefined);
    JSON.parse(small.body.toString('utf8'));
    const refused = await get('/api/rest/v2/Events?type=9', { 'Accept-Encoding': 'gzip;q=0, identity' });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.deepEqual(JSON.parse(refused.body.toString('utf8')), LONG);
  });

  test('reads Accept-Encoding as written', () => {
    assert.equal(acceptsGzip(null), false);
    assert.equal(acceptsGzip(''), false);
    assert.equal(acceptsGzip('gzip'), true);
    assert.equal(acceptsGzip('gzip, deflate, br, zstd'), true);
    assert.equal(acceptsGzip('GZIP;q=0.5'), true);
    assert.equal(acceptsGzip('gzip;q=0'), false);
    assert.equal(acceptsGzip('gzip;q=0.0, *'), false);
    assert.equal(acceptsGzip('br, *'), true);
    assert.equal(acceptsGzip('*;q=0'), false);
    assert.equal(acceptsGzip('identity'), false);
  });
});
