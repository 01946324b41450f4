/**
 * SubmitOrder (and SubmitOrderOnAccount) made idempotent at the proxy, so an
 * answer lost on the way to the customer never strands them: the widget sends
 * the same order again, and gets the same PaymentRedirectUrl.
 *
 * - An accepted order's answer (200, `Success: true`) is kept per basket, in
 *   the shared store when there is one, until the service's payment timeout,
 *   with the SHA-256 of the order it answered (`orderHash`: the body with its
 *   keys in a stable order, `orderHash()`).
 * - A repeat is the same order for the same basket: the same body, byte for
 *   byte once its keys are sorted (the widget's retry resends it unchanged).
 *   Only a repeat is ever answered with another request's answer; a different
 *   order (other name, corrected e-mail) is the service's to judge, and its
 *   answer (a 403 for a basket already submitted) passes through unchanged.
 * - A repeat still goes to the service first (after a declined payment the
 *   service takes a new order and gives a new redirect); when the service
 *   refuses it with 403 (the basket is already submitted), the kept answer is
 *   sent instead.
 * - A repeat while the same order is in flight, in this process or another,
 *   waits for it and gets its answer.
 * - An order whose answer the service is slow to give (past the upstream time
 *   limit: the customer got 504) is not abandoned: its late answer is kept, and
 *   a repeat waits for it.
 * - An order whose answer never reached the proxy (a gateway's 502 or 504, no
 *   answer at all, a reset, bytes that are not HTTP) leaves nothing to keep: its
 *   repeat gets the service's 403, and the widget asks the service what the
 *   basket is (src/state/order.ts).
 */
import type { Reply } from './reply.ts';
import type { ProxyState } from './state.ts';

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

/** JSON with every object's keys in code-unit order, so one order always reads the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The SHA-256 (hex) of an order body (parsed JSON), whatever the order of its keys. Web Crypto: edge-safe. */
export function orderHash(body: unknown): Promise<string> {
  return hashOf(canonical(body));
}

async function hashOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

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
  /**
   * Orders in flight in this process, by key and canonical order body: found
   * at once, with no await before it (a double submit's second request joins
   * the first even while the first's hash is still being computed).
   */
  readonly #inflight = new Map<string, Promise<SubmissionOutcome>>();
  /** Orders past their time limit whose late answer is awaited, by key and order hash. */
  readonly #late = new Map<string, Promise<void>>();

  constructor(options: SubmissionsOptions) {
    this.#options = options;
  }

  /**
   * `key`: the operation and the basket, its id in lower case (`submitOrder:<basketId>`);
   * `body`: the order (parsed JSON). Only the very same order (same key, same body whatever
   * the order of its keys; its SHA-256 in the store) is answered for another.
   */
  submit(key: string, body: unknown, send: SendOrder): Promise<SubmissionOutcome> {
    const text = canonical(body);
    const order = `${key}:${text}`;
    const flight = this.#inflight.get(order);
    if (flight) return flight.then((outcome) => ({ ...outcome, replayed: outcome.replayed || accepted(outcome.reply) }));
    const started = hashOf(text)
      .then((hash) => this.#run(key, hash, send))
      .finally(() => this.#inflight.delete(order));
    this.#inflight.set(order, started);
    return started;
  }

  /** The answer kept for this basket, if it answered this very order. */
  async #kept(key: string, hash: string): Promise<SubmissionOutcome | undefined> {
    const kept = await this.#options.state.order(key);
    if (!kept || kept.orderHash !== hash) return undefined;
    return { reply: { status: kept.status, body: kept.body, contentType: kept.contentType, date: null }, replayed: true };
  }

  async #keep(key: string, hash: string, reply: Reply): Promise<void> {
    if (!accepted(reply) || typeof reply.body !== 'string') return;
    const storedAt = this.#options.now();
    await this.#options.state.keepOrder(key, {
      status: 200,
      body: encoder.encode(reply.body),
      contentType: reply.contentType,
      storedAt,
      expiresAt: storedAt + this.#options.keepMs,
      orderHash: hash,
    });
  }

  async #run(key: string, hash: string, send: SendOrder): Promise<SubmissionOutcome> {
    const { state, timeoutMs, lateAnswerMs } = this.#options;
    const flights = state.flights;
    const order = `${key}:${hash}`;
    const flightKey = `submit:${order}`;
    const claimed = flights ? await flights.claim(flightKey, lateAnswerMs + 1000) : true;
    if (!claimed && flights) {
      // The same order is in flight in another process: wait for its answer.
      await flights.wait(flightKey, timeoutMs);
      const kept = await this.#kept(key, hash);
      if (kept) return kept;
    }
    let settleLate = () => undefined as void;
    const lateDone = new Promise<void>((resolve) => (settleLate = resolve));
    let releaseNow = true;
    try {
      const reply = await send((late) => {
        void this.#keep(key, hash, late).finally(settleLate);
      });
      if (reply.error === 'timeout') {
        // The order may still be accepted: hold the claim until its late answer is kept.
        releaseNow = false;
        this.#late.set(order, lateDone);
        void lateDone.finally(() => {
          this.#late.delete(order);
          if (claimed && flights) void flights.release(flightKey);
        });
        return { reply, replayed: false };
      }
      if (accepted(reply)) {
        await this.#keep(key, hash, reply);
        return { reply, replayed: false };
      }
      if (reply.status === 403) {
        const pending = this.#late.get(order);
        if (pending) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([pending, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
          clearTimeout(timer);
        }
        const kept = await this.#kept(key, hash);
        if (kept) return kept;
      }
      return { reply, replayed: false };
    } finally {
      if (releaseNow && claimed && flights) void flights.release(flightKey);
    }
  }
}
