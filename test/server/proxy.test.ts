/**
 * The proxy over real sockets on 127.0.0.1: what it forwards, what it refuses,
 * which headers cross it, CORS, and that the Api-Key never comes back out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createProxy } from '../../src/server/proxy/index.ts';
import {
  client,
  listen,
  logSink,
  operationList,
  recording,
  samplePath,
  STUB_DATE,
  stubService,
  type Answer,
  type Listening,
  messageOf,
} from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const THEATRE = 'https://theatre.example';
const sink = logSink();
const upstream = recording(stubService().fetch);
let upstreamServer: Listening;
let proxyServer: Listening;
let onAccountServer: Listening;
let corsServer: Listening;
let api: ReturnType<typeof client>;
/** Every answer any test of this file received, scanned for the key at the end. */
const answers: Answer[] = [];

before(async () => {
  upstreamServer = await listen(upstream.fetch);
  // The orders' return addresses are on the theatre's site (the proxy refuses others: proxy-return-addresses.test.ts).
  const common = { upstream: upstreamServer.url, apiKey: KEY, log: sink.log, rateLimit: false as const, returnOrigins: [THEATRE] };
  proxyServer = await listen(createProxy(common).fetch);
  onAccountServer = await listen(createProxy({ ...common, allowOnAccount: true }).fetch);
  corsServer = await listen(createProxy({ ...common, allowedOrigins: [THEATRE] }).fetch);
  api = client(proxyServer.url, answers);
});

after(async () => {
  await Promise.all([proxyServer.close(), onAccountServer.close(), corsServer.close(), upstreamServer.close()]);
});

/** The requests the upstream receives while `action` runs. */
async function upstreamSees(action: () => Promise<unknown>) {
  const before = upstream.received.length;
  await action();
  return upstream.received.slice(before);
}


const GUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
/** Per operation with a body: what a client sends (camelCase, strings, an unknown field) → what the upstream gets. */
const SAMPLE_BODIES: Record<string, [unknown, unknown]> = {
  addTickets: [{ tickets: ['141745744', 141745745], Sample: 1 }, { Tickets: [141745744, 141745745] }],
  addTicketsV3: [{ areaId: '811', SEATSCOUNT: 2, price: '25.5' }, { AreaId: 811, SeatsCount: 2, Price: 25.5 }],
  submitOrder: [
    { email: 'a@b.example', name: 'Ada', lastName: 'L', deliveryType: '1', country: '44', sendConfirmationEmail: 'true', paymentGateLanguage: 'German', successReturnUrl: `${THEATRE}/s`, failureReturnUrl: `${THEATRE}/f`, Sample: 1 },
    { Email: 'a@b.example', Name: 'Ada', LastName: 'L', DeliveryType: 1, Country: 44, SendConfirmationEmail: true, PaymentGateLanguage: 2, SuccessReturnUrl: `${THEATRE}/s`, FailureReturnUrl: `${THEATRE}/f`, BasketId: GUID },
  ],
  submitOrderOnAccount: [{ BasketId: GUID.toUpperCase(), Email: 'a@b.example', ReturnUrl: `${THEATRE}/r` }, { BasketId: GUID.toUpperCase(), Email: 'a@b.example', ReturnUrl: `${THEATRE}/r` }],
  validateSeatsSelection: [{ ticketIds: ['1', '2'] }, { TicketIds: [1, 2] }],
};

