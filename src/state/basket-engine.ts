/**
 * What the basket store (basket-store.ts) does with the service: each change's request and
 * what its answer means (an add, a remove, emptying, a read), the expiry timer, and failures
 * worded.
 *
 * Loaded lazily: a page that shows no basket (a list, a timer with nothing held) never
 * fetches it. The store asks for it with its first request (a stored basket read again, a
 * change heard from another tab); the parts of elements that change the basket (the seat
 * picker's Add, the checkout's basket, the timer's view) import it, so it arrives with them
 * and their first click waits for nothing.
 *
 * Functions of the store, not a class: the store keeps every field; this module only acts.
 * No rendering.
 */
import { ApiError, isBasketGone } from '../api/client.ts';
import type { AddTicketsV2Body, BasketContent, BasketItem } from '../api/types.ts';
import { EMPTY_RELEASED } from './basket-record.ts';
import { expiresAt, itemExpiry, nextExpiry } from './basket-expiry.ts';
import { loadedBasketWords, offlineFailure, provideBasketEngine, type BasketStore } from './basket-store.ts';
import type { AddOutcome, BasketAction, BasketFailure, BasketState, ChangeOutcome } from './basket-types.ts';

const ok = { ok: true } as const;

/** An item's expiry instant by the store's zone and the server's clock. */
const expiry = (s: BasketStore, item: BasketItem): number => expiresAt(item, s.timeZone, s.api.clock);

async function ensureBasket(s: BasketStore): Promise<string> {
  const existing = s.value.basketId;
  if (existing) return existing;
  s.creating ??= s.api
    .createBasket()
    .then((result) => {
      s.keepBasketKey(result.BasketId);
      s.patch({ basketId: result.BasketId });
      return result.BasketId;
    })
    .finally(() => {
      s.creating = undefined;
    });
  return s.creating;
}

/**
 * How long a change of the basket may take, ms, before it ends as a `TimeoutError` (the proxy
 * gives up on the service at 10 s): a hang then ends in basket-reconcile.ts's read.
 */
export const CHANGE_TIMEOUT_MS = 20_000;
const inTime = () => ({ signal: AbortSignal.timeout(CHANGE_TIMEOUT_MS) });

/** basket-reconcile.ts: asked for beside each add, so that a lost answer finds it at hand; null where it cannot be fetched. */
const reconciler = () => import('./basket-reconcile.ts').catch(() => null);

async function add(s: BasketStore, body: AddTicketsV2Body, retried = false): Promise<AddOutcome> {
  const key = JSON.stringify(body);
  const reconcile = reconciler();
  // The same add again after its answer was lost: the basket first, so what that one made is kept once.
  let found = s.lostAdds.has(key) && (await (await reconcile)?.settle(s, body));
  if (found) return made(s, key, found);
  let basketId: string;
  try {
    basketId = await ensureBasket(s);
  } catch (error) {
    return { ok: false, error: await fail(s, 'add', error) };
  }
  const was = s.value.content;
  try {
    const result = await s.api.addTickets({ basketId, body }, inTime());
    if (result.Success) return made(s, key, result.GetBasketContentResult);
    const words = loadedBasketWords();
    const failure = words ? words.rejectedFailure(result) : await s.words().then(
      (loaded) => loaded.rejectedFailure(result),
      () => offlineFailure('add'),
    );
    keepContent(s, result.GetBasketContentResult);
    s.patch({ error: failure });
    return { ok: false, error: failure };
  } catch (error) {
    // The stored basket is gone upstream (expired long ago, or paid): start a new one, once.
    if (!retried && isBasketGone(error)) {
      s.dropBasketKey();
      s.patch({ basketId: null, content: null });
      return add(s, body, true);
    }
    // Its answer may have been lost: the basket says what it made.
    found = await (await reconcile)?.settle(s, body, { error, basketId, was });
    if (found) return made(s, key, found);
    if (error instanceof ApiError && error.addResult) keepContent(s, error.addResult.GetBasketContentResult);
    return { ok: false, error: await fail(s, 'add', error) };
  }
}

/** An add made: the basket it answered (or that showed what a lost one made) taken; no add whose answer was lost any more. */
function made(s: BasketStore, key: string, content: BasketContent): AddOutcome {
  s.lostAdds.delete(key);
  accept(s, content, 'add');
  return { ok: true, content };
}

async function remove(s: BasketStore, basketItemId: number): Promise<ChangeOutcome> {
  const basketId = s.value.basketId;
  if (!basketId) return ok;
  try {
    const result = await s.api.deleteBasketItem({ basketId, basketItemId });
    accept(s, result.GetBasketContentResult, 'remove');
    return ok;
  } catch (error) {
    if (isBasketGone(error)) {
      // The item is gone, not necessarily the basket: its hold may have run out upstream
      // before our refresh. Read the basket to know, and keep what is still held.
      try {
        accept(s, await s.api.getBasket({ basketId }), 'refresh');
      } catch (again) {
        if (isBasketGone(again)) releaseAll(s);
        else return { ok: false, error: await fail(s, 'remove', again) };
      }
      return ok;
    }
    return { ok: false, error: await fail(s, 'remove', error) };
  }
}

async function clear(s: BasketStore): Promise<ChangeOutcome> {
  const basketId = s.value.basketId;
  if (!basketId) return ok;
  try {
    await s.api.deleteAllFromBasket({ basketId });
    s.changeVersion++;
    s.forget();
    s.share('clear');
    return ok;
  } catch (error) {
    if (isBasketGone(error)) {
      s.changeVersion++;
      s.forget();
      return ok;
    }
    return { ok: false, error: await fail(s, 'clear', error) };
  }
}

