/**
 * The basket store: the one basket every element on a page shares.
 *
 * - The basket is created lazily, on the first add (no empty baskets for
 *   visitors who only browse).
 * - One request in flight per action: a double click adds once.
 * - The BasketId is kept in sessionStorage per endpoint, so a reload or the
 *   return from the payment page continues the same basket. It is forgotten
 *   when the basket is emptied, expires, or the service answers 403/404.
 * - After any failure the store still holds the last good basket and says
 *   what failed (`error`).
 * - Expiry: when an item's ExpirationDate passes by the server's clock, the
 *   store refreshes the basket and reports which items were released.
 */
import { msg, str } from '@lit/localize';
import { ApiError, InvalidRequestError, NetworkError, isAbortError, type ApiClient } from '../api/client.ts';
import { isMinServiceDateTime, serviceTimeToInstant } from '../api/time.ts';
import type { AddTicketsResult, AddTicketsV2Body, BasketContent, BasketItem } from '../api/types.ts';
import { Store } from './store.ts';

export type BasketAction = 'add' | 'remove' | 'clear' | 'refresh';

export type BasketFailureKind =
  /** Seats no longer available (409), or a single-seat restriction. */
  | 'unavailable'
  /** Fewer tickets can be booked than asked (409 BookableTicketsExceeded). */
  | 'bookable-exceeded'
  /** The service said no (Success false with a FailureReason). */
  | 'rejected'
  /** A supplier failure (502): worth retrying. */
  | 'supplier'
  /** The basket is no longer valid (403/404). */
  | 'invalid-basket'
  /** No answer at all. */
  | 'network'
  /** Anything else. */
  | 'other';

export interface BasketFailure {
  action: BasketAction;
  kind: BasketFailureKind;
  /** A sentence for the visitor. */
  message: string;
  status: number | null;
  /** FailureReasonText, when the service gave one. */
  reason: string | null;
  /** For bookable-exceeded: how many can still be booked (a point-in-time value). */
  bookableTicketsCount: number | null;
  /** Whether trying again may succeed. */
  retryable: boolean;
}

export interface BasketState {
  basketId: string | null;
  /** The last good basket content (null before any basket). */
  content: BasketContent | null;
  /** The action in flight, if any. */
  busy: BasketAction | null;
  /** What failed last; cleared by the next success. */
  error: BasketFailure | null;
  /** Items the latest expiry released (empty until one does). */
  released: readonly BasketItem[];
  /** Increments on every expiry release, so listeners can tell a new one. */
  expiryCount: number;
}

export type AddOutcome = { ok: true; content: BasketContent } | { ok: false; error: BasketFailure };
export type ChangeOutcome = { ok: true } | { ok: false; error: BasketFailure };

/** Storage that never throws (Safari private mode, sandboxed frames, no storage at all). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function safeSessionStorage(): KeyValueStorage {
  const memory = new Map<string, string>();
  const real = (): Storage | null => {
    try {
      return typeof sessionStorage === 'undefined' ? null : sessionStorage;
    } catch {
      return null;
    }
  };
  return {
    getItem: (key) => {
      try {
        return real()?.getItem(key) ?? memory.get(key) ?? null;
      } catch {
        return memory.get(key) ?? null;
      }
    },
    setItem: (key, value) => {
      memory.set(key, value);
      try {
        real()?.setItem(key, value);
      } catch {
        /* memory only */
      }
    },
    removeItem: (key) => {
      memory.delete(key);
      try {
        real()?.removeItem(key);
      } catch {
        /* memory only */
      }
    },
  };
}

export interface BasketStoreOptions {
  api: ApiClient;
  /** Identifies the endpoint in storage keys. */
  storageKey: string;
  timeZone: string;
  storage?: KeyValueStorage;
  /** Restore a stored basket at once (default true). */
  restore?: boolean;
}

const EMPTY_RELEASED: readonly BasketItem[] = Object.freeze([]);

/** The reason text of an add-result, trusted over the number (upstream-facts.md). */
function reasonName(result: Pick<AddTicketsResult, 'FailureReason' | 'FailureReasonText'>): string {
  if (result.FailureReasonText) return result.FailureReasonText;
  const names: Record<number, string> = {
    1: 'TicketNotAvailable', 2: 'BasketIsLocked', 3: 'TicketsLimitExceeded', 4: 'TicketsLimitSubceeded',
    5: 'TicketLeavesSingleSeat', 6: 'BoxOfficeApiUnavailable', 7: 'TicketForNonBookablePerformance', 8: 'BookableTicketsExceeded',
  };
  return names[result.FailureReason] ?? `Reason${result.FailureReason}`;
}

