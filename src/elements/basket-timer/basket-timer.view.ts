/**
 * <basket-timer> beyond its empty state: the countdown by the server's clock,
 * the warning and final states with their announcements and events, the
 * per-item times and the released tickets. Loaded by the element the first
 * time its basket holds something (src/elements/basket-timer/basket-timer.component.ts).
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { BasketItem } from '../../api/types.ts';
import { CountdownController, durationInWords, formatCountdown, holdLevel, secondsLeft, type HoldLevel } from '../../controllers/countdown-controller.ts';
import type { BookingEventDetails, BookingEventName } from '../../events.ts';
import { formatDateTime, formatList } from '../../format.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import type { BookingContextValue } from '../../state/booking.ts';
import { lapsedHold, type LapsedHold } from '../../state/lapsed-hold.ts';
import { pendingPayment, type PendingPayment } from '../../state/pending-payment.ts';
import { followTabs, sayOnce } from '../../state/spoken-once.ts';
import type { BasketTimer, BasketTimerState } from './basket-timer.component.ts';

export { basketTimerViewStyles } from './basket-timer.view.styles.ts';

/** Seconds left at which the live region says the time left (besides the warning threshold and the final seconds). */
const SPOKEN_MARKS = [300, 120, 60];
/**
 * How far past a mark (in seconds shown) it is still said: a tick a busy page held up by a second.
 * Further past, the clock jumped over it (a phone that slept with the page open): it is not said late.
 */
const LATE_SECONDS = 1;
/** How long (in seconds shown) a sentence of the time left stays in the live region: after that it is no longer true, and goes. */
const TRUE_FOR_SECONDS = 5;

const SEVERITY: Record<BasketTimerState, number> = { empty: 0, normal: 1, warning: 2, final: 3, expired: 4 };

const SHORT_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };

/** A small clock, decorative (the label says what the time is). */
const CLOCK_ICON = svg`<circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" stroke-width="1.5" /><path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />`;

interface ItemView {
  item: BasketItem;
  seconds: number;
  state: HoldLevel;
}

/** What each basket has been told (an expiry, a warning), whatever timer told it. */
const told = new WeakMap<BasketStore, Set<string>>();

/** True the first time it is asked for `key` for this basket: what is said once per basket however many timers show it. */
function firstTime(store: BasketStore, key: string): boolean {
  let keys = told.get(store);
  if (!keys) told.set(store, (keys = new Set()));
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

/** What the view needs of its element beyond its public properties. */
export interface TimerPort {
  booking(): BookingContextValue;
  /** The store's expiry count when the element first showed it: releases after that are announced. */
  expiryBaseline(store: BasketStore): number;
  emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): Promise<void>;
}

export class BasketTimerView {
  private readonly countdown: CountdownController;

  constructor(
    private readonly host: BasketTimer,
    private readonly port: TimerPort,
  ) {
    this.countdown = new CountdownController(host, {
      // The latest the server's clock can read: never more time shown than remains.
      now: () => port.booking().api.clock.latest(),
      clock: () => port.booking().api.clock,
      align: () => this.target ?? this.paymentDeadline,
      onVisible: () => port.booking().basket.checkExpiry(),
    });
  }

  /** The instant the whole basket's hold runs out (server clock), or null without a basket. */
  private target: number | null = null;
  /** Without a basket: when the payment in progress (pending-payment.ts) stops being open, or null. */
  private paymentDeadline: number | null = null;
  private pending: { store: BasketStore; payment: PendingPayment; off: () => void } | undefined;
  private seconds = 0;
  private items: ItemView[] = [];
  private released: readonly BasketItem[] = [];
  /** The text of the live region: set only at warning, final and expiry. */
  announcement = '';
  /** The sentence of the time left in the live region, and the seconds it told: emptied once it no longer holds. */
  private timeTold: { text: string; seconds: number } | null = null;
  /** The store the counters below refer to. */
  private seenStore: BasketStore | null = null;
  private seenExpiryCount = 0;
  private lastState: BasketTimerState | null = null;
  /** The target whose zero has been handled (refresh asked, generic notice given). */
  private zeroHandledFor: number | null = null;
  private zeroToldFor: number | null = null;
  private afterRender: (() => void)[] = [];
  /** What the lapsed hold held (lapsed-hold.ts), and its last outcome this view told. */
  private lapsed: { store: BasketStore; hold: LapsedHold; off: () => void } | undefined;
  private seenOutcomes = 0;
  /** When the last release was said (server clock). */
  private releaseSaidAt = Number.NEGATIVE_INFINITY;

