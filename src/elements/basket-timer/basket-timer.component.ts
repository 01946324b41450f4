import { localized, msg, str } from '@lit/localize';
import { html, nothing, svg, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { BasketItem } from '../../api/types.ts';
import { CountdownController, durationInWords, formatCountdown, secondsLeft } from '../../controllers/countdown-controller.ts';
import { formatDateTime } from '../../format.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import { BookingElement } from '../booking-element.ts';
import { basketTimerStyles } from './basket-timer.styles.ts';

/** What the timer shows. */
export type BasketTimerState = 'empty' | 'normal' | 'warning' | 'final' | 'expired';

const SEVERITY: Record<BasketTimerState, number> = { empty: 0, normal: 1, warning: 2, final: 3, expired: 4 };

const SHORT_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };

/** A small clock, decorative (the label says what the time is). */
const CLOCK_ICON = svg`<circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" stroke-width="1.5" /><path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />`;

interface ItemView {
  item: BasketItem;
  seconds: number;
  state: BasketTimerState;
}

/**
 * @summary How long the seats in the basket stay held, counted down by the server's clock.
 *
 * Shows the time left for the whole basket (its earliest hold) as m:ss and,
 * with `show-items`, for each item (event, date, time left). Compact enough
 * for a site header. It counts against the service's clock (the HTTP `Date`
 * header), not the visitor's, and reads the service's DateTimes in the
 * configured zone: a visitor whose clock is 15 minutes wrong, or who is in
 * another zone, sees the right time. Every tick recomputes from the clock; it
 * stops ticking while the page is hidden and recomputes when it is shown.
 *
 * States (attribute `state`, and a token on `part="timer"`): `empty` (no
 * basket: shows `empty-text`, or nothing at all), `normal`, `warning` (at
 * `warning-seconds`), `final` (at `final-seconds`), `expired` (the hold ran out:
 * lists the released tickets and offers "Start again", which only clears that
 * notice). Screen readers hear one polite live region, only at those moments
 * (warning, final, expired), never every second.
 *
 * @fires booking-expiry-warning - Once per transition into warning or final: `{ level, secondsLeft }`.
 * @fires booking-expiry - Once per release reported by the basket: `{ released }` (the basket items released).
 *
 * @csspart timer - The countdown (a pill); with a state token: `timer normal`, `timer warning`, `timer final`, `timer expired`.
 * @csspart icon - The clock icon in the pill (decorative).
 * @csspart label - "Seats held for" / "Time is up".
 * @csspart time - The m:ss of the whole basket, with the state token (`time warning`).
 * @csspart status - "Releasing your seats…" while the basket is refreshed at zero.
 * @csspart items - The per-item list (`show-items`).
 * @csspart item - One item, with its own state token (`item final`).
 * @csspart item-name - The event name (in the item list and the released list).
 * @csspart item-date - The performance date, venue time (in both lists).
 * @csspart item-seats - The seats of a released item.
 * @csspart item-time - An item's m:ss, with its state token.
 * @csspart released - The panel saying which tickets were released (`released whole` when nothing is left).
 * @csspart message - The panel's sentence.
 * @csspart released-list - The list of released items.
 * @csspart released-item - One released item.
 * @csspart start-again - The "Start again" button (when nothing is left).
 * @csspart dismiss - The "Dismiss" button (when other items are still held).
 * @csspart empty - The `empty-text`, when there is no basket.
 *
 * @cssprop [--booking-timer-background=var(--booking-surface, #ffffff)] - Background of the pill.
 * @cssprop [--booking-timer-color=inherit] - Text colour of the pill.
 * @cssprop [--booking-timer-border-color=var(--booking-border, #d0d4da)] - Border colour in the normal state.
 * @cssprop [--booking-timer-border-width=1px] - Border width of the pill and panel.
 * @cssprop [--booking-timer-radius=999px] - Corner radius of the pill.
 * @cssprop [--booking-timer-padding=0.25rem 0.75rem] - Padding of the pill.
 * @cssprop [--booking-timer-gap=0.375rem] - Space between label and time, and inside list rows.
 * @cssprop [--booking-timer-label-color=var(--booking-muted, #5f6368)] - Label, dates, seats and empty text.
 * @cssprop [--booking-timer-label-size=0.875em] - Font size of the label.
 * @cssprop [--booking-timer-time-size=1.125em] - Font size of the m:ss.
 * @cssprop [--booking-timer-time-weight=700] - Font weight of the m:ss.
 * @cssprop [--booking-timer-warning-color=var(--booking-warning, #8a5a00)] - Text and border in the warning state.
 * @cssprop [--booking-timer-final-color=var(--booking-danger, #b3261e)] - Text and border in the final state.
 * @cssprop [--booking-timer-final-background=#fdecea] - Background of the pill in the final state.
 * @cssprop [--booking-timer-expired-color=var(--booking-danger, #b3261e)] - Expired pill, panel border and message.
 * @cssprop [--booking-timer-panel-background=var(--booking-surface, #ffffff)] - Background of the released panel.
 * @cssprop [--booking-timer-panel-padding=0.75rem] - Padding of the released panel.
 * @cssprop [--booking-timer-item-size=0.875em] - Font size of the per-item list.
 * @cssprop [--booking-timer-icon-size=1em] - Size of the clock icon.
 */
