/**
 * Re-renders its host once a second for a countdown, reading the clock afresh
 * on every tick: it never counts down by adding up intervals, so a tick that a
 * busy or throttled page delays still shows the right time.
 *
 * - Ticks on the second boundary of the instant it counts to (`align`), so the
 *   shown seconds change when they should, not up to a second late.
 * - Stops while the page is hidden (`document.visibilityState === 'hidden'`);
 *   when it is shown again it re-renders at once and calls `onVisible`.
 * - Its visibility listener exists only while the host is connected.
 *
 *   private readonly countdown = new CountdownController(this, {
 *     now: () => this.bookingController.booking.api.clock.latest(), // the SERVER clock, at its latest
 *     align: () => this.expiresAt,
 *     clock: () => this.bookingController.booking.api.clock, // its jumps move the next second
 *   });
 *   // in willUpdate: this.countdown.running = this.expiresAt !== null;
 *   // in render: formatCountdown(secondsLeft(this.expiresAt - this.countdown.now))
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** A clock that says when its reading jumps (ServerClock, on a fresher reading of the server's time). */
export interface ClockChanges {
  subscribe(listener: () => void): () => void;
}

export interface CountdownOptions {
  /** The current instant to count against (ms since epoch): the server's clock, not `Date.now()` alone. */
  now: () => number;
  /** The instant counted to, whose second boundaries the ticks fall on; null: the clock's own seconds. */
  align?: () => number | null;
  /** The clock `now` reads, to follow its jumps (a fresher reading moves every countdown's next second). */
  clock?: () => ClockChanges | null;
  /** Called when the page becomes visible again (after the host is asked to re-render). */
  onVisible?: () => void;
}

export class CountdownController implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The second boundary (on the counted clock) after the instant the host last
   * rendered: where what it shows goes stale, and the next tick is due.
   */
  private dueAt = 0;
  /** The instant `now` is held at while the host updates, so all it renders and the schedule agree. */
  private pinned: number | undefined;
  private connected = false;
  private wanted = false;
  private followed: { clock: ClockChanges; off: () => void } | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CountdownOptions,
  ) {
    host.addController(this);
  }

  /**
   * The clock now: read it when rendering, never keep a count of ticks. Within
   * one update of the host it is one instant (the first read), so a render
   * that straddles a second boundary shows one second throughout and the next
   * tick falls on the boundary after that instant.
   */
  get now(): number {
    if (this.pinned !== undefined && updating(this.host)) return this.pinned;
    const now = this.options.now();
    if (updating(this.host)) this.pinned = now;
    return now;
  }

  /** Whether the host wants ticks (e.g. only while there is something to count down). */
  get running(): boolean {
    return this.wanted;
  }

  set running(value: boolean) {
    if (value === this.wanted) return;
    this.wanted = value;
    this.schedule(this.options.now());
  }

  /** Whether a tick is scheduled (false while stopped, hidden or disconnected). */
  get ticking(): boolean {
    return this.timer !== undefined;
  }

  hostConnected(): void {
    this.connected = true;
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.handleVisibilityChange);
    this.follow();
    this.schedule(this.options.now());
  }

  hostDisconnected(): void {
    this.connected = false;
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.handleVisibilityChange);
    this.followed?.off();
    this.followed = undefined;
    this.stop();
  }

  hostUpdate(): void {
    this.follow();
  }

  /**
   * After each render: the next tick is due at the first second boundary after
   * the instant it showed (not after now: a render just before a boundary that
   * finishes just after it must still be followed by a tick at that boundary).
   */
  hostUpdated(): void {
    const shownAt = this.pinned ?? this.options.now();
    this.pinned = undefined;
    this.schedule(shownAt);
  }

  private get visible(): boolean {
    return typeof document === 'undefined' || document.visibilityState !== 'hidden';
  }

  /** The first instant after `now` whose distance to the target is a whole second. */
  private boundaryAfter(now: number): number {
    const phase = mod(this.options.align?.() ?? 0, 1000);
    return now + (mod(phase - now, 1000) || 1000);
  }

  /** Tick at the first boundary after `shownAt` (the instant the host's display is of). */
  private schedule(shownAt: number): void {
    this.stop();
    if (!this.connected || !this.wanted || !this.visible) return;
    this.dueAt = this.boundaryAfter(shownAt);
    this.wait();
  }

  /**
   * Sleep until `dueAt`. Timers run whole milliseconds (a fractional delay is
   * cut short) and may fire early or late against a clock read elsewhere, so
   * the delay is rounded up and `tick` checks the boundary has truly passed.
   */
  private wait(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(this.tick, Math.max(0, Math.ceil(this.dueAt - this.options.now())));
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly tick = (): void => {
    this.timer = undefined;
    this.check();
  };

  /**
   * Whether what the host shows still holds: if the boundary is still ahead
   * (a timer fired early, or the clock jumped back) wait for the rest of it,
   * not a whole second; if it is behind, re-render (which schedules the next).
   */
  private check(): void {
    if (!this.connected || !this.wanted || !this.visible) return;
    const now = this.options.now();
    if (Math.abs(this.boundaryAfter(now) - this.dueAt) < 1) {
      this.wait();
      return;
    }
    this.host.requestUpdate();
    // The render reschedules from the instant it shows; until then (a host whose render is held up) keep the beat.
    this.schedule(now);
  }

  /** Follow the clock `now` reads (and only it): when a fresher reading moves it, the due second moves too. */
  private follow(): void {
    const clock = this.options.clock?.() ?? null;
    if (this.followed?.clock === clock) return;
    this.followed?.off();
    this.followed = clock ? { clock, off: clock.subscribe(() => this.check()) } : undefined;
  }

  private readonly handleVisibilityChange = (): void => {
    if (!this.visible) {
      this.stop();
      return;
    }
    this.host.requestUpdate();
    this.options.onVisible?.();
    this.schedule(this.options.now());
  };
}

