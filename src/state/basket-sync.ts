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
 * elements it is given to fire its event from.
 */
import { bookingEvent, type BookingEventDetails } from '../events.ts';
import type { BasketStore } from './basket-store.ts';
import type { SharedAbout, SharedChange } from './basket-types.ts';

/** What one tab tells the others. */
interface SyncMessage {
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

/** What a message says its change is about, as far as it reads. */
function aboutOf(m: SyncMessage): SharedAbout {
  const b = m.booking;
  const booking = typeof b === 'object' && b !== null && typeof b.basketId === 'string' && typeof b.bookingReference === 'string' ? { basketId: b.basketId, bookingReference: b.bookingReference } : null;
  const record = typeof m.record === 'object' && m.record !== null && typeof m.record.basketId === 'string' ? m.record : null;
  return { basketId: typeof m.basketId === 'string' ? m.basketId : null, booking, record };
}

const CHANGES: ReadonlySet<string> = new Set<SharedChange>(['add', 'remove', 'clear', 'expiry', 'payment', 'completed', 'resumed']);

function isMessage(value: unknown): value is SyncMessage {
  const m = value as Partial<SyncMessage> | null;
  return typeof m === 'object' && m !== null && m.stagedoor === 1 && typeof m.tab === 'string' && CHANGES.has(m.change as string);
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
    if (!isMessage(data) || data.tab === TAB) return;
    // One after another: a change and the next (add then payment) are taken in their order.
    const about = aboutOf(data);
    queue = queue.then(() => apply(store, data.change, about)).catch(() => undefined);
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

interface PendingPaymentLike {
  bookedElsewhere(booking: { basketId: string; bookingReference: string }): void;
  check(): Promise<void>;
}

/** Called by pending-payment.ts as it loads: from then on a change is taken in as it arrives. */
export function providePendingPayment(pendingPayment: (store: BasketStore) => PendingPaymentLike): void {
  loadedPending = pendingPayment;
}

/** Take in a change from another tab, then tell the host page (once, from one element of this tab). */
async function apply(store: BasketStore, change: SharedChange, about: SharedAbout): Promise<void> {
  // A payment begun there names its basket, a booking completed there names the booking: this tab
  // takes them from the message, even where its storage lags it.
  await store.adopt(change, about);
  // The payment in progress (pending-payment.ts): at once where it is loaded (any page showing a
  // basket loads it); elsewhere fetched only when the change is about a payment, so a page that
  // shows only the timer does not download it with its first chunks.
  let payment = loadedPending?.(store) ?? null;
  const booked = change === 'completed' ? (about.booking ?? store.bookedElsewhere) : null;
  const aboutPayment = booked !== null || change === 'payment' || change === 'completed' || change === 'resumed';
  if (!payment && aboutPayment) payment = (await import('./pending-payment.ts')).pendingPayment(store);
  if (booked) payment?.bookedElsewhere(booked);
  else if (aboutPayment) await payment?.check();
  const detail: BookingEventDetails['booking-remote-change'] = { change, basketId: store.value.basketId ?? store.pendingRecord?.basketId ?? null };
  const host = [...(hosts.get(store) ?? [])].find((h) => h.isConnected);
  host?.dispatchEvent(bookingEvent('booking-remote-change', detail));
}

