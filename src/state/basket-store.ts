/**
 * The basket store: the one basket every element on a page shares.
 *
 * - The basket is created lazily, on the first add (no empty baskets for
 *   visitors who only browse).
 * - One request per change: a double click adds once (the same add while one
 *   is in flight returns that one's promise); a different add, remove or clear
 *   waits for the change in flight and then runs, so none is dropped.
 * - The BasketId is kept in localStorage per endpoint (basket-record.ts, what
 *   is kept and for how long), so every tab and window of the site, a reload
 *   and the return from the payment page continue the same basket
 *   (basket-sync.ts tells the other tabs of each change). It is forgotten when
 *   the basket is emptied, expires, or the service answers 403/404.
 * - After any failure the store still holds the last good basket and says
 *   what failed (`error`, worded by basket-failure.ts, loaded lazily).
 * - Expiry: when an item's ExpirationDate passes by the server's clock
 *   (basket-expiry.ts), the store refreshes the basket and reports which
 *   items were released. A refresh that fails, or a service late to release,
 *   is retried with backoff (1 s doubling to 30 s), never in a tight loop.
 *
 * What it does with the service (each request and what its answer means, the
 * expiry timer) is basket-engine.ts, loaded with the first request: a page that
 * shows no basket never fetches it.
 *
 * Its types are in basket-types.ts; they, the storage wrappers and the
 * payment timeout are exported from here too.
 */
import type { ApiClient } from '../api/client.ts';
import { networkMessage } from './network-message.ts';
import type { AddTicketsV2Body, BasketItem } from '../api/types.ts';
import { BasketRecordStore, EMPTY_RELEASED, storedId } from './basket-record.ts';
import type { BasketEngine } from './basket-engine.ts';
import type { LostAdd } from './basket-reconcile.ts';
import type { AddOutcome, BasketAction, BasketFailure, BasketFailureKind, BasketState, BasketStoreOptions, BasketWords, ChangeOutcome, SharedAbout, SharedChange } from './basket-types.ts';

export { PAYMENT_TIMEOUT_MS, safeLocalStorage, safeSessionStorage, type KeyValueStorage } from './basket-record.ts';
export type * from './basket-types.ts';

/** A failure of a basket action, its sentence made when read (so a language change follows). */
export function basketFailure(
  action: BasketAction,
  kind: BasketFailureKind,
  message: () => string,
  extra: Partial<Pick<BasketFailure, 'status' | 'reason' | 'bookableTicketsCount' | 'retryable'>> = {},
): BasketFailure {
  return Object.freeze({
    action,
    kind,
    get message() {
      return message();
    },
    status: extra.status ?? null,
    reason: extra.reason ?? null,
    bookableTicketsCount: extra.bookableTicketsCount ?? null,
    retryable: extra.retryable ?? false,
  });
}

/** The failure words (basket-failure.ts), once loaded. */
let loadedWords: BasketWords | null = null;

/**
 * basket-failure.ts, loaded: from then on, failures are worded without waiting. Parts of elements
 * that change the basket (the seat picker's Add, the checkout's basket) give it as they load.
 */
export function provideBasketWords(words: BasketWords): void {
  loadedWords = words;
}

/** The failure words, when loaded (basket-engine.ts words a failure without waiting then). */
export const loadedBasketWords = (): BasketWords | null => loadedWords;

/** When not even the words of a failure could be fetched, there is no connection. */
export const offlineFailure = (action: BasketAction) => basketFailure(action, 'network', networkMessage, { retryable: true });

/** basket-engine.ts, once loaded (it gives itself here as it loads). */
let loadedEngine: BasketEngine | null = null;
let engineLoad: Promise<BasketEngine> | undefined;

/** Called by basket-engine.ts as it loads: from then on the store's requests start without waiting. */
export function provideBasketEngine(engine: BasketEngine): void {
  loadedEngine = engine;
}

/** basket-engine.ts: asked for with the store's first request, and again after a failed load. */
function basketEngine(): Promise<BasketEngine> {
  if (loadedEngine) return Promise.resolve(loadedEngine);
  return (engineLoad ??= import('./basket-engine.ts').then(({ basketEngine: engine }) => (loadedEngine = engine)).catch((error: unknown) => {
    engineLoad = undefined;
    throw error;
  }));
}

