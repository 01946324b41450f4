/**
 * `stagedoor first-list`: the block a host prints into its page for the widget's first cards
 * (src/server/first-list.ts), read through the real proxy and sandbox on 127.0.0.1, the command
 * run as a child process as a host's build step runs it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDemoSite } from '../../src/server/demo-site.ts';
import { stagedoor } from './cli-helpers.ts';
import { listen, type Listening } from './proxy-helpers.ts';

describe('stagedoor first-list', () => {
  let site: Listening;

  before(async () => {
    let origin = '';
    let app: ReturnType<typeof createDemoSite>['app'] | undefined;
    site = await listen((request) => (app ??= createDemoSite({ origin, log: false }).app).fetch(request));
    origin = site.url;
  });
  after(() => site.close());

  /** The block's attributes and its text. */
  const read = (out: string) => {
    const m = /^<script type="application\/json" id="stagedoor-first-list" ([^>]*)>(.*)<\/script>\n$/s.exec(out);
    assert.ok(m, `one block on stdout: ${out.slice(0, 200)}`);
    return { data: Object.fromEntries([...(m[1] ?? '').matchAll(/data-([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])), text: m[2] ?? '' };
  };

  test('prints the list as the proxy answers it, for the endpoint the page asks, with when and for how long', async () => {
    const cli = stagedoor(['first-list', '--proxy', `${site.url}/api`, '--endpoint', '/api']);
    assert.equal(await cli.exited, 0, cli.stderr());
    const { data, text } = read(cli.stdout());
    const answer = await (await fetch(`${site.url}/api/rest/v2/Events`)).text();
    assert.deepEqual(JSON.parse(text), JSON.parse(answer));
    assert.match(answer, /</, 'the service sends HTML in its descriptions');
    assert.doesNotMatch(text, /</, 'nothing in the block can close its script element');
    assert.equal(data.endpoint, '/api');
    assert.equal(data['max-age'], '300');
    assert.equal(data['event-type'], undefined);
    assert.match(data['fetched-at'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(Math.abs(Date.parse(data['fetched-at'] ?? '') - Date.now()) < 60_000);
  });

  test('one event type, the endpoint defaulting to the proxy', async () => {
    const cli = stagedoor(['first-list', '--proxy', `${site.url}/api/`, '--event-type', '2']);
    assert.equal(await cli.exited, 0, cli.stderr());
    const { data, text } = read(cli.stdout());
    assert.equal(data.endpoint, `${site.url}/api`);
    assert.equal(data['event-type'], '2');
    assert.deepEqual(JSON.parse(text), await (await fetch(`${site.url}/api/rest/v2/Events?type=2`)).json());
  });

  test('says what is wrong, and prints no block', async () => {
    const cases: [string[], number, RegExp][] = [
      [['first-list'], 2, /--proxy must be the proxy's address/],
      [['first-list', '--proxy', `${site.url}/api`, '--event-type', 'two'], 2, /--event-type must be a whole number/],
      [['first-list', '--proxy', site.url], 1, /answered 404 to GET .*\/rest\/v2\/Events/],
      [['first-list', '--proxy', 'http://127.0.0.1:9/api'], 1, /could not be reached/],
    ];
    for (const [args, code, said] of cases) {
      const cli = stagedoor(args);
      assert.equal(await cli.exited, code, args.join(' '));
      assert.match(cli.stderr(), said);
      assert.equal(cli.stdout(), '');
    }
  });
});
