/** `stagedoor sandbox`: argument parsing, and the server answering on a loopback socket. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSandboxArgs, startSandboxServer } from '../../src/server/sandbox/serve.ts';

test('parses the documented options, defaults to 127.0.0.1:8787, refuses bad numbers with a message', () => {
  const defaults = parseSandboxArgs([]);
  assert.notEqual(defaults, 'help');
  if (defaults === 'help') return;
  assert.equal(defaults.port, 8787);
  assert.equal(defaults.host, '127.0.0.1');
  assert.deepEqual(defaults.options, { seed: 1, reservationMinutes: 10, paymentMinutes: 20, onAccountEnabled: false });
  const custom = parseSandboxArgs(['--port', '9000', '--seed', '4', '--reservation-minutes', '2', '--payment-minutes', '3', '--api-key', 'a', '--api-key', 'b', '--on-account']);
  assert.notEqual(custom, 'help');
  if (custom === 'help') return;
  assert.equal(custom.port, 9000);
  assert.deepEqual(custom.options, { seed: 4, reservationMinutes: 2, paymentMinutes: 3, onAccountEnabled: true, apiKeys: ['a', 'b'] });
  assert.equal(parseSandboxArgs(['--help']), 'help');
  assert.throws(() => parseSandboxArgs(['--port', 'eighty']), /--port must be an integer/);
  assert.throws(() => parseSandboxArgs(['--reservation-minutes', '0']), /--reservation-minutes/);
  assert.throws(() => parseSandboxArgs(['--catalogue', '/nonexistent/catalogue.json']), /Cannot read the catalogue/);
  assert.throws(() => parseSandboxArgs(['--colour', 'red']), /Unknown option/);
  const midnight = parseSandboxArgs(['--date-to-reading', 'midnight']);
  assert.ok(midnight !== 'help' && midnight.options.dateToReading === 'midnight');
  assert.throws(() => parseSandboxArgs(['--date-to-reading', 'inclusive']), /--date-to-reading must be 'whole-day' or 'midnight'/);
});

test('serves the interface on a loopback socket', async () => {
  const running = await startSandboxServer({ port: 0, host: '127.0.0.1', options: { seed: 2 } });
  try {
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${running.url}/rest/v2/System/HeartBeat`, { headers: { 'Api-Key': 'k' } });
    assert.equal(ok.status, 200);
    assert.equal(await ok.json(), true);
    assert.ok(ok.headers.get('Date'));
    const basket = await fetch(`${running.url}/rest/v2/Baskets`, { method: 'POST', headers: { 'Api-Key': 'k' } });
    assert.equal(basket.status, 201, "Create Basket answers 201 Created");
    assert.equal((await fetch(`${running.url}/rest/v2/Events`)).status, 401);
  } finally {
    await running.close();
  }
});