export class BasketStore extends BasketRecordStore {
  readonly api: ApiClient;
  /** Listeners to changes made here (basket-sync.ts tells the other tabs). */
  private readonly shared = new Set<(change: SharedChange, about: SharedAbout) => void>();
  private readonly disposers: (() => void)[] = [];
  /** Disposed: the page no longer shows this basket (nothing it hears should act on it). */
  disposed = false;
  /** Requests in flight by key (`add:<body>`, `remove:<id>`, `clear`, `refresh`). */
  private inflight = new Map<string, { action: BasketAction; promise: Promise<unknown> }>();
  /** The tail of the queue of changes (add, remove, clear run one after another). */
  private changes: Promise<unknown> = Promise.resolve();
  private wordsLoad: Promise<BasketWords> | undefined;

  // What basket-engine.ts keeps here between requests (for it alone).
  /** @internal The service's time zone (expiry instants are read in it). */
  readonly timeZone: string;
  /** @internal While above zero, what changes was learnt from another tab: not told again. */
  adopting = 0;
  /** @internal Counts accepted changes, so a refresh that started before one does not undo it. */
  changeVersion = 0;
  /** @internal */
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** @internal Expiry refreshes in a row that found a hold past due (drives the backoff). */
  expiryAttempts = 0;
  /** @internal The basket being created (the first add). */
  creating: Promise<string> | undefined;
  /** @internal Adds whose answer was lost, by key (basket-reconcile.ts): read the basket before sending one again. */
  readonly lostAdds = new Map<string, LostAdd>();

  constructor(options: BasketStoreOptions) {
    super(options);
    this.api = options.api;
    this.timeZone = options.timeZone;
    if (this.value.basketId && options.restore !== false) void this.refresh();
  }

  /** Total of the basket's items (without delivery). */
  get subtotal(): number {
    return (this.value.content?.Items ?? []).reduce((sum, item) => sum + item.PriceSubTotal, 0);
  }

  /** @internal For basket-engine.ts. */
  override patch(changes: Partial<BasketState>): void {
    super.patch(changes);
  }

  // ------------------------------------------------------------------ actions

  /**
   * Add tickets (specific seats or best seats). Creates the basket on the first
   * add. The same add while it is in flight returns the same promise (a double
   * click adds once); a different one runs after it.
   */
  add(body: AddTicketsV2Body): Promise<AddOutcome> {
    return this.change('add', `add:${JSON.stringify(body)}`, () => this.withEngine('add', (e) => e.add(this, body)));
  }

  /** Remove one item. A basket the service no longer knows (403/404) is forgotten without an error. */
  remove(basketItemId: number): Promise<ChangeOutcome> {
    return this.change('remove', `remove:${basketItemId}`, () => this.withEngine('remove', (e) => e.remove(this, basketItemId)));
  }

  /**
   * Remove everything and forget the basket. A 403/404 (the service says the
   * basket is already empty or gone) is the same outcome: forgotten, no error.
   */
  clear(): Promise<ChangeOutcome> {
    return this.change('clear', 'clear', () => this.withEngine('clear', (e) => e.clear(this)));
  }

  /**
   * Read the basket again. Items gone since the last read and past their
   * expiry are reported as `released`. A basket the service no longer knows
   * (403/404) is forgotten without an error.
   */
  refresh(): Promise<ChangeOutcome> {
    return this.track('refresh', 'refresh', () => this.withEngine('refresh', (e) => e.refresh(this)));
  }

  /** Refresh now if any item's expiry has passed by the server's clock (e.g. when a page becomes visible). */
  checkExpiry(): void {
    const next = this.nextExpiry();
    if (next !== null && next <= this.api.clock.now()) void this.refresh();
  }

  /** Forget the basket (emptied, expired, or invalid). */
  forget(): void {
    this.dropBasketKey();
    this.clearExpiryTimer();
    this.patch({ basketId: null, content: null, error: null });
  }

  /** Forget the items the latest expiry released (the visitor read it and started again). */
  clearReleased(): void {
    if (this.value.released.length) this.patch({ released: EMPTY_RELEASED });
  }

  /** Clear the last error (the visitor dismissed it). */
  dismissError(): void {
    if (this.value.error) this.patch({ error: null });
  }

  // ------------------------------------------------------------------ other tabs

  /**
   * Listen to changes made in this tab (not those learnt from another): what basket-sync.ts tells the others.
   * `about`: what the change is about (the basket, the booking), for the message.
   */
  onSharedChange(listener: (change: SharedChange, about: SharedAbout) => void): () => void {
    this.shared.add(listener);
    return () => this.shared.delete(listener);
  }

  /** Run `dispose` with the store's own (the sync's channel closes with the store). */
  addDisposer(dispose: () => void): void {
    this.disposers.push(dispose);
  }

  /** @internal Tell the other tabs of a change made here (not one learnt from them). */
  share(change: SharedChange, about: SharedAbout = { basketId: this.value.basketId }): void {
    if (this.adopting > 0) return;
    for (const listener of [...this.shared]) listener(change, about);
  }

