/**
 * An upstream that echoes the Api-Key, in every way a server or a gateway in
 * front of it may write it: as it is, upper- or lower-cased, JSON-escaped,
 * URL-encoded (%XX in either case, `+` for a space), base64 and base64url at
 * each of the three offsets from a 3-byte boundary, hex in either case, in a
 * gzip'd, deflated or brotli'd body, and in the Date and Retry-After headers.
 * The hostile upstream is a real HTTP server on 127.0.0.1; the proxy runs as
 * on Node (undici's pool) and as on the edge (the platform's fetch), each on
 * its own loopback socket. No answer may carry the key in any of these forms,
 * in its body or in any header; what the upstream meant still arrives (the
 * status, the body with `[redacted]`), and the Date and Retry-After headers
 * pass only in their shapes.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { createProxy as createEdgeProxy } from '../../src/server/proxy/index.ts';
import { createProxy as createNodeProxy } from '../../src/server/proxy/node.ts';
import { listenApp, listenNode, type Listening } from './proxy-helpers.ts';

/** A key with a space, a slash, a plus and an equals sign: each has its own escapes. */
const KEY = `Sk-Live/${crypto.randomUUID()}+Key Part=Z`;
const bytes = Buffer.from(KEY, 'latin1');

/** Every character as %XX, in `hexCase`; a space as `+` when `plus`. */
const percentEncoded = (text: string, hexCase: 'upper' | 'lower', plus = false) =>
  [...text].map((c) => (plus && c === ' ' ? '+' : `%${c.charCodeAt(0).toString(16).padStart(2, '0')[hexCase === 'upper' ? 'toUpperCase' : 'toLowerCase']()}`)).join('');

/** The body of the echo `mode` (the event id asked for), as the hostile upstream writes it. */
const ECHOES: Record<number, { name: string; body: () => string }> = {
  1: { name: 'as it is', body: () => JSON.stringify({ Message: `Invalid key ${KEY}` }) },
  2: { name: 'upper-cased', body: () => JSON.stringify({ Message: `INVALID KEY ${KEY.toUpperCase()}` }) },
  3: { name: 'lower-cased', body: () => JSON.stringify({ Message: `invalid key ${KEY.toLowerCase()}` }) },
  4: { name: 'URL-encoded as a browser does', body: () => JSON.stringify({ Next: `https://api.example/?key=${encodeURIComponent(KEY)}` }) },
  5: { name: 'form-encoded (+ for a space)', body: () => JSON.stringify({ Form: new URLSearchParams({ key: KEY }).toString() }) },
  6: { name: 'every character %XX, upper-case hex', body: () => JSON.stringify({ Echo: percentEncoded(KEY, 'upper') }) },
  7: { name: 'every character %xx, lower-case hex, + for the space', body: () => JSON.stringify({ Echo: percentEncoded(KEY, 'lower', true) }) },
  8: { name: 'JSON-escaped, every character \\u00XX', body: () => `{"Echo":"${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}` },
  9: { name: 'JSON-escaped slash', body: () => `{"Echo":"${KEY.replaceAll('/', '\\/')}"}` },
  10: {
    name: 'base64 at the three offsets',
    body: () =>
      JSON.stringify({
        At0: Buffer.from(KEY).toString('base64'),
        At1: Buffer.from(`:${KEY}`).toString('base64'),
        At2: `Basic ${Buffer.from(`u:${KEY}`).toString('base64')}`,
      }),
  },
  11: {
    name: 'base64url at the three offsets, and of the upper-cased key',
    body: () =>
      JSON.stringify({
        At0: Buffer.from(KEY).toString('base64url'),
        At1: Buffer.from(`?${KEY}`).toString('base64url'),
        At2: Buffer.from(`ab${KEY}`).toString('base64url'),
        Upper: Buffer.from(KEY.toUpperCase()).toString('base64'),
      }),
  },
  12: { name: 'hex, lower and upper case', body: () => JSON.stringify({ Lower: bytes.toString('hex'), Upper: bytes.toString('hex').toUpperCase() }) },
};

/** Modes whose echo is in a compressed body or a header, not in the body as written. */
const COMPRESSED: Record<number, { name: string; encoding: string; encode: (text: string) => Buffer }> = {
  20: { name: 'a gzip’d body', encoding: 'gzip', encode: (text) => gzipSync(text) },
  21: { name: 'a deflated body', encoding: 'deflate', encode: (text) => deflateSync(text) },
  22: { name: 'a brotli body', encoding: 'br', encode: (text) => brotliCompressSync(text) },
};

/** The mode whose answer is in a coding nothing here decodes (`compress`). */
const UNDECODABLE = 23;

