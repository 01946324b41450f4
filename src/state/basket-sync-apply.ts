/**
 * Taking in a change heard from another tab of the site (basket-sync.ts, which fetches this
 * module with the first message it hears): the message read and checked, the basket adopted,
 * the payment in progress asked about, and the host page told with `booking-remote-change`.
 */
import { bookingEvent, type BookingEventDetails } from '../events.ts';
import type { BasketStore } from './basket-store.ts';
import type { SharedAbout, SharedChange } from './basket-types.ts';
import { hostShowing, loadedPendingPayment, TAB, type SyncMessage } from './basket-sync.ts';

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

/** A message heard on the basket's channel: taken in when it is another tab's change. */
export async function receive(store: BasketStore, data: unknown): Promise<void> {
  if (isMessage(data) && data.tab !== TAB) await apply(store, data.change, aboutOf(data));
}

/** Take in a change from another tab, then tell the host page (once, from one element of this tab). */
async function apply(store: BasketStore, change: SharedChange, about: SharedAbout): Promise<void> {
  // A payment begun there names its basket, a booking completed there names the booking: this tab
  // takes them from the message, even where its storage lags it.
  await store.adopt(change, about);
  // The payment in progress (pending-payment.ts): at once where it is loaded (any page showing a
  // basket loads it); elsewhere fetched only when the change is about a payment, so a page that
  // shows only the timer does not download it with its first chunks.
  let payment = loadedPendingPayment(store);
  const booked = change === 'completed' ? (about.booking ?? store.bookedElsewhere) : null;
  const aboutPayment = booked !== null || change === 'payment' || change === 'completed' || change === 'resumed';
  if (!payment && aboutPayment) payment = (await import('./pending-payment.ts')).pendingPayment(store);
  if (booked) payment?.bookedElsewhere(booked);
  else if (aboutPayment) await payment?.check();
  const detail: BookingEventDetails['booking-remote-change'] = { change, basketId: store.value.basketId ?? store.pendingRecord?.basketId ?? null };
  hostShowing(store)?.dispatchEvent(bookingEvent('booking-remote-change', detail));
}

