/**
 * The payment page is no open redirect: the proxy forwards an order only when
 * its return addresses are on the site's own origin, an origin it allows by
 * CORS, or one the operator lists (`returnOrigins`, `--return-origin`); any
 * other is refused with 400 naming the field, and nothing reaches the service.
 * Over loopback sockets, the real proxy in front of the real sandbox, paying
 * on the sandbox's payment page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { createProxy, type ProxyOptions } from '../../src/server/proxy/index.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { findSeatPair, orderFor } from './booking-steps.ts';
import { stagedoor } from './cli-helpers.ts';
import { listen, messageOf, recording, stubService, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const SITE = 'https://theatre.example';
const PARTNER = 'https://partner.example';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
const sandbox = createSandbox({ clock, apiKeys: [KEY], onAccountEnabled: true });
const upstream = recording((request) => sandbox.fetch(request));
let sandboxServer: Listening;
const servers: Listening[] = [];

before(async () => {
  sandboxServer = await listen(upstream.fetch);
});

after(async () => {
  await Promise.all([...servers, sandboxServer].map((s) => s.close()));
});

async function proxyWith(options: Partial<ProxyOptions> = {}): Promise<Listening> {
  const server = await listen(createProxy({ upstream: sandboxServer.url, apiKey: KEY, allowOnAccount: true, rateLimit: false, cache: false, log: false, ...options }).fetch);
  servers.push(server);
  return server;
}

/** A basket holding two seats, made through the sandbox. */
async function basket(): Promise<string> {
  const api = createApiClient({ endpoint: sandboxServer.url, headers: { 'Api-Key': KEY } });
  const { tickets } = await findSeatPair(api);
  const { BasketId } = await api.createBasket();
  await api.addTickets({ basketId: BasketId, body: { Tickets: tickets } });
  return BasketId;
}

