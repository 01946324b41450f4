/**
 * The first cards printed by a server into the page (src/server/first-cards.ts, `stagedoor
 * first-list --cards`): the element's declarative shadow root, shown with the HTML before any
 * script. What a visitor relies on: they look as the element's own cards do (the same text and
 * boxes, in English and German), nothing blinks when the element takes over (no frame without
 * cards, none with skeletons or twice the cards), a card the visitor had focused keeps the focus,
 * and what the service sends stays text. The element defined only once the printed cards are in
 * the page, as a script arriving after the HTML does; the list from the real proxy and sandbox on
 * 127.0.0.1, its block printed beside the cards as the command prints it.
 */
import { expect } from '@open-wc/testing';
import { EventList } from '../../src/elements/event-list/event-list.ts';
import type { EventInfo } from '../../src/api/types.ts';
import { EVENTS_PATH } from '../../src/api/early-list.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';

import { firstCardsStyleHash, firstCardsTemplate, firstListBlock } from '../../src/server/first-cards.ts';
import { startLossyFront, type LossyFront } from './helpers/lossy-front.ts';
import { waitUntil } from './helpers/wait.ts';

/** A name no service gives, which a visitor must see as text. */
const PRINTED = '<img src=x onerror="window.hacked=1">Printed';

interface CardLook {
  id: string | null;
  /** Each part's text, as a visitor reads it. */
  parts: string[];
  box: number[];
}

