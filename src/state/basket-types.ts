/**
 * The shapes the basket store (basket-store.ts) speaks in: its actions and their failures, its
 * state, the outcomes of its changes, what it tells the other tabs, its options and its
 * failure words (basket-failure.ts, loaded lazily). Types only: nothing of it reaches a bundle.
 */
import type { ApiClient } from '../api/client.ts';
import type { AddTicketsResult, BasketContent, BasketItem } from '../api/types.ts';
import type { KeyValueStorage } from './basket-record.ts';

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
  /** A sentence for the visitor, in the language the widget shows now (read it when rendering). */
  readonly message: string;
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
  /** Items the latest expiry released (empty until one does; emptied by `clearReleased` or the next add). */
  released: readonly BasketItem[];
  /** Increments on every expiry release, so listeners can tell a new one. */
  expiryCount: number;
  /** Whether the latest release was learnt from another tab (it spoke and fired its events there). */
  releasedElsewhere: boolean;
}

export type AddOutcome = { ok: true; content: BasketContent } | { ok: false; error: BasketFailure };
export type ChangeOutcome = { ok: true } | { ok: false; error: BasketFailure };

/** A change of the basket other tabs must learn of (basket-sync.ts). */
export type SharedChange = 'add' | 'remove' | 'clear' | 'expiry' | 'payment' | 'completed' | 'resumed';

/**
 * What a change told to the other tabs is about, carried with its message: the other tabs'
 * storage takes this tab's writes in its own time, not in step with the messages.
 */
export interface SharedAbout {
  /** The basket ('payment': the one that went to payment), or null. */
  basketId: string | null;
  /** 'completed': the booking made. */
  booking?: { basketId: string; bookingReference: string } | null;
  /** 'payment': what was kept for the payment (`pendingRecord`). */
  record?: Record<string, unknown> | null;
}

export interface BasketStoreOptions {
  api: ApiClient;
  /** Identifies the endpoint in storage keys. */
  storageKey: string;
  timeZone: string;
  /** Where the basket id and an unfinished payment are kept (default: localStorage, shared by the site's tabs). */
  storage?: KeyValueStorage;
  /** Where the last completed booking is kept (default: this tab's sessionStorage; with `storage` given, that). */
  sessionStorage?: KeyValueStorage;
  /** Restore a stored basket at once (default true). */
  restore?: boolean;
}

/** The failure words (basket-failure.ts), once loaded. */
export interface BasketWords {
  basketFailureOf(action: BasketAction, error: unknown): BasketFailure;
  rejectedFailure(result: AddTicketsResult): BasketFailure;
}
