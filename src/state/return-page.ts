/**
 * What a page knows of a payment return before it shows anything of one (an
 * element's first view needs no more): the outcome marker of the page's URL
 * (`?stagedoor=success` / `?stagedoor=failure`), and whether a standalone
 * <booking-confirmation> is on the page, so that <checkout-form> shows its
 * own embedded confirmation only when none is. The return itself (claiming
 * the basket, resuming it, the return URLs) is payment-return.ts.
 *
 * No rendering; the DOM only through `location` (read, never written).
 */
import type { BasketStore } from './basket-store.ts';
import { Store } from './store.ts';

export type ReturnOutcome = 'success' | 'failure';

/** The query parameter carrying the marker. */
export const RETURN_PARAM = 'stagedoor';

/** The page's address (a fixed one where there is no page: Node tests). */
export function currentHref(): string {
  return typeof location === 'undefined' ? 'http://localhost/' : location.href;
}

/** The outcome marker of a URL (default: the current page), or null. */
export function returnMarker(href: string = currentHref()): ReturnOutcome | null {
  try {
    const value = new URL(href).searchParams.get(RETURN_PARAM);
    return value === 'success' || value === 'failure' ? value : null;
  } catch {
    return null;
  }
}

class PresenceStore extends Store<number> {
  constructor() {
    super(0);
  }
  add(): void {
    this.set(this.value + 1);
  }
  delete(): void {
    this.set(Math.max(0, this.value - 1));
  }
}

const presence = new WeakMap<BasketStore, PresenceStore>();

/** How many standalone confirmation elements show this basket's returns (observable). */
export function confirmationPresence(basket: BasketStore): PresenceStore {
  let store = presence.get(basket);
  if (!store) {
    store = new PresenceStore();
    presence.set(basket, store);
  }
  return store;
}
