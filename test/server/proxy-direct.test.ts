/**
 * The proxy's direct path (index.ts, `app.fetch`): a request under the prefix, by GET, POST or
 * DELETE, without an Origin, while no CORS origin is configured, goes straight to the proxy's
 * handler instead of through Hono's router and middleware chain. It must answer exactly as the
 * chain would: the same bytes on the wire, the same access-log records. Compared here with a
 * proxy that takes every request through the chain (a middleware added to the app sends it
 * there), both served by `listenProxy` (as `stagedoor proxy` serves it), over raw sockets.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createProxy, type AccessLogEntry, type ProxyApp } from '../../src/server/proxy/node.ts';
import { listenProxy, type ProxyServer } from '../../src/server/proxy/server.ts';
import { listen, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
/** The proxies' clock, fixed: their own answers' Date and the access log's time are then alike. */
const NOW = Date.parse('2026-12-01T10:00:00.250Z');

/** Send one raw HTTP/1.1 request (Connection: close) and return every byte of the answer. */
function raw(port: number, request: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.write(request);
  });
}

function request(method: string, path: string, headers: Record<string, string> = {}, body?: string): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: proxy.test', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** The answer with the one part that may differ between two proxies: the clock stamp's milliseconds. */
function comparable(answer: Buffer): string {
  return (
    answer
      .toString('latin1')
      .replace(/clock;desc="\d+"/g, 'clock;desc="…"')
      // An answer the proxies' fixed clock did not date (the health check) gets Node's own Date, from
      // the real clock: the two requests may fall in different seconds (seen once under load).
      .replace(/^date: (?!Tue, 01 Dec 2026 10:00:00 GMT).*$/gim, "date: (Node's clock)")
  );
}

interface Served {
  app: ProxyApp;
  server: ProxyServer;
  log: AccessLogEntry[];
}

/** A proxy served as `stagedoor proxy` serves it; `routed` counts the requests Hono's router saw. */
async function serve(upstream: string, throughHono: boolean): Promise<Served & { routed: () => number }> {
  const log: AccessLogEntry[] = [];
  const app = createProxy({ upstream, apiKey: KEY, log: (entry) => log.push({ ...entry }), now: () => NOW, returnOrigins: ['https://theatre.example'] });
  // A route added to the app: from then on every request goes through Hono's chain, as before the direct path.
  if (throughHono) app.get('/added-later', (c) => c.text('added'));
  // Hono reads every request's path it dispatches with `getPath`.
  let routed = 0;
  const getPath = app.getPath.bind(app);
  Object.defineProperty(app, 'getPath', {
    value: (request: Request, options?: { env?: unknown }) => {
      routed++;
      return getPath(request, options);
    },
  });
  const server = await listenProxy(app.fetch, { port: 0, host: '127.0.0.1', drainTimeoutMs: 1000, onRefusal: (status, reason) => app.refused(status, reason) });
  return { app, server, log, routed: () => routed };
}

const big = { Seats: Array.from({ length: 200 }, (_, i) => ({ SeatId: i, Row: 'A', Number: i })) };

