/**
 * An add whose answer was lost, and what the basket says it made.
 *
 * Add Tickets may reach the service and hold the seats while its answer never reaches the
 * browser (a front server's 502 or 504, a cut connection, an answer that is not JSON, a hang
 * ended by the engine's time limit). Sending it again would hold a second set. So the basket
 * is read at once after such a failure, and again before the same add is sent again
 * (basket-engine.ts): what the lost add made is kept once, and the visitor told it worked.
 *
 * A chunk of its own, asked for by basket-engine.ts beside each add and waited for only when
 * an add has failed or is sent again after its answer was lost: a visitor's first add never
 * waits for it, and no page's first view carries it. No rendering.
 */
import { ApiError, InvalidRequestError } from '../api/client.ts';
import type { AddTicketsV2Body, BasketContent } from '../api/types.ts';
import type { BasketStore } from './basket-store.ts';

/** An add whose answer was lost: its basket, and that basket as it was before it (its items then). */
export interface LostAdd {
  basketId: string;
  before: BasketContent | null;
}

/** How long the basket's read may take, ms (as a change: basket-engine.ts). */
const READ_TIMEOUT_MS = 20_000;

/**
 * Whether a failed add may still have been made: no answer, the engine's time limit, a 5xx,
 * or an answer that could not be read. A refusal (4xx) or a call never sent is an answer.
 */
function mayHaveLanded(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status < 400;
  return !(error instanceof InvalidRequestError);
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Whether `content` holds what `body` asked for in items that were not in the basket before:
 * the chosen tickets themselves, or (best seats) as many tickets at the asked price.
 */
function madeBy(body: AddTicketsV2Body, content: BasketContent | null | undefined, lost: LostAdd): boolean {
  if (!Array.isArray(content?.Items) || content.BasketId !== lost.basketId) return false;
  const had = new Set((lost.before?.Items ?? []).map((i) => i.BasketItemId));
  const fresh = content.Items.filter((i) => !had.has(i.BasketItemId)).flatMap((i) => i.Tickets);
  if (body.Tickets) return body.Tickets.length > 0 && body.Tickets.every((id) => fresh.some((t) => t.TicketId === id));
  const { SeatsCount, Price } = body.BestSeats;
  return fresh.filter((t) => near(t.SellingPrice, Price) || near(t.FaceValue, Price)).length >= SeatsCount;
}

/** An add that has just failed: why, its basket, and that basket as the store showed it before. */
export interface Failed {
  error: unknown;
  basketId: string;
  was: BasketContent | null;
}

/**
 * The basket that shows an add made, else null: before it is sent again after its answer was
 * lost, or once it has `failed`.
 *
 * - Seats "just taken" for the very basket that holds them since (the lost add landed late,
 *   or the browser sent it twice) are made.
 * - A refusal (4xx) is an answer: not an add whose answer was lost.
 * - Otherwise it is kept as one (the store's `lostAdds`, until an add of it is made) and the
 *   basket is read. One that cannot be read is null: the add is sent again (a read that keeps
 *   failing never leaves the visitor without a way on, and seats sent twice are refused for
 *   this very basket, read as made above).
 */
export async function settle(s: BasketStore, body: AddTicketsV2Body, failed?: Failed): Promise<BasketContent | null> {
  const key = JSON.stringify(body);
  let lost = s.lostAdds.get(key);
  if (failed) {
    const { error, basketId, was } = failed;
    lost = { basketId, before: lost?.basketId === basketId ? lost.before : was };
    const refused = error instanceof ApiError ? error.addResult?.GetBasketContentResult : null;
    if (refused && madeBy(body, refused, lost)) return refused;
    if (!mayHaveLanded(error)) return s.lostAdds.delete(key), null;
    s.lostAdds.set(key, lost);
  } else if (lost?.basketId !== s.value.basketId) return null;
  if (!lost) return null;
  try {
    const content = await s.api.getBasket({ basketId: lost.basketId }, { signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
    return madeBy(body, content, lost) ? content : null;
  } catch {
    return null;
  }
}
