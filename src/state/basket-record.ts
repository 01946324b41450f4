/**
 * What the basket store keeps in storage. The basket id per endpoint, in localStorage (every
 * tab and window of the site), with the instant its hold runs out by this browser's clock: it
 * lapses with the hold, a record past it is never restored. An unfinished payment beside it
 * until its payment window closes; the booking lately completed, for the other tabs, a short
 * while; the last completed booking (id and reference) in this tab's sessionStorage, for the
 * confirmation to survive a reload. Where storage is refused (a browser setting, a sandboxed
 * frame, a full quota) all of it lives in memory, within the tab, and nothing is said.
 *
 * BasketRecordStore is the part of the store (basket-store.ts, which extends it) that keeps
 * these records: a base class rather than a helper object, so the store's public API stays
 * whole and no delegating wrappers are added to the bundle.
 */
import type { ApiClient } from '../api/client.ts';
import type { BasketItem } from '../api/types.ts';
import type { BasketState, BasketStoreOptions, ChangeOutcome, SharedAbout, SharedChange } from './basket-types.ts';
import { Store } from './store.ts';

/** The payment timeout of the interface (§3, §8): the payment stays open this long after Submit Order. */
export const PAYMENT_TIMEOUT_MS = 20 * 60_000;

/** Storage that never throws (Safari private mode, sandboxed frames, no storage at all). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * A Web Storage area that never throws: reading the area itself may throw (a sandboxed frame,
 * storage blocked), and writing may (a full quota). A key whose write failed lives in memory
 * for this tab; every other key is read from the area itself, so a change another tab made
 * is seen at once.
 */
