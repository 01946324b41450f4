/**
 * One basket per visitor and endpoint, shown alike in every tab and window of
 * the site. The basket id (and an unfinished payment) is kept in localStorage
 * by the basket store; this module tells the other tabs when it changes, on a
 * `BroadcastChannel` per endpoint (or, where there is none, through the
 * `storage` event of a key written for the purpose):
 *
 * - seats added or removed, the basket emptied, a hold expired, a payment
 *   begun, a booking completed, a failed payment's basket brought back.
 *
 * A tab that hears of one reads the stored id and the basket once (no polling:
 * nothing is asked of the proxy between messages), and asks the service what
 * became of a payment begun or completed elsewhere (pending-payment.ts), so
 * it offers to continue that payment instead of a second order, or shows the
 * booking. A payment's message names its basket, a completed booking's names
 * the booking: storage writes reach another tab in their own time, not in step
 * with the messages, so that tab lets the basket go even while its storage
 * still names it, and offers the payment or shows the booking before its
 * storage has them. Then one connected element of that tab fires
 * `booking-remote-change` (the `booking-*` events of the change itself fire
 * only in the tab where it happened).
 *
 * Where storage is refused there is nothing shared to tell of: each tab keeps
 * its own basket, as before.
 *
 * No rendering; the DOM only through `BroadcastChannel`, `window` and the
 * elements it is given to fire its event from. What takes in a change heard
 * from another tab (basket-sync-apply.ts) is fetched with the first one: a
 * visit in one tab never downloads it.
 */
import type { BasketStore } from './basket-store.ts';
import type { SharedAbout, SharedChange } from './basket-types.ts';

/** What one tab tells the others. */
export interface SyncMessage {
  stagedoor: 1;
  change: SharedChange;
  /** The sending tab (a tab ignores its own, which the storage fallback would echo back). */
  tab: string;
  /** Makes each storage write a change the storage event reports. */
  at: number;
  /** The basket the change is about ('payment': the one that went to payment); absent from older senders. */
  basketId?: string | null;
  /** 'completed': the booking made; absent from older senders. */
  booking?: { basketId: string; bookingReference: string } | null;
  /** 'payment': the record kept for the payment; absent from older senders. */
  record?: Record<string, unknown> | null;
}

/** This page's name among the tabs. */
export const TAB = Math.random().toString(36).slice(2) + Date.now().toString(36);

/** Elements showing each basket: one of them fires the event for a change from another tab. */
const hosts = new WeakMap<BasketStore, Set<HTMLElement>>();

/** An element shows this basket (while connected). */
export function showsBasket(store: BasketStore, host: HTMLElement): () => void {
  let set = hosts.get(store);
  if (!set) hosts.set(store, (set = new Set()));
  set.add(host);
  return () => set.delete(host);
}

/** A connected element of this tab showing the basket (it fires the event for a change from another tab). */
export const hostShowing = (store: BasketStore): HTMLElement | undefined => [...(hosts.get(store) ?? [])].find((h) => h.isConnected);

const started = new WeakSet<BasketStore>();

/**
 * Keep `store` in step with the site's other tabs, under `key` (the endpoint). Once per
 * store; stops when the store is disposed. Nothing happens where there is no window.
 */
export function syncBasket(store: BasketStore, key: string): void {
  if (started.has(store) || typeof window === 'undefined') return;
  started.add(store);
  const name = `stagedoor:sync:${key}`;
  let queue: Promise<void> = Promise.resolve();
  const receive = (data: unknown): void => {
    // One after another: a change and the next (add then payment) are taken in their order.
    queue = queue.then(async () => (await import('./basket-sync-apply.ts')).receive(store, data)).catch(() => undefined);
  };

  let channel: BroadcastChannel | null = null;
  try {
    channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : null;
  } catch {
    channel = null; // an opaque origin may refuse one
  }
  let send: (change: SharedChange, about: SharedAbout) => void;
  if (channel) {
    const open = channel;
    open.onmessage = (event: MessageEvent) => receive(event.data);
    send = (change, about) => {
      try {
        open.postMessage({ stagedoor: 1, change, tab: TAB, at: Date.now(), ...about } satisfies SyncMessage);
      } catch {
        /* closed */
      }
    };
    store.addDisposer(() => open.close());
  } else {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== name || !event.newValue) return;
      try {
        receive(JSON.parse(event.newValue));
      } catch {
        /* not ours */
      }
    };
    window.addEventListener('storage', onStorage);
    send = (change, about) => store.storage.setItem(name, JSON.stringify({ stagedoor: 1, change, tab: TAB, at: Date.now(), ...about } satisfies SyncMessage));
    store.addDisposer(() => window.removeEventListener('storage', onStorage));
  }
  store.addDisposer(store.onSharedChange(send));
}

/** pending-payment.ts's `pendingPayment`, once that module has loaded (it gives it here as it loads). */
let loadedPending: ((store: BasketStore) => PendingPaymentLike) | null = null;

export interface PendingPaymentLike {
  bookedElsewhere(booking: { basketId: string; bookingReference: string }): void;
  check(): Promise<void>;
}

/** Called by pending-payment.ts as it loads: from then on a change is taken in as it arrives. */
export function providePendingPayment(pendingPayment: (store: BasketStore) => PendingPaymentLike): void {
  loadedPending = pendingPayment;
}

/** The basket's payment in progress, when pending-payment.ts is loaded (any page showing a basket loads it). */
export const loadedPendingPayment = (store: BasketStore): PendingPaymentLike | null => loadedPending?.(store) ?? null;
