/**
 * The proxy mounted on the site's origin behind a front server (`/api` → the
 * proxy). A front that rewrites Host (nginx's default) makes the proxy see its
 * own address as the site: told to trust its front (`trustForwarded`,
 * `--trust-forwarded`), it takes the site's origin from Forwarded /
 * X-Forwarded-Host / X-Forwarded-Proto; not told, an order from the site's page
 * is refused with the customer's sentence (500 and a code the widget knows),
 * the operator's text goes to the proxy's log only, /readyz says
 * `orders: refused` as soon as a page of the site changes something, and the
 * start-up says so. Over loopback sockets: a request to the proxy's own port
 * carries its own address as Host, as behind nginx's default.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { createProxy, type ProxyOptions } from '../../src/server/proxy/index.ts';
import { createSandbox, ManualClock } from '../../src/server/sandbox/index.ts';
import { findSeatPair, orderFor, RETURN_ORIGIN as SITE } from './booking-steps.ts';
import { stagedoor } from './cli-helpers.ts';
import { listen, recording, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 10, 0, 0));
const sandbox = createSandbox({ clock, apiKeys: [KEY] });
const upstream = recording((request) => sandbox.fetch(request));
let sandboxServer: Listening;
const servers: Listening[] = [];
/** The browser's headers on a POST from a page of the site. */
const FROM_SITE = { Origin: SITE, 'Sec-Fetch-Site': 'same-origin', Referer: `${SITE}/whats-on/` };
const CUSTOMER = 'This site cannot take orders right now; nothing was charged.';

before(async () => {
  sandboxServer = await listen(upstream.fetch);
});
after(async () => {
  await Promise.all([...servers, sandboxServer].map((s) => s.close()));
});

async function proxyWith(options: Partial<ProxyOptions> = {}): Promise<{ server: Listening; warnings: string[] }> {
  const warnings: string[] = [];
  const proxy = createProxy({ upstream: sandboxServer.url, apiKey: KEY, rateLimit: false, cache: false, log: false, warn: (text) => warnings.push(text), ...options });
  const server = await listen(proxy.fetch);
  servers.push(server);
  return { server, warnings };
}

/** A basket holding two seats, made through the proxy as the site's page would. */
async function basket(proxy: Listening, headers: Record<string, string>): Promise<string> {
  const api = createApiClient({ endpoint: `${proxy.url}/api`, headers });
  const { tickets } = await findSeatPair(api);
  const { BasketId } = await api.createBasket();
  await api.addTickets({ basketId: BasketId, body: { Tickets: tickets } });
  return BasketId;
}

function submit(proxy: Listening, basketId: string, headers: Record<string, string>, fields: Record<string, unknown> = {}) {
  return fetch(`${proxy.url}/api/rest/v2/Baskets/${basketId}/SubmitOrder`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ ...orderFor(basketId), ...fields }),
  });
}

async function readyz(proxy: Listening): Promise<Record<string, unknown>> {
  const answer = await fetch(`${proxy.url}/readyz`);
  return (await answer.json()) as Record<string, unknown>;
}

const submitted = () => upstream.received.filter((r) => r.path.endsWith('/SubmitOrder')).length;

