/**
 * The service's DateTimes carry no UTC offset: they are wall-clock times in the
 * service's time zone (Europe/London by default). This module is the ONLY place
 * that turns them into instants and back; never `new Date(serviceString)`, which
 * would read them in the visitor's zone.
 *
 * It also keeps the server-clock offset, read to the millisecond from the
 * proxy's `Server-Timing: clock;desc=...` stamp (to the second from `Date`
 * when there is none), so countdowns do not trust the visitor's clock.
 *
 * Browser-safe: no DOM, no Node.
 */
import type { ServiceDateTime } from './types.ts';

export const DEFAULT_TIME_ZONE = 'Europe/London';

export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Fields of a service DateTime (or a date only), or null when it is not one. */
export function parseServiceDateTime(value: unknown): WallClock | null {
  if (typeof value !== 'string') return null;
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hour = m[4] ? Number(m[4]) : 0;
  const minute = m[5] ? Number(m[5]) : 0;
  const second = m[6] ? Number(m[6]) : 0;
  const millisecond = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second, millisecond };
}

/** Whether a query parameter value is a date (yyyy-MM-dd) or a service DateTime. */
export function isValidDateParam(value: string): boolean {
  return parseServiceDateTime(value) !== null;
}

/** `0001-01-01T00:00:00`: the MinExpirationDate of an empty basket. */
export const MIN_SERVICE_DATE_TIME = '0001-01-01T00:00:00';

/** Whether a DateTime is the minimum DateTime value (year 0001), i.e. "no expiry". */
export function isMinServiceDateTime(value: unknown): boolean {
  const f = parseServiceDateTime(value);
  return f !== null && f.year <= 1;
}

