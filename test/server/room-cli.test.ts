/**
 * `stagedoor room ...` against a running `stagedoor proxy` (child processes, the sandbox as its
 * upstream on a loopback port): open, status, rate, pause, resume, close, and the clear errors
 * for bad input, a wrong secret and a secret on the command line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSandbox } from '../../src/server/sandbox/index.ts';
import { stagedoor, type Running } from './cli-helpers.ts';
import { listen, type Listening } from './proxy-helpers.ts';

const KEY = `sk-test-${crypto.randomUUID()}`;
const ROOM_SECRET = `room-${crypto.randomUUID()}-${crypto.randomUUID()}`;
const ADMIN_SECRET = `admin-${crypto.randomUUID()}`;

let service: Listening;
let proxy: Running;
let origin = '';

before(async () => {
  const sandbox = createSandbox({ apiKeys: [KEY] });
  service = await listen((request) => sandbox.fetch(request));
  proxy = stagedoor(['proxy', '--upstream', service.url, '--port', '0', '--access-log', 'off'], {
    STAGEDOOR_API_KEY: KEY,
    STAGEDOOR_ROOM_SECRET: ROOM_SECRET,
    STAGEDOOR_ROOM_ADMIN_SECRET: ADMIN_SECRET,
  });
  const [, url] = await proxy.line(/^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+)\/api\//);
  origin = url ?? '';
  await proxy.line(/waiting rooms on \(stagedoor room/);
});

after(async () => {
  await proxy.stop();
  await service.close();
});

async function room(args: string[], secret = ADMIN_SECRET) {
  const cli = stagedoor(['room', ...args, '--proxy', origin], { STAGEDOOR_ROOM_ADMIN_SECRET: secret });
  const code = await cli.exited;
  return { code, out: cli.stdout().trim(), err: cli.stderr().trim() };
}

describe('stagedoor room', () => {
  test('open, status, rate, pause, resume, close: each says what the room is now', async () => {
    const opened = await room(['open', 'hot-show', '--performance', '1001', '--at', '2026-12-01T10:00:00Z', '--rate', '500', '--max-active', '2000', '--pass', '15m', '--keep', '2m']);
    assert.equal(opened.code, 0, opened.err);
    assert.equal(opened.out, 'hot-show  open  performance 1001  opens 2026-12-01T10:00:00.000Z  rate 500/min  max active 2000');
    assert.match((await room(['rate', 'hot-show', '750'])).out, /rate 750\/min/);
    assert.match((await room(['pause', 'hot-show'])).out, /^hot-show {2}paused /);
    assert.match((await room(['resume', 'hot-show'])).out, /^hot-show {2}open /);
    const status = await room(['status']);
    assert.equal(status.out, 'hot-show  open  performance 1001  opens 2026-12-01T10:00:00.000Z  rate 750/min  max active 2000  waiting 0  admitted 0  active 0  last minute 0');
    assert.equal((await room(['close', 'hot-show'])).out, 'hot-show: closed');
    assert.equal((await room(['status'])).out, 'No waiting room is open.');
  });

  test('a visitor joins the room the CLI opened, through the running proxy (its queue id read from Node\'s headers)', async () => {
    assert.equal((await room(['open', 'join-me', '--performance', '1001', '--at', '2026-11-01T10:00:00Z', '--rate', '60'])).code, 0);
    const join = () =>
      fetch(`${origin}/api/stagedoor/room/join-me`, { method: 'POST', headers: { 'content-type': 'application/json', 'Stagedoor-Queue-Id': 'visitor-1' }, body: '{}' });
    const first = await join();
    const body = (await first.json()) as { status: string; position: number | null };
    assert.equal(first.status, 200, JSON.stringify(body));
    assert.ok(body.status === 'waiting' || body.status === 'admitted', body.status);
    const noId = await fetch(`${origin}/api/stagedoor/room/join-me`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(noId.status, 400);
    assert.equal((await room(['close', 'join-me'])).code, 0);
  });

  test('clear errors: bad input, no such room, a wrong secret, a secret in argv', async () => {
    const noScope = await room(['open', 'x', '--rate', '5']);
    assert.equal(noScope.code, 2);
    assert.match(noScope.err, /exactly one of --site, --event N, --performance N/);
    const badAt = await room(['open', 'x', '--site', '--rate', '5', '--at', 'tomorrow']);
    assert.equal(badAt.code, 2);
    assert.match(badAt.err, /--at must be an ISO instant/);
    const badId = await room(['open', 'Bad_Id', '--site', '--rate', '5']);
    assert.equal(badId.code, 1);
    assert.match(badId.err, /A room id is 1 to 40 of a-z/);
    const none = await room(['pause', 'nope']);
    assert.equal(none.code, 1);
    assert.match(none.err, /There is no waiting room 'nope'. \(HTTP 404\)/);
    const wrong = await room(['status'], 'not-the-secret');
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /Authorization: Bearer .* \(HTTP 401\)/);
    const argv = await room(['status', '--secret', ADMIN_SECRET]);
    assert.equal(argv.code, 2);
    assert.match(argv.err, /never taken from the command line/);
  });
});
