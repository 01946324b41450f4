/**
 * `stagedoor proxy` stopping for a deploy (SIGTERM), as a child process: the
 * request in flight finishes, new ones get 503 with Retry-After, and the
 * process exits, at the latest after --drain-timeout-ms.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stagedoor } from './cli-helpers.ts';
import { listen, messageOf } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const BASKET = '/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301';

/** A service whose basket reads wait until the test lets them go. */
async function slowService() {
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived = () => undefined as void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const server = await listen(async (request) => {
    if (new URL(request.url).pathname === BASKET) {
      arrived();
      await gate;
    }
    return Response.json({ BasketId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', Items: [] });
  });
  return { ...server, release, reached };
}

describe('stagedoor proxy on SIGTERM', () => {
  test('lets the request in flight finish, answers new ones 503 with Retry-After, then exits 0', async () => {
    const service = await slowService();
    const cli = stagedoor(['proxy', '--upstream', service.url, '--port', '0'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);
      const inFlight = fetch(`${base}${BASKET}`).then(async (r) => ({ status: r.status, text: await r.text() }));
      await service.reached;
      assert.ok(cli.child.pid);
      process.kill(cli.child.pid, 'SIGTERM');
      await cli.line(/SIGTERM: draining 1 request/, 10_000, 'stderr');

      const refused = await fetch(`${base}/rest/v2/Events`);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '2');
      assert.equal(refused.headers.get('connection'), 'close');
      assert.match(messageOf(await refused.text()), /shutting down/);
      const ready = await fetch(`${(base ?? '').replace(/\/api$/, '')}/readyz`);
      assert.equal(ready.status, 503, 'a load balancer sees it is not ready');
      await ready.arrayBuffer();

      service.release();
      const finished = await inFlight;
      assert.equal(finished.status, 200, finished.text);
      assert.deepEqual(JSON.parse(finished.text), { BasketId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', Items: [] });
      assert.equal(await cli.exited, 0);
      assert.match(cli.stderr(), /drained; exiting/);
    } finally {
      service.release();
      await cli.stop();
      await service.close();
    }
  });

  test('exits at the latest after --drain-timeout-ms, cutting off what is still in flight (status 1)', async () => {
    const service = await slowService();
    const cli = stagedoor(['proxy', '--upstream', service.url, '--port', '0', '--drain-timeout-ms', '300'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);
      const inFlight = fetch(`${base}${BASKET}`).then(
        (r) => r.status,
        () => 'cut off',
      );
      await service.reached;
      assert.ok(cli.child.pid);
      process.kill(cli.child.pid, 'SIGTERM');
      assert.equal(await cli.exited, 1);
      assert.equal(await inFlight, 'cut off');
      assert.match(cli.stderr(), /drain time over/);
    } finally {
      service.release();
      await cli.stop();
      await service.close();
    }
  });
});