const HEADERS: Record<number, { name: string; headers: Record<string, string>; status: number }> = {
  30: { name: 'the key in Retry-After', headers: { 'Retry-After': KEY }, status: 503 },
  31: { name: 'the key after the Date', headers: { Date: `Tue, 01 Dec 2026 10:00:00 GMT ${KEY}` }, status: 200 },
  32: { name: 'the key in a comment in the Date', headers: { Date: `Tue, 01 Dec 2026 10:00:00 GMT (${KEY})` }, status: 200 },
  33: { name: 'the key base64’d in Retry-After', headers: { 'Retry-After': Buffer.from(KEY).toString('base64') }, status: 429 },
  34: { name: 'the key as the Date', headers: { Date: KEY }, status: 200 },
};

/** The hostile upstream: GET /rest/v2/Events/{mode} echoes the key in that mode's way. */
function hostile(request: IncomingMessage, response: ServerResponse): void {
  const mode = Number(/\/Events\/(\d+)$/.exec(request.url ?? '')?.[1]);
  const json = { 'Content-Type': 'application/json; charset=utf-8' };
  const echo = ECHOES[mode];
  if (echo) {
    response.writeHead(401, json).end(echo.body());
    return;
  }
  const compressed = COMPRESSED[mode];
  if (compressed) {
    // Compressed though the proxy never asked for it.
    response.writeHead(200, { ...json, 'Content-Encoding': compressed.encoding }).end(compressed.encode(JSON.stringify({ Message: `key ${KEY}` })));
    return;
  }
  if (mode === UNDECODABLE) {
    // A coding neither the proxy nor the platform decodes: its bytes are not text to pass on.
    response.writeHead(200, { ...json, 'Content-Encoding': 'compress' }).end(JSON.stringify({ Message: `key ${KEY}` }));
    return;
  }
  const header = HEADERS[mode];
  if (header) {
    response.writeHead(header.status, { ...json, ...header.headers }).end(JSON.stringify({ Message: 'ok' }));
    return;
  }
  response.writeHead(404, json).end(JSON.stringify({ Message: 'no such mode' }));
}

/** The base64 characters that depend on the key's bytes alone, at each offset, of the key as given. */
function base64Runs(text: string): string[] {
  return [0, 1, 2].flatMap((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(text), Buffer.alloc(2)]).toString('base64');
    const run = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + text.length) * 8) / 6));
    return [run, run.replaceAll('+', '-').replaceAll('/', '_')];
  });
}

