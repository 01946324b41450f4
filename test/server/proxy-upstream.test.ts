/**
 * What the proxy answers when the upstream refuses, hangs, breaks off or sends
 * something unreadable: 502 and 504 as JSON, one retry for reads only. Twice:
 * with the platform fetch (the edge build) and with the keep-alive pool (Node).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { createProxy as createEdgeProxy, type ProxyOptions } from '../../src/server/proxy/index.ts';
import { createProxy as createNodeProxy } from '../../src/server/proxy/node.ts';
import { client, closedPort, listen, listenHanging, logSink, messageOf } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301';

type Create = typeof createEdgeProxy;

/**
 * An upstream that drops its first `dropFirst` connections the moment they
 * open (a connection error for the proxy), then answers normally. Counts both.
 */
async function flakyUpstream(dropFirst: number, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let connections = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    handler(req, res);
  });
  server.on('connection', (socket) => {
    connections++;
    if (connections <= dropFirst) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const json = (body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};


function suite(runtime: string, createProxy: Create) {
  /** Run `body` against a proxy for `upstream`, then close it. */
  async function withProxy(options: Partial<ProxyOptions> & { upstream: ProxyOptions['upstream'] }, body: (api: ReturnType<typeof client>, log: ReturnType<typeof logSink>) => Promise<void>) {
    const log = logSink();
    const app = createProxy({ apiKey: KEY, rateLimit: false, log: log.log, ...options });
    const proxy = await listen(app.fetch);
    try {
      await body(client(proxy.url), log);
    } finally {
      await proxy.close();
      await app.close();
    }
  }

  describe(`${runtime}: an upstream that refuses connections (a closed port)`, () => {
    test('a read is 502, after one retry', async () => {
      const port = await closedPort();
      await withProxy({ upstream: `http://127.0.0.1:${port}` }, async (api, log) => {
        const answer = await api.call('GET', '/api/rest/v2/Events');
        assert.equal(answer.status, 502);
        assert.match(messageOf(answer.text), /could not be reached/);
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        assert.deepEqual(
          log.entries.map((e) => [e.operation, e.status, e.error, e.retried]),
          [['getEvents', 502, 'unreachable', true]],
        );
        assert.ok(!answer.text.includes(String(port)), 'the upstream address stays inside');
      });
    });

    test('a basket operation is 502 without a retry', async () => {
      const port = await closedPort();
      await withProxy({ upstream: `http://127.0.0.1:${port}` }, async (api, log) => {
        const answer = await api.call('POST', '/api/rest/v2/Baskets');
        assert.equal(answer.status, 502);
        messageOf(answer.text);
        assert.equal(log.entries[0]?.retried, undefined);
      });
    });
  });

  describe(`${runtime}: an upstream that hangs`, () => {
    test('is 504 after timeoutMs, and a time-out is not retried', async () => {
      const hanging = await listenHanging();
      try {
        await withProxy({ upstream: hanging.url, timeoutMs: 150 }, async (api, log) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 504);
          assert.match(messageOf(answer.text), /did not answer in time/);
          assert.equal(hanging.requests(), 1);
          assert.equal(log.entries[0]?.error, 'timeout');
        });
      } finally {
        await hanging.close();
      }
    });

    test('an in-process upstream that never settles also times out', async () => {
      const never = () => new Promise<Response>(() => undefined);
      await withProxy({ upstream: never, timeoutMs: 100 }, async (api) => {
        const answer = await api.call('GET', `${BASKET}`);
        assert.equal(answer.status, 504);
      });
    });
  });

  describe(`${runtime}: retry once on a connection error`, () => {
    test('a GET whose first connection breaks is answered from the second', async () => {
      const upstream = await flakyUpstream(1, json({ Events: [] }));
      try {
        await withProxy({ upstream: upstream.url }, async (api, log) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 200, answer.text);
          assert.deepEqual(JSON.parse(answer.text), { Events: [] });
          assert.equal(upstream.connections(), 2);
          assert.equal(upstream.requests(), 1);
          assert.equal(log.entries[0]?.retried, true);
        });
      } finally {
        await upstream.close();
      }
    });

    test('a GET that fails twice is 502 after exactly two attempts', async () => {
      const upstream = await flakyUpstream(5, json({ Events: [] }));
      try {
        await withProxy({ upstream: upstream.url }, async (api) => {
          const answer = await api.call('GET', '/api/rest/v2/Venues');
          assert.equal(answer.status, 502);
          assert.equal(upstream.connections(), 2);
        });
      } finally {
        await upstream.close();
      }
    });

    for (const [what, method, path, body] of [
      ['POST Create Basket', 'POST', '/api/rest/v2/Baskets', undefined],
      ['POST Add Tickets', 'POST', `${BASKET}/Tickets`, '{"Tickets":[1]}'],
      ['GET basket detail (a basket operation)', 'GET', BASKET, undefined],
    ] as const) {
      test(`${what} is never retried`, async () => {
        const upstream = await flakyUpstream(1, json({ Success: true }));
        try {
          await withProxy({ upstream: upstream.url }, async (api) => {
            const answer = await api.call(method, path, { body, headers: { 'Content-Type': 'application/json' } });
            assert.equal(answer.status, 502);
            assert.equal(upstream.connections(), 1);
            assert.equal(upstream.requests(), 0);
          });
        } finally {
          await upstream.close();
        }
      });
    }
  });

  describe(`${runtime}: broken or unreadable answers`, () => {
    test('an answer cut off in the middle is 502', async () => {
      const upstream = await flakyUpstream(0, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"Events":[', () => res.socket?.destroy());
      });
      try {
        await withProxy({ upstream: upstream.url }, async (api) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 502);
          messageOf(answer.text);
        });
      } finally {
        await upstream.close();
      }
    });

    test('a 200 that is not JSON (a captive portal page) is 502', async () => {
      const upstream = await listen(() => new Response('<html>Welcome</html>', { headers: { 'Content-Type': 'text/html' } }));
      try {
        await withProxy({ upstream: upstream.url }, async (api, log) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 502);
          assert.match(messageOf(answer.text), /could not be read/);
          assert.equal(log.entries[0]?.error, 'bad-answer');
        });
      } finally {
        await upstream.close();
      }
    });

    test('a JSON answer the upstream labels text/html is served as application/json (markup in it never runs on the proxy origin)', async () => {
      const body = '{"Message":"<img src=x onerror=alert(document.domain)>"}';
      const upstream = await listen(() => new Response(body, { headers: { 'Content-Type': 'text/html' } }));
      try {
        await withProxy({ upstream: upstream.url }, async (api) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 200);
          assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
          const again = await api.call('GET', '/api/rest/v2/Events');
          assert.match(again.headers.get('content-type') ?? '', /^application\/json/, 'the cached copy too');
        });
      } finally {
        await upstream.close();
      }
    });

    test("an error page that is not JSON keeps its status and gets the service's { Message } shape", async () => {
      const upstream = await listen(() => new Response('<h1>Internal Server Error</h1>', { status: 500, headers: { 'Content-Type': 'text/html' } }));
      try {
        await withProxy({ upstream: upstream.url }, async (api) => {
          const answer = await api.call('GET', '/api/rest/v2/Events');
          assert.equal(answer.status, 500);
          assert.match(messageOf(answer.text), /500/);
        });
      } finally {
        await upstream.close();
      }
    });

    test('a 409 add-result and a 204 pass through unchanged', async () => {
      const conflict = { Success: false, FailureReason: 8, FailureReasonText: 'BookableTicketsExceeded', BookableTicketsCount: 2, GetBasketContentResult: null };
      const upstream = await listen((request) =>
        new URL(request.url).pathname.endsWith('/ETickets') ? new Response(null, { status: 204 }) : Response.json(conflict, { status: 409 }),
      );
      try {
        await withProxy({ upstream: upstream.url }, async (api) => {
          const added = await api.call('POST', `${BASKET}/Tickets`, { body: '{"Tickets":[1,2,3]}', headers: { 'Content-Type': 'application/json' } });
          assert.equal(added.status, 409);
          assert.deepEqual(JSON.parse(added.text), conflict);
          const tickets = await api.call('GET', `${BASKET}/ETickets`);
          assert.equal(tickets.status, 204);
          assert.equal(tickets.text, '');
        });
      } finally {
        await upstream.close();
      }
    });

    test('an in-process upstream that throws is 502', async () => {
      await withProxy({ upstream: () => Promise.reject(new Error('boom')) }, async (api) => {
        const answer = await api.call('GET', '/api/rest/v2/System/Countries');
        assert.equal(answer.status, 502);
        assert.ok(!answer.text.includes('boom'), 'internal error text stays inside');
      });
    });
  });
}

suite('edge (platform fetch)', createEdgeProxy);
suite('Node (undici pool)', createNodeProxy);