function safeStorage(area: () => Storage | undefined): KeyValueStorage {
  const memory = new Map<string, string>();
  const real = (): Storage | null => {
    try {
      return area() ?? null;
    } catch {
      return null;
    }
  };
  return {
    getItem: (key) => {
      if (memory.has(key)) return memory.get(key) ?? null;
      try {
        return real()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    setItem: (key, value) => {
      try {
        const storage = real();
        if (!storage) throw new Error('no storage');
        storage.setItem(key, value);
        memory.delete(key);
      } catch {
        memory.set(key, value); // refused: this tab only
        try {
          real()?.removeItem(key); // no older value left to be read instead
        } catch {
          /* none */
        }
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

/** This tab's sessionStorage, never throwing. */
export function safeSessionStorage(): KeyValueStorage {
  return safeStorage(() => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage));
}

/** The site's localStorage (every tab and window of the origin), never throwing. */
export function safeLocalStorage(): KeyValueStorage {
  return safeStorage(() => (typeof localStorage === 'undefined' ? undefined : localStorage));
}

/** How long a basket with no hold known yet (just created) is kept: past it, it is not restored. */
const UNKNOWN_HOLD_MS = 30 * 60_000;
/** How long past the payment window an unfinished payment is kept (the service may answer late). */
const PAYMENT_GRACE_MS = 60_000;

/** A stored record (JSON with `until`, this browser's clock) still within its time; a bare id (as kept before) counts as one. */
export function readRecord(raw: string | null, now: number): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === 'object' && value !== null) {
      const until = (value as { until?: unknown }).until;
      return typeof until === 'number' && until < now ? null : (value as Record<string, unknown>);
    }
  } catch {
    /* a bare id */
  }
  return /^[0-9a-f-]{8,}$/i.test(raw) ? { basketId: raw } : null;
}

/** Nothing released (the basket store's state until an expiry releases items). */
export const EMPTY_RELEASED: readonly BasketItem[] = Object.freeze([]);

/** The basket id kept under `key`, unless its hold has lapsed (then the record is dropped). */
export function storedId(storage: KeyValueStorage, key: string): string | null {
  const raw = storage.getItem(key);
  const record = readRecord(raw, Date.now());
  if (raw && !record) storage.removeItem(key);
  return typeof record?.basketId === 'string' ? record.basketId : null;
}

/**
 * The basket store's kept records (BasketStore extends it): where they are stored, the stored
 * basket id the store starts with, and the payment hand-over: what is kept for an unfinished
 * payment and for completed bookings.
 */
export abstract class BasketRecordStore extends Store<BasketState> {
  abstract readonly api: ApiClient;
  /** The endpoint, as it keys what is stored. */
  readonly endpointKey: string;
  /** Shared by the site's tabs (localStorage), or memory where refused. */
  readonly storage: KeyValueStorage;
  private readonly session: KeyValueStorage;
  /** The payment record another tab's message carried, until this tab's storage has it (or the next change). */
  /** @internal */
  heardPending: string | null = null;
  /** @internal Where the basket id is kept. */
  readonly key: string;
  protected readonly pendingKey: string;
  private readonly completedKey: string;
  private readonly bookedKey: string;

  /** Forget the basket (BasketStore.forget). */
  abstract forget(): void;
  /** The earliest expiry instant of the basket (BasketStore.nextExpiry). */
  abstract nextExpiry(): number | null;
  /** Read the basket again (BasketStore.refresh). */
  abstract refresh(): Promise<ChangeOutcome>;
  /** Tell the other tabs of a change made here (BasketStore.share). */
  abstract share(change: SharedChange, about?: SharedAbout): void;

  constructor(options: BasketStoreOptions) {
    const storage = options.storage ?? safeLocalStorage();
    const key = `stagedoor:basket:${options.storageKey}`;
    super(
      Object.freeze({ basketId: storedId(storage, key), content: null, busy: null, error: null, released: EMPTY_RELEASED, expiryCount: 0, releasedElsewhere: false }),
    );
    this.endpointKey = options.storageKey;
    this.storage = storage;
    this.session = options.sessionStorage ?? (options.storage ? storage : safeSessionStorage());
    this.key = key;
    this.pendingKey = `stagedoor:payment:${options.storageKey}`;
    this.completedKey = `stagedoor:completed:${options.storageKey}`;
    this.bookedKey = `stagedoor:booked:${options.storageKey}`;
  }

  /**
   * The basket went to payment: the store starts afresh, and the id is kept
   * aside (with `details`: the payment page's address, when it was sent, what
   * it holds and the customer's entries, see pending-payment.ts) so the page
   * can continue an unfinished payment, show the summary, or, after a failed
   * payment, bring the basket back with the customer's entries.
   */
  submitted(details: object = {}): void {
    const basketId = this.value.basketId;
    if (!basketId) return;
    const submittedAt = (details as { submittedAt?: unknown }).submittedAt;
    const until = (typeof submittedAt === 'number' ? submittedAt - this.api.clock.now() + Date.now() : Date.now()) + PAYMENT_TIMEOUT_MS + PAYMENT_GRACE_MS;
    const record = { ...details, basketId, until };
    this.storage.setItem(this.pendingKey, JSON.stringify(record));
    this.forget();
    // The other tabs are told what to offer, not the customer's entries (the sync key may outlive the record).
    this.share('payment', { basketId, record: { ...record, entries: undefined } });
  }

  /**
   * What was kept when the basket went to payment (`{ basketId, ...details }`),
   * also after a failed payment brought it back (then `returned` is true), until
   * the booking completes or the basket is forgotten. A bare id (as kept before
   * details were) reads as `{ basketId }`.
   */
  get pendingRecord(): ({ basketId: string; returned?: boolean } & Record<string, unknown>) | null {
    const raw = this.storage.getItem(this.pendingKey) ?? this.heardPending;
    const record = readRecord(raw, Date.now());
    if (raw && !record) this.storage.removeItem(this.pendingKey); // its payment window has closed
    return typeof record?.basketId === 'string' ? (record as { basketId: string } & Record<string, unknown>) : null;
  }

  /** The basket id awaiting payment, if one went to payment from this tab and has not come back. */
  get awaitingPayment(): string | null {
    const record = this.pendingRecord;
    return record && !record.returned ? record.basketId : null;
  }

  /** The payment will not be finished (its basket was released): forget what was kept for it. */
  dropPending(): void {
    this.heardPending = null;
    this.storage.removeItem(this.pendingKey);
  }

  /**
   * The order is complete and its summary shown: the id no longer awaits
   * payment. `record` (the booking, as payment-return.ts writes it) is kept as
   * this endpoint's last completed booking for the rest of the session, so a
   * reload of the return page shows the confirmation again.
   */
  completed(record?: string): void {
    if (record) this.session.setItem(this.completedKey, record);
    const had = this.storage.getItem(this.pendingKey) !== null;
    this.heardPending = null;
    this.storage.removeItem(this.pendingKey);
    if (!had) return;
    // For the other tabs to show it (they awaited this payment): a short while, then it lapses.
    if (record) this.storage.setItem(this.bookedKey, JSON.stringify({ ...(readRecord(record, 0) ?? {}), until: Date.now() + PAYMENT_TIMEOUT_MS }));
    this.share('completed', { basketId: null, booking: this.bookedElsewhere });
  }

  /** The booking another tab completed lately (`basketId`, `bookingReference`), while it is news. */
  get bookedElsewhere(): { basketId: string; bookingReference: string } | null {
    const record = readRecord(this.storage.getItem(this.bookedKey), Date.now());
    return typeof record?.basketId === 'string' && typeof record.bookingReference === 'string'
      ? { basketId: record.basketId, bookingReference: record.bookingReference }
      : null;
  }

  /** The record of the last booking completed from this tab on this endpoint (this session), if any. */
  get lastCompleted(): string | null {
    return this.session.getItem(this.completedKey);
  }

  /**
   * Payment failed: bring the basket back, if the service still holds it.
   * True: back in the store; false: the service no longer holds it; null: it
   * could not be checked (network, 5xx) — the id is kept and `error` says why,
   * so a later refresh can still bring it back.
   */
  async resumeAfterFailedPayment(): Promise<boolean | null> {
    const record = this.pendingRecord;
    const basketId = record && !record.returned ? record.basketId : null;
    if (!basketId) return false;
    // Kept, marked as returned, for the customer's entries (cleared with the basket).
    this.storage.setItem(this.pendingKey, JSON.stringify({ ...record, returned: true }));
    this.keepBasketKey(basketId);
    this.patch({ basketId, content: null });
    const outcome = await this.refresh();
    if (!outcome.ok) return null;
    this.share('resumed');
    return (this.value.content?.Items.length ?? 0) > 0;
  }

  /** @internal Keep the basket id for every tab, until its hold (by this browser's clock) runs out. */
  keepBasketKey(basketId: string): void {
    const next = this.nextExpiry();
    const until = next === null ? Date.now() + UNKNOWN_HOLD_MS : next - this.api.clock.now() + Date.now() + 1000;
    this.storage.setItem(this.key, JSON.stringify({ basketId, until }));
  }

  /** @internal The basket is no longer this tab's: its id, and what a failed payment of it brought back (the customer's entries). */
  dropBasketKey(): void {
    const basketId = storedId(this.storage, this.key);
    this.storage.removeItem(this.key);
    const record = this.pendingRecord;
    if (record?.returned && (!basketId || record.basketId === basketId)) this.storage.removeItem(this.pendingKey);
  }
}
