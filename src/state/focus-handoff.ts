/**
 * Handing the keyboard focus from one element to another that shows the
 * customer's next step, wherever that is on the page: after seats are added
 * in <seat-picker>, focus goes to the added item in the basket that
 * <checkout-form> shows; a show opened in <event-list> offers a skip to its
 * dates in <performance-calendar>; a performance chosen there by keyboard
 * hands the focus to the seats of the <seat-picker> showing it. Elements that
 * can take a step register a taker (per basket, or per shared selection); the
 * first that shows it, visibly, takes the focus.
 *
 * No rendering, no DOM of its own: registries keyed by the booking's stores.
 */
import type { BasketStore } from './basket-store.ts';
import type { SelectionStore } from './selection.ts';

/** Takes the focus for `what` if this element shows it; resolves true when it has (or will have) the focus. */
export type FocusTaker<T = number> = (what: T) => Promise<boolean>;

/** One registry of takers per key (a store): who can take the focus for what. */
function handoff<K extends object, T>() {
  const takers = new WeakMap<K, Set<FocusTaker<T>>>();
  return {
    take(key: K, taker: FocusTaker<T>): () => void {
      let set = takers.get(key);
      if (!set) {
        set = new Set();
        takers.set(key, set);
      }
      set.add(taker);
      return () => set.delete(taker);
    },
    has(key: K): boolean {
      return Boolean(takers.get(key)?.size);
    },
    async give(key: K, what: T): Promise<boolean> {
      for (const taker of [...(takers.get(key) ?? [])]) {
        if (await taker(what)) return true;
      }
      return false;
    },
  };
}

const basketItems = handoff<BasketStore, number>();

/** Register a taker of a basket's items (focus the basket item `basketItemId`); returns the function that unregisters it. */
export const takeBasketItemFocus = (basket: BasketStore, taker: FocusTaker): (() => void) => basketItems.take(basket, taker);

/** Give the focus to the basket item, shown by some element; false when none could take it. */
export const focusBasketItem = (basket: BasketStore, basketItemId: number): Promise<boolean> => basketItems.give(basket, basketItemId);

/** The steps of the shared selection an element can take the focus for. */
export type SelectionStep = { step: 'dates'; eventId: number } | { step: 'seats'; performanceId: number };

const selectionSteps = handoff<SelectionStore, SelectionStep>();

/** Register a taker of the selection's next step (an event's dates, a performance's seats); returns the function that unregisters it. */
export const takeStepFocus = (selection: SelectionStore, taker: FocusTaker<SelectionStep>): (() => void) => selectionSteps.take(selection, taker);

/** Give the focus to the element showing this step; false when none shows it. */
export const focusStep = (selection: SelectionStore, step: SelectionStep): Promise<boolean> => selectionSteps.give(selection, step);

/** Whether some element on the page can take a step of this selection (a skip to it is worth offering). */
export const stepTakers = (selection: SelectionStore): boolean => selectionSteps.has(selection);