  willUpdate(): void {
    const { basket: store, config } = this.port.booking();
    const basket = store.value;
    const now = this.countdown.now;
    const content = basket.content?.Items ?? [];

    if (store !== this.seenStore) {
      // A new basket store (first render, or moved to another endpoint): do not replay its past.
      this.seenStore = store;
      this.seenExpiryCount = this.port.expiryBaseline(store);
      this.lastState = null;
    }

    followTabs(store); // this tab, shown now, is where the visitor looks (spoken-once.ts)
    this.target = content.length ? store.nextExpiry() : null;
    if (this.pending?.store !== store) {
      this.pending?.off();
      const payment = pendingPayment(store);
      this.pending = { store, payment, off: payment.subscribe(() => this.host.requestUpdate()) };
    }
    const payment = this.pending.payment.value;
    this.paymentDeadline = this.target === null && payment.status === 'awaiting' ? payment.deadline : null;
    this.countdown.running = this.target !== null || this.paymentDeadline !== null;
    this.seconds = this.target === null ? 0 : secondsLeft(this.target - now);
    this.released = basket.released;
    this.items = content.map((item) => {
      const at = store.itemExpiry(item);
      const seconds = at === null ? 0 : secondsLeft(at - now);
      return { item, seconds, state: at === null ? 'normal' : this.levelOf(at - now) };
    });
    const state: BasketTimerState =
      this.target !== null ? this.levelOf(this.target - now) : this.released.length ? 'expired' : this.paymentDeadline !== null ? 'normal' : 'empty';
    this.host.state = state;

    // The basket reported a release: say which tickets, once per basket however many timers and
    // tabs show it (spoken-once.ts), and fire the event in the tab where it happened (a release
    // learnt from another tab fired there; this tab's host hears `booking-remote-change`).
    if (basket.expiryCount > this.seenExpiryCount) {
      this.seenExpiryCount = basket.expiryCount;
      this.zeroToldFor = this.target;
      const released = basket.released;
      if (sayOnce(store, `expiry:${released.map((i) => i.BasketItemId).join(',')}`)) {
        this.releaseSaidAt = now;
        const list = this.describeItems(released, config);
        this.announcement = content.length
          ? msg(str`The hold ran out for ${list}; those tickets were released.`)
          : msg(str`Time is up. These tickets were released: ${list}.`);
      }
      if (firstTime(store, `expiry:${basket.expiryCount}`) && !basket.releasedElsewhere) {
        this.afterRender.push(() => void this.port.emit('booking-expiry', { released }));
      }
    }

    if (
      (state === 'warning' || state === 'final') &&
      (this.lastState === null || SEVERITY[state] > SEVERITY[this.lastState]) &&
      firstTime(store, `${state}:${this.target}`)
    ) {
      const level = state;
      const left = this.seconds;
      this.afterRender.push(() => void this.port.emit('booking-expiry-warning', { level, secondsLeft: left }));
    }

    // What the region holds is true now: a sentence of the time left goes once the time has moved
    // on from it (or the hold ran out), so a jump of the clock never leaves it saying an old time.
    const told = this.timeTold;
    if (told && (this.announcement !== told.text || state === 'expired' || this.target === null || told.seconds - this.seconds > TRUE_FOR_SECONDS || this.seconds > told.seconds)) {
      if (this.announcement === told.text) this.announcement = '';
      this.timeTold = null;
    }

    // The time left, heard at 5, 2 and 1 minutes (and at the warning threshold), in their second,
    // and on entering the final seconds: once each, by the tab the visitor looks at; the timer's
    // own role stays quiet. A mark the clock jumped past is not said late. A release said within
    // the last second is not talked over (the time left is said after it).
    if (this.target !== null && state !== 'expired' && !(now - this.releaseSaidAt < 1000)) {
      const words = durationInWords(this.seconds, intlLocale(config.locale));
      const marks = [...SPOKEN_MARKS, this.host.warningSeconds].filter((m) => Number.isFinite(m) && this.seconds <= m);
      const mark = marks.length ? Math.min(...marks) : null;
      let said: string | null = null;
      if (state === 'final' && sayOnce(store, `final:${this.target}`)) {
        said = msg(str`Only ${words} left. Your seats will be released soon.`);
      } else if (mark !== null && state !== 'final' && mark - this.seconds <= LATE_SECONDS && sayOnce(store, `left:${this.target}:${mark}`)) {
        said = msg(str`${words} left to complete your booking.`);
      }
      if (said !== null) {
        this.announcement = said;
        this.timeTold = { text: said, seconds: this.seconds };
      }
    }

    this.rehold(store);

    if (state === 'expired' && this.target !== null) {
      // Zero by the server clock: have the basket refreshed now (the store reports what it released).
      if (this.zeroHandledFor !== this.target) {
        this.zeroHandledFor = this.target;
        this.afterRender.push(() => void this.host.updateComplete.then(() => store.checkExpiry()));
      }
      // The refresh failed: the visitor still needs to hear that time is up.
      if (basket.error?.action === 'refresh' && this.zeroToldFor !== this.target) {
        this.zeroToldFor = this.target;
        this.announcement = msg('Time is up. Your seats are being released.');
      }
    }
    this.lastState = state;
  }

