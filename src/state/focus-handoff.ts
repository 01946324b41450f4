/**
 * Handing the keyboard focus from one element to another that shows the
 * customer's next step: after seats are added in <seat-picker>, focus goes to
 * the added item in the basket that <checkout-form> shows, wherever that is on
 * the page. Elements that can show a basket item register a taker for the
 * basket; the first that shows the item, visibly, takes the focus.
 *
 * No rendering, no DOM of its own: a registry per basket store.
 */
import type { BasketStore } from './basket-store.ts';

/** Focus the basket item `basketItemId` if this element shows it; resolves true when it has the focus. */
export type FocusTaker = (basketItemId: number) => Promise<boolean>;

const takers = new WeakMap<BasketStore, Set<FocusTaker>>();

/** Register a taker for a basket; returns the function that unregisters it. */
export function takeBasketItemFocus(basket: BasketStore, taker: FocusTaker): () => void {
  let set = takers.get(basket);
  if (!set) {
    set = new Set();
    takers.set(basket, set);
  }
  set.add(taker);
  return () => set.delete(taker);
}

/** Give the focus to the basket item, shown by some element; false when none could take it. */
export async function focusBasketItem(basket: BasketStore, basketItemId: number): Promise<boolean> {
  for (const taker of [...(takers.get(basket) ?? [])]) {
    if (await taker(basketItemId)) return true;
  }
  return false;
}
