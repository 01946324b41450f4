/**
 * Handing the keyboard focus from one element to another that shows the
 * customer's next step, wherever that is on the page: after seats are added
 * in <seat-picker>, focus goes to the added item in the basket that
 * <checkout-form> shows; a show opened in <event-list> offers a skip to its
 * dates in <performance-calendar>; a performance chosen there by keyboard
 * hands the focus to the seats of the <seat-picker> showing it. Elements that
 * can take a step register a taker under the store it is about (the basket
 * here; <performance-calendar> and <seat-picker> under the shared selection,
 * directly); the first that shows it, visibly, takes the focus.
 *
 * No rendering, no DOM of its own: the registry is src/state/step-handoff.ts.
 */
import type { BasketStore } from './basket-store.ts';
import { give, take, type FocusTaker } from './step-handoff.ts';

export type { FocusTaker } from './step-handoff.ts';

/** Register a taker of a basket's items (focus the basket item `basketItemId`); returns the function that unregisters it. */
export const takeBasketItemFocus = (basket: BasketStore, taker: FocusTaker): (() => void) => take(basket, taker);

/** Give the focus to the basket item, shown by some element; false when none could take it. */
export const focusBasketItem = (basket: BasketStore, basketItemId: number): Promise<boolean> => give(basket, basketItemId);
