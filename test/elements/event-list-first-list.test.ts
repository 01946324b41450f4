/**
 * The first list in the page itself (src/state/first-list.ts): a page whose server printed the
 * list of events' answer into its HTML (`<script type="application/json" id="stagedoor-first-list">`)
 * shows the first card from it with no request to the list's endpoint; a block past its cache
 * life is shown, then replaced by the service's answer, asked for at once; a broken or foreign
 * block is ignored and the list asked for. What the loader runs at start (`startList`,
 * src/api/early.ts), the real element and api client, the real proxy and sandbox behind a front
 * server on 127.0.0.1 (helpers/lossy-front.ts); requests counted at the page's fetch, the clock faked.
 */
import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import type { EventInfo } from '../../src/api/types.ts';
import { claimEarly } from '../../src/api/early.ts';
import { EVENTS_PATH, FIRST_LIST_ID, startList } from '../../src/api/early-list.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { startLossyFront, type LossyFront } from './helpers/lossy-front.ts';
import { waitUntil } from './helpers/wait.ts';

const NOW = Date.parse('2026-11-29T10:00:00Z');
/** A name no service gives, which a visitor must see as text. */
const PRINTED = '<b>Printed</b> by the page';

describe('<event-list> from the list printed into the page', () => {
  let front: LossyFront;
  let answer: { Events: EventInfo[] };
  let listUrl = '';
  let asked: string[];
  let release: () => void;
  let box: HTMLElement | undefined;

  before(async () => {
    front = await startLossyFront();
    listUrl = `${front.endpoint}${EVENTS_PATH}`;
    answer = (await (await fetch(listUrl)).json()) as { Events: EventInfo[] };
  });
  after(() => front.stop());

  beforeEach(() => {
    asked = [];
    // Every request the page makes, counted; the network's answers held until the test releases them.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    release = open;
    const real = window.fetch.bind(window);
    sinon.stub(window, 'fetch').callsFake(async (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(String(input instanceof Request ? input.url : input));
      const response = await real(input, init);
      await gate;
      return response;
    });
    sinon.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });

  afterEach(() => {
    release();
    sinon.restore();
    box?.remove();
    box = undefined;
    claimEarly(listUrl);
    resetSharedBookings();
  });

  /** The page as its server sent it: the block (if any) and the list; then what the loader runs at start. */
  function page(block?: { text: string; fetchedAt: string; maxAge?: number; endpoint?: string }): EventList {
    box = document.createElement('div');
    if (block) {
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = FIRST_LIST_ID;
      script.dataset.endpoint = block.endpoint ?? front.endpoint;
      script.dataset.fetchedAt = block.fetchedAt;
      if (block.maxAge !== undefined) script.dataset.maxAge = String(block.maxAge);
      script.textContent = block.text;
      box.append(script);
    }
    const list = document.createElement('event-list') as EventList;
    list.setAttribute('endpoint', front.endpoint);
    box.append(list);
    document.body.append(box);
    startList();
    return list;
  }

  const printed = (): string => JSON.stringify({ Events: answer.Events.map((e, i) => (i === 0 ? { ...e, Name: PRINTED } : e)) });
  const cardNames = (el: EventList): string[] =>
    [...(el.shadowRoot as ShadowRoot).querySelectorAll('[part~="card-button"]')].map((a) => a.textContent?.trim() ?? '');
  const listRequests = () => asked.filter((url) => url.startsWith(listUrl)).length;

  it('shows the first card from a block within its cache life, with no request for the list', async () => {
    const el = page({ text: printed(), fetchedAt: new Date(NOW - 299_000).toISOString() });
    await waitUntil(() => cardNames(el).length === answer.Events.length, 'the cards from the block did not show');
    expect(cardNames(el)[0]).to.equal(PRINTED); // as text: the block is data
    expect((el.shadowRoot as ShadowRoot).querySelector('[part~="card-button"] b')).to.equal(null);
    expect((el.shadowRoot as ShadowRoot).querySelector('[part="status"]')?.textContent).to.contain(`${answer.Events.length} shows`);
    await expect(el).to.be.accessible();
    expect(listRequests()).to.equal(0);
    expect(asked).to.deep.equal([]);
  });

  it('takes the cache life the block names (data-max-age)', async () => {
    const el = page({ text: printed(), fetchedAt: new Date(NOW - 60_000).toISOString(), maxAge: 30 });
    await waitUntil(() => cardNames(el)[0] === PRINTED, 'the block was not shown');
    expect(listRequests()).to.equal(1);
  });

  it('shows a block past its cache life at once, then the service\'s answer, asked for once', async () => {
    const el = page({ text: printed(), fetchedAt: new Date(NOW - 301_000).toISOString() });
    await waitUntil(() => cardNames(el)[0] === PRINTED, 'the stale block was not shown');
    await waitUntil(() => listRequests() === 1, 'the list was not asked for again');
    release();
    await waitUntil(() => cardNames(el)[0] === answer.Events[0]?.Name, 'the newer answer did not replace the block');
    expect(cardNames(el)).to.deep.equal(answer.Events.map((e) => e.Name));
    expect(listRequests()).to.equal(1);
    await expect(el).to.be.accessible();
  });

  const broken: [string, () => string][] = [
    ['JSON cut short', () => printed().slice(0, 40)],
    ['not the list', () => JSON.stringify({ Message: 'hello' })],
    ['events without ids', () => JSON.stringify({ Events: [{ Name: 'Nobody' }] })],
    ['a bare array', () => JSON.stringify(answer.Events)],
  ];
  const ignored: [string, () => Parameters<typeof page>[0]][] = [
    ...broken.map(([what, text]): [string, () => Parameters<typeof page>[0]] => [`of ${what}`, () => ({ text: text(), fetchedAt: new Date(NOW).toISOString() })]),
    ['for another endpoint', () => ({ text: printed(), fetchedAt: new Date(NOW).toISOString(), endpoint: '/elsewhere/api' })],
    ['whose time names no zone', () => ({ text: printed(), fetchedAt: '2026-11-29T10:00:00' })],
  ];
  for (const [what, block] of ignored) {
    it(`ignores a block ${what} and asks the network`, async () => {
      const el = page(block());
      await waitUntil(() => listRequests() === 1, 'the list was not asked for');
      release();
      await waitUntil(() => cardNames(el).length === answer.Events.length, "the network's cards did not show");
      expect(cardNames(el)).to.deep.equal(answer.Events.map((e) => e.Name));
      expect(listRequests()).to.equal(1);
    });
  }
});