describe('forwarding', () => {
  test('every operation of the table reaches the upstream, rebuilt, with the key', async () => {
    assert.equal(operationList.length, 39);
    for (const op of operationList) {
      const path = samplePath(op);
      const sent = SAMPLE_BODIES[op.name];
      const body = op.body ? JSON.stringify(sent?.[0]) : undefined;
      const target = op.restricted ? client(onAccountServer.url, answers) : api;
      let answer = { status: 0, text: '', headers: new Headers() };
      const seen = await upstreamSees(async () => {
        answer = await target.call(op.method, `/api${path}`, {
          headers: body ? { 'Content-Type': 'application/json' } : {},
          body,
        });
      });
      assert.equal(answer.status, 200, `${op.name}: ${answer.text}`);
      assert.equal(seen.length, 1, `${op.name} reached the upstream once`);
      const [request] = seen;
      assert.ok(request, op.name);
      assert.equal(request.method, op.method, op.name);
      assert.equal(request.path, path, op.name);
      assert.equal(request.headers.get('api-key'), KEY, op.name);
      if (body) {
        assert.equal(request.headers.get('content-type'), 'application/json', op.name);
        // Rebuilt from its typed fields (the service's binding rules): names as the service spells them,
        // numbers and booleans as such, an unknown property never forwarded.
        assert.deepEqual(JSON.parse(request.body), sent?.[1], op.name);
      }
      assert.equal((JSON.parse(answer.text) as { Operation: string }).Operation, op.name);
      assert.equal(answer.headers.get('date'), STUB_DATE, `${op.name}: the upstream's Date passes through`);
    }
  });

  test('the forwarded request is rebuilt from validated parameters: unknown query dropped, values canonical', async () => {
    const seen = await upstreamSees(() => api.call('GET', '/api/REST/v2/events/007/reviews?COUNT=5&evil=1&Api-Key=x&order=1'));
    assert.deepEqual(
      seen.map((r) => r.path),
      ['/rest/v2/Events/7/Reviews?order=1&count=5'],
    );
  });

  test("the browser's Api-Key, Cookie and Authorization never reach the upstream", async () => {
    const seen = await upstreamSees(() =>
      api.call('GET', '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301', {
        headers: { 'Api-Key': 'browser-key', Cookie: 'sid=1', Authorization: 'Bearer browser', 'Accept-Language': 'fr' },
      }),
    );
    const [request] = seen;
    assert.ok(request, 'the upstream was called');
    assert.equal(request.headers.get('api-key'), KEY);
    assert.equal(request.headers.get('cookie'), null);
    assert.equal(request.headers.get('authorization'), null);
    assert.equal(request.headers.get('accept-language'), 'fr');
  });

  test('Set-Cookie and other upstream headers are stripped from answers', async () => {
    const answer = await api.call('GET', '/api/rest/v2/System/USStates');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('set-cookie'), null);
    assert.equal(answer.headers.get('x-upstream-internal'), null);
    assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
  });
});

