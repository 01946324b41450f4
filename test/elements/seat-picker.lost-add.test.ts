/**
 * <seat-picker> when an add reaches the service but its answer is lost on the way back: a
 * front server (helpers/lossy-front.ts) before the real proxy and sandbox lets Add Tickets
 * hold the seats and then answers 502 or 504, resets the connection, sends a page that is not
 * JSON, or never answers (until the basket's own time limit, on a fake clock). Each way of
 * adding (general admission, chosen seats, best available) keeps what the lost add made
 * once, and the customer hears that it worked, never that their own seats were taken. A
 * failure that never reached the service still offers "Try again" and leaves the basket as
 * it was.
 */
import { expect, html } from '@open-wc/testing';
import sinon from 'sinon';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import type { BasketContent } from '../../src/api/types.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { CHANGE_TIMEOUT_MS } from '../../src/state/basket-engine.ts';
import { createBooking, resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { withBooking } from './helpers/fake-api.ts';
import { startLossyFront, type Fault, type LossyFront } from './helpers/lossy-front.ts';
import { root, seatButtons } from './helpers/seat-picker-dom.ts';
import { waitUntil } from './helpers/wait.ts';

const FAULTS: Fault[] = ['502', '504', 'hang', 'reset', 'garbage'];
const ADD = /\/Baskets\/[^/]+\/Tickets$/;
const READ = /\/Baskets\/[^/]+$/;
const TAKEN = 'Some of those seats have just been taken';

interface Shows {
  general: number;
  seated: number[];
}

/** A general admission performance and seated ones of the sandbox, directly bookable and unpaired. */
async function findShows(api: ApiClient): Promise<Shows> {
  const shows: Partial<Shows> = {};
  for (const { EventId } of (await api.getEvents()).Events) {
    const { Event } = await api.getEvent({ eventId: EventId });
    const bookable = (await api.getEventPerformances({ eventId: EventId })).Performances.filter((p) => p.DirectlyBookablePerformance && !p.PairedPerformances?.length);
    if (Event.SeatingPlanSupported && !shows.seated) {
      const open: number[] = [];
      for (const { PerformanceId } of bookable) {
        const { TicketAreas } = await api.getAvailableTickets({ performanceId: PerformanceId, requiredTicketsCount: 2 });
        if (TicketAreas.some((a) => a.Tickets.length >= 6)) open.push(PerformanceId);
        if (open.length === 6) break;
      }
      if (open.length === 6) shows.seated = open;
    }
    if (!Event.SeatingPlanSupported && !shows.general && bookable[0]) shows.general = bookable[0].PerformanceId;
    if (shows.general && shows.seated) return shows as Shows;
  }
  throw new Error('the sandbox has no general admission or seated performance to book');
}

const notice = (el: SeatPicker) => root(el).querySelector<HTMLElement>('[part~="result"]');
const noticeText = (el: SeatPicker) => notice(el)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const retryButton = (el: SeatPicker) => notice(el)?.querySelector<HTMLButtonElement>('[part="retry-button"]') ?? null;
const usable = (b: HTMLButtonElement | null | undefined): b is HTMLButtonElement => !!b && b.getAttribute('aria-disabled') !== 'true';

describe('<seat-picker>: an add whose answer was lost', function () {
  this.timeout(60_000);
  let front: LossyFront;
  let api: ApiClient;
  let shows: Shows;
  let clock: sinon.SinonFakeTimers | undefined;

  before(async () => {
    front = await startLossyFront();
    api = createApiClient({ endpoint: front.endpoint });
    shows = await findShows(api);
  });
  after(async () => {
    await front?.stop();
  });
  afterEach(async () => {
    clock?.restore();
    clock = undefined;
    sinon.restore();
    await front.release();
    resetSharedBookings();
    localStorage.clear();
  });

  async function picker(performanceId: number, mode = 'auto'): Promise<{ el: SeatPicker; booking: BookingContextValue }> {
    const booking = createBooking(resolveConfig({ endpoint: front.endpoint }), { restore: false, sync: false });
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id=${performanceId} mode=${mode}></seat-picker>`);
    return { el, booking };
  }

  /** The basket as the service holds it (read past every cache). */
  const held = async (booking: BookingContextValue): Promise<BasketContent['Items']> => {
    const basketId = booking.basket.value.basketId;
    return basketId ? (await api.getBasket({ basketId }, { fresh: true })).Items : [];
  };

  /** Press `add`, the answer lost by `fault` (a hang ended by the basket's own time limit), until the picker says how it went. */
  async function press(el: SeatPicker, booking: BookingContextValue, add: HTMLButtonElement, fault: Fault | null): Promise<void> {
    if (fault === 'hang') {
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      // The basket's time limit (AbortSignal.timeout) on the same fake clock.
      sinon.stub(AbortSignal, 'timeout').callsFake((ms: number) => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
        return controller.signal;
      });
    }
    const before = noticeText(el);
    add.click();
    if (fault === 'hang') {
      await front.held();
      await clock?.tickAsync(CHANGE_TIMEOUT_MS);
      clock?.restore();
      clock = undefined;
      sinon.restore();
    }
    await waitUntil(() => notice(el) && noticeText(el) !== before && booking.basket.value.busy === null, 'the picker did not say how the add went', { timeout: 10_000 });
    await el.updateComplete;
  }

  /** The customer's way through: the add, its answer lost; "Try again" when offered. */
  async function addLosingAnswer(el: SeatPicker, booking: BookingContextValue, add: HTMLButtonElement, fault: Fault): Promise<void> {
    await front.arm(fault, 'POST', ADD);
    await press(el, booking, add, fault);
    const retry = retryButton(el);
    if (retry) await press(el, booking, retry, null);
  }

  /** One item of `count` tickets in the basket, and the customer told it worked (never that their seats were taken). */
  async function expectAddedOnce(el: SeatPicker, booking: BookingContextValue, count: number): Promise<void> {
    const items = await held(booking);
    expect(items.map((i) => i.Tickets.length), 'the items the service holds').to.deep.equal([count]);
    expect(booking.basket.value.content?.Items.map((i) => i.BasketItemId), 'the basket shown').to.deep.equal(items.map((i) => i.BasketItemId));
    expect(notice(el)?.dataset.tone).to.equal('success');
    expect(noticeText(el)).to.include(`${count} tickets added to your basket.`);
    expect(root(el).querySelector('[part="status"]')?.textContent).to.include(`${count} tickets added to your basket.`);
    expect(root(el).textContent).not.to.include(TAKEN);
  }

  const generalAdd = async (el: SeatPicker) => {
    await waitUntil(() => usable(root(el).querySelector<HTMLButtonElement>('[part~="general"] [part="add-button"]')), 'general admission did not offer Add', { timeout: 10_000 });
    const add = root(el).querySelector<HTMLButtonElement>('[part~="general"] [part="add-button"]') as HTMLButtonElement;
    return { add, count: Number(/Add (\d+) tickets/.exec(add.textContent ?? '')?.[1]) };
  };

  /** Two seats the service offers together, chosen on the map, and its Add once their check has answered. */
  const seatsAdd = async (el: SeatPicker, performanceId: number) => {
    const area = (await api.getAvailableTickets({ performanceId, requiredTicketsCount: 2 }, { fresh: true })).TicketAreas.find((a) => a.Tickets.length >= 2);
    if (!area) throw new Error(`performance ${performanceId} has no two seats together`);
    await waitUntil(() => seatButtons(el).length > 2, 'the map did not render', { timeout: 10_000 });
    for (const t of area.Tickets.slice(0, 2)) {
      const name = `${area.AreaName}, row ${t.TicketName1}, seat ${t.TicketName2},`;
      const seat = seatButtons(el).find((b) => b.getAttribute('aria-label')?.startsWith(name));
      if (!seat) throw new Error(`no seat ${name}`);
      seat.click();
      await el.updateComplete;
    }
    const add = () => [...root(el).querySelectorAll<HTMLButtonElement>('button')].find((b) => /Add 2 seats/.test(b.textContent ?? ''));
    await waitUntil(() => usable(add()), 'the seat check did not let the seats be added', { timeout: 10_000 });
    return { add: add() as HTMLButtonElement, count: 2 };
  };

  const bestAdd = async (el: SeatPicker) => {
    const add = () => root(el).querySelector<HTMLButtonElement>('[part~="best"] [part="add-button"]');
    await waitUntil(() => usable(add()), 'best available did not offer seats', { timeout: 10_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${root(el).textContent?.replace(/\s+/g, ' ')}`);
    });
    const button = add() as HTMLButtonElement;
    return { add: button, count: Number(/Add (\d+) for/.exec(button.textContent ?? '')?.[1]) };
  };

  for (const [i, fault] of FAULTS.entries()) {
    it(`general admission: the answer lost (${fault}) keeps the tickets once and says they were added`, async () => {
      const { el, booking } = await picker(shows.general);
      const { add, count } = await generalAdd(el);
      await addLosingAnswer(el, booking, add, fault);
      await expectAddedOnce(el, booking, count);
    });

    it(`chosen seats: the answer lost (${fault}) keeps the seats once, never "taken"`, async () => {
      const performanceId = shows.seated[0] as number;
      const { el, booking } = await picker(performanceId);
      const { add, count } = await seatsAdd(el, performanceId);
      await addLosingAnswer(el, booking, add, fault);
      await expectAddedOnce(el, booking, count);
    });

    it(`best available: the answer lost (${fault}) keeps the seats once, never "taken"`, async () => {
      // A performance of its own: best available's lookup of another test may still be in the browser's cache (5 s).
      const { el, booking } = await picker(shows.seated[i + 1] as number, 'best-available');
      const { add, count } = await bestAdd(el);
      await addLosingAnswer(el, booking, add, fault);
      await expectAddedOnce(el, booking, count);
    });
  }

  it('"Try again" reads the basket first when the read after the lost answer was lost too', async () => {
    const { el, booking } = await picker(shows.general);
    const { add, count } = await generalAdd(el);
    await front.arm('502', 'POST', ADD);
    await front.arm('502', 'GET', READ);
    await press(el, booking, add, '502');
    expect(retryButton(el), 'Try again is offered').to.not.equal(null);
    expect((await held(booking)).map((i) => i.Tickets.length), 'the service holds the lost add').to.deep.equal([count]);
    await press(el, booking, retryButton(el) as HTMLButtonElement, null);
    await expectAddedOnce(el, booking, count);
  });

  it('a failure that never reached the service offers "Try again", leaves the basket as it was, and the retry adds once', async () => {
    const { el, booking } = await picker(shows.general);
    const { add, count } = await generalAdd(el);
    await front.arm('502', 'POST', ADD, { forward: false });
    await press(el, booking, add, '502');
    expect(notice(el)?.dataset.tone).to.equal('error');
    expect(retryButton(el), 'Try again is offered').to.not.equal(null);
    expect(await held(booking), 'nothing held').to.deep.equal([]);
    expect(booking.basket.value.content).to.equal(null);
    await expect(el).to.be.accessible();
    await press(el, booking, retryButton(el) as HTMLButtonElement, null);
    await expectAddedOnce(el, booking, count);
  });

  it("Create Basket's answer lost: \"Try again\" starts a basket and adds once", async () => {
    const { el, booking } = await picker(shows.general);
    const { add, count } = await generalAdd(el);
    await front.arm('502', 'POST', /\/Baskets$/);
    await press(el, booking, add, '502');
    expect(retryButton(el), 'Try again is offered').to.not.equal(null);
    await press(el, booking, retryButton(el) as HTMLButtonElement, null);
    await expectAddedOnce(el, booking, count);
  });
});