/** A FailureReason in words. */
export function describeFailureReason(reason: string, bookable: number | null = null): string {
  switch (reason) {
    case 'TicketNotAvailable':
      return msg('Some of those seats have just been taken. Please choose again.');
    case 'BasketIsLocked':
      return msg('This basket has already been sent to payment and can no longer be changed.');
    case 'TicketsLimitExceeded':
      return msg('That is more tickets than one booking may hold.');
    case 'TicketsLimitSubceeded':
      return msg('This performance needs more tickets in one booking.');
    case 'TicketLeavesSingleSeat':
      return msg('That choice would leave a single empty seat. Please choose seats side by side, or include the gap.');
    case 'BoxOfficeApiUnavailable':
      return msg("The theatre's box office is not answering just now. Please try again in a moment.");
    case 'TicketForNonBookablePerformance':
      return msg('This part can only be booked together with its paired performance.');
    case 'BookableTicketsExceeded':
      return bookable === null
        ? msg('Fewer tickets are left than you asked for.')
        : bookable === 0
          ? msg('No more tickets can be booked for this performance.')
          : msg(str`Only ${bookable} tickets can still be booked for this performance.`);
    default:
      return msg('The tickets could not be added to your basket.');
  }
}

export class BasketStore extends Store<BasketState> {
  readonly api: ApiClient;
  private readonly storage: KeyValueStorage;
  private readonly key: string;
  private readonly pendingKey: string;
  private readonly timeZone: string;
  private inflight = new Map<BasketAction, Promise<unknown>>();
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private creating: Promise<string> | undefined;

  constructor(options: BasketStoreOptions) {
    const storage = options.storage ?? safeSessionStorage();
    const key = `stagedoor:basket:${options.storageKey}`;
    const stored = storage.getItem(key);
    super(Object.freeze({ basketId: stored, content: null, busy: null, error: null, released: EMPTY_RELEASED, expiryCount: 0 }));
    this.api = options.api;
    this.storage = storage;
    this.key = key;
    this.pendingKey = `stagedoor:payment:${options.storageKey}`;
    this.timeZone = options.timeZone;
    if (stored && options.restore !== false) void this.refresh();
  }

  /** Total of the basket's items (without delivery). */
  get subtotal(): number {
    return (this.value.content?.Items ?? []).reduce((sum, item) => sum + item.PriceSubTotal, 0);
  }

  // ------------------------------------------------------------------ actions

  /**
   * Add tickets (specific seats or best seats). Creates the basket on the first
   * add. A second call while one is in flight returns the same promise.
   */
  add(body: AddTicketsV2Body): Promise<AddOutcome> {
    return this.once('add', () => this.doAdd(body));
  }