/** Where `text` still holds the key in a form this file knows, or null. */
function leak(text: string): string | null {
  const lower = text.toLowerCase();
  const forms: Record<string, string> = {
    'as written': KEY.toLowerCase(),
    'URL-encoded': encodeURIComponent(KEY).toLowerCase(),
    'form-encoded': new URLSearchParams({ k: KEY }).toString().slice(2).toLowerCase(),
    '%XX': percentEncoded(KEY, 'lower'),
    '%XX with +': percentEncoded(KEY, 'lower', true),
    hex: bytes.toString('hex'),
    'JSON \\u': [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    'JSON \\/': KEY.replaceAll('/', '\\/').toLowerCase(),
    'a third of the key': KEY.slice(8, 8 + 12).toLowerCase(),
  };
  for (const [name, form] of Object.entries(forms)) if (lower.includes(form)) return name;
  for (const variant of [KEY, KEY.toUpperCase(), KEY.toLowerCase()]) {
    for (const run of base64Runs(variant)) if (text.includes(run)) return `base64 ${run}`;
  }
  return null;
}

interface Seen {
  status: number;
  headers: Headers;
  text: string;
}

const proxies: { name: string; create: typeof createNodeProxy }[] = [
  { name: 'on Node (undici pool)', create: createNodeProxy },
  { name: 'on the edge (platform fetch)', create: createEdgeProxy },
];

describe('an upstream that echoes the key', () => {
  let upstream: Listening;
  const seen: Seen[] = [];

  before(async () => {
    upstream = await listenNode(hostile);
  });

  after(async () => {
    await upstream.close();
  });

  for (const { name, create } of proxies) {
    describe(name, () => {
      let proxy: Listening;
      const get = async (mode: number): Promise<Seen> => {
        const response = await fetch(`${proxy.url}/api/rest/v2/Events/${mode}`);
        const answer = { status: response.status, headers: response.headers, text: await response.text() };
        seen.push(answer);
        return answer;
      };

      before(async () => {
        proxy = await listenApp(create({ upstream: upstream.url, apiKey: KEY, log: false, metrics: false, rateLimit: false }));
      });
      after(async () => {
        await proxy.close();
      });

      for (const [mode, echo] of Object.entries(ECHOES)) {
        test(`in the body, ${echo.name}: redacted, the status kept`, async () => {
          const answer = await get(Number(mode));
          assert.equal(answer.status, 401, answer.text);
          assert.equal(leak(answer.text), null, answer.text);
          assert.match(answer.text, /\[redacted\]/);
          JSON.parse(answer.text);
        });
      }

      for (const [mode, compressed] of Object.entries(COMPRESSED)) {
        test(`in ${compressed.name}: decoded, then redacted`, async () => {
          const answer = await get(Number(mode));
          assert.equal(answer.status, 200, answer.text);
          assert.deepEqual(JSON.parse(answer.text), { Message: 'key [redacted]' });
        });
      }

      test('in a coding nothing here decodes: 502, never the encoded bytes', async () => {
        const answer = await get(UNDECODABLE);
        assert.equal(answer.status, 502, answer.text);
        assert.match(JSON.parse(answer.text).Message, /could not be read/);
      });

      for (const [mode, header] of Object.entries(HEADERS)) {
        test(`${header.name}: the header dropped or replaced, never passed on`, async () => {
          const answer = await get(Number(mode));
          assert.equal(answer.status, header.status, answer.text);
          for (const [field, value] of answer.headers) assert.equal(leak(value), null, `${field}: ${value}`);
          assert.equal(answer.headers.get('retry-after'), null);
          // A Date is always there, in the one shape: the upstream's when it had that shape, else the proxy's clock.
          assert.match(answer.headers.get('date') ?? '', /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
        });
      }
    });
  }

  test('no answer, in its body or any header, holds the key in any form', () => {
    assert.ok(seen.length >= 2 * (Object.keys(ECHOES).length + Object.keys(COMPRESSED).length + Object.keys(HEADERS).length));
    for (const answer of seen) {
      assert.equal(leak(answer.text), null, answer.text);
      for (const [field, value] of answer.headers) assert.equal(leak(value), null, `${field}: ${value}`);
    }
  });
});

describe('Date and Retry-After pass in their shapes', () => {
  const cases: { name: string; sent: Record<string, string>; date?: RegExp | string; retryAfter: string | null }[] = [
    { name: 'seconds', sent: { 'Retry-After': '120' }, retryAfter: '120' },
    { name: 'an HTTP-date', sent: { 'Retry-After': 'Fri, 01 Jan 2027 00:00:00 GMT' }, retryAfter: 'Fri, 01 Jan 2027 00:00:00 GMT' },
    { name: 'a word', sent: { 'Retry-After': 'soon' }, retryAfter: null },
    { name: 'a negative number', sent: { 'Retry-After': '-5' }, retryAfter: null },
    { name: 'seconds with a fraction', sent: { 'Retry-After': '1.5' }, retryAfter: null },
    { name: 'an RFC 850 Date', sent: { Date: 'Tuesday, 01-Dec-26 10:00:00 GMT' }, date: 'Tue, 01 Dec 2026 10:00:00 GMT', retryAfter: null },
    { name: 'an asctime Date', sent: { Date: 'Tue Dec  1 10:00:00 2026' }, date: 'Tue, 01 Dec 2026 10:00:00 GMT', retryAfter: null },
    { name: 'an IMF-fixdate Date', sent: { Date: 'Tue, 01 Dec 2026 10:00:00 GMT' }, date: 'Tue, 01 Dec 2026 10:00:00 GMT', retryAfter: null },
  ];
  let upstream: Listening;
  let proxy: Listening;
  const proxyNow = Date.UTC(2026, 10, 21, 12, 0, 0);

  before(async () => {
    let next: Record<string, string> = {};
    upstream = await listenNode((_request, response) => {
      response.sendDate = false;
      response.writeHead(503, { 'Content-Type': 'application/json', ...next }).end('{"Message":"busy"}');
    });
    proxy = await listenApp(createNodeProxy({ upstream: upstream.url, apiKey: KEY, log: false, metrics: false, now: () => proxyNow }));
    sendNext = (headers) => (next = headers);
  });
  let sendNext: (headers: Record<string, string>) => void = () => undefined;

  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  for (const { name, sent, date, retryAfter } of cases) {
    test(name, async () => {
      sendNext(sent);
      const response = await fetch(`${proxy.url}/api/rest/v2/Events/1`);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), retryAfter);
      // Without an upstream Date of that shape, the proxy's own clock.
      assert.equal(response.headers.get('date'), date ?? new Date(proxyNow).toUTCString());
    });
  }
});

describe('an in-process upstream that compresses its answer', () => {
  const inProcess = (encoding: string, encode: (text: string) => Buffer) =>
    createEdgeProxy({
      upstream: async () =>
        new Response(new Uint8Array(encode(JSON.stringify({ Message: `key ${KEY}` }))), {
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
        }),
      apiKey: KEY,
      log: false,
      metrics: false,
    });

  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ] as const) {
    test(`${encoding}: decoded, then redacted`, async () => {
      const response = await inProcess(encoding, (text) => encode(text)).fetch(new Request('http://proxy/api/rest/v2/Events/1'));
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { Message: 'key [redacted]' });
    });
  }

  test('a coding it cannot decode: 502, never the bytes', async () => {
    const response = await inProcess('compress', (text) => Buffer.from(text)).fetch(new Request('http://proxy/api/rest/v2/Events/1'));
    assert.equal(response.status, 502);
    assert.match(((await response.json()) as { Message: string }).Message, /could not be read/);
  });
});
