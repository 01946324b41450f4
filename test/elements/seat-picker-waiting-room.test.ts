/**
 * <seat-picker>'s waiting view (issue 32): the proxy answers the seats with 428 and a room, and
 * the picker shows the room instead, joining and polling it (the fake api's `joinRoom`, on a
 * controlled clock), until admitted, when the seats show. docs/waiting-room.md, "The widget".
 */
import { expect, html } from '@open-wc/testing';
import sinon from 'sinon';
import type { RoomAnswer, RoomJoinBody } from '../../src/api/room.ts';
import { endpointKey } from '../../src/api/endpoint.ts';
import type { FullTicketInfo } from '../../src/api/types.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import type { BookingEventDetails } from '../../src/events.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { leadingZeroBits } from '../../src/state/proof-of-work.ts';
import { apiError, fakeApi, networkError, testBooking, withBooking, type FakeApi } from './helpers/fake-api.ts';
import { listen } from './helpers/live-regions.ts';
import { performance, ticket } from './helpers/seat-fixtures.ts';
import { root, seatButtons } from './helpers/seat-picker-dom.ts';
import { waitUntil } from './helpers/wait.ts';

const START = Date.parse('2026-12-01T09:58:30.000Z');
const OPENS = Date.parse('2026-12-01T10:00:00.000Z');
const JOIN = '/api/stagedoor/room/hot-show';
const TICKETS: FullTicketInfo[] = [ticket(1, 'Stalls', 'A', '1', 45), ticket(2, 'Stalls', 'A', '2', 45)];

const refusal = () =>
  apiError('getFullAvailability', 428, {
    Message: 'This performance is behind a waiting room: join it to get a pass.',
    Room: { id: 'hot-show', join: JOIN },
    Pass: 'missing',
  });

/** A room answer at the (fake) clock's now. */
function answer(status: RoomAnswer['status'], extra: Partial<RoomAnswer> = {}): RoomAnswer {
  return {
    room: 'hot-show', status, opensAt: new Date(OPENS).toISOString(), now: new Date(Date.now()).toISOString(),
    position: null, ahead: null, ratePerMinute: 60, waitSeconds: null, pollSeconds: 15, ...extra,
  };
}

const waiting = (position: number, low: number, high: number, pollSeconds = 15) =>
  answer('waiting', { position, ahead: position - 1, waitSeconds: { low, high }, pollSeconds });

/** A room that answers from `script` in turn (the last one again once it runs out), the seats refused until admitted. */
function roomApi(script: (RoomAnswer | Error | ((body: RoomJoinBody) => RoomAnswer))[]): FakeApi & { admitted: boolean } {
  let admitted = false;
  let i = 0;
  const api = fakeApi({
    getPerformance: ({ performanceId }) => performance(performanceId),
    getEvent: () => {
      throw apiError('getEvent', 404);
    },
    getFullAvailability: () => {
      if (!admitted) throw refusal();
      return { PerformanceId: 1, EventId: 5, AvailableTickets: TICKETS };
    },
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
    joinRoom: ({ body }) => {
      const next = script[Math.min(i++, script.length - 1)];
      const value = typeof next === 'function' ? next(body) : next;
      if (value instanceof Error) throw value;
      if (value?.status === 'admitted') admitted = true;
      return value as RoomAnswer;
    },
  });
  return Object.assign(api, { get admitted() { return admitted; } });
}

const text = (el: SeatPicker) => root(el).textContent?.replace(/\s+/g, ' ') ?? '';
const part = (el: SeatPicker, name: string) => root(el).querySelector(`[part~="${name}"]`);

