/**
 * The basket store against issue 5: lazy creation, one request per action,
 * the BasketId per endpoint in localStorage (lapsing with its hold), failures that keep the last
 * good basket, expiry by the server's clock, and the payment hand-over.
 */
import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import { ServerClock } from '../../src/api/time.ts';
import type { AddTicketsResult, BasketContent } from '../../src/api/types.ts';
import { BasketStore } from '../../src/state/basket-store.ts';
import type { KeyValueStorage } from '../../src/state/basket-record.ts';
import type { SharedAbout } from '../../src/state/basket-types.ts';
import { createBooking } from '../../src/state/booking.ts';
import { endpointKey, resolveConfig } from '../../src/state/config.ts';
import { apiError, fakeApi, networkError, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { deferred, fakeBasketService, refusedAdd, type FakeBasketService } from './helpers/fake-basket.ts';

const MINUTE = 60_000;

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

interface Setup {
  service: FakeBasketService;
  handlers: Handlers;
  api: FakeApi;
  storage: ReturnType<typeof memoryStorage>;
  store: BasketStore;
  clock: ServerClock;
  /** A second store on the same endpoint and storage: what a reload builds. */
  reload(options?: { restore?: boolean }): BasketStore;
}

function setup(options: { clock?: ServerClock; storage?: ReturnType<typeof memoryStorage>; storageKey?: string } = {}): Setup {
  const clock = options.clock ?? new ServerClock();
  const service = fakeBasketService({ clock });
  const handlers: Handlers = { ...service.handlers };
  const api = fakeApi(handlers, { clock });
  const storage = options.storage ?? memoryStorage();
  const storageKey = options.storageKey ?? 'https://tickets.example/api';
  const make = (restore = true) => new BasketStore({ api, storageKey, timeZone: 'Europe/London', storage, restore });
  const store = make();
  return { service, handlers, api, storage, store, clock, reload: (o = {}) => make(o.restore ?? true) };
}

/** The basket id kept for the endpoint (the record is `{ basketId, until }`), or null. */
function storedId(storage: KeyValueStorage, key = 'stagedoor:basket:https://tickets.example/api'): string | null {
  const raw = storage.getItem(key);
  return raw === null ? null : ((JSON.parse(raw) as { basketId?: string }).basketId ?? null);
}

/** Let promise callbacks run until `condition` holds (bounded; no timers involved). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await Promise.resolve();
  if (!condition()) throw new Error('condition never held');
}

/** Wait until a store has settled (no action in flight). */
async function settled(store: BasketStore): Promise<void> {
  for (let i = 0; i < 50 && store.value.busy !== null; i++) await Promise.resolve();
  await new Promise<void>((resolve) => queueMicrotask(resolve));
}

function itemNames(content: BasketContent | null): string[] {
  return (content?.Items ?? []).map((i) => i.EventName);
}

describe('basket store', () => {
  describe('creating the basket', () => {
    it('creates no basket until the first add', async () => {
      const { api, store } = setup();
      await store.refresh();
      expect(api.calls).to.deep.equal([]);
      expect(store.value.basketId).to.equal(null);

      const outcome = await store.add({ Tickets: [1] });
      expect(outcome.ok).to.equal(true);
      expect(api.calls.map((c) => c.name)).to.deep.equal(['createBasket', 'addTickets']);
      expect(store.value.basketId).to.be.a('string');
      expect(itemNames(store.value.content)).to.deep.equal(['Show 1']);
    });

    it('adds once on a double click (two adds while one is in flight)', async () => {
      const { api, handlers, store, service } = setup();
      const gate = deferred<void>();
      const real = service.handlers.addTickets;
      handlers.addTickets = async (args) => {
        await gate.promise;
        if (!real) throw new Error('no handler');
        return real(args);
      };
      const first = store.add({ Tickets: [5] });
      const second = store.add({ Tickets: [5] });
      expect(store.value.busy).to.equal('add');
      gate.resolve();
      const [a, b] = await Promise.all([first, second]);
      expect(a).to.equal(b);
      expect(api.callsTo('createBasket')).to.have.length(1);
      expect(api.callsTo('addTickets')).to.have.length(1);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 5']);
      expect(store.value.busy).to.equal(null);
    });

    it('runs a different add after the one in flight, instead of dropping it', async () => {
      const { api, handlers, store, service } = setup();
      const gate = deferred<void>();
      const real = service.handlers.addTickets;
      const started: number[] = [];
      handlers.addTickets = async (args) => {
        started.push(args.body.Tickets?.[0] ?? 0);
        if (started.length === 1) await gate.promise;
        if (!real) throw new Error('no handler');
        return real(args);
      };
      const first = store.add({ Tickets: [5] });
      const second = store.add({ Tickets: [6] });
      await until(() => started.length > 0);
      for (let i = 0; i < 20; i++) await Promise.resolve();
      expect(started).to.deep.equal([5]);
      gate.resolve();
      const [a, b] = await Promise.all([first, second]);
      expect(a.ok && b.ok).to.equal(true);
      expect(started).to.deep.equal([5, 6]);
      expect(api.callsTo('createBasket')).to.have.length(1);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 5', 'Show 6']);
    });

    it('keeps the basket it just created when the first add is refused, so the next add reuses it', async () => {
      const { api, handlers, store, service } = setup();
      handlers.addTickets = ({ basketId }) => {
        throw apiError('addTickets', 409, refusedAdd(service.content(basketId), 'TicketNotAvailable', 1));
      };
      const refused = await store.add({ Tickets: [1] });
      expect(refused.ok).to.equal(false);
      handlers.addTickets = service.handlers.addTickets;
      await store.add({ Tickets: [2] });
      expect(api.callsTo('createBasket')).to.have.length(1);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 2']);
    });
  });

  describe('the BasketId across reloads', () => {
    it('keeps the id per endpoint, and a new store on the same endpoint refreshes the same basket', async () => {
      const first = setup();
      await first.store.add({ Tickets: [3] });
      const id = first.store.value.basketId;
      expect(storedId(first.storage)).to.equal(id);

      const reloaded = first.reload();
      expect(reloaded.value.basketId).to.equal(id);
      await settled(reloaded);
      expect(first.api.callsTo('getBasket')).to.deep.equal([{ basketId: id }]);
      expect(itemNames(reloaded.value.content)).to.deep.equal(['Show 3']);

      // Another endpoint on the same page (same storage) knows nothing of it.
      const other = setup({ storage: first.storage, storageKey: 'https://other.example/api' });
      expect(other.store.value.basketId).to.equal(null);
      expect(other.api.calls).to.deep.equal([]);
    });

    it('uses the real localStorage by default, keyed by the endpoint, shared by every tab of the site', async () => {
      const clock = new ServerClock();
      const service = fakeBasketService({ clock });
      const api = fakeApi(service.handlers, { clock, endpoint: '/api-local-test' });
      const config = resolveConfig({ endpoint: `/api-local-test-${Date.now()}` });
      const key = `stagedoor:basket:${endpointKey(config.endpoint)}`;
      try {
        const booking = createBooking(config, { api });
        await booking.basket.add({ Tickets: [9] });
        expect(storedId(localStorage, key)).to.equal(booking.basket.value.basketId);
        expect(sessionStorage.getItem(key)).to.equal(null);

        const again = createBooking(config, { api });
        await settled(again.basket);
        expect(again.basket.value.basketId).to.equal(booking.basket.value.basketId);
        expect(itemNames(again.basket.value.content)).to.deep.equal(['Show 9']);
        booking.basket.dispose();
        again.basket.dispose();
      } finally {
        localStorage.removeItem(key);
      }
    });

    it('lets the kept id lapse with the hold: past it, a new page restores nothing and asks nothing', async () => {
      const first = setup();
      await first.store.add({ Tickets: [3] });
      const raw = JSON.parse(first.storage.getItem('stagedoor:basket:https://tickets.example/api') ?? '{}') as { until: number };
      // Kept until the hold's end (10 minutes by the fake service), by this browser's clock.
      expect(raw.until - Date.now()).to.be.within(9 * MINUTE, 10 * MINUTE + 2000);
      first.storage.setItem('stagedoor:basket:https://tickets.example/api', JSON.stringify({ basketId: first.store.value.basketId, until: Date.now() - 1 }));
      const calls = first.api.calls.length;
      const reloaded = first.reload();
      expect(reloaded.value.basketId).to.equal(null);
      expect(first.storage.getItem('stagedoor:basket:https://tickets.example/api')).to.equal(null);
      expect(first.api.calls.length).to.equal(calls);
    });

    it('where storage is refused (reading throws, or the quota is full), keeps the basket within the tab and says nothing', async () => {
      const clock = new ServerClock();
      const service = fakeBasketService({ clock });
      const api = fakeApi(service.handlers, { clock });
      const config = resolveConfig({ endpoint: `/api-refused-${Date.now()}` });
      const errors = sinon.spy(console, 'error');
      const warnings = sinon.spy(console, 'warn');
      const getter = sinon.stub(window, 'localStorage').get(() => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      });
      try {
        const booking = createBooking(config, { api });
        const added = await booking.basket.add({ Tickets: [5] });
        expect(added.ok).to.equal(true);
        expect(booking.basket.value.basketId).to.be.a('string');
        await booking.basket.remove(booking.basket.value.content?.Items[0]?.BasketItemId ?? 0);
        await booking.basket.add({ Tickets: [6] });
        expect(itemNames(booking.basket.value.content)).to.deep.equal(['Show 6']);
        expect(booking.basket.value.error).to.equal(null);
        booking.basket.dispose();
      } finally {
        getter.restore();
      }
      const full = sinon.stub(Storage.prototype, 'setItem').throws(new DOMException('full', 'QuotaExceededError'));
      try {
        const booking = createBooking(resolveConfig({ endpoint: `/api-full-${Date.now()}` }), { api });
        expect((await booking.basket.add({ Tickets: [7] })).ok).to.equal(true);
        expect(booking.basket.value.error).to.equal(null);
        booking.basket.dispose();
      } finally {
        full.restore();
        errors.restore();
        warnings.restore();
      }
      expect(errors.called || warnings.called).to.equal(false);
    });

    for (const status of [403, 404]) {
      it(`drops a stored id the service answers ${status}, with no error shown`, async () => {
        const first = setup();
        await first.store.add({ Tickets: [3] });
        const id = first.store.value.basketId ?? '';
        first.handlers.getBasket = () => {
          throw apiError('getBasket', status);
        };
        const reloaded = first.reload();
        await settled(reloaded);
        expect(reloaded.value.basketId).to.equal(null);
        expect(reloaded.value.content).to.equal(null);
        expect(reloaded.value.error).to.equal(null);
        expect(storedId(first.storage)).to.equal(null);

        // The next add starts a new basket.
        await reloaded.add({ Tickets: [4] });
        expect(first.api.callsTo('createBasket')).to.have.length(2);
        expect(reloaded.value.basketId).to.not.equal(id);
      });
    }
  });

  describe('after a failure the last good basket stays', () => {
    const cases: { name: string; fail: (s: Setup, basketId: string) => unknown; kind: string; check?: (s: Setup) => void }[] = [
      {
        name: '409 seats no longer available',
        kind: 'unavailable',
        fail: (s, basketId) => {
          throw apiError('addTickets', 409, refusedAdd(s.service.content(basketId), 'TicketNotAvailable', 1));
        },
      },
      {
        name: '409 BookableTicketsExceeded',
        kind: 'bookable-exceeded',
        fail: (s, basketId) => {
          throw apiError('addTickets', 409, refusedAdd(s.service.content(basketId), 'BookableTicketsExceeded', 8, 2));
        },
        check: (s) => {
          expect(s.store.value.error?.bookableTicketsCount).to.equal(2);
          expect(s.store.value.error?.message).to.contain('2');
        },
      },
      {
        name: '200 Success false with a FailureReason',
        kind: 'rejected',
        fail: (s, basketId) => refusedAdd(s.service.content(basketId), 'TicketLeavesSingleSeat', 5),
        check: (s) => expect(s.store.value.error?.reason).to.equal('TicketLeavesSingleSeat'),
      },
      {
        name: '502 supplier failure',
        kind: 'supplier',
        fail: () => {
          throw apiError('addTickets', 502);
        },
        check: (s) => expect(s.store.value.error?.retryable).to.equal(true),
      },
      {
        name: 'no answer (network)',
        kind: 'network',
        fail: () => {
          throw networkError('addTickets');
        },
        check: (s) => expect(s.store.value.error?.retryable).to.equal(true),
      },
    ];

    for (const c of cases) {
      it(`${c.name}: keeps the basket and says what failed`, async () => {
        const s = setup();
        await s.store.add({ Tickets: [1] });
        const good = s.store.value.content;
        const basketId = s.store.value.basketId ?? '';
        s.handlers.addTickets = () => c.fail(s, basketId) as AddTicketsResult;

        const outcome = await s.store.add({ Tickets: [2] });
        expect(outcome.ok).to.equal(false);
        expect(s.store.value.basketId).to.equal(basketId);
        expect(itemNames(s.store.value.content)).to.deep.equal(itemNames(good));
        expect(storedId(s.storage)).to.equal(basketId);
        const error = s.store.value.error;
        expect(error?.action).to.equal('add');
        expect(error?.kind).to.equal(c.kind);
        expect(error?.message).to.be.a('string').and.not.equal('');
        c.check?.(s);

        // The next success clears the error.
        s.handlers.addTickets = s.service.handlers.addTickets;
        await s.store.add({ Tickets: [3] });
        expect(s.store.value.error).to.equal(null);
        expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1', 'Show 3']);
      });
    }

    it('a failed refresh keeps the basket and says so', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      s.handlers.getBasket = () => {
        throw networkError('getBasket');
      };
      const outcome = await s.store.refresh();
      expect(outcome.ok).to.equal(false);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1']);
      expect(s.store.value.error?.kind).to.equal('network');
    });
  });

  describe('remove and clear', () => {
    it('removes one item and keeps the rest', async () => {
      const { api, store } = setup();
      await store.add({ Tickets: [1] });
      await store.add({ Tickets: [2] });
      const first = store.value.content?.Items[0];
      if (!first) throw new Error('no item');
      await store.remove(first.BasketItemId);
      expect(api.callsTo('deleteBasketItem')).to.deep.equal([{ basketId: store.value.basketId, basketItemId: first.BasketItemId }]);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 2']);
    });

    it('removes two items clicked in quick succession (neither is dropped)', async () => {
      const { api, store } = setup();
      await store.add({ Tickets: [1] });
      await store.add({ Tickets: [2] });
      await store.add({ Tickets: [3] });
      const [a, b] = store.value.content?.Items ?? [];
      if (!a || !b) throw new Error('no items');
      await Promise.all([store.remove(a.BasketItemId), store.remove(b.BasketItemId)]);
      expect(api.callsTo('deleteBasketItem')).to.have.length(2);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 3']);
    });

    it('forgets the basket when its last item is removed', async () => {
      const { store, storage } = setup();
      await store.add({ Tickets: [1] });
      const item = store.value.content?.Items[0];
      if (!item) throw new Error('no item');
      await store.remove(item.BasketItemId);
      expect(store.value.basketId).to.equal(null);
      expect(store.value.content).to.equal(null);
      expect(storage.map.size).to.equal(0);
    });

    it('clear releases everything and forgets the id; the next add starts a new basket', async () => {
      const { api, store, storage } = setup();
      await store.add({ Tickets: [1] });
      const id = store.value.basketId;
      const outcome = await store.clear();
      expect(outcome.ok).to.equal(true);
      expect(api.callsTo('deleteAllFromBasket')).to.deep.equal([{ basketId: id }]);
      expect(store.value).to.include({ basketId: null, content: null, error: null });
      expect(storage.map.size).to.equal(0);
      await store.add({ Tickets: [2] });
      expect(api.callsTo('createBasket')).to.have.length(2);
    });

    it('clear on a basket the service already emptied (403) forgets it without an error', async () => {
      const { store, handlers } = setup();
      await store.add({ Tickets: [1] });
      handlers.deleteAllFromBasket = () => {
        throw apiError('deleteAllFromBasket', 403);
      };
      const outcome = await store.clear();
      expect(outcome.ok).to.equal(true);
      expect(store.value).to.include({ basketId: null, content: null, error: null });
    });

    it('removing an item the service already let go (404) keeps every other item still held', async () => {
      const { store, handlers, service } = setup();
      await store.add({ Tickets: [1] });
      await store.add({ Tickets: [2] });
      const [gone, kept] = store.value.content?.Items ?? [];
      if (!gone || !kept) throw new Error('no items');
      const basketId = store.value.basketId ?? '';
      // Upstream, item 1's hold ran out before our refresh: deleting it is a 404 about the item, not the basket.
      service.baskets.set(basketId, (service.baskets.get(basketId) ?? []).filter((i) => i.BasketItemId !== gone.BasketItemId));
      handlers.deleteBasketItem = () => {
        throw apiError('deleteBasketItem', 404, { Message: `Basket item ${gone.BasketItemId} is not in basket.` });
      };
      const outcome = await store.remove(gone.BasketItemId);
      expect(outcome.ok).to.equal(true);
      expect(store.value.basketId).to.equal(basketId);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 2']);
      expect(store.value.error).to.equal(null);
    });

    it('removing from a basket the service no longer knows (404 on the re-read too) forgets it without an error', async () => {
      const { store, handlers, service, storage } = setup();
      await store.add({ Tickets: [1] });
      const item = store.value.content?.Items[0];
      if (!item) throw new Error('no item');
      service.drop(store.value.basketId ?? '');
      handlers.deleteBasketItem = () => {
        throw apiError('deleteBasketItem', 404);
      };
      handlers.getBasket = () => {
        throw apiError('getBasket', 404);
      };
      expect((await store.remove(item.BasketItemId)).ok).to.equal(true);
      expect(store.value).to.include({ basketId: null, content: null, error: null });
      expect(storage.map.size).to.equal(0);
    });

    it('a remove that fails keeps the item and says so', async () => {
      const { store, handlers } = setup();
      await store.add({ Tickets: [1] });
      handlers.deleteBasketItem = () => {
        throw apiError('deleteBasketItem', 502);
      };
      const item = store.value.content?.Items[0];
      if (!item) throw new Error('no item');
      const outcome = await store.remove(item.BasketItemId);
      expect(outcome.ok).to.equal(false);
      expect(itemNames(store.value.content)).to.deep.equal(['Show 1']);
      expect(store.value.error).to.include({ action: 'remove', kind: 'supplier' });
    });
  });

  describe('expiry by the server clock', () => {
    let timers: sinon.SinonFakeTimers;
    // The visitor's clock is 15 minutes behind the server: a store that trusted
    // Date.now() would wait 25 minutes instead of 10.
    const serverStart = Date.UTC(2026, 6, 1, 17, 0, 0);
    const skew = -15 * MINUTE;

    beforeEach(() => {
      timers = sinon.useFakeTimers({ now: serverStart + skew, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    });
    afterEach(() => timers.restore());

    function skewedSetup(): Setup {
      const clock = new ServerClock();
      clock.offset = -skew;
      return setup({ clock });
    }

    it('refreshes by itself when an item runs out and reports it released, keeping the others', async () => {
      const s = skewedSetup();
      expect(s.clock.now()).to.equal(serverStart);
      await s.store.add({ Tickets: [1] });
      await timers.tickAsync(3 * MINUTE);
      await s.store.add({ Tickets: [2] });
      const [first, second] = s.store.value.content?.Items ?? [];
      expect(s.api.callsTo('getBasket')).to.have.length(0);

      await timers.tickAsync(7 * MINUTE - 1000); // 1 s before the first hold ends (server time)
      expect(s.api.callsTo('getBasket')).to.have.length(0);
      expect(s.store.value.released).to.deep.equal([]);

      await timers.tickAsync(2000);
      expect(s.api.callsTo('getBasket')).to.have.length(1);
      expect(s.store.value.released).to.deep.equal([first]);
      expect(s.store.value.expiryCount).to.equal(1);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 2']);
      expect(s.store.value.error).to.equal(null);

      await timers.tickAsync(3 * MINUTE);
      expect(s.store.value.released).to.deep.equal([second]);
      expect(s.store.value.expiryCount).to.equal(2);
      expect(s.store.value.basketId).to.equal(null);
      expect(s.store.value.content).to.equal(null);
      expect(s.storage.map.size).to.equal(0);
    });

    it('retries an expiry refresh that failed, then reports the release', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      s.handlers.getBasket = () => {
        throw apiError('getBasket', 502);
      };
      await timers.tickAsync(10 * MINUTE + 1000);
      expect(s.api.callsTo('getBasket').length).to.be.greaterThan(0);
      expect(s.store.value.error?.action).to.equal('refresh');
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1']);

      s.handlers.getBasket = s.service.handlers.getBasket;
      await timers.tickAsync(30_000);
      expect(s.store.value.released.map((i) => i.EventName)).to.deep.equal(['Show 1']);
      expect(s.store.value.error).to.equal(null);
      expect(s.store.value.content).to.equal(null);
    });

    it('does not poll in a tight loop while the service still holds an expired item', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      const item = s.store.value.content;
      // A service that is late to release: it keeps answering the item.
      s.handlers.getBasket = () => item as BasketContent;
      await timers.tickAsync(10 * MINUTE + 60_000);
      const calls = s.api.callsTo('getBasket').length;
      expect(calls).to.be.greaterThan(0);
      expect(calls).to.be.lessThan(10);
    });

    it('checkExpiry refreshes only when a hold has run out by the server clock', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      s.store.checkExpiry();
      await settled(s.store);
      expect(s.api.callsTo('getBasket')).to.have.length(0);
      // Move the server clock past the hold without running the store's own timer.
      s.clock.offset += 11 * MINUTE;
      s.store.checkExpiry();
      await settled(s.store);
      expect(s.api.callsTo('getBasket')).to.have.length(1);
      expect(s.store.value.released.map((i) => i.EventName)).to.deep.equal(['Show 1']);
    });

    it('two tabs whose holds run out together: the other tab\'s news of the release keeps what this one found released', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      const other = s.reload();
      await timers.tickAsync(0);
      expect(itemNames(other.value.content)).to.deep.equal(['Show 1']);
      await timers.tickAsync(10 * MINUTE + 1000);
      // Each tab's own timer found the release.
      for (const tab of [s.store, other]) {
        expect(tab.value.released.map((i) => i.EventName)).to.deep.equal(['Show 1']);
        expect(tab.value.basketId).to.equal(null);
      }
      // Then each hears the other's message of it: still released, still offered again.
      await other.adopt('expiry', { basketId: null });
      await s.store.adopt('expiry', { basketId: null });
      for (const tab of [s.store, other]) {
        expect(tab.value.released.map((i) => i.EventName)).to.deep.equal(['Show 1']);
        expect(tab.value.expiryCount).to.equal(1);
      }
      // Seats held again in one tab: the other's release is over.
      await s.store.add({ Tickets: [1] });
      await other.adopt('add', { basketId: s.store.value.basketId });
      expect(other.value.released).to.deep.equal([]);
    });

    it('clearReleased forgets the released items (the visitor started again)', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      await timers.tickAsync(10 * MINUTE + 1000);
      expect(s.store.value.released).to.have.length(1);
      s.store.clearReleased();
      expect(s.store.value.released).to.deep.equal([]);
      expect(s.store.value.expiryCount).to.equal(1);
    });

    it('the next add after an expiry forgets the released items', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      await timers.tickAsync(10 * MINUTE + 1000);
      expect(s.store.value.released).to.have.length(1);
      await s.store.add({ Tickets: [2] });
      expect(s.store.value.released).to.deep.equal([]);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 2']);
    });

    it('reads an expiry in the repeated hour of the October clock change as minutes away, not an hour ago', async () => {
      timers.setSystemTime(Date.UTC(2026, 9, 25, 0, 58) + skew); // server: 01:58 BST, two minutes before clocks go back
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] }); // held until 01:08 GMT: "2026-10-25T01:08:00", a wall time that occurs twice
      expect(s.store.value.content?.Items[0]?.ExpirationDate).to.match(/^2026-10-25T01:08:00/);
      expect(s.store.nextExpiry()).to.equal(s.clock.now() + 10 * MINUTE);
      await timers.tickAsync(9 * MINUTE);
      expect(s.api.callsTo('getBasket')).to.have.length(0);
      await timers.tickAsync(MINUTE + 1000);
      expect(s.store.value.released.map((i) => i.EventName)).to.deep.equal(['Show 1']);
    });

    it('a refresh that started before an add does not wipe the added item', async () => {
      const s = skewedSetup();
      await s.store.add({ Tickets: [1] });
      const gate = deferred<void>();
      const before = s.service.content(s.store.value.basketId ?? '');
      s.handlers.getBasket = async () => {
        await gate.promise;
        return before;
      };
      const refresh = s.store.refresh();
      await s.store.add({ Tickets: [2] });
      gate.resolve();
      await refresh;
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1', 'Show 2']);
    });
  });

  describe('payment hand-over', () => {
    it('submitted: the store starts afresh and the id waits for the return page', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const id = s.store.value.basketId;
      s.store.submitted();
      expect(s.store.value).to.include({ basketId: null, content: null });
      expect(s.store.awaitingPayment).to.equal(id);
      // The return page is a new page load: a new store on the same endpoint.
      const back = s.reload();
      expect(back.value.basketId).to.equal(null);
      expect(back.awaitingPayment).to.equal(id);
      back.completed();
      expect(back.awaitingPayment).to.equal(null);
      expect(s.storage.map.size).to.equal(0);
    });

    it('resumeAfterFailedPayment brings the basket back when the service still holds it', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const id = s.store.value.basketId;
      s.store.submitted();
      const back = s.reload();
      expect(await back.resumeAfterFailedPayment()).to.equal(true);
      expect(back.value.basketId).to.equal(id);
      expect(itemNames(back.value.content)).to.deep.equal(['Show 1']);
      expect(back.awaitingPayment).to.equal(null);
      expect(storedId(s.storage)).to.equal(id);
    });

    it('resumeAfterFailedPayment that cannot reach the service: null (unknown), the id kept for a later refresh', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const id = s.store.value.basketId;
      s.store.submitted();
      const back = s.reload({ restore: false });
      const getBasket = s.handlers.getBasket;
      s.handlers.getBasket = () => {
        throw networkError('getBasket');
      };
      expect(await back.resumeAfterFailedPayment()).to.equal(null);
      expect(back.value.basketId).to.equal(id);
      expect(back.value.error).to.include({ kind: 'network' });
      // The network comes back: the basket, still held, returns.
      s.handlers.getBasket = getBasket;
      expect((await back.refresh()).ok).to.equal(true);
      expect(itemNames(back.value.content)).to.deep.equal(['Show 1']);
    });

    it('resumeAfterFailedPayment on a basket the service dropped: false, nothing kept, no error', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      s.service.drop(s.store.value.basketId ?? '');
      s.store.submitted();
      const back = s.reload();
      expect(await back.resumeAfterFailedPayment()).to.equal(false);
      expect(back.value).to.include({ basketId: null, content: null, error: null });
      expect(s.storage.map.size).to.equal(0);
    });

    it('a payment begun in another tab: this tab lets that basket go even while its storage still names it, and does not read it again', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const id = s.store.value.basketId;
      // The other tab, showing the same basket.
      const other = s.reload();
      await until(() => other.value.content !== null);
      const told: SharedAbout[] = [];
      s.store.onSharedChange((change, about) => void (change === 'payment' && told.push(about)));
      s.store.submitted({ redirectUrl: 'https://pay.example/1' });
      expect(told).to.have.length(1);
      // Its storage lags the message (another tab's writes arrive in their own time): the id still
      // there (or kept again by a read of its own that crossed the message), the payment not yet.
      s.storage.setItem('stagedoor:basket:https://tickets.example/api', JSON.stringify({ basketId: id, until: Date.now() + 10 * MINUTE }));
      const kept = s.storage.map.get('stagedoor:payment:https://tickets.example/api');
      s.storage.removeItem('stagedoor:payment:https://tickets.example/api');
      const getBasket = s.handlers.getBasket;
      let reads = 0;
      s.handlers.getBasket = (...args) => {
        reads++;
        return getBasket!(...args);
      };
      await other.adopt('payment', told[0]);
      expect(other.value).to.include({ basketId: null, content: null });
      expect(reads).to.equal(0);
      expect(storedId(s.storage)).to.equal(null);
      // The payment to continue, from the message.
      expect(other.awaitingPayment).to.equal(id);
      expect(other.pendingRecord).to.include({ redirectUrl: 'https://pay.example/1' });
      // Then storage catches up, and the booking completed there: nothing is left over from the message.
      if (kept) s.storage.setItem('stagedoor:payment:https://tickets.example/api', kept);
      s.store.completed();
      await other.adopt('completed');
      expect(other.awaitingPayment).to.equal(null);
    });
  });
  describe('an add whose answer was lost', () => {
    /** The service makes the add, then its answer is lost on the way back (no answer). */
    const landsThenLost = (s: Setup) => {
      const real = s.service.handlers.addTickets;
      s.handlers.addTickets = (args) => {
        real?.(args);
        throw networkError('addTickets');
      };
    };

    it('"Try again" reads the basket first: what the lost add made is kept once, and it is told as added', async () => {
      const s = setup();
      landsThenLost(s);
      // The read just after is lost too (the connection is still down).
      s.handlers.getBasket = () => {
        throw networkError('getBasket');
      };
      const lost = await s.store.add({ Tickets: [4] });
      expect(lost.ok).to.equal(false);
      expect(s.store.value.error?.retryable).to.equal(true);
      const basketId = s.store.value.basketId ?? '';
      expect(itemNames(s.service.content(basketId)), 'the service made it').to.deep.equal(['Show 4']);

      s.handlers.addTickets = s.service.handlers.addTickets;
      s.handlers.getBasket = s.service.handlers.getBasket;
      const again = await s.store.add({ Tickets: [4] });
      expect(again.ok).to.equal(true);
      expect(s.api.callsTo('addTickets'), 'sent once').to.have.length(1);
      expect(itemNames(s.service.content(basketId))).to.deep.equal(['Show 4']);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 4']);
      expect(s.store.value.error).to.equal(null);
    });

    it('the service\'s "taken" for seats its own basket holds since (the lost add landed late) is the add made', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const basketId = s.store.value.basketId ?? '';
      const before = s.service.content(basketId);
      s.handlers.addTickets = () => {
        throw networkError('addTickets');
      };
      expect((await s.store.add({ Tickets: [2] })).ok).to.equal(false);
      // It lands after the read that found nothing; the retry is refused for seats now held by this very basket.
      s.handlers.getBasket = () => before;
      s.handlers.addTickets = () => {
        s.service.addItem(basketId, 2);
        throw apiError('addTickets', 409, refusedAdd(s.service.content(basketId), 'TicketNotAvailable', 1));
      };
      const again = await s.store.add({ Tickets: [2] });
      expect(again.ok).to.equal(true);
      expect(s.store.value.error).to.equal(null);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1', 'Show 2']);
    });

    it('a refusal is an answer: no read, and the next add is sent at once', async () => {
      const s = setup();
      await s.store.add({ Tickets: [1] });
      const reads = s.api.callsTo('getBasket').length;
      s.handlers.addTickets = () => {
        throw apiError('addTickets', 400);
      };
      expect((await s.store.add({ Tickets: [2] })).ok).to.equal(false);
      s.handlers.addTickets = s.service.handlers.addTickets;
      expect((await s.store.add({ Tickets: [2] })).ok).to.equal(true);
      expect(s.api.callsTo('getBasket').length).to.equal(reads);
      expect(itemNames(s.store.value.content)).to.deep.equal(['Show 1', 'Show 2']);
    });
  });
});