  /**
   * Another tab changed the basket: take what it kept (the basket id, or none) and read the
   * basket once. After an expiry there, the basket this tab shows is read first, so that this
   * tab shows which tickets were released too.
   *
   * `about.basketId` of a 'payment': the basket another tab sent to payment. That one is
   * never taken again here, whatever this tab still reads in storage: another tab's storage
   * writes reach this one in their own time, not in step with its messages, and a read of the
   * basket that crossed the message may have kept the id again. Taking it would show its form
   * beside the unfinished payment, and let a second order be sent for one basket. Its
   * `about.record` stands for the stored payment record until storage has it.
   */
  async adopt(change: SharedChange, about: SharedAbout = { basketId: null }): Promise<void> {
    // Here, not in basket-engine.ts: what needs no request (the payment heard of, the basket id
    // let go or taken) holds even where the engine cannot be fetched; only the reads need it.
    const paid = change === 'payment' ? about.basketId : null;
    this.heardPending = paid !== null && about.record?.basketId === paid ? JSON.stringify(about.record) : null;
    this.adopting++;
    try {
      if (change === 'expiry') {
        // This tab may have found the release itself first (both tabs' timers run out together):
        // the message is then news of the same release, never the end of it.
        if (this.value.basketId) await this.refresh();
      }
      // Seats held again (or a fresh start) there: the release this tab showed is over.
      else if (change !== 'remove' && this.value.released.length) this.patch({ released: EMPTY_RELEASED });
      let stored = storedId(this.storage, this.key);
      if (change === 'payment' && paid !== null && stored === paid) {
        this.storage.removeItem(this.key);
        stored = null;
      }
      if (stored !== this.value.basketId) {
        this.changeVersion++;
        this.clearExpiryTimer();
        this.patch({ basketId: stored, content: null, error: null });
      }
      if (stored) await this.refresh();
    } finally {
      this.adopting--;
    }
  }

  // ------------------------------------------------------------------ internals

  /** Run a request once per key: while it is in flight, the same key gets the same promise. */
  private track<T>(action: BasketAction, key: string, run: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(key);
    if (existing) return existing.promise as Promise<T>;
    if (!loadedWords) void this.words().catch(() => undefined); // what a failure of it would say, fetched while it runs
    this.patch({ busy: action });
    const promise = run().finally(() => {
      this.inflight.delete(key);
      this.patch({ busy: [...this.inflight.values()].at(-1)?.action ?? null });
    });
    this.inflight.set(key, { action, promise });
    return promise;
  }

  /** A change (add, remove, clear): once per key, and after the changes before it. */
  private change<T>(action: BasketAction, key: string, run: () => Promise<T>): Promise<T> {
    return this.track(action, key, () => {
      const next = this.changes.then(run);
      this.changes = next.catch(() => undefined);
      return next;
    });
  }

  /** Run a request with basket-engine.ts; where it cannot be fetched, there is no connection: said, the basket kept. */
  private withEngine<T>(action: BasketAction, run: (engine: BasketEngine) => Promise<T>): Promise<T | { ok: false; error: BasketFailure }> {
    if (loadedEngine) return run(loadedEngine);
    return basketEngine().then(run, () => {
      const error = offlineFailure(action);
      this.patch({ error });
      return { ok: false, error } as const;
    });
  }

  /**
   * The instant (server clock, ms since epoch) an item's hold runs out, read in
   * the service's zone (in the repeated hour of a clock change, the reading
   * nearest now); null when its ExpirationDate is not a DateTime.
   */
  itemExpiry(item: BasketItem): number | null {
    return loadedEngine?.itemExpiry(this, item) ?? null;
  }

  /**
   * The earliest expiry instant of the basket, by its items (MinExpirationDate as a fallback).
   * Only basket-engine.ts gives the store a basket, so there is none to read until it is loaded.
   */
  nextExpiry(): number | null {
    return loadedEngine?.nextExpiry(this) ?? null;
  }

  /** @internal */
  clearExpiryTimer(): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  /** @internal The failure words (basket-failure.ts): asked for with the first request, and again after a failed load. */
  words(): Promise<BasketWords> {
    return (this.wordsLoad ??= import('./basket-failure.ts').then(({ basketWords }) => (provideBasketWords(basketWords), basketWords)).catch((error: unknown) => {
      this.wordsLoad = undefined;
      throw error;
    }));
  }

  /** Stop timers and the other tabs' channel (the last element of this basket left the page). */
  dispose(): void {
    this.disposed = true;
    this.clearExpiryTimer();
    for (const dispose of this.disposers.splice(0)) dispose();
  }
}