  /** Follow the lapsed hold of this basket; say each outcome of "Hold these seats again" once. */
  private rehold(store: BasketStore): void {
    if (this.lapsed?.store !== store) {
      this.lapsed?.off();
      const hold = lapsedHold(this.port.booking());
      this.lapsed = { store, hold, off: hold.subscribe(() => this.host.requestUpdate()) };
      this.seenOutcomes = hold.value.outcomes;
    }
    const value = this.lapsed.hold.value;
    if (value.outcomes === this.seenOutcomes) return;
    this.seenOutcomes = value.outcomes;
    if (!firstTime(store, `rehold:${value.outcomes}`)) return;
    if (value.status === 'held') this.announcement = msg('Your seats are held again.');
    else if (value.status === 'gone') this.announcement = this.goneMessage(value.gone);
    else if (value.status === 'failed' && value.message) this.announcement = value.message;
  }

  private goneMessage(gone: readonly string[]): string {
    if (!gone.length) return msg('Some of those seats were taken meanwhile. Choose again on the seat map.');
    const list = formatList(gone, this.port.booking().config, { style: 'short', type: 'conjunction' });
    return msg(str`No longer free: ${list}. Choose again on the seat map.`);
  }

  updated(): void {
    const queued = this.afterRender;
    this.afterRender = [];
    for (const run of queued) run();
  }

  disconnected(): void {
    this.afterRender = [];
    this.pending?.off();
    this.pending = undefined;
    this.lapsed?.off();
    this.lapsed = undefined;
  }

  /** The timer's body (the element renders it with its live region); `empty` is the empty state's. */
  renderBody(empty: TemplateResult | typeof nothing): TemplateResult | typeof nothing {
    if (this.host.state === 'empty') return empty;
    if (this.target === null && this.paymentDeadline !== null) return this.renderPaymentOpen(this.paymentDeadline);
    if (this.target === null) return this.renderReleased(true);
    return html`${this.renderCountdown(this.host.state)} ${this.released.length ? this.renderReleased(false) : nothing}
    ${this.host.showItems ? this.renderItems() : nothing}`;
  }

  /** The countdown; its state is a part token (docs/vocabulary.md), so it is one of the hold's levels, never `empty`. */
  private renderCountdown(state: HoldLevel): TemplateResult {
    if (state === 'expired') {
      return html`<div part="timer expired" class="timer expired" tabindex="-1">
        ${this.renderIcon()}
        <span part="label" class="label">${msg('Time is up')}</span>
        <span part="status" class="status">${msg('Releasing your seats…')}</span>
      </div>`;
    }
    return html`<div part="timer ${state}" class="timer ${state}" tabindex="-1">
      ${this.renderIcon()}
      <span part="label" class="label" id="label">${msg('Seats held for')}</span>
      <span part="time ${state}" class="time" role="timer" aria-labelledby="label">${this.renderTime(this.seconds)}</span>
    </div>`;
  }

  /** The payment in progress: how long it stays open (the seats are held until then). */
  private renderPaymentOpen(deadline: number): TemplateResult {
    return html`<div part="timer normal payment" class="timer normal" tabindex="-1">
      ${this.renderIcon()}
      <span part="label" class="label" id="label">${msg('Payment open for')}</span>
      <span part="time normal" class="time" role="timer" aria-labelledby="label">${this.renderTime(secondsLeft(deadline - this.countdown.now))}</span>
    </div>`;
  }

  private renderIcon(): TemplateResult {
    return html`<svg part="icon" class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">${CLOCK_ICON}</svg>`;
  }

  /** m:ss for the eye; minutes and seconds in words for assistive technology. */
  private renderTime(seconds: number): TemplateResult {
    return html`<span aria-hidden="true">${formatCountdown(seconds)}</span><span class="visually-hidden"
        >${durationInWords(seconds, intlLocale(this.port.booking().config.locale))}</span
      >`;
  }