function submit(proxy: Listening, basketId: string, fields: Record<string, unknown>, operation = 'SubmitOrder') {
  return fetch(`${proxy.url}/api/rest/v2/Baskets/${basketId}/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...orderFor(basketId), ...fields }),
  });
}

/** Addresses a phishing page would use, each with the field it goes in. */
const HOSTILE: [string, Record<string, unknown>][] = [
  ['a foreign origin', { SuccessReturnUrl: 'https://evil.example/phish' }],
  ['a foreign origin on failure', { FailureReturnUrl: 'https://evil.example/phish' }],
  ['javascript:', { SuccessReturnUrl: 'javascript:alert(document.domain)' }],
  ['data:', { FailureReturnUrl: 'data:text/html,<script>alert(1)</script>' }],
  ['protocol-relative', { SuccessReturnUrl: '//evil.example/phish' }],
  ['a path alone', { SuccessReturnUrl: '/thanks' }],
  ['backslashes for slashes', { SuccessReturnUrl: 'https:\\\\evil.example\\phish' }],
  ['a slash and a backslash', { SuccessReturnUrl: 'https:/\\evil.example/phish' }],
  ['the site as a user name', { SuccessReturnUrl: `https://theatre.example@evil.example/phish` }],
  ['the site as a user name and password', { SuccessReturnUrl: `https://theatre.example:443@evil.example/phish` }],
  ['userinfo on the site itself', { SuccessReturnUrl: 'https://user:pw@theatre.example/ok' }],
  ['the site as a subdomain of another', { SuccessReturnUrl: 'https://theatre.example.evil.example/ok' }],
  ['another port of the site', { SuccessReturnUrl: 'https://theatre.example:8443/ok' }],
  ['plain http for an https origin', { SuccessReturnUrl: 'http://theatre.example/ok' }],
  ['a leading space', { SuccessReturnUrl: ' https://evil.example/phish' }],
  ['a tab inside', { SuccessReturnUrl: 'https://evil.exa\tmple/phish' }],
  ['ftp', { SuccessReturnUrl: 'ftp://theatre.example/ok' }],
  ['not a string', { SuccessReturnUrl: ['https://theatre.example/ok'] }],
  ['the field in another case (Json.NET binds it)', { successreturnurl: 'https://evil.example/phish' }],
];

describe('return addresses at the proxy', () => {
  test('hostile return addresses are refused with 400 naming the field, and nothing is forwarded', async () => {
    const proxy = await proxyWith({ allowedOrigins: [SITE], returnOrigins: [SITE] });
    const basketId = await basket();
    for (const [name, fields] of HOSTILE) {
      const before = upstream.received.length;
      const answer = await submit(proxy, basketId, fields);
      const text = await answer.text();
      assert.equal(answer.status, 400, `${name}: ${text}`);
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
      const field = Object.keys(fields)[0];
      // Named as the service binds it (SuccessReturnUrl, however the caller cased it).
      assert.match(messageOf(text), new RegExp(`^The field '${field}' must `, 'i'), name);
      assert.equal(upstream.received.length, before, `${name}: nothing reaches the service`);
    }
    // The basket is untouched: the widget's own order still goes through and pays back to the site.
    const accepted = await submit(proxy, basketId, {});
    assert.equal(accepted.status, 200, await accepted.clone().text());
    const { PaymentRedirectUrl } = (await accepted.json()) as { PaymentRedirectUrl: string };
    const paid = await fetch(PaymentRedirectUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), `${SITE}/ok`);
  });

  test("SubmitOrderOnAccount's ReturnUrl follows the same rule", async () => {
    const proxy = await proxyWith({ returnOrigins: [SITE] });
    const basketId = await basket();
    const { SuccessReturnUrl: _s, FailureReturnUrl: _f, ...order } = orderFor(basketId);
    const refused = await fetch(`${proxy.url}/api/rest/v2/Baskets/${basketId}/SubmitOrderOnAccount`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...order, ReturnUrl: 'https://evil.example/phish' }),
    });
    assert.equal(refused.status, 400);
    assert.match(messageOf(await refused.text()), /^The field 'ReturnUrl' must be on this site's own origin or an origin this proxy allows\.$/);
    const booked = await fetch(`${proxy.url}/api/rest/v2/Baskets/${basketId}/SubmitOrderOnAccount`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...order, ReturnUrl: `${SITE}/booked` }),
    });
    assert.equal(booked.status, 200, await booked.clone().text());
  });

  test('allowed: the CORS allowed origins (a WordPress on another origin), and the origins listed', async () => {
    const proxy = await proxyWith({ allowedOrigins: [PARTNER], returnOrigins: [SITE] });
    for (const origin of [PARTNER, SITE]) {
      const basketId = await basket();
      const answer = await submit(proxy, basketId, { SuccessReturnUrl: `${origin}/thank-you/?booking=1`, FailureReturnUrl: `${origin}/checkout/` });
      assert.equal(answer.status, 200, `${origin}: ${await answer.clone().text()}`);
    }
  });

  test("with no list, the site's own origin (the host the request came to, either scheme) and nothing else", async () => {
    const proxy = await proxyWith();
    const own = new URL(proxy.url).host; // 127.0.0.1:PORT
    for (const origin of [`http://${own}`, `https://${own}`]) {
      const basketId = await basket();
      const answer = await submit(proxy, basketId, { SuccessReturnUrl: `${origin}/ok`, FailureReturnUrl: `${origin}/ko` });
      assert.equal(answer.status, 200, `${origin}: ${await answer.clone().text()}`);
    }
    const basketId = await basket();
    const foreign = await submit(proxy, basketId, {});
    assert.equal(foreign.status, 400, 'https://theatre.example is not this proxy and not allowed');
    assert.match(messageOf(await foreign.text()), /^The field 'SuccessReturnUrl' must /);
  });

  test('once the operator lists origins, a Host header the caller writes counts no more', async () => {
    const proxy = await proxyWith({ returnOrigins: [SITE] });
    const basketId = await basket();
    const { port } = new URL(proxy.url);
    // A caller can send any Host: with a list, a return to "its own" host is refused.
    const answer = await fetch(`${proxy.url}/api/rest/v2/Baskets/${basketId}/SubmitOrder`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...orderFor(basketId), SuccessReturnUrl: `http://127.0.0.1:${port}/ok` }),
    });
    assert.equal(answer.status, 400);
  });

  test('a return origin that is not a URL is a configuration error', () => {
    assert.throws(() => createProxy({ upstream: sandboxServer.url, apiKey: KEY, returnOrigins: ['theatre.example'] }), /The return origin 'theatre.example' is not a URL/);
  });
});

describe('stagedoor proxy --return-origin', () => {
  test('accepts the listed origin and refuses another', async () => {
    const service = recording(stubService().fetch);
    const server = await listen(service.fetch);
    const cli = stagedoor(['proxy', '--upstream', server.url, '--port', '0', '--return-origin', SITE, '--access-log', 'off'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);
      const basketId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
      const send = (url: string) =>
        fetch(`${base}/rest/v2/Baskets/${basketId}/SubmitOrder`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...orderFor(basketId), SuccessReturnUrl: url }),
        });
      const good = await send(`${SITE}/ok`);
      assert.equal(good.status, 200, await good.clone().text());
      const bad = await send('https://evil.example/phish');
      assert.equal(bad.status, 400);
      assert.match(messageOf(await bad.text()), /'SuccessReturnUrl'/);
      assert.equal(service.received.length, 1, 'only the allowed order reached the service');
    } finally {
      await cli.stop();
      await server.close();
    }
  });
});
