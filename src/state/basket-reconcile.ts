/**
 * An add whose answer was lost, and what the basket says it made.
 *
 * Add Tickets may reach the service and hold the seats while its answer never reaches the
 * browser (a front server's 502 or 504, a hang ended by our own time limit, a connection
 * reset, an unreadable answer). Sending it again would hold a second set. So before an add
 * is sent again, and once at once after its answer was lost, the basket is read
 * (basket-engine.ts): what the lost add made is kept once, and the visitor told it worked.
 * Used by basket-engine.ts alone (the same lazy chunk). No rendering.
 */
import { ApiError, InvalidRequestError } from '../api/client.ts';
import type { AddTicketsV2Body, BasketContent } from '../api/types.ts';

/** How long a change of the basket may take before it counts as unanswered, ms (the proxy gives up on the service at 10 s). */
export const CHANGE_TIMEOUT_MS = 20_000;

/** `run` with a signal that aborts after CHANGE_TIMEOUT_MS: a hang ends, as a `TimeoutError`. */
export function withinTime<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('No answer in time.', 'TimeoutError')), CHANGE_TIMEOUT_MS);
  return run(controller.signal).finally(() => clearTimeout(timer));
}

/**
 * Whether a failed add may still have been made: no answer, our own time limit, a 5xx, or an
 * answer that could not be read. A refusal (4xx) or a call never sent is an answer.
 */
export function mayHaveLanded(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status < 400;
  return !(error instanceof InvalidRequestError);
}

/** An add whose answer was lost: its basket, and the items that basket held before it. */
export interface LostAdd {
  basketId: string;
  before: ReadonlySet<number>;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/**
 * Whether `content` holds what `body` asked for in items that were not in the basket before:
 * the chosen tickets themselves, or (best seats) as many tickets at the asked price.
 */
export function madeBy(body: AddTicketsV2Body, content: BasketContent | null | undefined, lost: LostAdd): boolean {
  if (!Array.isArray(content?.Items) || content.BasketId !== lost.basketId) return false;
  const fresh = content.Items.filter((i) => !lost.before.has(i.BasketItemId)).flatMap((i) => i.Tickets);
  if (body.Tickets) return body.Tickets.length > 0 && body.Tickets.every((id) => fresh.some((t) => t.TicketId === id));
  const { SeatsCount, Price } = body.BestSeats;
  return fresh.filter((t) => near(t.SellingPrice, Price) || near(t.FaceValue, Price)).length >= SeatsCount;
}