describe('refusals (JSON { Message }, nothing sent upstream)', () => {
  const cases: { what: string; method: string; path: string; status: number; body?: string; names?: string; headers?: Record<string, string> }[] = [
    { what: 'unknown path', method: 'GET', path: '/api/rest/v2/Nope', status: 404 },
    { what: 'outside the prefix', method: 'GET', path: '/rest/v2/Events', status: 404 },
    { what: 'the prefix alone', method: 'GET', path: '/api', status: 404 },
    { what: 'wrong method', method: 'DELETE', path: '/api/rest/v2/Events', status: 405 },
    { what: 'event id not an integer', method: 'GET', path: '/api/rest/v2/Events/abc', status: 400, names: 'eventId' },
    { what: 'basket id not a GUID', method: 'GET', path: '/api/rest/v2/Baskets/not-a-guid', status: 400, names: 'basketId' },
    { what: 'basket item id negative', method: 'DELETE', path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/BasketItem/-1', status: 400, names: 'basketItemId' },
    { what: 'required query missing', method: 'GET', path: '/api/rest/v2/Performances?dateFrom=2026-12-01', status: 400, names: 'dateTo' },
    { what: 'query of the wrong type', method: 'GET', path: '/api/rest/v2/Events?type=musical', status: 400, names: 'type' },
    {
      what: 'body sent as a form',
      method: 'POST',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/Tickets',
      status: 415,
      body: 'Tickets=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    },
    {
      // A cross-site page's "simple" request (no CORS preflight) carrying JSON as text/plain.
      what: 'JSON sent as text/plain',
      method: 'POST',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/Tickets',
      status: 415,
      body: '{"Tickets":[1]}',
      headers: { 'Content-Type': 'text/plain' },
    },
    {
      // A cross-site page's POST with no body needs no preflight either: the browser's Sec-Fetch-Site refuses it.
      what: 'a basket created from another site',
      method: 'POST',
      path: '/api/rest/v2/Baskets',
      status: 403,
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    },
    {
      // The same "simple" request from a browser that does not send Sec-Fetch-Site (or a page that strips it): Origin alone refuses it.
      what: 'a basket created from another site by a text/plain POST, no Sec-Fetch-Site',
      method: 'POST',
      path: '/api/rest/v2/Baskets',
      status: 403,
      body: 'x',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
    },
    {
      what: 'a basket item removed from another site, no Sec-Fetch-Site',
      method: 'DELETE',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/BasketItem/1',
      status: 403,
      headers: { Origin: 'https://evil.example' },
    },
    {
      // A sandboxed frame or a data: page: an opaque origin is never the proxy's own.
      what: 'a basket created from an opaque origin (Origin: null)',
      method: 'POST',
      path: '/api/rest/v2/Baskets',
      status: 403,
      headers: { Origin: 'null' },
    },
    {
      what: 'body labelled JSON that is not',
      method: 'POST',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/Tickets',
      status: 400,
      body: 'Tickets=1',
    },
    { what: 'body a JSON array', method: 'POST', path: '/api/rest/v2/Performances/7/SeatsSelectionValidation', status: 400, body: '[1,2]' },
    { what: 'body missing', method: 'POST', path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/SubmitOrder', status: 400 },
    {
      what: 'body over 32 KiB',
      method: 'POST',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/Tickets',
      status: 413,
      body: JSON.stringify({ Tickets: Array.from({ length: 6000 }, (_, i) => 100000 + i) }),
    },
    {
      what: 'SubmitOrderOnAccount while disabled',
      method: 'POST',
      path: '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/SubmitOrderOnAccount',
      status: 403,
      body: '{"BasketId":"3f2504e0-4f89-41d3-9a0c-0305e82c3301"}',
    },
  ];
  for (const c of cases) {
    test(`${c.what}: ${c.status}`, async () => {
      let answer = { status: 0, text: '', headers: new Headers() };
      const seen = await upstreamSees(async () => {
        answer = await api.call(c.method, c.path, { body: c.body, headers: c.headers ?? { 'Content-Type': 'application/json' } });
      });
      assert.equal(answer.status, c.status, answer.text);
      assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      const message = messageOf(answer.text);
      if (c.names) assert.match(message, new RegExp(`'${c.names}'`));
      assert.equal(seen.length, 0);
    });
  }

  test('405 names the allowed method', async () => {
    const answer = await api.call('POST', '/api/rest/v2/Events');
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'GET');
  });

  test('a body over the limit sent without Content-Length (chunked) is 413 too', async () => {
    const chunk = new TextEncoder().encode(`{"Tickets":[${'1,'.repeat(20_000)}1]}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk.slice(0, 10_000));
        controller.enqueue(chunk.slice(10_000));
        controller.close();
      },
    });
    const seen = await upstreamSees(async () => {
      const response = await fetch(`${proxyServer.url}/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/Tickets`, {
        method: 'POST',
        body: stream,
        headers: { 'Content-Type': 'application/json' },
        duplex: 'half',
      } as RequestInit);
      const text = await response.text();
      answers.push({ status: response.status, headers: response.headers, text });
      assert.equal(response.status, 413);
      assert.match(messageOf(text), /32768 bytes/);
    });
    assert.equal(seen.length, 0);
  });
});

describe('CORS', () => {
  const cors = () => client(corsServer.url, answers);

  test('an allowed origin gets Access-Control-Allow-Origin and Date exposed', async () => {
    const answer = await cors().call('GET', '/api/rest/v2/Events', { headers: { Origin: THEATRE } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), THEATRE);
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /\bDate\b/);
    assert.match(answer.headers.get('vary') ?? '', /Origin/);
  });

  test('an allowed origin passes the preflight for a JSON POST', async () => {
    const answer = await cors().call('OPTIONS', '/api/rest/v2/Baskets', {
      headers: { Origin: THEATRE, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('access-control-allow-origin'), THEATRE);
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
  });

  test('another origin gets no CORS headers, and its preflight is refused', async () => {
    const get = await cors().call('GET', '/api/rest/v2/Events', { headers: { Origin: 'https://evil.example' } });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
    assert.match(get.headers.get('vary') ?? '', /Origin/);
    const preflight = await cors().call('OPTIONS', '/api/rest/v2/Baskets', {
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    messageOf(preflight.text);
  });

  test('a state change from the proxy’s own origin (the page it is served to) is forwarded, with or without Sec-Fetch-Site', async () => {
    const own = new URL(proxyServer.url).origin;
    for (const headers of [{ Origin: own }, { Origin: own, 'Sec-Fetch-Site': 'same-origin' }] as Record<string, string>[]) {
      const seen = await upstreamSees(async () => assert.equal((await api.call('POST', '/api/rest/v2/Baskets', { headers })).status, 200));
      assert.equal(seen.length, 1);
    }
    // Behind a TLS terminator that does not pass the Host on, the browser's own word that the page is same-origin counts.
    const behind = await api.call('POST', '/api/rest/v2/Baskets', { headers: { Origin: THEATRE, 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(behind.status, 200, behind.text);
  });

  test('a state change from an allowed origin is forwarded; from another, or its own host under another site, is 403', async () => {
    const allowed = await cors().call('POST', '/api/rest/v2/Baskets', { headers: { Origin: THEATRE } });
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.headers.get('access-control-allow-origin'), THEATRE);
    const other = await cors().call('POST', '/api/rest/v2/Baskets', { headers: { Origin: 'https://theatre.example.evil.example' } });
    assert.equal(other.status, 403);
    assert.match(messageOf(other.text), /not allowed/);
    const own = new URL(corsServer.url).origin;
    const crossSite = await cors().call('POST', '/api/rest/v2/Baskets', { headers: { Origin: own, 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
  });

  test('with no origins configured (the default) no origin is allowed', async () => {
    const get = await api.call('GET', '/api/rest/v2/Events', { headers: { Origin: THEATRE } });
    assert.equal(get.headers.get('access-control-allow-origin'), null);
    const preflight = await api.call('OPTIONS', '/api/rest/v2/Baskets', {
      headers: { Origin: THEATRE, 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  });
});

describe('the key stays inside', () => {
  test('an upstream that echoes the key in a body or header does not leak it', async () => {
    const echo = await listen((request) =>
      Response.json(
        { Message: `Invalid key ${request.headers.get('api-key') ?? ''}` },
        { status: 401, headers: { 'X-Echo-Key': request.headers.get('api-key') ?? '', 'Set-Cookie': `k=${request.headers.get('api-key') ?? ''}` } },
      ),
    );
    try {
      const proxy = await listen(createProxy({ upstream: echo.url, apiKey: KEY, log: sink.log }).fetch);
      try {
        const answer = await client(proxy.url, answers).call('GET', '/api/rest/v2/Venues');
        assert.equal(answer.status, 401);
        assert.match(messageOf(answer.text), /\[redacted\]/);
      } finally {
        await proxy.close();
      }
    } finally {
      await echo.close();
    }
  });

  test('an upstream that echoes the key JSON-escaped (slash and plus escaped, or every character as a \\u escape) does not leak it either', async () => {
    const key = `sk/live+${crypto.randomUUID()}/x+y`;
    const escaped = (slash: string, plus: string) => key.replaceAll('/', slash).replaceAll('+', plus);
    const everyChar = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const echo = await listen(
      () =>
        new Response(
          `{"Message":"Invalid key ${escaped('\\/', '\\u002B')}","Lower":"${escaped('/', '\\u002b')}","Each":"${everyChar}","Plain":"${key}"}`,
          { status: 401, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    try {
      const proxy = await listen(createProxy({ upstream: echo.url, apiKey: key, log: false }).fetch);
      try {
        const answer = await client(proxy.url, answers).call('GET', '/api/rest/v2/Venues');
        assert.equal(answer.status, 401);
        const body = JSON.parse(answer.text) as Record<string, string>;
        assert.deepEqual(body, { Message: 'Invalid key [redacted]', Lower: '[redacted]', Each: '[redacted]', Plain: '[redacted]' });
        assert.ok(!answer.text.includes(key) && !answer.text.includes(key.slice(3, -3)), answer.text);
      } finally {
        await proxy.close();
      }
    } finally {
      await echo.close();
    }
  });

  test('order bodies never reach the log', async () => {
    const email = `guest-${crypto.randomUUID()}@example.com`;
    await api.call('POST', '/api/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/SubmitOrder', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ Email: email, Name: 'Ada', LastName: 'Lovelace', Phone: '+44 20 7946 0000' }),
    });
    const last = sink.entries.at(-1);
    assert.equal(last?.operation, 'submitOrder');
    assert.equal(last?.status, 200);
    for (const line of sink.lines) {
      assert.ok(!line.includes(email) && !line.includes('Lovelace') && !line.includes('7946'), line);
    }
  });

  test('one log entry per request: operation, status, duration, cache', async () => {
    const count = sink.entries.length;
    await api.call('GET', '/api/rest/v2/Events/12');
    await api.call('GET', '/api/rest/v2/Nope');
    const [detail, unknown] = sink.entries.slice(count);
    assert.equal(sink.entries.length, count + 2);
    assert.equal(detail?.operation, 'getEvent');
    assert.equal(detail?.status, 200);
    assert.equal(detail?.upstreamStatus, 200);
    assert.equal(detail?.cache, 'miss');
    assert.ok(typeof detail?.durationMs === 'number' && detail.durationMs >= 0);
    assert.equal(unknown?.operation, null);
    assert.equal(unknown?.status, 404);
  });

  test('configuration mistakes are refused at creation, naming the option', () => {
    const base = { upstream: 'http://127.0.0.1:9', apiKey: KEY };
    assert.throws(() => createProxy({ ...base, upstream: 'ftp://example.com' }), /http or https/);
    assert.throws(() => createProxy({ ...base, allowedOrigins: ['theatre.example'] }), /not a URL/);
    assert.throws(() => createProxy({ ...base, prefix: 'api' }), /must start with/);
    assert.throws(() => createProxy({ ...base, timeoutMs: 0 }), /timeoutMs/);
    assert.throws(() => createProxy({ ...base, cacheTtlSeconds: { catalogue: -1 } }), /cacheTtlSeconds.catalogue/);
    assert.throws(() => createProxy({ ...base, rateLimit: { addTickets: { limit: 0, windowMs: 1000 } } }), /rateLimit.addTickets.limit/);
  });

  test('a key a header cannot carry is refused at creation, without quoting it', () => {
    for (const bad of ['line\nbreak', ' padded ', 'clé-non-ascii']) {
      assert.throws(
        () => createProxy({ upstream: 'http://127.0.0.1:9', apiKey: bad }),
        (error: Error) => /printable ASCII/.test(error.message) && !error.message.includes(bad),
      );
    }
  });

  test('the key appears in no answer header or body and no log line of this file', () => {
    assert.ok(answers.length > 50, `scanned ${answers.length} answers`);
    assert.ok(sink.lines.length > 50, `scanned ${sink.lines.length} log lines`);
    for (const answer of answers) {
      assert.ok(!answer.text.includes(KEY), answer.text);
      for (const [name, value] of answer.headers) assert.ok(!value.includes(KEY), `header ${name}`);
    }
    for (const line of sink.lines) assert.ok(!line.includes(KEY), line);
  });
});
