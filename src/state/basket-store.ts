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
 * Its types are in basket-types.ts; they, the storage wrappers and the
 * payment timeout are exported from here too.
 */
import { ApiError, isBasketGone, type ApiClient } from '../api/client.ts';
import { networkMessage } from './network-message.ts';
import type { AddTicketsV2Body, BasketContent, BasketItem } from '../api/types.ts';
import { BasketRecordStore, EMPTY_RELEASED, storedId } from './basket-record.ts';
import { expiresAt, itemExpiry, nextExpiry } from './basket-expiry.ts';
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

/** When not even the words of a failure could be fetched, there is no connection. */
const offlineFailure = (action: BasketAction) => basketFailure(action, 'network', networkMessage, { retryable: true });

export class BasketStore extends BasketRecordStore {
  readonly api: ApiClient;
  /** Listeners to changes made here (basket-sync.ts tells the other tabs). */
  private readonly shared = new Set<(change: SharedChange, about: SharedAbout) => void>();
  /** While above zero, what changes was learnt from another tab: not told again. */
  private adopting = 0;
  private readonly disposers: (() => void)[] = [];
  /** Disposed: the page no longer shows this basket (nothing it hears should act on it). */
  disposed = false;
  private readonly timeZone: string;
  /** Requests in flight by key (`add:<body>`, `remove:<id>`, `clear`, `refresh`). */
  private inflight = new Map<string, { action: BasketAction; promise: Promise<unknown> }>();
  /** The tail of the queue of changes (add, remove, clear run one after another). */
  private changes: Promise<unknown> = Promise.resolve();
  /** Counts accepted changes, so a refresh that started before one does not undo it. */
  private changeVersion = 0;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Expiry refreshes in a row that found a hold past due (drives the backoff). */
  private expiryAttempts = 0;
  private creating: Promise<string> | undefined;
  private wordsLoad: Promise<BasketWords> | undefined;

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

  // ------------------------------------------------------------------ actions

  /**
   * Add tickets (specific seats or best seats). Creates the basket on the first
   * add. The same add while it is in flight returns the same promise (a double
   * click adds once); a different one runs after it.
   */
  add(body: AddTicketsV2Body): Promise<AddOutcome> {
    return this.change('add', `add:${JSON.stringify(body)}`, () => this.doAdd(body));
  }

