/**
 * SubmitOrder (and SubmitOrderOnAccount) made idempotent at the proxy, so an
 * answer lost on the way to the customer never strands them: the widget sends
 * the same order again, and gets the same PaymentRedirectUrl.
 *
 * - An accepted order's answer (200, `Success: true`) is kept per basket, in
 *   the shared store when there is one, until the service's payment timeout.
 * - A repeated order for that basket still goes to the service first (after a
 *   declined payment the service takes a new order and gives a new redirect);
 *   when the service refuses it with 403 (the basket is already submitted),
 *   the kept answer is sent instead.
 * - One order per basket at a time: a repeat while the first is in flight, in
 *   this process or another, waits for it and gets its answer.
 * - An order whose answer the service is slow to give (past the upstream time
 *   limit: the customer got 504) is not abandoned: its late answer is kept, and
 *   a repeat waits for it.
 */
import type { Reply } from './reply.ts';
import type { ProxyState } from './state.ts';
import type { CachedResponse } from './stores.ts';

export interface SubmissionOutcome {
  reply: Reply;
  /** The answer kept from an earlier, accepted order for this basket (not the service's answer to this request). */
  replayed: boolean;
}

export interface SubmissionsOptions {
  state: ProxyState;
  now: () => number;
  /** How long an accepted order's answer is kept (the service's payment timeout), ms. */
  keepMs: number;
  /** The upstream time limit, ms: the longest a repeat waits for the order in flight. */
  timeoutMs: number;
  /** How long an order past its time limit may still answer, ms. */
  lateAnswerMs: number;
}

/** Sends one order upstream; `onSettledLate` gets the final answer of an order that timed out (reply.error 'timeout'). */
export type SendOrder = (onSettledLate: (reply: Reply) => void) => Promise<Reply>;

const encoder = new TextEncoder();

function accepted(reply: Reply): boolean {
  if (reply.status !== 200 || reply.error || typeof reply.body !== 'string') return false;
  try {
    const body = JSON.parse(reply.body) as { Success?: unknown };
    return body.Success === true;
  } catch {
    return false;
  }
}

export class Submissions {
  readonly #options: SubmissionsOptions;
  /** Orders in flight in this process, by key. */
  readonly #inflight = new Map<string, Promise<SubmissionOutcome>>();
  /** Orders past their time limit whose late answer is awaited, by key. */
  readonly #late = new Map<string, Promise<void>>();

  constructor(options: SubmissionsOptions) {
    this.#options = options;
  }

  /** `key`: the operation and the basket (`submitOrder:<basketId>`). */
  submit(key: string, send: SendOrder): Promise<SubmissionOutcome> {
    const flight = this.#inflight.get(key);
    if (flight) return flight.then((outcome) => ({ ...outcome, replayed: outcome.replayed || accepted(outcome.reply) }));
    const started = this.#run(key, send).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, started);
    return started;
  }

  #replay(kept: CachedResponse): SubmissionOutcome {
    return { reply: { status: kept.status, body: kept.body, contentType: kept.contentType, date: null }, replayed: true };
  }

  async #keep(key: string, reply: Reply): Promise<void> {
    if (!accepted(reply) || typeof reply.body !== 'string') return;
    const storedAt = this.#options.now();
    await this.#options.state.keepOrder(key, {
      status: 200,
      body: encoder.encode(reply.body),
      contentType: reply.contentType,
      storedAt,
      expiresAt: storedAt + this.#options.keepMs,
    });
  }

  async #run(key: string, send: SendOrder): Promise<SubmissionOutcome> {
    const { state, timeoutMs, lateAnswerMs } = this.#options;
    const flights = state.flights;
    const flightKey = `submit:${key}`;
    const claimed = flights ? await flights.claim(flightKey, lateAnswerMs + 1000) : true;
    if (!claimed && flights) {
      // The same order is in flight in another process: wait for its answer.
      await flights.wait(flightKey, timeoutMs);
      const kept = await state.order(key);
      if (kept) return this.#replay(kept);
    }
    let settleLate = () => undefined as void;
    const lateDone = new Promise<void>((resolve) => (settleLate = resolve));
    let releaseNow = true;
    try {
      const reply = await send((late) => {
        void this.#keep(key, late).finally(settleLate);
      });
      if (reply.error === 'timeout') {
        // The order may still be accepted: hold the claim until its late answer is kept.
        releaseNow = false;
        this.#late.set(key, lateDone);
        void lateDone.finally(() => {
          this.#late.delete(key);
          if (claimed && flights) void flights.release(flightKey);
        });
        return { reply, replayed: false };
      }
      if (accepted(reply)) {
        await this.#keep(key, reply);
        return { reply, replayed: false };
      }
      if (reply.status === 403) {
        const pending = this.#late.get(key);
        if (pending) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([pending, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
          clearTimeout(timer);
        }
        const kept = await state.order(key);
        if (kept) return this.#replay(kept);
      }
      return { reply, replayed: false };
    } finally {
      if (releaseNow && claimed && flights) void flights.release(flightKey);
    }
  }
}
