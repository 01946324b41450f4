/**
 * What the visitor is told when a basket change fails: the service's reasons in words, and
 * errors in the basket's words (beside the common sentences of failure.ts). Loaded by the
 * basket store with its first request (basket-store.ts), not with every page's first download.
 */
import { ApiError } from '../api/client.ts';
import type { AddTicketsResult } from '../api/types.ts';
import { msg, str } from '../i18n/msg.ts';
import { plural } from '../i18n/plural.ts';
import { basketFailure } from './basket-store.ts';
import type { BasketAction, BasketWords, BasketFailure, BasketFailureKind } from './basket-types.ts';
import { basketInvalidMessage, toFailure, type FailureWords } from './failure.ts';
import { singleSeatMessage } from './single-seat-words.ts';

/** The reason text of an add-result, trusted over the number (upstream-facts.md). */
function reasonName(result: Pick<AddTicketsResult, 'FailureReason' | 'FailureReasonText'>): string {
  if (result.FailureReasonText) return result.FailureReasonText;
  const names: Record<number, string> = {
    1: 'TicketNotAvailable', 2: 'BasketIsLocked', 3: 'TicketsLimitExceeded', 4: 'TicketsLimitSubceeded',
    5: 'TicketLeavesSingleSeat', 6: 'BoxOfficeApiUnavailable', 7: 'TicketForNonBookablePerformance', 8: 'BookableTicketsExceeded',
  };
  return names[result.FailureReason] ?? `Reason${result.FailureReason}`;
}

/** A FailureReason in words. */
export function describeFailureReason(reason: string, bookable: number | null = null): string {
  switch (reason) {
    case 'TicketNotAvailable':
      return msg('Some of those seats have just been taken. Please choose again.');
    case 'BasketIsLocked':
      return msg('This basket has already been sent to payment and can no longer be changed.');
    case 'TicketsLimitExceeded':
      return msg('That is more tickets than one booking may hold.');
    case 'TicketsLimitSubceeded':
      return msg('This performance needs more tickets in one booking.');
    case 'TicketLeavesSingleSeat':
      return singleSeatMessage();
    case 'BoxOfficeApiUnavailable':
      return msg("The theatre's box office is not answering just now. Please try again in a moment.");
    case 'TicketForNonBookablePerformance':
      return msg('This part can only be booked together with its paired performance.');
    case 'BookableTicketsExceeded':
      return bookable === null
        ? msg('Fewer tickets are left than you asked for.')
        : bookable === 0
          ? msg('No more tickets can be booked for this performance.')
          : plural(bookable, {
              one: () => msg(str`Only ${bookable} ticket can still be booked for this performance.`),
              other: () => msg(str`Only ${bookable} tickets can still be booked for this performance.`),
            });
    default:
      return msg('The tickets could not be added to your basket.');
  }
}


/** What the visitor is told when a basket change fails, beside the common sentences (state/failure.ts). */
const somethingWrong = () => msg('Something went wrong. Please try again.');
const noAnswer = () => msg('The box office did not answer. Your choice is kept: please try again.');
const BASKET_WORDS: FailureWords = {
  otherwise: somethingWrong,
  cancelled: () => msg('The request was cancelled.'),
  unavailable: noAnswer,
  timeout: (f) => (f.status === null ? somethingWrong() : noAnswer()),
  gone: basketInvalidMessage,
  'not-found': basketInvalidMessage,
  server: (f) => f.serviceMessage ?? somethingWrong(),
  // Our own call was refused before it was sent: its reason (a programming error, not the visitor's).
  invalid: (f) => (f.error instanceof Error ? f.error.message : somethingWrong()),
};

/** An add the service refused (Success false), in words. */
export function rejectedFailure(result: AddTicketsResult): BasketFailure {
  const reason = reasonName(result);
  return basketFailure('add', 'rejected', () => describeFailureReason(reason, result.BookableTicketsCount), {
    status: 200,
    reason,
    bookableTicketsCount: result.BookableTicketsCount,
    retryable: reason === 'BoxOfficeApiUnavailable',
  });
}

/** An error of a basket action as a failure (state/failure.ts, in the basket's words). */
export function basketFailureOf(action: BasketAction, error: unknown): BasketFailure {
  const outcome = toFailure(error, BASKET_WORDS);
  const add = error instanceof ApiError ? error.addResult : null;
  const reason = outcome.kind === 'conflict' ? (add ? reasonName(add) : 'TicketNotAvailable') : null;
  const kind: BasketFailureKind =
    outcome.kind === 'network'
      ? 'network'
      : outcome.kind === 'unavailable' || (outcome.kind === 'timeout' && outcome.status !== null)
        ? 'supplier'
        : outcome.kind === 'gone' || outcome.kind === 'not-found'
          ? 'invalid-basket'
          : reason === 'BookableTicketsExceeded'
            ? 'bookable-exceeded'
            : reason
              ? 'unavailable'
              : 'other';
  return basketFailure(action, kind, reason ? () => describeFailureReason(reason, add?.BookableTicketsCount ?? null) : () => outcome.message, {
    status: outcome.status,
    reason,
    bookableTicketsCount: reason ? (add?.BookableTicketsCount ?? null) : null,
    retryable: outcome.retryable,
  });
}

/** The words, for the store (basket-store.ts provideBasketWords). */
export const basketWords: BasketWords = { basketFailureOf, rejectedFailure };