describe('the direct path answers as the middleware chain does', () => {
  let upstream: Listening;
  let direct: Awaited<ReturnType<typeof serve>>;
  let chained: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    // A large answer for one operation (it goes gzip'd to a client that takes it); an echo for the rest.
    upstream = await listen(
      stubService((op) => (op.name === 'getVenue' ? Response.json(big, { headers: { Date: 'Tue, 01 Dec 2026 10:00:00 GMT' } }) : undefined)).fetch,
    );
    direct = await serve(upstream.url, false);
    chained = await serve(upstream.url, true);
  });

  after(async () => {
    await Promise.all([direct.server.drain(), chained.server.drain()]);
    await Promise.all([direct.app.close(), chained.app.close()]);
    await upstream.close();
  });

  const cases: [string, string][] = [
    ['an uncached basket read', request('GET', `/api/rest/v2/Baskets/${BASKET}`, { 'Accept-Language': 'de' })],
    ['a catalogue read (cacheable: ETag, Cache-Control)', request('GET', '/api/rest/v2/Events?type=2')],
    ['a catalogue read again (a cache hit, with Age)', request('GET', '/api/rest/v2/Events?type=2')],
    ['a revalidation (304)', request('GET', '/api/rest/v2/Events?type=2', { 'If-None-Match': 'W/"x"' })],
    ['a large answer to a client that takes gzip', request('GET', '/api/rest/v2/Venues/7', { 'Accept-Encoding': 'gzip' })],
    ['a basket created (POST, no body)', request('POST', '/api/rest/v2/Baskets')],
    ['tickets added (POST, a JSON body)', request('POST', `/api/rest/v2/Baskets/${BASKET}/Tickets`, { 'Content-Type': 'application/json' }, '{"tickets":[1,2]}')],
    ['a body that is not JSON (415)', request('POST', `/api/rest/v2/Baskets/${BASKET}/Tickets`, { 'Content-Type': 'text/plain' }, 'x')],
    ['a bad parameter (400)', request('GET', '/api/rest/v2/Baskets/not-a-guid')],
    ['no such operation (404)', request('GET', '/api/rest/v2/Nothing')],
    ['a method the operation does not take (405)', request('DELETE', '/api/rest/v2/Events')],
    ['a path outside the prefix (404)', request('GET', '/elsewhere')],
    ['a dot segment out of the prefix', request('GET', '/api/../api/rest/v2/Venues')],
    ['HEAD (Hono answers it as GET without the body)', request('HEAD', `/api/rest/v2/Baskets/${BASKET}`)],
    ['an Origin that is not allowed, reading', request('GET', `/api/rest/v2/Baskets/${BASKET}`, { Origin: 'https://elsewhere.example' })],
    ['an Origin that is not allowed, changing state (403)', request('POST', '/api/rest/v2/Baskets', { Origin: 'https://elsewhere.example' })],
    ['a preflight (403)', request('OPTIONS', '/api/rest/v2/Baskets', { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' })],
    ['the health check', request('GET', '/healthz')],
  ];

  for (const [name, text] of cases) {
    test(name, async () => {
      const [a, b] = [await raw(direct.server.port, text), await raw(chained.server.port, text)];
      assert.equal(comparable(a), comparable(b));
      if (name.includes('gzip')) assert.match(a.toString('latin1'), /content-encoding: gzip/i);
    });
  }

  test('the same access-log records, in the same order', () => {
    const strip = (entries: AccessLogEntry[]) => entries.map(({ durationMs: _, ...rest }) => rest);
    // Refusals of CORS and the health check are answered before the proxy's handler: not logged, either way.
    assert.equal(direct.log.length, cases.length - 3);
    assert.deepEqual(strip(direct.log), strip(chained.log));
  });

  test('only HEAD, an Origin, the operational endpoints and paths outside the prefix went through Hono on the direct one', () => {
    assert.equal(chained.routed(), cases.length, 'a route added to the app: everything through Hono');
    const viaHono = cases.filter(([name]) => /HEAD|Origin|preflight|health|outside the prefix/.test(name)).length;
    assert.equal(viaHono, 6);
    assert.equal(direct.routed(), viaHono);
  });
});

describe('the Node pool reads the upstream headers it passes on in any case', () => {
  test('Content-Type, Date and Retry-After, however the upstream writes their names', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(503, [
        ['CONTENT-TYPE', 'application/json'],
        ['date', 'Tue, 01 Dec 2026 10:00:00 GMT'],
        ['Retry-after', '7'],
        ['X-Other', 'dropped'],
      ]);
      res.end('{"Message":"busy"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };
    const app = createProxy({ upstream: `http://127.0.0.1:${port}`, apiKey: KEY, log: false });
    try {
      const answer = await app.fetch(new Request(`http://proxy.test/api/rest/v2/Baskets/${BASKET}`));
      assert.equal(answer.status, 503);
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(answer.headers.get('date'), 'Tue, 01 Dec 2026 10:00:00 GMT');
      assert.equal(answer.headers.get('retry-after'), '7');
      assert.equal(answer.headers.get('x-other'), null);
      assert.deepEqual(await answer.json(), { Message: 'busy' });
    } finally {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