describe('<seat-picker> waiting room', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  let booking: BookingContextValue | undefined;
  const pageTitle = 'The Lyric Quarter';

  beforeEach(() => {
    document.title = pageTitle;
    clock = sinon.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    resetSharedBookings();
    if (booking) {
      const key = endpointKey(booking.config.endpoint);
      for (const name of ['queue', 'pass', 'queue-first']) localStorage.removeItem(`stagedoor:${name}:${key}`);
    }
    booking = undefined;
    await setLocale('en-GB');
  });

  /** Microtasks, the fake api's answers and the renders they bring. */
  async function settle(el: SeatPicker): Promise<void> {
    for (let n = 0; n < 6; n++) {
      await clock?.tickAsync(0);
      await el.updateComplete;
    }
  }

  async function picker(api: FakeApi, config: Parameters<typeof testBooking>[1] = {}): Promise<SeatPicker> {
    booking = testBooking(api, config);
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id="1"></seat-picker>`);
    await settle(el);
    return el;
  }

  /** axe under real timers (it waits on its own timers); the room's fake ones are left behind. */
  async function accessible(el: SeatPicker): Promise<void> {
    clock?.restore();
    clock = undefined;
    await expect(el).to.be.accessible();
  }

  it('before the on-sale: a countdown to it on the room\'s clock, told once, the title saying where the page is', async () => {
    const api = roomApi([answer('before', { pollSeconds: 30 })]);
    const el = await picker(api);
    expect(part(el, 'queue')?.getAttribute('data-status')).to.equal('before');
    // 90 s to the on-sale: 1:29 shown (never more than remains), in words for a screen reader.
    expect(part(el, 'queue-countdown')?.textContent?.trim()).to.equal('1:29');
    expect(text(el)).to.include('1 minute, 29 seconds').and.include('The sale opens 1 Dec 2026, 10:00.');
    expect(text(el)).not.to.include('Stalls');
    expect(document.title).to.equal(`Waiting room – ${pageTitle}`);
    expect(part(el, 'status')?.textContent).to.include('The sale opens in 1 minute, 29 seconds.');
    const ear = listen(el.shadowRoot);
    await clock?.tickAsync(10_000);
    await el.updateComplete;
    expect(part(el, 'queue-countdown')?.textContent?.trim()).to.equal('1:19');
    expect(ear.heard, 'nothing said while the countdown is far from its steps').to.deep.equal([]);
    // At one minute: said once.
    await clock?.tickAsync(19_000);
    await el.updateComplete;
    expect(ear.heard.map((h) => h.text)).to.deep.equal(['You are in the waiting room. The sale opens in 1 minute.']);
    ear.stop();
    // The visitor's own clock 40 s fast: the room's `now` corrects it.
    await accessible(el);
  });

  it('counts down on the proxy\'s clock, not the visitor\'s', async () => {
    // The proxy says it is 40 s earlier than the visitor's clock: 130 s to go, not 90.
    const api = roomApi([() => ({ ...answer('before'), now: new Date(Date.now() - 40_000).toISOString() })]);
    const el = await picker(api);
    expect(part(el, 'queue-countdown')?.textContent?.trim()).to.equal('2:09');
  });

  it('waiting: place, people ahead, the wait as a range in words, progress from the first place, the title', async () => {
    const api = roomApi([waiting(1200, 600, 900), waiting(600, 250, 420)]);
    const events: BookingEventDetails['booking-queue-change'][] = [];
    const el = await picker(api);
    el.addEventListener('booking-queue-change', (e) => events.push(e.detail));
    expect(part(el, 'queue-position')?.textContent?.trim()).to.equal('1,200');
    expect(part(el, 'queue-ahead')?.textContent?.trim()).to.equal('1,199');
    expect(part(el, 'queue-wait')?.textContent?.trim()).to.match(/^10\s?[–-]\s?15 minutes$/);
    expect(Boolean(part(el, 'queue-progress'))).to.equal(false); // nothing to show at the first place
    expect(document.title).to.equal(`Place 1,200 in the queue – ${pageTitle}`);
    await clock?.tickAsync(15_000);
    await settle(el);
    expect(part(el, 'queue-position')?.textContent?.trim()).to.equal('600');
    expect(part(el, 'queue-wait')?.textContent?.trim()).to.match(/^4\s?[–-]\s?7 minutes$/);
    const progress = part(el, 'queue-progress') as HTMLProgressElement;
    expect([progress.value, progress.max]).to.deep.equal([600, 1199]);
    expect(document.title).to.equal(`Place 600 in the queue – ${pageTitle}`);
    expect(events).to.deep.equal([{ room: 'hot-show', status: 'waiting', position: 600, ahead: 599, waitSeconds: { low: 250, high: 420 } }]);
    await accessible(el);
  });

  it('polls on the answer\'s pollSeconds, and says so only when the wait\'s words change', async () => {
    const api = roomApi([waiting(90, 240, 300, 20), waiting(85, 240, 300, 5), waiting(80, 100, 150, 5)]);
    const el = await picker(api);
    const ear = listen(el.shadowRoot);
    expect(api.callsTo('joinRoom')).to.have.length(1);
    await clock?.tickAsync(19_999);
    expect(api.callsTo('joinRoom'), 'not before pollSeconds').to.have.length(1);
    await clock?.tickAsync(1);
    await settle(el);
    expect(api.callsTo('joinRoom')).to.have.length(2);
    expect(part(el, 'queue-position')?.textContent?.trim()).to.equal('85');
    expect(ear.heard, 'a place forward with the same estimate says nothing').to.deep.equal([]);
    await clock?.tickAsync(5_000);
    await settle(el);
    expect(api.callsTo('joinRoom')).to.have.length(3);
    expect(ear.heard.map((h) => h.text)).to.deep.equal(['You are number 80 in the queue. Estimated wait: 1–3 minutes.']);
    ear.stop();
    expect((api.callsTo('joinRoom')[0] as { join: string }).join).to.equal(JOIN);
  });

  it('admitted: the pass kept, the seats shown and said, the event fired, the title given back', async () => {
    const pass = { token: 'hot-show.abc.sig', expiresAt: new Date(START + 900_000).toISOString() };
    const api = roomApi([waiting(2, 5, 20, 5), () => answer('admitted', { position: null, pass })]);
    const el = await picker(api);
    const admitted = new Promise<BookingEventDetails['booking-queue-admitted']>((resolve) => el.addEventListener('booking-queue-admitted', (e) => resolve(e.detail)));
    const ear = listen(el.shadowRoot);
    await clock?.tickAsync(5_000);
    await settle(el);
    clock?.restore();
    clock = undefined;
    await waitUntil(() => seatButtons(el).length === 2, 'the seat map after admission');
    expect(await admitted).to.deep.equal({ room: 'hot-show', expiresAt: pass.expiresAt });
    // Kept as the room gave it, with its expiry on the visitor's clock (the room's `now` was this clock's).
    const kept = JSON.parse(localStorage.getItem(`stagedoor:pass:${endpointKey(booking!.config.endpoint)}`) ?? 'null') as typeof pass & { until: number };
    expect({ token: kept.token, expiresAt: kept.expiresAt }).to.deep.equal(pass);
    expect(kept.until).to.be.closeTo(START + 900_000, 1);
    expect(Boolean(part(el, 'queue'))).to.equal(false);
    expect(ear.heard.map((h) => h.text)).to.include('It is your turn: choose your seats.');
    ear.stop();
    expect(document.title).to.equal(pageTitle);
    expect(api.callsTo('getFullAvailability')).to.have.length(2);
    await expect(el).to.be.accessible();
  });

  it('a pass run out by the time of Add: the waiting room again, not an error', async () => {
    const pass = { token: 'hot-show.abc.sig', expiresAt: new Date(START + 900_000).toISOString() };
    const api = roomApi([() => answer('admitted', { pass }), waiting(30, 60, 90)]);
    Object.assign(api, {
      createBasket: async () => ({ Success: true, BasketId: '0f8fad5b-d9cb-469f-a165-70867728950e' }),
      addTickets: async () => {
        api.calls.push({ name: 'addTickets', args: null });
        throw apiError('addTickets', 428, { Message: 'This performance is behind a waiting room: join it to get a pass.', Room: { id: 'hot-show', join: JOIN }, Pass: 'expired' });
      },
    });
    const el = await picker(api);
    clock?.restore();
    clock = undefined;
    await waitUntil(() => seatButtons(el).length === 2, 'the seat map after admission');
    // The room's pass ran out meanwhile: the proxy refuses the seats again until the visitor is back through.
    Object.assign(api, { getFullAvailability: async () => { throw refusal(); } });
    seatButtons(el)[0]?.click();
    await waitUntil(() => [...root(el).querySelectorAll<HTMLButtonElement>('[part~="add-button"]')].find((b) => b.getAttribute('aria-disabled') === 'false'), 'Add enabled');
    [...root(el).querySelectorAll<HTMLButtonElement>('[part~="add-button"]')].find((b) => b.getAttribute('aria-disabled') === 'false')?.click();
    await waitUntil(() => part(el, 'queue')?.getAttribute('data-status') === 'waiting', 'the waiting view again');
    expect(api.callsTo('joinRoom')).to.have.length(2);
    expect(Boolean(part(el, 'error')), 'no error shown').to.equal(false);
  });

  it('paused, and the room\'s store catching up (503): the place is kept, asked again when the room says', async () => {
    const catchingUp = apiError('joinRoom', 503, { Message: 'The waiting room is catching up; your place is kept.', Room: { id: 'hot-show' }, retrySeconds: 5 });
    const api = roomApi([answer('paused', { position: 40, ahead: 39, pollSeconds: 30 }), catchingUp, waiting(38, 60, 120)]);
    const events: string[] = [];
    const el = await picker(api);
    el.addEventListener('booking-queue-change', (e) => events.push(e.detail.status));
    expect(part(el, 'queue')?.getAttribute('data-status')).to.equal('paused');
    expect(text(el)).to.include('The sale is paused. Your place in the queue is kept.');
    expect(part(el, 'queue-position')?.textContent?.trim()).to.equal('40');
    expect(part(el, 'queue-wait')?.textContent?.trim()).to.equal('Not known yet');
    await clock?.tickAsync(30_000);
    await settle(el);
    expect(part(el, 'queue')?.getAttribute('data-status')).to.equal('catching-up');
    expect(text(el)).to.include('The waiting room is catching up. Your place in the queue is kept.');
    expect(part(el, 'queue-position')?.textContent?.trim(), 'the last place known still shown').to.equal('40');
    await clock?.tickAsync(4_999);
    expect(api.callsTo('joinRoom')).to.have.length(2);
    await clock?.tickAsync(1);
    await settle(el);
    expect(api.callsTo('joinRoom')).to.have.length(3);
    expect(part(el, 'queue')?.getAttribute('data-status')).to.equal('waiting');
    expect(events).to.deep.equal(['catching-up', 'waiting']);
  });

  it('axe-clean while joining, paused, catching up and unreachable', async () => {
    const joining = await picker(roomApi([() => new Promise<never>(() => undefined) as never]));
    expect(part(joining, 'queue')?.getAttribute('data-status')).to.equal('joining');
    await accessible(joining);
    const states: [string, RoomAnswer | Error][] = [
      ['paused', answer('paused', { position: 40, ahead: 39 })],
      ['catching-up', apiError('joinRoom', 503, { Message: 'catching up', retrySeconds: 5 })],
      ['offline', networkError('joinRoom' as never)],
    ];
    for (const [status, reply] of states) {
      clock = sinon.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const el = await picker(roomApi([reply]));
      expect(part(el, 'queue')?.getAttribute('data-status')).to.equal(status);
      await accessible(el);
    }
  });

  /** A room that asks for a proof at `bits`: the picker's next call carries a nonce that solves it, and the visitor gets a place. */
  async function solvesTheProof(bits: number): Promise<RoomJoinBody> {
    clock?.restore();
    clock = undefined;
    const api = roomApi([
      answer('proof', { proof: { challenge: '1800000000000.r4nd0m.h-m-a-c', bits } }),
      (body) => (body.proof ? waiting(10, 30, 60) : answer('proof', { proof: { challenge: 'x', bits } })),
    ]);
    booking = testBooking(api);
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id="1"></seat-picker>`);
    await waitUntil(() => api.callsTo('joinRoom').length === 2, 'the call with the proof');
    await waitUntil(() => part(el, 'queue-position'), 'the place after the proof');
    return (api.callsTo('joinRoom')[1] as { body: RoomJoinBody }).body;
  }

  async function expectSolved(body: RoomJoinBody, bits: number): Promise<void> {
    expect(body.proof?.challenge).to.equal('1800000000000.r4nd0m.h-m-a-c');
    expect(body.proof?.nonce).to.match(/^\d+$/);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${body.proof?.challenge}:${body.proof?.nonce}`)));
    expect(leadingZeroBits(digest)).to.be.at.least(bits);
  }

  it('proof of work: solved off the critical path and sent with the next call', async () => {
    await expectSolved(await solvesTheProof(12), 12);
  });

  it('proof of work on a plain-http page (no Web Crypto digest there): solved all the same', async () => {
    const subtle = Object.getOwnPropertyDescriptor(Crypto.prototype, 'subtle')!;
    Object.defineProperty(Crypto.prototype, 'subtle', { ...subtle, get: () => undefined });
    let body: RoomJoinBody;
    try {
      expect(crypto.subtle).to.equal(undefined);
      body = await solvesTheProof(12);
    } finally {
      Object.defineProperty(Crypto.prototype, 'subtle', subtle);
    }
    await expectSolved(body, 12);
  });

  it('a reload or a second tab asks with the same queue id, and the progress counts from the first place', async () => {
    const api = roomApi([waiting(500, 600, 900)]);
    const first = await picker(api);
    const key = endpointKey(booking!.config.endpoint);
    const id = localStorage.getItem(`stagedoor:queue:${key}`);
    expect(id).to.match(/^[A-Za-z0-9_.:-]{1,128}$/);
    first.remove();
    // A second picker on the same endpoint (a reload, another tab): the same id, the progress from 500.
    const again = roomApi([waiting(300, 300, 400)]);
    const el = await withBooking<SeatPicker>(testBooking(again, { endpoint: booking!.config.endpoint }), html`<seat-picker performance-id="1"></seat-picker>`);
    await settle(el);
    expect(localStorage.getItem(`stagedoor:queue:${key}`)).to.equal(id);
    const progress = part(el, 'queue-progress') as HTMLProgressElement;
    expect([progress.value, progress.max]).to.deep.equal([200, 499]);
  });

  it('stops asking and gives the title back when the picker goes', async () => {
    const api = roomApi([waiting(50, 60, 120)]);
    const el = await picker(api);
    expect(document.title).to.match(/^Place 50/);
    el.remove();
    await clock?.tickAsync(60_000);
    expect(api.callsTo('joinRoom')).to.have.length(1);
    expect(document.title).to.equal(pageTitle);
  });

  it('speaks German: the countdown, the place and the wait in German words and numbers', async () => {
    await setLocale('de');
    const api = roomApi([waiting(1200, 600, 900)]);
    const el = await picker(api, { locale: 'de' });
    expect(part(el, 'queue-position')?.textContent?.trim()).to.equal('1.200');
    expect(part(el, 'queue-wait')?.textContent?.trim()).to.match(/^10\s?[–-]\s?15 Minuten$/);
    expect(text(el)).to.include('Warteraum');
  });
});
