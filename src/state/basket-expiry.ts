/**
 * The basket's expiry arithmetic: the instant (server clock, ms since epoch) each item's hold
 * runs out, read in the service's zone, and the earliest of them. The store (basket-store.ts)
 * schedules its refresh by these.
 */
import { isMinServiceDateTime, serviceTimeToInstant } from '../api/time.ts';
import type { BasketContent, BasketItem } from '../api/types.ts';

/** The server's clock, read at each reading (the api client's ServerClock). */
type Clock = { now(): number };

/**
 * The instant (server clock, ms since epoch) an item's hold runs out, read in
 * the service's zone (in the repeated hour of a clock change, the reading
 * nearest now); null when its ExpirationDate is not a DateTime.
 */
export function itemExpiry(item: BasketItem, timeZone: string, clock: Clock): number | null {
  try {
    return serviceTimeToInstant(item.ExpirationDate, timeZone, { near: clock.now() });
  } catch {
    return null;
  }
}

/** An item's expiry instant; never, when it has none. */
export function expiresAt(item: BasketItem, timeZone: string, clock: Clock): number {
  return itemExpiry(item, timeZone, clock) ?? Number.POSITIVE_INFINITY;
}

/** The earliest expiry instant of the basket, by its items (MinExpirationDate as a fallback). */
export function nextExpiry(content: BasketContent | null, timeZone: string, clock: Clock): number | null {
  if (!content || content.Items.length === 0) return null;
  const times = content.Items.map((i) => expiresAt(i, timeZone, clock)).filter(Number.isFinite);
  if (!times.length && !isMinServiceDateTime(content.MinExpirationDate)) {
    try {
      times.push(serviceTimeToInstant(content.MinExpirationDate, timeZone, { near: clock.now() }));
    } catch {
      /* none */
    }
  }
  return times.length ? Math.min(...times) : null;
}