@localized()
export class BasketTimer extends BookingElement {
  static override styles = [...BookingElement.styles, basketTimerStyles];

  /** Seconds left at which the warning state starts (and `booking-expiry-warning` with level `warning` fires). */
  @property({ type: Number, attribute: 'warning-seconds' }) warningSeconds = 120;

  /** Seconds left at which the final state starts (level `final`). */
  @property({ type: Number, attribute: 'final-seconds' }) finalSeconds = 30;

  /** Also list each item with its own time left. */
  @property({ type: Boolean, reflect: true, attribute: 'show-items' }) showItems = false;

  /** Text shown when there is no basket (e.g. "Your basket is empty"); without it the timer shows nothing. */
  @property({ attribute: 'empty-text' }) emptyText: string | null = null;

  /** Read-only: the current state, reflected for styling the host (`basket-timer[state='final']`). */
  @property({ reflect: true }) state: BasketTimerState = 'empty';

  private readonly countdown = new CountdownController(this, {
    now: () => this.bookingController.booking.api.clock.now(),
    align: () => this.target,
    onVisible: () => this.bookingController.booking.basket.checkExpiry(),
  });

  /** The instant the whole basket's hold runs out (server clock), or null without a basket. */
  private target: number | null = null;
  private seconds = 0;
  private items: ItemView[] = [];
  private released: readonly BasketItem[] = [];
  /** The text of the live region: set only at warning, final and expiry. */
  private announcement = '';
  /** The store the counters below refer to. */
  private seenStore: BasketStore | null = null;
  private seenExpiryCount = 0;
  private lastState: BasketTimerState | null = null;
  /** The target whose zero has been handled (refresh asked, generic notice given). */
  private zeroHandledFor: number | null = null;
  private zeroToldFor: number | null = null;
  private afterRender: (() => void)[] = [];

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const { basket: store, config } = this.bookingController.booking;
    const basket = store.value;
    const now = this.countdown.now;
    const content = basket.content?.Items ?? [];

    if (store !== this.seenStore) {
      // A new basket store (first render, or moved to another endpoint): do not replay its past.
      this.seenStore = store;
      this.seenExpiryCount = basket.expiryCount;
      this.lastState = null;
    }

    this.target = content.length ? store.nextExpiry() : null;
    this.countdown.running = this.target !== null;
    this.seconds = this.target === null ? 0 : secondsLeft(this.target - now);
    this.released = basket.released;
    this.items = content.map((item) => {
      const at = store.itemExpiry(item);
      const seconds = at === null ? 0 : secondsLeft(at - now);
      return { item, seconds, state: at === null ? 'normal' : this.levelOf(seconds) };
    });
    const state: BasketTimerState = this.target !== null ? this.levelOf(this.seconds) : this.released.length ? 'expired' : 'empty';
    this.state = state;

    // The basket reported a release: say which tickets, once.
    if (basket.expiryCount > this.seenExpiryCount) {
      this.seenExpiryCount = basket.expiryCount;
      const released = basket.released;
      const list = this.describeItems(released, config);
      this.announcement = content.length
        ? msg(str`The hold ran out for ${list}; those tickets were released.`)
        : msg(str`Time is up. These tickets were released: ${list}.`);
      this.afterRender.push(() => void this.emit('booking-expiry', { released }));
      this.zeroToldFor = this.target;
    }