async function refresh(s: BasketStore): Promise<ChangeOutcome> {
  const basketId = s.value.basketId;
  if (!basketId) return ok;
  const version = s.changeVersion;
  try {
    const content = await s.api.getBasket({ basketId });
    // A change landed meanwhile: its answer is newer than this one.
    if (version !== s.changeVersion || basketId !== s.value.basketId) return ok;
    accept(s, content, 'refresh');
    return ok;
  } catch (error) {
    if (version !== s.changeVersion || basketId !== s.value.basketId) return ok;
    if (isBasketGone(error)) {
      releaseAll(s);
      return ok;
    }
    const failure = await fail(s, 'refresh', error);
    scheduleExpiry(s); // an expiry refresh that failed is tried again
    return { ok: false, error: failure };
  }
}

/** Take a basket content that came with a failure, when it is a real one. */
function keepContent(s: BasketStore, content: BasketContent | undefined | null): void {
  if (content && Array.isArray(content.Items) && content.BasketId === s.value.basketId) accept(s, content, null);
}

/**
 * Take a basket content from the service. `action` null: it came with a
 * failure (a 409 or Success false), which keeps the error and the basket id.
 */
function accept(s: BasketStore, content: BasketContent, action: BasketAction | null): void {
  if (action !== 'refresh') s.changeVersion++;
  const previous = s.value.content;
  const now = s.api.clock.now();
  const stillThere = new Set(content.Items.map((i) => i.BasketItemId));
  // Items that vanished without the visitor removing them, and whose hold had run out, were released by expiry.
  const released = action === 'refresh' && previous ? previous.Items.filter((i) => !stillThere.has(i.BasketItemId) && expiry(s, i) <= now + 1000) : [];
  const releaseChange: Partial<BasketState> = released.length
    ? { released: Object.freeze(released), expiryCount: s.value.expiryCount + 1, releasedElsewhere: s.adopting > 0 }
    : action === 'add'
      ? { released: EMPTY_RELEASED } // tickets added after an expiry: the visitor started again
      : {};
  if (content.Items.length === 0) {
    s.clearExpiryTimer();
    if (action === null) {
      // An add refused on a new (or emptied) basket: the basket itself is still good, keep its id.
      s.patch({ content: null, ...releaseChange });
      return;
    }
    s.dropBasketKey();
    s.patch({ basketId: null, content: null, error: null, ...releaseChange });
    shareAfter(s, action, released.length > 0);
    return;
  }
  s.patch({
    content,
    basketId: content.BasketId || s.value.basketId,
    error: action ? null : s.value.error,
    ...releaseChange,
  });
  if (s.value.basketId) s.keepBasketKey(s.value.basketId);
  scheduleExpiry(s);
  shareAfter(s, action, released.length > 0);
}

/** Tell the other tabs of what `accept` took: an add or remove here, or a release this tab found. */
function shareAfter(s: BasketStore, action: BasketAction | null, released: boolean): void {
  if (action === 'add' || action === 'remove') s.share(action);
  else if (released) s.share('expiry');
}

function releaseAll(s: BasketStore): void {
  const items = s.value.content?.Items ?? [];
  const now = s.api.clock.now();
  const released = items.filter((i) => expiry(s, i) <= now + 1000);
  s.dropBasketKey();
  s.clearExpiryTimer();
  s.patch({
    basketId: null,
    content: null,
    error: null,
    ...(released.length ? { released: Object.freeze(released), expiryCount: s.value.expiryCount + 1, releasedElsewhere: s.adopting > 0 } : {}),
  });
  if (released.length) s.share('expiry');
}

function scheduleExpiry(s: BasketStore): void {
  s.clearExpiryTimer();
  const next = s.nextExpiry();
  if (next === null) {
    s.expiryAttempts = 0;
    return;
  }
  const untilNext = next - s.api.clock.now();
  let delay: number;
  if (untilNext > 0) {
    // A little after the instant, so the service has released it.
    s.expiryAttempts = 0;
    delay = Math.min(untilNext + 250, 2 ** 31 - 1);
  } else {
    // Past due and still held (the refresh failed, or the service is late): back off.
    delay = Math.min(1000 * 2 ** s.expiryAttempts, 30_000);
    s.expiryAttempts++;
  }
  s.expiryTimer = setTimeout(() => {
    s.expiryTimer = undefined;
    void s.refresh();
  }, delay);
}

/**
 * Turn an error into a failure (basket-failure.ts, in the basket's words), record it, and keep the last good basket.
 * The words load with the store's first request (a page that never asks for a basket never fetches them).
 */
async function fail(s: BasketStore, action: BasketAction, error: unknown): Promise<BasketFailure> {
  const words = loadedBasketWords();
  const failure = words ? words.basketFailureOf(action, error) : await s.words().then(
    (loaded) => loaded.basketFailureOf(action, error),
    // Not even our own words could be fetched: there is no connection.
    () => offlineFailure(action),
  );
  s.patch({ error: failure });
  return failure;
}

export const basketEngine = {
  add,
  remove,
  clear,
  refresh,
  itemExpiry: (s: BasketStore, item: BasketItem): number | null => itemExpiry(item, s.timeZone, s.api.clock),
  nextExpiry: (s: BasketStore): number | null => nextExpiry(s.value.content, s.timeZone, s.api.clock),
};
export type BasketEngine = typeof basketEngine;

provideBasketEngine(basketEngine);