/** Whether a Lit host is between requesting an update and finishing its render. */
function updating(host: ReactiveControllerHost): boolean {
  return (host as { isUpdatePending?: boolean }).isUpdatePending === true;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/**
 * The whole seconds to show for an instant `ms` away: the most that still holds
 * until the shown seconds next change. The display stays up for a second (ticks
 * fall on the hold's second boundaries), so at exactly 600 s left it shows 9:59,
 * not 10:00 (which would be a second more than remains for the whole next
 * second); with 597.4 s left, 9:57. A countdown never shows more time than
 * remains, at any moment it is on screen.
 */
export function secondsLeft(ms: number): number {
  return ms <= 0 ? 0 : Math.ceil(ms / 1000) - 1;
}

/** How near a hold is to running out, as shown: `warning` from 2 minutes, `final` from 30 seconds (by default). */
export type HoldLevel = 'normal' | 'warning' | 'final' | 'expired';

/**
 * The level of a hold `ms` before it runs out, by the seconds shown (so the style changes with
 * the digits); `expired` only once it has. A threshold that is not a number keeps its default.
 */
export function holdLevel(ms: number, warningSeconds = 120, finalSeconds = 30): HoldLevel {
  const final = Number.isFinite(finalSeconds) ? finalSeconds : 30;
  const warning = Number.isFinite(warningSeconds) ? warningSeconds : 120;
  const seconds = secondsLeft(ms);
  if (ms <= 0) return 'expired';
  if (seconds <= final) return 'final';
  if (seconds <= warning) return 'warning';
  return 'normal';
}

/** Seconds as `m:ss` (minutes are not capped at 59: `75:00`). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Seconds in words for assistive technology, in the visitor's language: "1 minute, 5 seconds". */
export function durationInWords(seconds: number, locale?: string): string {
  const s = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(s / 60);
  const rest = s % 60;
  const parts = [minutes ? unitFormat(locale, 'minute').format(minutes) : '', rest || !minutes ? unitFormat(locale, 'second').format(rest) : ''];
  return listFormat(locale).format(parts.filter(Boolean));
}

const formats = new Map<string, Intl.NumberFormat | Intl.ListFormat>();

function unitFormat(locale: string | undefined, unit: 'minute' | 'second'): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let format = formats.get(key);
  if (!(format instanceof Intl.NumberFormat)) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' });
    formats.set(key, format);
  }
  return format;
}

function listFormat(locale: string | undefined): Intl.ListFormat {
  const key = `${locale}|list`;
  let format = formats.get(key);
  if (!(format instanceof Intl.ListFormat)) {
    format = new Intl.ListFormat(locale, { style: 'long', type: 'unit' });
    formats.set(key, format);
  }
  return format;
}