describe('behind a front server that rewrites Host, not trusted', () => {
  test("the site's order is refused with the customer's sentence, the operator's text is logged only, and the basket is kept", async () => {
    const { server, warnings } = await proxyWith();
    assert.equal((await readyz(server)).orders, 'unchecked', 'no page has called yet');
    const basketId = await basket(server, FROM_SITE);
    // Creating the basket (a POST from the site's page) already showed it.
    assert.equal((await readyz(server)).orders, 'refused');
    assert.equal((await readyz(server)).status, 'ready', 'browsing and baskets go on: the proxy stays in the balancer');
    assert.equal(warnings.length, 1, 'one warning when orders turn refused, not one per request');
    assert.match(warnings[0] ?? '', new RegExp(`orders from the page on ${SITE} would be refused.*Host header.*--trust-forwarded.*--return-origin`));

    const before = submitted();
    const answer = await submit(server, basketId, FROM_SITE);
    assert.equal(answer.status, 500);
    assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
    const text = await answer.text();
    assert.deepEqual(JSON.parse(text), { Message: CUSTOMER, Refusal: 'site-origin' });
    assert.doesNotMatch(text, /ReturnUrl|origin this proxy allows|127\.0\.0\.1/, "nothing of the operator's text reaches the customer");
    assert.equal(submitted(), before, 'nothing reached the service');
    const operator = warnings.find((w) => /an order from a page on/.test(w)) ?? '';
    assert.match(operator, new RegExp(`its SuccessReturnUrl is on ${SITE}, which is neither this site's own origin nor an origin this proxy allows`));
    assert.match(operator, /127\.0\.0\.1:\d+ \(http or https\) \(from the Host header\)/, 'the operator reads what the proxy took for its origin');
    assert.match(operator, /X-Forwarded-Host \$http_host.*--trust-forwarded/);

    // The basket is as it was: the same order, once the site is listed, goes through.
    const listed = await proxyWith({ returnOrigins: [SITE] });
    const taken = await submit(listed.server, basketId, FROM_SITE);
    assert.equal(taken.status, 200, await taken.clone().text());
    assert.equal((await readyz(listed.server)).orders, 'accepted');
  });

  test("a caller's bad return address (no page named) is still 400 naming the field", async () => {
    const { server, warnings } = await proxyWith();
    const basketId = await basket(server, {});
    const answer = await submit(server, basketId, {});
    assert.equal(answer.status, 400);
    assert.match(((await answer.json()) as { Message: string }).Message, /^The field 'SuccessReturnUrl' must be on this site's own origin/);
    assert.deepEqual(warnings, []);
    assert.equal((await readyz(server)).orders, 'unchecked');
  });

  test('the forwarded headers count for nothing while the front is not trusted', async () => {
    const { server } = await proxyWith();
    const basketId = await basket(server, {});
    const answer = await submit(server, basketId, { ...FROM_SITE, 'X-Forwarded-Host': 'theatre.example', 'X-Forwarded-Proto': 'https', Forwarded: 'host=theatre.example;proto=https' });
    assert.equal(answer.status, 500);
  });
});

describe('behind a trusted front server (trustForwarded)', () => {
  const ways: [string, Record<string, string>][] = [
    ['X-Forwarded-Host and X-Forwarded-Proto', { 'X-Forwarded-Host': 'theatre.example', 'X-Forwarded-Proto': 'https' }],
    ['X-Forwarded-Host alone (either scheme)', { 'X-Forwarded-Host': 'theatre.example' }],
    ["the scheme's default port written out (:443)", { 'X-Forwarded-Host': 'theatre.example:443', 'X-Forwarded-Proto': 'https' }],
    ['Forwarded (RFC 7239), quoted', { Forwarded: 'for=192.0.2.60;proto=https;host="theatre.example"' }],
    ["the rightmost entry: the nearest front's", { 'X-Forwarded-Host': 'evil.example, theatre.example', Forwarded: 'host=evil.example, for=192.0.2.1;host=theatre.example;proto=https' }],
  ];
  for (const [name, front] of ways) {
    test(`${name}: the site's order goes to payment and /readyz says orders: accepted`, async () => {
      const { server, warnings } = await proxyWith({ trustForwarded: true });
      const basketId = await basket(server, { ...FROM_SITE, ...front });
      const answer = await submit(server, basketId, { ...FROM_SITE, ...front });
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.match(((await answer.json()) as { PaymentRedirectUrl: string }).PaymentRedirectUrl, /\/sandbox\/pay\//);
      assert.equal((await readyz(server)).orders, 'accepted');
      assert.deepEqual(warnings, []);
    });
  }

  test('the scheme the front names counts, and a malformed host is ignored', async () => {
    const { server } = await proxyWith({ trustForwarded: true });
    const basketId = await basket(server, {});
    const http = await submit(server, basketId, { 'X-Forwarded-Host': 'theatre.example', 'X-Forwarded-Proto': 'http' });
    assert.equal(http.status, 400, 'https://theatre.example is not the http site the front names');
    const odd = await submit(server, basketId, { 'X-Forwarded-Host': 'theatre.example/evil' });
    assert.equal(odd.status, 400, 'a host with a path is no host: the Host header counts again');
    // A foreign origin stays refused whatever the front says.
    const foreign = await submit(server, basketId, { 'X-Forwarded-Host': 'theatre.example' }, { SuccessReturnUrl: 'https://evil.example/phish' });
    assert.equal(foreign.status, 400);
  });
});

describe('stagedoor proxy behind a front', () => {
  test('says at start-up that orders would be refused, and logs the refused order for the operator', async () => {
    const cli = stagedoor(['proxy', '--upstream', sandboxServer.url, '--port', '0', '--access-log', 'off'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+)\/api\//);
      await cli.line(/^Stagedoor proxy: orders may return to the Host each request names$/);
      await cli.line(/^stagedoor proxy: orders are taken only from pages on the Host each request names: behind a front server that rewrites Host .* every order is refused .*--trust-forwarded.*--return-origin/, 10_000, 'stderr');
      const server = { url: base ?? '' } as Listening;
      const basketId = await basket(server, FROM_SITE);
      const answer = await submit(server, basketId, FROM_SITE);
      assert.equal(answer.status, 500);
      await cli.line(/^stagedoor proxy: an order from a page on https:\/\/theatre\.example was refused: its SuccessReturnUrl/, 10_000, 'stderr');
      assert.doesNotMatch(cli.stdout(), /SuccessReturnUrl/, 'the operator text is not on the access log stream');
    } finally {
      await cli.stop();
    }
  });

  test('with --trust-forwarded, no warning, and the line says where orders may return', async () => {
    const cli = stagedoor(['proxy', '--upstream', sandboxServer.url, '--port', '0', '--trust-forwarded', '--allow-origin', 'https://partner.example', '--access-log', 'off'], { STAGEDOOR_API_KEY: KEY });
    try {
      await cli.line(/^Stagedoor proxy: orders may return to https:\/\/partner\.example, the site's origin the front server names \(Forwarded, X-Forwarded-Host\)$/);
      await cli.line(/^Stagedoor proxy: http/);
      assert.equal(cli.stderr(), '');
    } finally {
      await cli.stop();
    }
  });
});