  /** Remove one item. */
  remove(basketItemId: number): Promise<ChangeOutcome> {
    return this.once('remove', async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      try {
        const result = await this.api.deleteBasketItem({ basketId, basketItemId });
        this.accept(result.GetBasketContentResult, 'remove');
        return { ok: true } as const;
      } catch (error) {
        return { ok: false, error: this.fail('remove', error) } as const;
      }
    });
  }

  /** Remove everything and forget the basket. */
  clear(): Promise<ChangeOutcome> {
    return this.once('clear', async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      try {
        await this.api.deleteAllFromBasket({ basketId });
        this.forget();
        return { ok: true } as const;
      } catch (error) {
        return { ok: false, error: this.fail('clear', error) } as const;
      }
    });
  }

  /**
   * Read the basket again. Items gone since the last read and past their
   * expiry are reported as `released`. A basket the service no longer knows
   * (403/404) is forgotten without an error.
   */
  refresh(): Promise<ChangeOutcome> {
    return this.once('refresh', async () => {
      const basketId = this.value.basketId;
      if (!basketId) return { ok: true } as const;
      try {
        const content = await this.api.getBasket({ basketId });
        this.accept(content, 'refresh');
        return { ok: true } as const;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
          this.releaseAll();
          return { ok: true } as const;
        }
        return { ok: false, error: this.fail('refresh', error) } as const;
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
    this.storage.removeItem(this.key);
    this.clearExpiryTimer();
    this.patch({ basketId: null, content: null, error: null });
  }

  /** Clear the last error (the visitor dismissed it). */
  dismissError(): void {
    if (this.value.error) this.patch({ error: null });
  }

  // ------------------------------------------------------------------ payment hand-over

  /**
   * The basket went to payment: the store starts afresh, and the id is kept
   * aside so the return page can show the summary (or, after a failed payment,
   * bring the basket back).
   */
  submitted(): void {
    const basketId = this.value.basketId;
    if (!basketId) return;
    this.storage.setItem(this.pendingKey, basketId);
    this.forget();
  }

  /** The basket id awaiting payment, if one went to payment from this tab. */
  get awaitingPayment(): string | null {
    return this.storage.getItem(this.pendingKey);
  }

  /** The order is complete and its summary shown: forget the id. */
  completed(): void {
    this.storage.removeItem(this.pendingKey);
  }

  /** Payment failed: bring the basket back, if the service still holds it. */
  async resumeAfterFailedPayment(): Promise<boolean> {
    const basketId = this.awaitingPayment;
    this.storage.removeItem(this.pendingKey);
    if (!basketId) return false;
    this.storage.setItem(this.key, basketId);
    this.patch({ basketId, content: null });
    await this.refresh();
    return (this.value.content?.Items.length ?? 0) > 0;
  }

  // ------------------------------------------------------------------ internals

  private once<T>(action: BasketAction, run: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(action) as Promise<T> | undefined;
    if (existing) return existing;
    this.patch({ busy: action });
    const promise = run().finally(() => {
      this.inflight.delete(action);
      const still = [...this.inflight.keys()].at(-1) ?? null;
      this.patch({ busy: still });
    });
    this.inflight.set(action, promise);
    return promise;
  }

  private async ensureBasket(): Promise<string> {
    const existing = this.value.basketId;
    if (existing) return existing;
    this.creating ??= this.api
      .createBasket()
      .then((result) => {
        this.storage.setItem(this.key, result.BasketId);
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
      return { ok: false, error: this.fail('add', error) };
    }
    try {
      const result = await this.api.addTickets({ basketId, body });
      if (result.Success) {
        this.accept(result.GetBasketContentResult, 'add');
        return { ok: true, content: result.GetBasketContentResult };
      }
      const reason = reasonName(result);
      const failure = this.failure('add', 'rejected', describeFailureReason(reason, result.BookableTicketsCount), {
        status: 200,
        reason,
        bookableTicketsCount: result.BookableTicketsCount,
        retryable: reason === 'BoxOfficeApiUnavailable',
      });
      this.keepContent(result.GetBasketContentResult);
      this.patch({ error: failure });
      return { ok: false, error: failure };
    } catch (error) {
      // The stored basket is gone upstream (expired long ago, or paid): start a new one, once.
      if (!retried && error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        this.storage.removeItem(this.key);
        this.patch({ basketId: null, content: null });
        return this.doAdd(body, true);
      }
      if (error instanceof ApiError && error.addResult) this.keepContent(error.addResult.GetBasketContentResult);
      return { ok: false, error: this.fail('add', error) };
    }
  }

  /** Take a basket content that came with a failure, when it is a real one. */
  private keepContent(content: BasketContent | undefined | null): void {
    if (content && Array.isArray(content.Items) && content.BasketId === this.value.basketId) {
      this.accept(content, null);
    }
  }

  private accept(content: BasketContent, action: BasketAction | null): void {
    const previous = this.value.content;
    const now = this.api.clock.now();
    const stillThere = new Set(content.Items.map((i) => i.BasketItemId));
    // Items that vanished without the visitor removing them, and whose hold had run out, were released by expiry.
    const released =
      action === 'refresh' && previous
        ? previous.Items.filter((i) => !stillThere.has(i.BasketItemId) && this.expiresAt(i) <= now + 1000)
        : [];
    if (content.Items.length === 0) {
      this.storage.removeItem(this.key);
      this.clearExpiryTimer();
      this.patch({
        basketId: null,
        content: null,
        error: action ? null : this.value.error,
        ...(released.length ? { released: Object.freeze(released), expiryCount: this.value.expiryCount + 1 } : {}),
      });
      return;
    }
    this.patch({
      content,
      basketId: content.BasketId || this.value.basketId,
      error: action ? null : this.value.error,
      ...(released.length ? { released: Object.freeze(released), expiryCount: this.value.expiryCount + 1 } : {}),
    });
    this.scheduleExpiry();
  }

  private releaseAll(): void {
    const items = this.value.content?.Items ?? [];
    const now = this.api.clock.now();
    const released = items.filter((i) => this.expiresAt(i) <= now + 1000);
    this.storage.removeItem(this.key);
    this.clearExpiryTimer();
    this.patch({
      basketId: null,
      content: null,
      error: null,
      ...(released.length ? { released: Object.freeze(released), expiryCount: this.value.expiryCount + 1 } : {}),
    });
  }

  private expiresAt(item: BasketItem): number {
    try {
      return serviceTimeToInstant(item.ExpirationDate, this.timeZone);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  /** The earliest expiry instant of the basket, by its items (MinExpirationDate as a fallback). */
  nextExpiry(): number | null {
    const content = this.value.content;
    if (!content || content.Items.length === 0) return null;
    const times = content.Items.map((i) => this.expiresAt(i)).filter(Number.isFinite);
    if (!times.length && !isMinServiceDateTime(content.MinExpirationDate)) {
      try {
        times.push(serviceTimeToInstant(content.MinExpirationDate, this.timeZone));
      } catch {
        /* none */
      }
    }
    return times.length ? Math.min(...times) : null;
  }

  private scheduleExpiry(): void {
    this.clearExpiryTimer();
    const next = this.nextExpiry();
    if (next === null) return;
    // A little after the instant, so the service has released it; never a tight loop.
    const delay = Math.min(Math.max(next - this.api.clock.now() + 250, 1000), 2 ** 31 - 1);
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      void this.refresh();
    }, delay);
  }

  private clearExpiryTimer(): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
  }

  private failure(
    action: BasketAction,
    kind: BasketFailureKind,
    message: string,
    extra: Partial<Pick<BasketFailure, 'status' | 'reason' | 'bookableTicketsCount' | 'retryable'>> = {},
  ): BasketFailure {
    return Object.freeze({
      action,
      kind,
      message,
      status: extra.status ?? null,
      reason: extra.reason ?? null,
      bookableTicketsCount: extra.bookableTicketsCount ?? null,
      retryable: extra.retryable ?? false,
    });
  }

  /** Turn an error into a failure, record it, and keep the last good basket. */
  private fail(action: BasketAction, error: unknown): BasketFailure {
    let failure: BasketFailure;
    if (isAbortError(error)) {
      failure = this.failure(action, 'other', msg('The request was cancelled.'), { retryable: true });
    } else if (error instanceof NetworkError) {
      failure = this.failure(action, 'network', msg('We could not reach the box office. Check your connection and try again.'), {
        retryable: true,
      });
    } else if (error instanceof ApiError) {
      const add = error.addResult;
      if (error.status === 409) {
        const reason = add ? reasonName(add) : 'TicketNotAvailable';
        const exceeded = reason === 'BookableTicketsExceeded';
        failure = this.failure(action, exceeded ? 'bookable-exceeded' : 'unavailable', describeFailureReason(reason, add?.BookableTicketsCount ?? null), {
          status: 409,
          reason,
          bookableTicketsCount: add?.BookableTicketsCount ?? null,
        });
      } else if (error.status === 502 || error.status === 504 || error.status === 503) {
        failure = this.failure(action, 'supplier', msg('The box office did not answer. Your choice is kept: please try again.'), {
          status: error.status,
          retryable: true,
        });
      } else if (error.status === 403 || error.status === 404) {
        failure = this.failure(action, 'invalid-basket', msg('Your basket is no longer valid.'), { status: error.status });
      } else if (error.status === 429) {
        failure = this.failure(action, 'other', msg('Too many attempts. Please wait a moment and try again.'), {
          status: 429,
          retryable: true,
        });
      } else {
        failure = this.failure(action, 'other', error.serviceMessage ?? msg('Something went wrong. Please try again.'), {
          status: error.status,
          retryable: error.status >= 500,
        });
      }
    } else if (error instanceof InvalidRequestError) {
      failure = this.failure(action, 'other', error.message);
    } else {
      failure = this.failure(action, 'other', msg('Something went wrong. Please try again.'), { retryable: true });
    }
    this.patch({ error: failure });
    return failure;
  }

  /** Stop timers (the last element of this basket left the page). */
  dispose(): void {
    this.clearExpiryTimer();
  }
}