describe('<event-list> printed by the server (declarative shadow DOM)', () => {
  let front: LossyFront;
  let events: EventInfo[];
  let body = '';
  let box: HTMLElement | undefined;
  let defined = 0;
  const pageLang = document.documentElement.lang;

  before(async () => {
    front = await startLossyFront();
    body = await (await fetch(`${front.endpoint}${EVENTS_PATH}`)).text();
    events = (JSON.parse(body) as { Events: EventInfo[] }).Events.map((e, i) => (i === 0 ? { ...e, Name: PRINTED } : e));
    body = JSON.stringify({ Events: events });
  });
  after(() => front.stop());

  afterEach(async () => {
    box?.remove();
    box = undefined;
    resetSharedBookings();
    document.documentElement.lang = pageLang;
    await setLocale('en');
  });

  /** The page as its server sent it: an element of a name not defined yet, the cards inside it and (unless `withBlock` is false) the block. */
  async function printedPage(lang: string, withBlock = true): Promise<{ el: HTMLElement; name: string }> {
    const name = `printed-event-list-${++defined}`;
    const cards = await firstCardsTemplate(events, { lang });
    const block = withBlock ? firstListBlock({ body, endpoint: front.endpoint, fetchedAt: new Date(), maxAge: 300 }) : '';
    box = document.createElement('div');
    box.style.width = '900px';
    document.body.append(box);
    box.setHTMLUnsafe(`<${name} endpoint="${front.endpoint}">${cards}${block}</${name}>`);
    const el = box.firstElementChild as HTMLElement;
    return { el, name };
  }

  /**
   * The element's script arrives (its tag defined): each frame from then until the element has
   * taken over from the printed cards, as "cards/skeletons" shown.
   */
  async function scriptArrives(el: HTMLElement, name: string): Promise<string[]> {
    const frames: string[] = [];
    let watching = true;
    const watch = () => {
      const root = el.shadowRoot as ShadowRoot;
      frames.push(`${root.querySelectorAll('[part~="card"]:not([part~="skeleton"])').length}/${root.querySelectorAll('[part~="skeleton"]').length}`);
      if (watching) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    customElements.define(name, class extends EventList {});
    const list = el as EventList;
    await waitUntil(() => !(el.shadowRoot as ShadowRoot).querySelector('style') && list.hasUpdated, 'the element did not take over from the printed cards');
    await list.updateComplete;
    await new Promise((r) => requestAnimationFrame(r));
    watching = false;
    return frames;
  }

  /** Each card: its event, its text, its parts and its box, from the host's corner. */
  function looks(el: HTMLElement): CardLook[] {
    const root = el.shadowRoot as ShadowRoot;
    const origin = el.getBoundingClientRect();
    return [...root.querySelectorAll<HTMLElement>('[part~="card"]')].map((card) => {
      const r = card.getBoundingClientRect();
      return {
        id: card.querySelector('[data-event-id]')?.getAttribute('data-event-id') ?? null,
        parts: [...card.querySelectorAll('[part]')].map((p) => `${p.getAttribute('part')}: ${(p.textContent ?? '').replace(/\s+/g, ' ').trim()}`),
        box: [r.left - origin.left, r.top - origin.top, r.width, r.height].map((n) => Math.round(n)),
      };
    });
  }

  for (const lang of ['en-GB', 'de']) {
    it(`shows the cards before any script, and the element's own take their place unchanged (${lang})`, async () => {
      // The page's language, which the widget speaks and the server printed in.
      document.documentElement.lang = lang;
      const { el, name } = await printedPage(lang);
      const before = looks(el);
      expect(before.map((c) => c.id)).to.deep.equal(events.map((e) => String(e.EventId)));
      expect(before[0]?.parts).to.include(`card-heading: ${PRINTED}`); // as text
      expect((window as { hacked?: number }).hacked).to.equal(undefined);
      expect(before.every((c) => c.box[2]! > 100 && c.box[3]! > 100), 'the printed cards are laid out by their styles').to.equal(true);

      // The visitor is on the second card when the script arrives.
      const second = (el.shadowRoot as ShadowRoot).querySelectorAll<HTMLElement>('[part~="card-button"]')[1]!;
      second.focus();
      const frames = await scriptArrives(el, name);

      const after = looks(el);
      expect(after.map(({ id, parts }) => ({ id, parts }))).to.deep.equal(before.map(({ id, parts }) => ({ id, parts })));
      after.forEach((card, i) => expect(card.box, `card ${i}'s box`).to.deep.equal(before[i]?.box));
      expect(new Set(frames), 'cards and skeletons in each frame from the script on').to.deep.equal(new Set([`${events.length}/0`]));
      const focused = (el.shadowRoot as ShadowRoot).activeElement;
      expect(focused?.getAttribute('data-event-id')).to.equal(String(events[1]?.EventId));
      expect(focused?.isConnected).to.equal(true);
      await expect(el).to.be.accessible();
    });
  }

  it('keeps the printed cards, with no skeletons, while the list is asked for (a page with the cards and no block)', async () => {
    const { el, name } = await printedPage('en-GB', false);
    const frames = await scriptArrives(el, name);
    // The service's answer replaced the printed cards (the first card's name is the service's own again).
    expect(looks(el).map((c) => c.parts.find((p) => p.startsWith('card-heading')))).to.deep.equal(
      (JSON.parse(await (await fetch(`${front.endpoint}${EVENTS_PATH}`)).text()) as { Events: EventInfo[] }).Events.map((e) => `card-heading: ${e.Name}`),
    );
    expect(new Set(frames), 'cards and skeletons in each frame from the script on').to.deep.equal(new Set([`${events.length}/0`]));
  });

  /** A page of its own (an iframe) under `style-src <source>`, holding the printed cards: the first card's border. */
  async function underPolicy(source: string): Promise<{ border: string }> {
    const cards = await firstCardsTemplate(events, { lang: 'en-GB' });
    const frame = document.createElement('iframe');
    const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
    frame.srcdoc = `<!doctype html><html lang="en-GB"><head><meta http-equiv="Content-Security-Policy" content="style-src ${source}"></head><body><event-list>${cards}</event-list></body></html>`;
    document.body.append(frame);
    box = frame;
    await loaded;
    const card = frame.contentDocument?.querySelector('event-list')?.shadowRoot?.querySelector('[part~="card"]');
    expect(card, 'the printed card').to.be.ok;
    return { border: frame.contentWindow!.getComputedStyle(card!).borderTopStyle };
  }

  it("is styled under a Content-Security-Policy that allows only the style's hash (stagedoor first-list --style-hash)", async () => {
    const allowed = await underPolicy(await firstCardsStyleHash());
    expect(allowed.border).to.equal('solid');
    box?.remove();
    // The same page with another hash: the policy blocks the style (so the check above can fail).
    const blocked = await underPolicy("'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='");
    expect(blocked.border).to.equal('none');
  });

  it('prints nothing for an empty list or one the element would not take, and escapes what the service sends', async () => {
    expect(await firstCardsTemplate([])).to.equal('');
    // An id that is not a whole number: the block's own rule (state/first-list.ts) refuses such a list, and so do the cards.
    for (const EventId of ['3" onmouseover="window.hacked=3', 1.5, null]) {
      expect(await firstCardsTemplate([events[1]!, { ...events[2]!, EventId } as unknown as EventInfo])).to.equal('');
    }
    const hostile = {
      ...events[1]!,
      Name: 42 as unknown as string,
      TagLine: '</template><script>window.hacked=2</script>',
      OfferLabel: '</style><img src=x onerror="window.hacked=4">',
      RunningTime: '"><b>bold</b>',
      SmallImageUrl: 'javascript:alert(1)',
      MainImageUrl: ' javascript:alert(2)',
      Images: [],
    };
    const printed = await firstCardsTemplate([hostile], { eventHref: 'java\tscript:alert({EventId})' });
    expect(printed).not.to.match(/<script|<img|<b>|javascript:|java\tscript/i);
    expect(printed.match(/<\/template>/g)).to.have.length(1);
    expect(printed.match(/<\/style>/g)).to.have.length(1);
    // What a visitor sees is the service's text, as the element shows it.
    const box2 = document.createElement('div');
    box = box2;
    document.body.append(box2);
    box2.setHTMLUnsafe(`<printed-hostile-list>${printed}</printed-hostile-list>`);
    const root = (box2.firstElementChild as HTMLElement).shadowRoot as ShadowRoot;
    expect(root.querySelector('[part~="card-button"]')?.textContent).to.equal('42');
    expect(root.querySelector('[part~="tag-line"]')?.textContent).to.equal(hostile.TagLine);
    expect(root.querySelector('.badge')?.textContent).to.equal(hostile.OfferLabel);
    expect(root.querySelector('[part~="card-button"]')?.getAttribute('href')).to.equal(`?stagedoor-event=${hostile.EventId}`);
    expect((window as { hacked?: number }).hacked).to.equal(undefined);
  });
});