/** Milliseconds since the epoch of wall-clock fields read as UTC (valid for years 1–9999). */
function wallAsUtc(f: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  d.setUTCHours(f.hour, f.minute, f.second, f.millisecond);
  return d.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of an instant in a zone. */
export function wallClockAt(instant: number, timeZone: string = DEFAULT_TIME_ZONE): WallClock {
  const parts = partsFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  let year = get('year');
  const era = parts.find((p) => p.type === 'era')?.value ?? '';
  if (/^B/i.test(era)) year = 1 - year;
  const ms = Math.floor(((instant % 1000) + 1000) % 1000);
  return { year, month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second'), millisecond: ms };
}

/** The zone's UTC offset in milliseconds at an instant. */
export function zoneOffsetAt(instant: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallAsUtc(wallClockAt(whole, timeZone)) - whole;
}

const DAY = 86_400_000;

/**
 * The instant (ms since epoch) of a service DateTime read in `timeZone`.
 * Like Temporal's "compatible" disambiguation: a wall time that occurs twice
 * (October, clocks back) is the earlier instant; one that does not exist
 * (March, clocks forward) is read with the offset before the change.
 * With `near`, a wall time that occurs twice is the reading nearest that
 * instant instead: a hold's ExpirationDate is minutes from now, so in the hour
 * the clocks go back the earlier reading would be an hour in the past.
 * Throws a TypeError for a value that is not a service DateTime.
 */
export function serviceTimeToInstant(
  value: ServiceDateTime,
  timeZone: string = DEFAULT_TIME_ZONE,
  options: { near?: number } = {},
): number {
  const f = parseServiceDateTime(value);
  if (!f) throw new TypeError(`Not a service DateTime: ${JSON.stringify(value)}`);
  const local = wallAsUtc(f);
  if (f.year <= 1) return local; // the minimum DateTime value: no zone applies
  const before = zoneOffsetAt(local - DAY, timeZone);
  const after = zoneOffsetAt(local + DAY, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => local - offset)
    .filter((t) => wallAsUtc({ ...wallClockAt(t, timeZone), millisecond: f.millisecond }) === local);
  const { near } = options;
  if (near !== undefined && candidates.length > 1) {
    return candidates.reduce((best, t) => (Math.abs(t - near) < Math.abs(best - near) ? t : best));
  }
  if (candidates.length) return Math.min(...candidates);
  return local - before; // in a gap
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Wall-clock fields as a service DateTime string. */
export function formatWallClock(f: WallClock, withMilliseconds = false): ServiceDateTime {
  const base = `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;
  return withMilliseconds ? `${base}.${pad(f.millisecond, 3)}` : base;
}

/** Before this instant (UTC year 1), times are read without a zone, as serviceTimeToInstant reads them. */
const START_OF_YEAR_2 = wallAsUtc({ year: 2, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 });

/** The service DateTime (wall clock in `timeZone`, no offset) of an instant. */
export function instantToServiceTime(
  instant: number,
  timeZone: string = DEFAULT_TIME_ZONE,
  options: { milliseconds?: boolean } = {},
): ServiceDateTime {
  // The minimum DateTime value must come back as itself, not shifted by a zone's
  // local mean time (London's is -0:01:15) into year 0000.
  const zone = instant < START_OF_YEAR_2 ? 'UTC' : timeZone;
  return formatWallClock(wallClockAt(instant, zone), options.milliseconds ?? false);
}

/** A date-only query value `yyyy-MM-dd`. */
export function serviceDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Today's date (wall clock) in the service's zone at an instant. */
export function serviceToday(instant: number, timeZone: string = DEFAULT_TIME_ZONE): { year: number; month: number; day: number } {
  const { year, month, day } = wallClockAt(instant, timeZone);
  return { year, month, day };
}

/** Number of days in a month (1–12). */
export { daysInMonth };

/**
 * Format a service DateTime as the venue's wall-clock time, whatever the
 * visitor's zone: 19:30 in London shows 19:30 in Tokyo.
 */
export function formatServiceDateTime(
  value: ServiceDateTime,
  options: Intl.DateTimeFormatOptions & { locale?: string; timeZone?: string } = {},
): string {
  const { locale, timeZone = DEFAULT_TIME_ZONE, ...format } = options;
  const instant = serviceTimeToInstant(value, timeZone);
  const shown = Object.keys(format).length ? format : { dateStyle: 'medium', timeStyle: 'short' } as const;
  // One formatter per language, zone and options: making one costs 1-10 ms on a throttled phone,
  // and a month of a calendar or a show's dates formats dozens.
  const key = JSON.stringify([locale ?? null, timeZone, shown]);
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...shown, timeZone });
    dateFormatters.set(key, formatter);
  }
  return formatter.format(instant);
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

// ------------------------------------------------------------------ the server's clock

/**
 * A clock to the millisecond, in a Server-Timing header:
 * `Server-Timing: clock;desc="1763722800123"` (ms since the epoch). Our sandbox
 * stamps its own clock with it and the proxy stamps every answer with its best
 * reading of the service's clock, because the HTTP `Date` header names only the second.
 */
export function clockTiming(instant: number): string {
  return `clock;desc="${Math.round(instant)}"`;
}

const CLOCK_TIMING = /(?:^|,)\s*clock\s*;[^,]*?\bdesc\s*=\s*"?(\d{1,16})"?\s*(?:[;,]|$)/i;

/** The clock reading (ms since the epoch) of a Server-Timing header, or null when it carries none. */
export function parseClockTiming(header: string | null | undefined): number | null {
  const desc = header ? CLOCK_TIMING.exec(header)?.[1] : undefined;
  const value = Number(desc);
  return desc && Number.isSafeInteger(value) ? value : null;
}

/** How fast two clocks may drift apart: 100 ppm (a cheap quartz crystal is ±50). */
const DRIFT = 1e-4;

/**
 * What is known about another clock's offset from ours (theirs minus ours, in
 * ms): the interval every reading so far allows.
 *
 * A reading made between `sentAt` and `receivedAt` on our clock, saying their
 * clock then showed a time between `from` and `to`, allows offsets from
 * `from − receivedAt` to `to − sentAt`. A millisecond stamp has `from = to`;
 * an HTTP `Date` names a second (`to = from + 999`). Readings are intersected,
 * so whole-second readings taken at different moments narrow to about the
 * round trip. A reading that contradicts the interval means a clock was set:
 * it starts afresh. The interval widens with time by the drift allowance.
 */
export class ClockOffset {
  private low = Number.NEGATIVE_INFINITY;
  private high = Number.POSITIVE_INFINITY;
  /** Our clock when the interval was last narrowed. */
  private at = 0;
  /** How fast it widens since: the drift allowance, or 0 for an offset stated exactly (`set`). */
  private drift = DRIFT;

  /** Whether any reading has been taken. */
  get known(): boolean {
    return this.low > Number.NEGATIVE_INFINITY;
  }

  /** The interval at `now` (our clock), widened by drift since the last reading. */
  bounds(now: number = this.at): { low: number; high: number } {
    const slack = Math.abs(now - this.at) * this.drift;
    return { low: this.low - slack, high: this.high + slack };
  }

  /** Take a reading (see the class comment); `from` ≤ `to`. */
  observe(from: number, to: number, sentAt: number, receivedAt: number): void {
    if (![from, to, sentAt, receivedAt].every(Number.isFinite)) return;
    const last = Math.max(sentAt, receivedAt);
    const low = from - last;
    const high = to - Math.min(sentAt, receivedAt);
    const current = this.bounds(last);
    // Intersect; a reading outside the interval (a clock was set) starts afresh. Before any reading the interval is everything.
    const meets = low <= current.high && high >= current.low;
    const before = { low: this.low, high: this.high };
    this.low = meets ? Math.max(low, current.low) : low;
    this.high = meets ? Math.min(high, current.high) : high;
    this.at = last;
    this.drift = DRIFT;
    this.changed(before);
  }

  /** State the offset exactly (a clock shared in process, tests): no drift applies until the next reading. */
  set(offset: number, now = this.at): void {
    const before = { low: this.low, high: this.high };
    this.low = this.high = offset;
    this.at = now;
    this.drift = 0;
    this.changed(before);
  }

  private readonly listeners = new Set<() => void>();

  /**
   * Be told when a reading (or `set`) moves the interval: what the clock reads
   * now may have jumped, so a countdown's next second falls elsewhere.
   */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(before: { low: number; high: number }): void {
    if (before.low === this.low && before.high === this.high) return;
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * The server's clock, as the visitor's browser reads it.
 *
 * Every answer tells the time on the server: to the millisecond in the
 * proxy's `Server-Timing: clock;desc=...` stamp, else to the second in the
 * `Date` header. Each is taken against the round trip it came back on (the
 * server's moment lies between sending and receiving), and the readings are
 * combined by `ClockOffset`, so the estimate is within half the best round
 * trip of the truth, and within the second of a bare `Date` header at worst.
 *
 * `now()` is the best estimate (the middle); `latest()` is the latest the
 * server's clock can be now, which a countdown uses so it never shows more time
 * than remains. Pass `localNow` to read the visitor's clock from elsewhere
 * (tests use fake timers).
 */
export class ServerClock extends ClockOffset {
  constructor(readonly localNow: () => number = () => Date.now()) {
    super();
  }

  /** Whether the server's time has been read from any answer. */
  get synced(): boolean {
    return this.known;
  }

  /** The offset at the visitor's `local` time: the middle of what the readings allow, plus `k` half-widths. */
  private offsetAt(local: number, k: number): number {
    const { low, high } = this.bounds(local);
    return this.known ? (low + high) / 2 + (k * (high - low)) / 2 : 0;
  }

  /** Server minus visitor, in ms: the best estimate. Setting it states the offset exactly. */
  get offset(): number {
    return this.offsetAt(this.localNow(), 0);
  }

  set offset(value: number) {
    this.set(value, this.localNow());
  }

  /** How far `now()` may be from the server's real time, in ms. */
  get uncertainty(): number {
    const local = this.localNow();
    return this.offsetAt(local, 1) - this.offsetAt(local, 0);
  }

  /**
   * Read the server's time from an answer: its `Date` header and, when present,
   * its Server-Timing clock stamp (which wins, being to the millisecond).
   * `sentAt`/`receivedAt` are the visitor's clock around the request.
   */
  read(dateHeader: string | null | undefined, sentAt: number, receivedAt: number = sentAt, serverTiming?: string | null): void {
    const stamp = parseClockTiming(serverTiming);
    // RFC 7231 IMF-fixdate carries "GMT": an instant, safe to parse. It names the second the server
    // was in: anywhere in it. (No header, or an unreadable one, is NaN: no reading.)
    const second = stamp ?? Date.parse(dateHeader ?? '');
    this.observe(second, stamp ?? second + 999, sentAt, receivedAt);
  }

  /** The server's current instant: the best estimate. */
  now(): number {
    const local = this.localNow();
    return local + this.offsetAt(local, 0);
  }

  /** The latest the server's clock can read now: count down against it, and no more time is shown than remains. */
  latest(): number {
    const local = this.localNow();
    return local + this.offsetAt(local, 1);
  }

  /** Milliseconds from the server's now until a service DateTime (negative once past). */
  msUntil(value: ServiceDateTime, timeZone: string = DEFAULT_TIME_ZONE): number {
    return serviceTimeToInstant(value, timeZone) - this.now();
  }
}