  private renderItems(): TemplateResult {
    const { config } = this.port.booking();
    return html`<ul part="items" class="items" aria-label=${msg('Time left for each booking')}>
      ${this.items.map(
        ({ item, seconds, state }) =>
          html`<li part="item ${state}" class="item ${state}">
            <span part="item-name" class="item-name">${item.EventName}</span>
            <span part="item-date" class="item-date">${formatDateTime(item.PerformanceDate, config, SHORT_DATE)}</span>
            <span part="item-time ${state}" class="item-time">${this.renderTime(seconds)}</span>
          </li>`,
      )}
    </ul>`;
  }

  /** Which tickets were released; `whole`: nothing is left, offer to start again. */
  private renderReleased(whole: boolean): TemplateResult {
    const { config } = this.port.booking();
    return html`<div
      part=${whole ? 'timer expired released whole' : 'released'}
      class="panel ${whole ? 'whole' : ''}"
      role="group"
      aria-labelledby="released-message"
    >
      <p part="message" class="message" id="released-message">
        ${whole ? msg('Time is up: the hold on your seats ran out and they were released.') : msg('The hold ran out for:')}
      </p>
      <ul part="released-list" class="released">
        ${this.released.map(
          (item) =>
            html`<li part="released-item" class="released-item">
              <span part="item-name" class="item-name">${item.EventName}</span>
              <span part="item-date" class="item-date">${formatDateTime(item.PerformanceDate, config, SHORT_DATE)}</span>
              ${item.Seats.length ? html`<span part="item-seats" class="item-seats">${this.describeSeats(item.Seats)}</span>` : nothing}
            </li>`,
        )}
      </ul>
      ${this.renderRehold()}
      ${whole
        ? html`<button part="start-again-button" type="button" data-variant=${this.lapsed?.hold.offered ? 'secondary' : nothing} @click=${() => this.handleStartAgainClick()}>
            ${msg('Start again')}
          </button>`
        : html`<button part="dismiss-button" type="button" data-variant="secondary" @click=${() => this.handleStartAgainClick()}>
            ${msg('Dismiss')}
          </button>`}
    </div>`;
  }

  /** "Hold these seats again", or which seats were gone when it was tried. */
  private renderRehold(): TemplateResult | typeof nothing {
    const hold = this.lapsed?.hold;
    if (!hold) return nothing;
    const { status, gone, message } = hold.value;
    if (status === 'gone') return html`<p part="message" class="message" id="rehold-message" tabindex="-1">${this.goneMessage(gone)}</p>`;
    if (!hold.offered) return nothing;
    const busy = status === 'holding';
    return html`${status === 'failed' && message ? html`<p part="message" class="message" id="rehold-message" tabindex="-1">${message}</p>` : nothing}
      <button part="hold-again-button" type="button" aria-disabled=${busy ? 'true' : 'false'} @click=${() => this.handleHoldAgainClick()}>
        ${busy ? msg('Holding your seats again…') : msg('Hold these seats again')}
      </button>`;
  }

  /** One click: the same seats in a new hold (lapsed-hold.ts); focus stays in the timer. */
  private async handleHoldAgainClick(): Promise<void> {
    const hold = this.lapsed?.hold;
    if (!hold || hold.value.status === 'holding') return;
    await hold.holdAgain();
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('#rehold-message, .timer, .empty')?.focus();
  }

  /** The state at `ms` before the hold runs out (an attribute that is not a number, warning-seconds="soon", keeps the default). */
  private levelOf(ms: number): HoldLevel {
    return holdLevel(ms, this.host.warningSeconds, this.host.finalSeconds);
  }

  private describeSeats(seats: readonly string[]): string {
    const [only] = seats;
    if (seats.length === 1 && only !== undefined) return msg(str`Seat ${only}`);
    const list = formatList(seats, this.port.booking().config, { style: 'short', type: 'conjunction' });
    return msg(str`Seats ${list}`);
  }

  private describeItems(items: readonly BasketItem[], config: { locale: string; timeZone: string }): string {
    const names = items.map((item) => `${item.EventName}, ${formatDateTime(item.PerformanceDate, config, SHORT_DATE)}`);
    return formatList(names, config);
  }

  /** "Start again" / "Dismiss": forget the released notice (and what it held); nothing else (no event, the selection is kept). */
  private async handleStartAgainClick(): Promise<void> {
    this.port.booking().basket.clearReleased();
    this.lapsed?.hold.dismiss();
    await this.host.updateComplete;
    // The button is gone: keep keyboard focus in the timer when there is somewhere to put it.
    this.host.renderRoot.querySelector<HTMLElement>('.empty, .timer')?.focus();
  }
}
