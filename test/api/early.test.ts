/**
 * The page's first lookup sent early (src/api/early.ts): the loader starts GET
 * Events, the api client takes that request over instead of sending its own.
 * Over a loopback socket, counting what the server receives.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { claimEarly, startEarly } from '../../src/api/early.ts';
import { EVENTS_PATH } from '../../src/api/early-list.ts';
import { EVENTS_PATH as BUILD_EVENTS_PATH } from '../../scripts/build.mjs';
import { operations } from '../../src/api/operations.ts';

describe('the early list of events', () => {
  let server: Server;
  let origin = '';
  const seen: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ Events: [{ EventId: seen.length, Name: `Answer ${seen.length}` }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('asks for the path the client asks for', () => {
    assert.equal(EVENTS_PATH, operations.getEvents.path);
    assert.equal(BUILD_EVENTS_PATH, EVENTS_PATH, 'the hint the build writes for hosts (scripts/build.mjs preloadLinks)');
  });

  test('the client takes the early request over: one request, its answer', async () => {
    seen.length = 0;
    startEarly(`${origin}/api${EVENTS_PATH}`);
    const api = createApiClient({ endpoint: `${origin}/api` });
    const { Events } = await api.getEvents();
    assert.deepEqual(seen, ['/api/rest/v2/Events']);
    assert.equal(Events[0]?.Name, 'Answer 1');
    // Taken once: the next call asks anew.
    await api.getEvents();
    assert.deepEqual(seen, ['/api/rest/v2/Events', '/api/rest/v2/Events']);
  });

  test('other arguments, another endpoint, or a client with its own fetch take nothing', async () => {
    seen.length = 0;
    startEarly(`${origin}/api${EVENTS_PATH}?type=2`);
    await createApiClient({ endpoint: `${origin}/api` }).getEvents();
    await createApiClient({ endpoint: `${origin}/other` }).getEvents({ type: 2 });
    await createApiClient({ endpoint: `${origin}/api`, fetch: (input, init) => fetch(input, init) }).getEvents({ type: 2 });
    assert.deepEqual(seen.sort(), ['/api/rest/v2/Events', '/api/rest/v2/Events?type=2', '/api/rest/v2/Events?type=2', '/other/rest/v2/Events?type=2']);
    // Still there for the client it was meant for.
    assert.ok(claimEarly(`${origin}/api${EVENTS_PATH}?type=2`));
  });

  test("the caller's abort ends the wait for a request taken over, while the service has not answered", { timeout: 10_000 }, async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = createServer((req, res) => {
      void held.then(() => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ Events: [] }));
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      startEarly(`${base}/api${EVENTS_PATH}`);
      const controller = new AbortController();
      const call = createApiClient({ endpoint: `${base}/api` }).getEvents({}, { signal: controller.signal });
      controller.abort();
      await assert.rejects(call, { name: 'AbortError' });
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  test('an early request that could not connect is sent again by the client', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    startEarly(`http://127.0.0.1:${port}/api${EVENTS_PATH}`);
    // The client, pointed at the same URL, meets the failure as its own (a network error), not a hang.
    await assert.rejects(createApiClient({ endpoint: `http://127.0.0.1:${port}/api` }).getEvents(), { name: 'NetworkError' });
    // And where the service answers, it gets the answer.
    seen.length = 0;
    startEarly(`${origin}/api${EVENTS_PATH}`);
    assert.equal((await createApiClient({ endpoint: `${origin}/api` }).getEvents()).Events.length, 1);
    assert.equal(seen.length, 1);
  });
});
