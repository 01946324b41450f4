/**
 * Requests refused below our own code (Node's HTTP parser, the
 * @hono/node-server adapter) answer in the service's JSON error shape,
 * `{"Message": ...}` with a JSON content type, and the proxy counts them in
 * its metrics and access log. Written byte by byte on a loopback socket, as a
 * broken client or a scanner sends them.
 */
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { promMetrics } from '../../src/server/proxy/metrics.ts';
import { createProxy } from '../../src/server/proxy/node.ts';
import { listenProxy, type ProxyServer } from '../../src/server/proxy/server.ts';
import { startSandboxServer, type RunningSandbox } from '../../src/server/sandbox/serve.ts';
import { stagedoor } from './cli-helpers.ts';
import { listen, logSink, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Write `request` as it is on a new connection; read the answer until the server closes it (or 5 s pass). */
function raw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    const done = () => {
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const chunked = headers['transfer-encoding'] === 'chunked';
      let body = text.slice(split + 4);
      if (chunked) body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '').replace(/^0\r\n\r\n$/, '');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('end', done);
    socket.setTimeout(5000, () => {
      socket.destroy();
      done();
    });
    socket.write(request);
  });
}

/** What a broken or hostile client sends, and what each must answer. */
const REFUSALS: { name: string; request: string; status: number; message: RegExp }[] = [
  { name: 'a request line that is not HTTP', request: 'GARBAGE\r\n\r\n', status: 400, message: /could not be read as HTTP/ },
  { name: 'an unknown HTTP version', request: 'GET / HTTP/9.9\r\nHost: a\r\n\r\n', status: 400, message: /could not be read as HTTP/ },
  { name: 'a space in the path', request: 'GET /api/a b HTTP/1.1\r\nHost: a\r\n\r\n', status: 400, message: /could not be read as HTTP/ },
  {
    name: 'a 17 KB Cookie header',
    request: `GET /api/rest/v2/Events HTTP/1.1\r\nHost: a\r\nCookie: session=${'a'.repeat(17 * 1024)}\r\n\r\n`,
    status: 431,
    message: /headers are larger/,
  },
  { name: 'a backslash in the path', request: 'GET /api/..\\/..\\/sandbox/pay/x HTTP/1.1\r\nHost: a\r\n\r\n', status: 400, message: /Backslash in request path/ },
  { name: 'a Host that is not a host', request: 'GET /api/rest/v2/Events HTTP/1.1\r\nHost: [bad\r\n\r\n', status: 400, message: /address could not be read/ },
  { name: 'an HTTP/1.1 request without Host', request: 'GET /api/rest/v2/Events HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400, message: /address could not be read \(Missing host header\)/ },
  { name: 'the asterisk form', request: 'OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', status: 400, message: /address could not be read/ },
  { name: 'a CONNECT (the authority form)', request: 'CONNECT theatre.example:443 HTTP/1.1\r\nHost: theatre.example:443\r\n\r\n', status: 405, message: /does not accept CONNECT/ },
  {
    name: 'an Expect other than 100-continue',
    request: 'POST /api/rest/v2/Baskets HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 0\r\n\r\n',
    status: 417,
    message: /cannot meet the expectation '200-ok'/,
  },
];

function assertJsonRefusal(answer: RawAnswer, status: number, message: RegExp, what: string): void {
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer)}`);
  assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8', what);
  const body = JSON.parse(answer.body) as { Message?: unknown };
  assert.equal(typeof body.Message, 'string', what);
  assert.match(String(body.Message), message, what);
}

describe('refusals below the proxy', () => {
  const sink = logSink();
  const metrics = promMetrics();
  let upstream: Listening;
  let server: ProxyServer;

  before(async () => {
    upstream = await listen(stubService().fetch);
    const proxy = createProxy({ upstream: upstream.url, apiKey: KEY, log: sink.log, metrics });
    server = await listenProxy(proxy.fetch, { port: 0, host: '127.0.0.1', drainTimeoutMs: 1000, onRefusal: (status, reason) => proxy.refused(status, reason) });
  });

  after(async () => {
    await server.drain();
    await upstream.close();
  });

  for (const { name, request, status, message } of REFUSALS) {
    test(`${name}: ${status} in the JSON shape`, async () => {
      assertJsonRefusal(await raw(server.port, request), status, message, name);
    });
  }

  test('each is counted in the metrics and written to the access log', async () => {
    const text = (await metrics.render()).body;
    const count = (reason: string, status: number) => Number(new RegExp(`^stagedoor_proxy_refused_total\\{reason="${reason}",status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    assert.equal(count('malformed-request', 400), 3, text);
    assert.equal(count('headers-too-large', 431), 1);
    assert.equal(count('unreadable-url', 400), 4);
    assert.equal(count('connect-method', 405), 1);
    assert.equal(count('expectation-failed', 417), 1);
    assert.match(text, /^stagedoor_proxy_requests_total\{operation="none",status="431"\} 1$/m);
    const refused = sink.entries.filter((entry) => entry.refused);
    assert.deepEqual(
      refused.map((entry) => [entry.method, entry.status, entry.refused]),
      [
        ['-', 400, 'malformed-request'],
        ['-', 400, 'malformed-request'],
        ['-', 400, 'malformed-request'],
        ['-', 431, 'headers-too-large'],
        ['-', 400, 'unreadable-url'],
        ['-', 400, 'unreadable-url'],
        ['-', 400, 'unreadable-url'],
        ['-', 400, 'unreadable-url'],
        ['-', 405, 'connect-method'],
        ['-', 417, 'expectation-failed'],
      ],
    );
  });

  test('a good request on the same server still answers', async () => {
    const answer = await fetch(`http://127.0.0.1:${server.port}/api/rest/v2/Events`);
    assert.equal(answer.status, 200);
  });
});

describe('refusals below the sandbox (stagedoor sandbox)', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandboxServer({ port: 0, host: '127.0.0.1', options: {} });
  });
  after(async () => {
    await sandbox.close();
  });

  for (const { name, request, status, message } of REFUSALS) {
    test(`${name}: ${status} in the JSON shape`, async () => {
      const port = Number(new URL(sandbox.url).port);
      assertJsonRefusal(await raw(port, request.replace('/api/', '/rest/')), status, message, name);
    });
  }
});

describe('stagedoor proxy counts them', () => {
  test('a 17 KB Cookie answers 431 in JSON and shows in /metrics', async () => {
    const upstream = await listen(stubService().fetch);
    const cli = stagedoor(['proxy', '--upstream', upstream.url, '--port', '0', '--access-log', 'off'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+)\/api\//);
      const port = Number(new URL(base ?? '').port);
      const big = REFUSALS.find((r) => r.status === 431);
      assert.ok(big);
      assertJsonRefusal(await raw(port, big.request), 431, big.message, big.name);
      const backslash = REFUSALS.find((r) => /backslash/.test(r.name));
      assert.ok(backslash);
      assertJsonRefusal(await raw(port, backslash.request), 400, backslash.message, backslash.name);
      const text = await (await fetch(`${base}/metrics`)).text();
      assert.match(text, /^stagedoor_proxy_refused_total\{reason="headers-too-large",status="431"\} 1$/m);
      assert.match(text, /^stagedoor_proxy_refused_total\{reason="unreadable-url",status="400"\} 1$/m);
    } finally {
      await cli.stop();
      await upstream.close();
    }
  });
});
