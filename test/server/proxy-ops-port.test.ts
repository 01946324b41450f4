/**
 * `stagedoor proxy --ops-port`: the Prometheus metrics on a listener of their
 * own (loopback by default), never on the public port, while a load balancer
 * still probes /healthz and /readyz on the public port. A child process, as an
 * operator runs it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stagedoor } from './cli-helpers.ts';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { listen } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;

describe('stagedoor proxy --ops-port', () => {
  test('serves /metrics only on the operations port; /healthz and /readyz on both; nothing else there', async () => {
    const sandbox = createSandbox({ apiKeys: [KEY] });
    const service = await listen((request) => sandbox.fetch(request));
    const cli = stagedoor(['proxy', '--upstream', service.url, '--port', '0', '--ops-port', '0'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);
      const [, ops] = await cli.line(/^Stagedoor proxy operations: (http:\/\/127\.0\.0\.1:\d+)\/metrics/);
      const origin = (base ?? '').replace(/\/api$/, '');
      assert.notEqual(origin, ops, 'two listeners');

      const booked = await fetch(`${base}/rest/v2/Events`);
      assert.equal(booked.status, 200);
      await booked.arrayBuffer();

      const hidden = await fetch(`${origin}/metrics`);
      assert.equal(hidden.status, 404, 'no metrics on the public port');
      assert.doesNotMatch(await hidden.text(), /stagedoor_proxy_/);
      for (const path of ['/healthz', '/readyz']) {
        const publicAnswer = await fetch(`${origin}${path}`);
        assert.equal(publicAnswer.status, 200, `${path} on the public port`);
        await publicAnswer.arrayBuffer();
      }

      const metrics = await fetch(`${ops}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await metrics.text();
      assert.match(text, /stagedoor_proxy_requests_total\{operation="getEvents",status="200"\} 1/, 'the public request is counted');
      assert.ok(!text.includes(KEY), 'the key is never in the metrics');
      const ready = await fetch(`${ops}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { status: string }).status, 'ready');
      const alive = await fetch(`${ops}/healthz`);
      assert.deepEqual(await alive.json(), { status: 'alive' });

      const notProxied = await fetch(`${ops}/api/rest/v2/Events`);
      assert.equal(notProxied.status, 404, 'the operations port forwards nothing to the service');
      await notProxied.arrayBuffer();
    } finally {
      await cli.stop();
      await service.close();
    }
  });

  test('refuses an operations port that is not a port number', async () => {
    const cli = stagedoor(['proxy', '--upstream', 'http://127.0.0.1:9', '--ops-port', 'metrics'], { STAGEDOOR_API_KEY: KEY });
    try {
      assert.equal(await cli.exited, 2);
      assert.match(cli.stderr(), /--ops-port must be a port number/);
    } finally {
      await cli.stop();
    }
  });
});
