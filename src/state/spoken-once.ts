/**
 * What the countdown says is said once per basket, however many timers and
 * tabs show it: by the tab the visitor is looking at (the one they last
 * opened, focused or touched, while it is visible), once per thing said. A
 * hidden tab says nothing (it says what is still news when shown again).
 *
 * The things said are kept beside the basket in the shared storage for half an
 * hour (memory only, within the tab, where storage is refused).
 *
 * No rendering; the DOM only through `document` and `window` (focus and
 * visibility).
 */
import type { BasketStore } from './basket-store.ts';
import type { KeyValueStorage } from './basket-record.ts';
import { TAB } from './basket-sync.ts';

const KEEP_MS = 30 * 60_000;

const watched = new WeakSet<KeyValueStorage>();

/** Follow which tab the visitor is looking at, for this storage and endpoint. */
function followSpeaker(storage: KeyValueStorage, name: string): void {
  if (watched.has(storage) || typeof window === 'undefined' || typeof document === 'undefined') return;
  watched.add(storage);
  const claim = () => {
    if (document.visibilityState !== 'hidden') storage.setItem(name, TAB);
  };
  claim();
  window.addEventListener('focus', claim);
  window.addEventListener('pointerdown', claim, { capture: true, passive: true });
  window.addEventListener('keydown', claim, { capture: true, passive: true });
  document.addEventListener('visibilitychange', claim);
  window.addEventListener('pagehide', () => {
    if (storage.getItem(name) === TAB) storage.removeItem(name);
  });
}

/** Follow which tab the visitor looks at (the first call makes this tab it, when visible): call it as soon as a basket is shown. */
export function followTabs(store: BasketStore): void {
  followSpeaker(store.storage, `stagedoor:speaker:${store.endpointKey}`);
}

/**
 * True once for `key` (e.g. `left:<expiry>:300`) across the site's tabs: when this tab is
 * visible and the one the visitor looks at, and nothing has said it yet.
 */
export function sayOnce(store: BasketStore, key: string): boolean {
  const speaker = `stagedoor:speaker:${store.endpointKey}`;
  followTabs(store);
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return false;
  const current = store.storage.getItem(speaker);
  if (current && current !== TAB) return false;
  const name = `stagedoor:said:${store.endpointKey}`;
  const now = Date.now();
  let said: Record<string, number> = {};
  try {
    const value = JSON.parse(store.storage.getItem(name) ?? '{}') as unknown;
    if (typeof value === 'object' && value !== null) said = value as Record<string, number>;
  } catch {
    /* start afresh */
  }
  const kept = Object.fromEntries(Object.entries(said).filter(([, until]) => typeof until === 'number' && until > now));
  if (key in kept) return false;
  kept[key] = now + KEEP_MS;
  store.storage.setItem(name, JSON.stringify(kept));
  return true;
}