    if ((state === 'warning' || state === 'final') && (this.lastState === null || SEVERITY[state] > SEVERITY[this.lastState])) {
      const words = durationInWords(this.seconds, config.locale);
      this.announcement =
        state === 'warning'
          ? msg(str`${words} left to complete your booking.`)
          : msg(str`Only ${words} left. Your seats will be released soon.`);
      const level = state;
      const left = this.seconds;
      this.afterRender.push(() => void this.emit('booking-expiry-warning', { level, secondsLeft: left }));
    }

    if (state === 'expired' && this.target !== null) {
      // Zero by the server clock: have the basket refreshed now (the store reports what it released).
      if (this.zeroHandledFor !== this.target) {
        this.zeroHandledFor = this.target;
        this.afterRender.push(() => void this.updateComplete.then(() => store.checkExpiry()));
      }
      // The refresh failed: the visitor still needs to hear that time is up.
      if (basket.error?.action === 'refresh' && this.zeroToldFor !== this.target) {
        this.zeroToldFor = this.target;
        this.announcement = msg('Time is up. Your seats are being released.');
      }
    }
    this.lastState = state;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const queued = this.afterRender;
    this.afterRender = [];
    for (const run of queued) run();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.afterRender = [];
  }

  protected override render(): TemplateResult {
    return html`${this.renderBody()}
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
  }

  private renderBody(): TemplateResult | typeof nothing {
    if (this.state === 'empty') {
      return this.emptyText ? html`<p part="empty" class="empty" tabindex="-1">${this.emptyText}</p>` : nothing;
    }
    if (this.target === null) return this.renderReleased(true);
    return html`${this.renderCountdown()} ${this.released.length ? this.renderReleased(false) : nothing}
    ${this.showItems ? this.renderItems() : nothing}`;
  }

  private renderCountdown(): TemplateResult {
    const state = this.state;
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

  private renderIcon(): TemplateResult {
    return html`<svg part="icon" class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">${CLOCK_ICON}</svg>`;
  }

  /** m:ss for the eye; minutes and seconds in words for assistive technology. */
  private renderTime(seconds: number): TemplateResult {
    return html`<span aria-hidden="true">${formatCountdown(seconds)}</span><span class="visually-hidden"
        >${durationInWords(seconds, this.bookingController.booking.config.locale)}</span
      >`;
  }

  private renderItems(): TemplateResult {
    const { config } = this.bookingController.booking;
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
    const { config } = this.bookingController.booking;
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
      ${whole
        ? html`<button part="start-again" type="button" @click=${this.handleStartAgainClick}>${msg('Start again')}</button>`
        : html`<button part="dismiss" type="button" data-variant="secondary" @click=${this.handleStartAgainClick}>
            ${msg('Dismiss')}
          </button>`}
    </div>`;
  }

  private levelOf(seconds: number): BasketTimerState {
    // An attribute that is not a number (warning-seconds="soon") keeps the default.
    const final = Number.isFinite(this.finalSeconds) ? this.finalSeconds : 30;
    const warning = Number.isFinite(this.warningSeconds) ? this.warningSeconds : 120;
    if (seconds <= 0) return 'expired';
    if (seconds <= final) return 'final';
    if (seconds <= warning) return 'warning';
    return 'normal';
  }

  private describeSeats(seats: readonly string[]): string {
    const [only] = seats;
    if (seats.length === 1 && only !== undefined) return msg(str`Seat ${only}`);
    const list = new Intl.ListFormat(this.bookingController.booking.config.locale, { style: 'short', type: 'conjunction' }).format(seats);
    return msg(str`Seats ${list}`);
  }

  private describeItems(items: readonly BasketItem[], config: { locale: string; timeZone: string }): string {
    const names = items.map((item) => `${item.EventName}, ${formatDateTime(item.PerformanceDate, config, SHORT_DATE)}`);
    return new Intl.ListFormat(config.locale, { style: 'long', type: 'conjunction' }).format(names);
  }

  /** "Start again" / "Dismiss": forget the released notice; nothing else (no event, the selection is kept). */
  private async handleStartAgainClick(): Promise<void> {
    this.bookingController.booking.basket.clearReleased();
    await this.updateComplete;
    // The button is gone: keep keyboard focus in the timer when there is somewhere to put it.
    this.renderRoot.querySelector<HTMLElement>('.empty, .timer')?.focus();
  }
}
