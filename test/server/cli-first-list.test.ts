/**
 * `stagedoor first-list`: the block a host prints into its page for the widget's first cards
 * (src/server/first-list.ts), and with `--cards` the cards themselves (src/server/first-cards.ts), read through the real proxy and sandbox on 127.0.0.1, the command
 * run as a child process as a host's build step runs it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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

  test('--cards: the first cards in the page\'s language before the block, to print inside <event-list>', async () => {
    const page = 'https://theatre.example/whats-on?season=2026';
    const cli = stagedoor(['first-list', '--proxy', `${site.url}/api`, '--endpoint', '/api', '--cards', '--lang', 'de', '--currency', 'eur', '--page', page]);
    assert.equal(await cli.exited, 0, cli.stderr());
    const out = cli.stdout();
    const m = /^(<template shadowrootmode="open">.*<\/template>)(<script .*)$/s.exec(out);
    assert.ok(m, `the cards, then the block: ${out.slice(0, 200)}`);
    const [, cards = '', block = ''] = m;
    const { Events } = (await (await fetch(`${site.url}/api/rest/v2/Events`)).json()) as { Events: { EventId: number; Name: string; EventMinimumPrice: number }[] };
    assert.deepEqual(JSON.parse(read(block).text), { Events });
    // One card per event, in the list's order, each linking to the page with its id.
    assert.deepEqual([...cards.matchAll(/data-event-id="(\d+)"/g)].map((c) => Number(c[1])), Events.map((e) => e.EventId));
    for (const e of Events) assert.ok(cards.includes(`href="${page}&amp;stagedoor-event=${e.EventId}"`), `the link of ${e.EventId}`);
    // German text and euros as a German page writes them; the element's styles with them.
    assert.match(cards, /aria-label="Veranstaltungen"/);
    const first = Events.find((e) => e.EventMinimumPrice > 0);
    assert.ok(first);
    const euros = new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(first.EventMinimumPrice);
    assert.ok(cards.includes(`Ab ${euros}`), `a price in German: Ab ${euros}`);
    assert.match(cards, /<style>:host\{/);
    assert.doesNotMatch(cards.replace(/<\/template>$/, ''), /<\/template>|<script/i, 'nothing in the cards closes their template or runs');
  });

  test('--cards: links to the host\'s show pages, and relative links to the page when its address is not given', async () => {
    const shows = stagedoor(['first-list', '--proxy', `${site.url}/api`, '--cards', '--event-href', '/shows/{EventId}']);
    assert.equal(await shows.exited, 0, shows.stderr());
    assert.match(shows.stdout(), /href="\/shows\/\d+" data-event-id=/);
    const here = stagedoor(['first-list', '--proxy', `${site.url}/api`, '--cards', '--event-param', 'show']);
    assert.equal(await here.exited, 0, here.stderr());
    assert.match(here.stdout(), /href="\?show=\d+" data-event-id=/);
  });

  test("--style-hash: the cards' <style> as a Content-Security-Policy source", async () => {
    const hash = stagedoor(['first-list', '--style-hash']);
    assert.equal(await hash.exited, 0, hash.stderr());
    const cards = stagedoor(['first-list', '--proxy', `${site.url}/api`, '--cards', '--lang', 'fr']);
    assert.equal(await cards.exited, 0, cards.stderr());
    const style = /<style>(.*?)<\/style>/s.exec(cards.stdout())?.[1] ?? '';
    assert.ok(style.length > 1000, 'the cards carry their styles');
    assert.equal(hash.stdout(), `'sha256-${createHash('sha256').update(style).digest('base64')}'\n`);
  });

  test('says what is wrong, and prints no block', async () => {
    const cases: [string[], number, RegExp][] = [
      [['first-list'], 2, /--proxy must be the proxy's address/],
      [['first-list', '--proxy', `${site.url}/api`, '--event-type', 'two'], 2, /--event-type must be a whole number/],
      [['first-list', '--proxy', site.url], 1, /answered 404 to GET .*\/rest\/v2\/Events/],
      [['first-list', '--proxy', 'http://127.0.0.1:9/api'], 1, /could not be reached/],
      [['first-list', '--proxy', `${site.url}/api`, '--lang', 'de'], 2, /--lang is an option of --cards/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--lang', 'not a tag!'], 2, /--lang must be a language tag/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--currency', 'pounds'], 2, /--currency must be an ISO 4217 code/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--event-href', '/shows/'], 2, /--event-href must be an address holding \{EventId\}/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--event-href', 'http://[/{EventId}'], 2, /--event-href must be an address holding \{EventId\}/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--page', 'theatre.example'], 2, /--page must be the page's address/],
      [['first-list', '--proxy', `${site.url}/api`, '--cards', '--page', 'http://[/'], 2, /--page must be the page's address/],
    ];
    for (const [args, code, said] of cases) {
      const cli = stagedoor(args);
      assert.equal(await cli.exited, code, args.join(' '));
      assert.match(cli.stderr(), said);
      assert.equal(cli.stdout(), '');
    }
  });
});
