/**
 * Who can take the keyboard focus for what, per store of the booking (a basket, the shared
 * selection): the registry src/state/focus-handoff.ts names the uses of. Its own small module,
 * in the chunk the elements share (scripts/build.mjs), because <event-list> offers a skip through
 * it and must not fetch the flow's modules for that.
 */

/** Takes the focus for `what` if this element shows it; resolves true when it has (or will have) the focus. */
export type FocusTaker<T = number> = (what: T) => Promise<boolean>;

const takers = new WeakMap<object, Set<FocusTaker<never>>>();

/** Register a taker under a store; returns the function that unregisters it. */
export function take<T>(store: object, taker: FocusTaker<T>): () => void {
  let set = takers.get(store);
  if (!set) takers.set(store, (set = new Set()));
  set.add(taker as FocusTaker<never>);
  return () => set.delete(taker as FocusTaker<never>);
}

/** Give the focus for `what` to the first taker under the store that takes it; false when none does. */
export async function give<T>(store: object, what: T): Promise<boolean> {
  for (const taker of [...(takers.get(store) ?? [])]) {
    if (await (taker as FocusTaker<T>)(what)) return true;
  }
  return false;
}

/** Whether some element registered under the store (a skip to it is worth offering). */
export const hasTaker = (store: object): boolean => Boolean(takers.get(store)?.size);

/** The steps of the shared selection an element can take the focus for. */
export type SelectionStep =
  | { step: 'dates'; eventId: number }
  | { step: 'seats'; performanceId: number }
  /** Back to a show's detail, or to the list (focus on the card of `eventId`, the show left). */
  | { step: 'detail'; eventId: number }
  | { step: 'list'; eventId: number | null };

const shows = new WeakMap<object, object>();
/**
 * Where <event-list> takes its steps (the list, a show's detail) for a selection: a key of its own, so
 * that `hasTaker(selection)` still says whether a calendar or picker shows the next step.
 */
export function showsKey(selection: object): object {
  let key = shows.get(selection);
  if (!key) shows.set(selection, (key = {}));
  return key;
}
