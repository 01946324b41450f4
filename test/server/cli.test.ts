/**
 * `stagedoor proxy` and the command line's refusals, run as child processes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stagedoor } from './cli-helpers.ts';
import { listen, recording, stubService } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;

describe('stagedoor proxy', () => {
  test('refuses to start without STAGEDOOR_API_KEY, saying where the key goes', async () => {
    const cli = stagedoor(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0'], { STAGEDOOR_API_KEY: '' });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /STAGEDOOR_API_KEY is not set/);
    assert.doesNotMatch(cli.stdout(), /Stagedoor proxy:/);
  });

  test('refuses a key on the command line', async () => {
    const cli = stagedoor(['proxy', '--upstream', 'http://127.0.0.1:9', '--api-key', 'abc'], { STAGEDOOR_API_KEY: KEY });
    assert.equal(await cli.exited, 2);
    assert.match(cli.stderr(), /never taken from the command line/);
  });

  test('refuses an upstream that is not a URL', async () => {
    const cli = stagedoor(['proxy', '--upstream', 'api.example.com', '--port', '0'], { STAGEDOOR_API_KEY: KEY });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /is not a URL/);
  });

  test('forwards with the key from the environment and logs one JSON line per request, without the key', async () => {
    const upstream = recording(stubService().fetch);
    const server = await listen(upstream.fetch);
    const cli = stagedoor(['proxy', '--upstream', server.url, '--port', '0', '--allow-origin', 'https://theatre.example'], { STAGEDOOR_API_KEY: KEY });
    try {
      const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api\/)/);
      const response = await fetch(`${base}rest/v2/Events?type=2`, { headers: { Origin: 'https://theatre.example' } });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.equal(response.headers.get('access-control-allow-origin'), 'https://theatre.example');
      assert.equal(upstream.received.length, 1);
      assert.equal(upstream.received[0]?.headers.get('api-key'), KEY);
      const logLine = (await cli.line(/^\{.*"operation":"getEvents"/)).input;
      const entry = JSON.parse(logLine) as { status: number; cache: string };
      assert.equal(entry.status, 200);
      assert.equal(entry.cache, 'miss');
      assert.ok(!cli.stdout().includes(KEY) && !cli.stderr().includes(KEY), 'the key is never printed');
    } finally {
      await cli.stop();
      await server.close();
    }
  });
});

describe('stagedoor proxy --access-log', () => {
  test('FILE: the JSON lines are appended to the file (none on stdout); off: no access log at all', async () => {
    const upstream = recording(stubService().fetch);
    const server = await listen(upstream.fetch);
    const dir = mkdtempSync(join(tmpdir(), 'stagedoor-log-'));
    const file = join(dir, 'access.log');
    writeFileSync(file, '{"earlier":"line"}\n');
    const toFile = stagedoor(['proxy', '--upstream', server.url, '--port', '0', '--access-log', file], { STAGEDOOR_API_KEY: KEY });
    const silent = stagedoor(['proxy', '--upstream', server.url, '--port', '0', '--access-log', 'off'], { STAGEDOOR_API_KEY: KEY });
    try {
      for (const cli of [toFile, silent]) {
        const [, base] = await cli.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api\/)/);
        assert.equal((await fetch(`${base}rest/v2/Venues`)).status, 200);
      }
      // A drained proxy has written every line it kept.
      await Promise.all([toFile.stop(), silent.stop()]);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      assert.equal(lines[0], '{"earlier":"line"}', 'appended, not overwritten');
      assert.equal((JSON.parse(lines[1] ?? '{}') as { operation?: string }).operation, 'getVenues');
      for (const cli of [toFile, silent]) assert.doesNotMatch(cli.stdout(), /"operation"/);
    } finally {
      await Promise.all([toFile.stop(), silent.stop()]);
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file it cannot write is a clear error at start', async () => {
    const cli = stagedoor(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0', '--access-log', '/nonexistent-dir/access.log'], { STAGEDOOR_API_KEY: KEY });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /--access-log: cannot write to \/nonexistent-dir\/access\.log/);
  });
});

describe('stagedoor (other commands)', () => {
  test('sandbox runs the sandbox server and prints its address', async () => {
    const cli = stagedoor(['sandbox', '--port', '0']);
    try {
      const [, base] = await cli.line(/^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//, 30_000);
      const response = await fetch(`${base}/rest/v2/System/EventTypes`, { headers: { 'Api-Key': 'any' } });
      assert.equal(response.status, 200);
      assert.ok(((await response.json()) as { EventTypes: unknown[] }).EventTypes.length > 0, 'event types listed');
      await cli.line(/a date-only dateTo covers its whole day/, 30_000);
    } finally {
      await cli.stop();
    }
  });

  test('sandbox --date-to-reading midnight starts and says which reading it takes', async () => {
    const cli = stagedoor(['sandbox', '--port', '0', '--date-to-reading', 'midnight']);
    try {
      const [, base] = await cli.line(/^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//, 30_000);
      await cli.line(/a date-only dateTo is 00:00 of that day/, 30_000);
      assert.equal((await fetch(`${base}/rest/v2/System/HeartBeat`, { headers: { 'Api-Key': 'any' } })).status, 200);
    } finally {
      await cli.stop();
    }
  });

  test('an unknown command prints the usage and exits 2', async () => {
    const cli = stagedoor(['launch']);
    assert.equal(await cli.exited, 2);
    assert.match(cli.stderr(), /Unknown command 'launch'/);
    assert.match(cli.stderr(), /stagedoor start/);
  });

  test('serve without built pages says to run npm run build', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'stagedoor-dist-'));
    const cli = stagedoor(['serve', '--dist', empty]);
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /run `npm run build` first/);
  });
});
