/**
 * One place that turns any failure into what the visitor is told.
 *
 * Every element and store hands the error it caught to `toFailure` with the
 * words of its own context (what could not be done: "The shows could not be
 * loaded."), and gets one typed outcome: the kind of failure, a translated
 * sentence, whether trying again may help and, when the service asked for it
 * (429, 503 with Retry-After), how long to wait. Nothing else below or beside
 * this module maps an error to words or looks at a status code to decide what
 * to say.
 */
import { ApiError, InvalidRequestError, NetworkError, isAbortError, isBasketGone } from '../api/client.ts';
import { msg } from '../i18n/msg.ts';
import { networkMessage } from './network-message.ts';

export type FailureKind =
  /** No answer at all: offline, DNS, connection refused, CORS refusal. */
  | 'network'
  /** The request's own time ran out (an AbortSignal.timeout), or the box office did not answer in time (504, 408). */
  | 'timeout'
  /** The caller cancelled the request. */
  | 'cancelled'
  /** Too many requests (429): wait `retryAfter` seconds when given. */
  | 'rate-limited'
  /** The thing asked for does not exist (404). */
  | 'not-found'
  /** The basket can no longer be changed or read (403). */
  | 'gone'
  /** The tickets are no longer available (409). */
  | 'conflict'
  /** Any other refusal (400, 413 ...): the service's message when it gave one. */
  | 'refused'
  /** The box office or its supplier could not answer (502, 503). */
  | 'unavailable'
  /** The service had an error of its own (500 and other 5xx). */
  | 'server'
  /** Our own call was invalid, so nothing was sent. */
  | 'invalid'
  /** Anything else (a bug, an unreadable answer). */
  | 'unknown';

export interface Failure {
  readonly kind: FailureKind;
  /** The HTTP status of the answer, or null when there was none. */
  readonly status: number | null;
  /** The service's own `Message`, when its answer carried one. */
  readonly serviceMessage: string | null;
  /** Whether the same request may succeed when sent again. */
  readonly retryable: boolean;
  /** Seconds the service asked to wait before trying again (Retry-After), or null. */
  readonly retryAfter: number | null;
  /** What the visitor is told, in the language shown now (made when read, so a language change follows). */
  readonly message: string;
  /** The error this describes. */
  readonly error: unknown;
}

/**
 * The sentences of one context: `otherwise` for any failure it has no sentence
 * of its own for; one per kind where it says something else. Kinds it leaves
 * out get the common sentence for that kind when there is one (a network
 * failure, too many requests, a refusal with the service's message), else
 * `otherwise`.
 */
export type FailureWords = { readonly otherwise: () => string } & { readonly [K in FailureKind]?: (failure: Omit<Failure, 'message'>) => string };

/** The one sentence for "no answer at all". */
export { networkMessage };

/** The one sentence for a basket the service no longer knows or lets change (403, 404). */
export const basketInvalidMessage = () => msg('Your basket is no longer valid.');

const COMMON: { readonly [K in FailureKind]?: (failure: Omit<Failure, 'message'>) => string | null } = {
  network: networkMessage,
  'rate-limited': () => msg('Too many attempts. Please wait a moment and try again.'),
  refused: (f) => f.serviceMessage,
};

const RETRYABLE: ReadonlySet<FailureKind> = new Set(['network', 'timeout', 'cancelled', 'rate-limited', 'unavailable', 'server', 'unknown']);

function kindOf(error: unknown): { kind: FailureKind; status: number | null } {
  if (error instanceof NetworkError) return { kind: 'network', status: null };
  if (error instanceof InvalidRequestError) return { kind: 'invalid', status: null };
  if (error instanceof ApiError) {
    const status = error.status;
    const kind: FailureKind =
      status === 429
        ? 'rate-limited'
        : status === 404
          ? 'not-found'
          : status === 403
            ? 'gone'
            : status === 409
              ? 'conflict'
              : status === 408 || status === 504
                ? 'timeout'
                : status === 502 || status === 503
                  ? 'unavailable'
                  : status >= 500
                    ? 'server'
                    : status >= 400
                      ? 'refused'
                      : 'unknown';
    return { kind, status };
  }
  if (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError') return { kind: 'timeout', status: null };
  if (isAbortError(error)) return { kind: 'cancelled', status: null };
  return { kind: 'unknown', status: null };
}

/** `error` as the visitor's outcome, in the words of its context. */
export function toFailure(error: unknown, words: FailureWords): Failure {
  const { kind, status } = kindOf(error);
  const facts: Omit<Failure, 'message'> = {
    kind,
    status,
    serviceMessage: error instanceof ApiError ? error.serviceMessage : null,
    retryable: RETRYABLE.has(kind),
    retryAfter: error instanceof ApiError ? error.retryAfter : null,
    error,
  };
  return Object.freeze({
    ...facts,
    get message() {
      return words[kind]?.(facts) ?? COMMON[kind]?.(facts) ?? words.otherwise();
    },
  });
}

/** Whether the answer to a request that changes something may have been lost on its way back (no answer, 502-504): sending it again is how to learn. */
export function isLostAnswer(error: unknown): boolean {
  const { kind } = kindOf(error);
  return kind === 'network' || kind === 'unavailable' || (kind === 'timeout' && error instanceof ApiError && error.status === 504);
}

/** Whether the service no longer knows the basket, or refuses to touch it (403, 404). */
export { isBasketGone };

/** The status of the answer an error came with, or null (for `booking-error`'s detail). */
export function statusOf(error: unknown): number | null {
  return kindOf(error).status;
}
