/**
 * The service's clock, to the millisecond, on every answer of the proxy:
 * `Server-Timing: clock;desc="<ms since the epoch>"`.
 *
 * A hold's ExpirationDate is in the service's clock, so that is the clock a
 * countdown must count against. The HTTP `Date` header names only the second,
 * which made countdowns up to a second long; this stamp carries the
 * milliseconds, and the widget takes it against its request's round trip
 * (src/api/time.ts, `ServerClock`).
 *
 * Which clock the stamp carries:
 * - An upstream that stamps its own milliseconds (our sandbox does, in process
 *   or over the network): its stamps are read against the proxy's clock around
 *   each call, so the offset between the two is known to the length of a call.
 * - An upstream that sends only `Date` (the real service): each answer says the
 *   service's clock was somewhere in one second while the call was in flight.
 *   These readings are intersected (`ClockOffset`), so answers at different
 *   moments narrow the offset to about one call's length.
 * - While the readings allow an offset of zero, the proxy's own clock is the
 *   stamp (servers keep their clocks in step; the proxy's reads milliseconds).
 *   When they rule zero out, the proxy's clock corrected by the offset is, and
 *   by its upper bound: the stamp is never earlier than the service's clock,
 *   so a countdown may end a moment early but never shows more time than the
 *   hold has.
 *
 * Hooks in the proxy: `watch` wraps an in-process upstream, `timing` wraps the
 * upstream client, `stamp` is a middleware, so this file is all there is to it.
 */
import type { MiddlewareHandler } from 'hono';
import { ClockOffset, clockTiming, parseClockTiming } from '../../api/time.ts';
import type { UpstreamClient } from './upstream.ts';

const CARRIES_STAMP = Symbol('stagedoor.carriesClockStamp');

export class UpstreamClock {
  private readonly offset = new ClockOffset();

  /** `now`: the proxy's clock (ms since the epoch). */
  constructor(private readonly now: () => number = Date.now) {}

  /** An in-process upstream (the sandbox), whose every answer is read for its clock: its stamp, else its Date. */
  watch(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return async (request) => {
      const sentAt = this.now();
      const response = await handler(request);
      this.observe(response.headers.get('date'), response.headers.get('server-timing'), sentAt, this.now());
      return response;
    };
  }

  /** Any upstream client (fetch, the Node pool, in process): each answer's `Date`, read against its attempt's start and end. */
  timing(inner: UpstreamClient): UpstreamClient {
    return {
      send: (request, timeoutMs) => {
        const sentAt = this.now();
        return inner.send(request, timeoutMs).then((attempt) => {
          if (attempt.kind === 'answer') this.observe(attempt.date, null, sentAt, this.now());
          return attempt;
        });
      },
      close: inner.close ? () => inner.close?.() ?? Promise.resolve() : undefined,
    };
  }

  /** Read an upstream answer's clock: its Server-Timing stamp to the millisecond, else its `Date` to the second. */
  observe(date: string | null, serverTiming: string | null, sentAt: number, receivedAt: number): void {
    const stamp = parseClockTiming(serverTiming);
    if (stamp !== null) {
      this.offset.observe(stamp, stamp, sentAt, receivedAt);
      return;
    }
    const second = date ? this.parseDate(date) : Number.NaN;
    if (Number.isFinite(second)) this.offset.observe(second, second + 999, sentAt, receivedAt);
  }

  /** The last `Date` read and its instant: answers within one second all carry the same. */
  private lastDate = '';
  private lastSecond = Number.NaN;

  private parseDate(date: string): number {
    if (date !== this.lastDate) {
      this.lastDate = date;
      this.lastSecond = Date.parse(date);
    }
    return this.lastSecond;
  }

  /** What is known of the upstream's offset from the proxy's clock (ms), for logs and tests. */
  bounds(): { low: number; high: number } | null {
    return this.offset.known ? this.offset.bounds(this.now()) : null;
  }

  /** The service's clock now, as stamped (see the file comment). */
  read(): number {
    const now = this.now();
    if (!this.offset.known) return now;
    const { low, high } = this.offset.bounds(now);
    return low <= 0 && high >= 0 ? now : now + high;
  }

  /** The stamp, for an answer built with it (then `stamped`). */
  timingHeader(): string {
    return clockTiming(this.read());
  }

  /**
   * Mark an answer built with the stamp among its headers: the middleware leaves it as it is.
   * (A property of its own rather than a WeakSet entry: cheaper for every answer, and for the GC.)
   */
  stamped(response: Response): Response {
    (response as { [CARRIES_STAMP]?: true })[CARRIES_STAMP] = true;
    return response;
  }

  /** Middleware: every answer of the proxy, its own refusals included, carries the stamp. */
  readonly stamp: MiddlewareHandler = async (c, next) => {
    await next();
    if (!(c.res as { [CARRIES_STAMP]?: true })[CARRIES_STAMP]) c.res.headers.set('Server-Timing', clockTiming(this.read()));
  };
}