  /** Remove one item. A basket the service no longer knows (403/404) is forgotten without an error. */
  remove(basketItemId: number): Promise<ChangeOutcome> {
    return this.change('remove', `remove:${basketItemId}`, async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      try {
        const result = await this.api.deleteBasketItem({ basketId, basketItemId });
        this.accept(result.GetBasketContentResult, 'remove');
        return { ok: true } as const;
      } catch (error) {
        if (isBasketGone(error)) {
          // The item is gone, not necessarily the basket: its hold may have run out upstream
          // before our refresh. Read the basket to know, and keep what is still held.
          try {
            this.accept(await this.api.getBasket({ basketId }), 'refresh');
          } catch (again) {
            if (isBasketGone(again)) this.releaseAll();
            else return { ok: false, error: await this.fail('remove', again) } as const;
          }
          return { ok: true } as const;
        }
        return { ok: false, error: await this.fail('remove', error) } as const;
      }
    });
  }

  /**
   * Remove everything and forget the basket. A 403/404 (the service says the
   * basket is already empty or gone) is the same outcome: forgotten, no error.
   */
  clear(): Promise<ChangeOutcome> {
    return this.change('clear', 'clear', async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      try {
        await this.api.deleteAllFromBasket({ basketId });
        this.changeVersion++;
        this.forget();
        this.share('clear');
        return { ok: true } as const;
      } catch (error) {
        if (isBasketGone(error)) {
          this.changeVersion++;
          this.forget();
          return { ok: true } as const;
        }
        return { ok: false, error: await this.fail('clear', error) } as const;
      }
    });
  }

  /**
   * Read the basket again. Items gone since the last read and past their
   * expiry are reported as `released`. A basket the service no longer knows
   * (403/404) is forgotten without an error.
   */
  refresh(): Promise<ChangeOutcome> {
    return this.track('refresh', 'refresh', async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      const version = this.changeVersion;
      try {
        const content = await this.api.getBasket({ basketId });
        // A change landed meanwhile: its answer is newer than this one.
        if (version !== this.changeVersion || basketId !== this.value.basketId) return { ok: true } as const;
        this.accept(content, 'refresh');
        return { ok: true } as const;
      } catch (error) {
        if (version !== this.changeVersion || basketId !== this.value.basketId) return { ok: true } as const;
        if (isBasketGone(error)) {
          this.releaseAll();
          return { ok: true } as const;
        }
        const failure = await this.fail('refresh', error);
        this.scheduleExpiry(); // an expiry refresh that failed is tried again
        return { ok: false, error: failure } as const;
      }
    });
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

  protected share(change: SharedChange, about: SharedAbout = { basketId: this.value.basketId }): void {
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

  private async ensureBasket(): Promise<string> {
    const existing = this.value.basketId;
    if (existing) return existing;
    this.creating ??= this.api
      .createBasket()
      .then((result) => {
        this.keepBasketKey(result.BasketId);
        this.patch({ basketId: result.BasketId });
        return result.BasketId;
      })
      .finally(() => {
        this.creating = undefined;
      });
    return this.creating;
  }

  private async doAdd(body: AddTicketsV2Body, retried = false): Promise<AddOutcome> {
    let basketId: string;
    try {
      basketId = await this.ensureBasket();
    } catch (error) {
      return { ok: false, error: await this.fail('add', error) };
    }
    try {
      const result = await this.api.addTickets({ basketId, body });
      if (result.Success) {
        this.accept(result.GetBasketContentResult, 'add');
        return { ok: true, content: result.GetBasketContentResult };
      }
      const failure = loadedWords ? loadedWords.rejectedFailure(result) : await this.words().then(
        (words) => words.rejectedFailure(result),
        () => offlineFailure('add'),
      );
      this.keepContent(result.GetBasketContentResult);
      this.patch({ error: failure });
      return { ok: false, error: failure };
    } catch (error) {
      // The stored basket is gone upstream (expired long ago, or paid): start a new one, once.
      if (!retried && isBasketGone(error)) {
        this.dropBasketKey();
        this.patch({ basketId: null, content: null });
        return this.doAdd(body, true);
      }
      if (error instanceof ApiError && error.addResult) this.keepContent(error.addResult.GetBasketContentResult);
      return { ok: false, error: await this.fail('add', error) };
    }
  }

  /** Take a basket content that came with a failure, when it is a real one. */
  private keepContent(content: BasketContent | undefined | null): void {
    if (content && Array.isArray(content.Items) && content.BasketId === this.value.basketId) {
      this.accept(content, null);
    }
  }

  /**
   * Take a basket content from the service. `action` null: it came with a
   * failure (a 409 or Success false), which keeps the error and the basket id.
   */
  private accept(content: BasketContent, action: BasketAction | null): void {
    if (action !== 'refresh') this.changeVersion++;
    const previous = this.value.content;
    const now = this.api.clock.now();
    const stillThere = new Set(content.Items.map((i) => i.BasketItemId));
    // Items that vanished without the visitor removing them, and whose hold had run out, were released by expiry.
    const released =
      action === 'refresh' && previous
        ? previous.Items.filter((i) => !stillThere.has(i.BasketItemId) && this.expiresAt(i) <= now + 1000)
        : [];
    const releaseChange: Partial<BasketState> = released.length
      ? { released: Object.freeze(released), expiryCount: this.value.expiryCount + 1, releasedElsewhere: this.adopting > 0 }
      : action === 'add'
        ? { released: EMPTY_RELEASED } // tickets added after an expiry: the visitor started again
        : {};
    if (content.Items.length === 0) {
      this.clearExpiryTimer();
      if (action === null) {
        // An add refused on a new (or emptied) basket: the basket itself is still good, keep its id.
        this.patch({ content: null, ...releaseChange });
        return;
      }
      this.dropBasketKey();
      this.patch({ basketId: null, content: null, error: null, ...releaseChange });
      this.shareAfter(action, released.length > 0);
      return;
    }
    this.patch({
      content,
      basketId: content.BasketId || this.value.basketId,
      error: action ? null : this.value.error,
      ...releaseChange,
    });
    if (this.value.basketId) this.keepBasketKey(this.value.basketId);
    this.scheduleExpiry();
    this.shareAfter(action, released.length > 0);
  }

  /** Tell the other tabs of what `accept` took: an add or remove here, or a release this tab found. */
  private shareAfter(action: BasketAction | null, released: boolean): void {
    if (action === 'add' || action === 'remove') this.share(action);
    else if (released) this.share('expiry');
  }

  private releaseAll(): void {
    const items = this.value.content?.Items ?? [];
    const now = this.api.clock.now();
    const released = items.filter((i) => this.expiresAt(i) <= now + 1000);
    this.dropBasketKey();
    this.clearExpiryTimer();
    this.patch({
      basketId: null,
      content: null,
      error: null,
      ...(released.length ? { released: Object.freeze(released), expiryCount: this.value.expiryCount + 1, releasedElsewhere: this.adopting > 0 } : {}),
    });
    if (released.length) this.share('expiry');
  }

  private expiresAt(item: BasketItem): number {
    return expiresAt(item, this.timeZone, this.api.clock);
  }

  /**
   * The instant (server clock, ms since epoch) an item's hold runs out, read in
   * the service's zone (in the repeated hour of a clock change, the reading
   * nearest now); null when its ExpirationDate is not a DateTime.
   */
  itemExpiry(item: BasketItem): number | null {
    return itemExpiry(item, this.timeZone, this.api.clock);
  }

  /** The earliest expiry instant of the basket, by its items (MinExpirationDate as a fallback). */
  nextExpiry(): number | null {
    return nextExpiry(this.value.content, this.timeZone, this.api.clock);
  }

  private scheduleExpiry(): void {
    this.clearExpiryTimer();
    const next = this.nextExpiry();
    if (next === null) {
      this.expiryAttempts = 0;
      return;
    }
    const untilNext = next - this.api.clock.now();
    let delay: number;
    if (untilNext > 0) {
      // A little after the instant, so the service has released it.
      this.expiryAttempts = 0;
      delay = Math.min(untilNext + 250, 2 ** 31 - 1);
    } else {
      // Past due and still held (the refresh failed, or the service is late): back off.
      delay = Math.min(1000 * 2 ** this.expiryAttempts, 30_000);
      this.expiryAttempts++;
    }
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      void this.refresh();
    }, delay);
  }

  private clearExpiryTimer(): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  /**
   * Turn an error into a failure (basket-failure.ts, in the basket's words), record it, and keep the last good basket.
   * The words load with the store's first request (a page that never asks for a basket never fetches them).
   */
  private async fail(action: BasketAction, error: unknown): Promise<BasketFailure> {
    const failure = loadedWords ? loadedWords.basketFailureOf(action, error) : await this.words().then(
      (words) => words.basketFailureOf(action, error),
      // Not even our own words could be fetched: there is no connection.
      () => offlineFailure(action),
    );
    this.patch({ error: failure });
    return failure;
  }

  /** The failure words (basket-failure.ts): asked for with the first request, and again after a failed load. */
  private words(): Promise<BasketWords> {
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
