import { localized } from '../../i18n/msg.ts';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { BasketStore } from '../../state/basket-store.ts';
import { BookingElement } from '../booking-element.ts';
import { basketTimerStyles } from './basket-timer.styles.ts';
import type { BasketTimerView } from './basket-timer.view.ts';

/** What the timer shows. */
export type BasketTimerState = 'empty' | 'normal' | 'warning' | 'final' | 'expired';

/**
 * @summary How long the seats in the basket stay held, counted down by the server's clock.
 *
 * Shows the time left for the whole basket (its earliest hold) as m:ss and,
 * with `show-items`, for each item (event, date, time left). Compact enough
 * for a site header. It counts against the service's clock (read to the
 * millisecond from the proxy's clock stamp), not the visitor's, shows the
 * seconds that still hold until its next tick (a fresh 10-minute hold shows
 * 9:59) so it never shows more time than the hold has, not even for a moment,
 * and reads the service's DateTimes in the
 * configured zone: a visitor whose clock is 15 minutes wrong, or who is in
 * another zone, sees the right time. Every tick recomputes from the clock; it
 * stops ticking while the page is hidden and recomputes when it is shown.
 *
 * States (attribute `state`, and a token on `part="timer"`): `empty` (no
 * basket: shows `empty-text`, or nothing at all), `normal`, `warning` (at
 * `warning-seconds`), `final` (at `final-seconds`), `expired` (the hold ran out:
 * lists the released tickets and offers "Hold these seats again", which adds the
 * same seats to a new hold in one click, or says which were taken meanwhile and
 * shows that performance in the shared selection's seat map; "Start again" only
 * clears the notice). Every tab and window of the site shows the same basket and
 * countdown. Screen readers hear one polite live region, only at 5, 2 and 1
 * minutes left, at the warning threshold, the final seconds and expiry, never
 * every second, and once per basket however many timers and tabs show it (by the
 * tab the visitor last opened or touched). After the clock jumps (a phone that
 * slept with the page open) only what is true then is said: a mark jumped past is
 * not said late, and the region never keeps a time that no longer holds.
 *
 * @fires booking-expiry-warning - Once per transition into warning or final: `{ level, secondsLeft }`; once per basket, however many timers show it.
 * @fires booking-expiry - Once per release reported by the basket: `{ released }` (the basket items released); once per basket, however many timers show it.
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The element's outer box.
 * @csspart timer - The countdown (a pill); with a state token: `timer normal`, `timer warning`, `timer final`, `timer expired`; `timer normal payment` while a payment this tab started is open (back from the payment page without paying): "Payment open for m:ss".
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
 * @csspart message - The panel's sentence (and, after "Hold these seats again", which seats were taken meanwhile).
 * @csspart released-list - The list of released items.
 * @csspart released-item - One released item.
 * @csspart hold-again-button - The "Hold these seats again" button (after a hold lapsed).
 * @csspart start-again-button - The "Start again" button (when nothing is left).
 * @csspart dismiss-button - The "Dismiss" button (when other items are still held).
 * @csspart empty - The `empty-text`, when there is no basket.
 *
 * @cssprop --booking-timer-background - Background of the pill.
 * @cssprop --booking-timer-color - Text colour of the pill.
 * @cssprop --booking-timer-border-color - Border colour in the normal state.
 * @cssprop --booking-timer-border-width - Border width of the pill and panel.
 * @cssprop --booking-timer-radius - Corner radius of the pill.
 * @cssprop --booking-timer-padding - Padding of the pill.
 * @cssprop --booking-timer-gap - Space between label and time, and inside list rows.
 * @cssprop --booking-timer-label-color - Label, dates, seats and empty text.
 * @cssprop --booking-timer-label-size - Font size of the label.
 * @cssprop --booking-timer-time-size - Font size of the m:ss.
 * @cssprop --booking-timer-time-weight - Font weight of the m:ss.
 * @cssprop --booking-timer-warning-color - Text and border in the warning state.
 * @cssprop --booking-timer-final-color - Text and border in the final state.
 * @cssprop --booking-timer-final-background - Background of the pill in the final state.
 * @cssprop --booking-timer-expired-color - Expired pill, panel border and message.
 * @cssprop --booking-timer-panel-background - Background of the released panel.
 * @cssprop --booking-timer-panel-padding - Padding of the released panel.
 * @cssprop --booking-timer-item-size - Font size of the per-item list.
 * @cssprop --booking-timer-icon-size - Size of the clock icon.
 */
@localized()
export class BasketTimer extends BookingElement {
  static override styles = [...BookingElement.styles, basketTimerStyles];

  /** Seconds shown at which the warning state starts (and `booking-expiry-warning` with level `warning` fires): with 2:00 on screen by default. */
  @property({ type: Number, attribute: 'warning-seconds' }) warningSeconds = 120;

  /** Seconds shown at which the final state starts (level `final`): with 0:30 on screen by default. */
  @property({ type: Number, attribute: 'final-seconds' }) finalSeconds = 30;

  /** Also list each item with its own time left. */
  @property({ type: Boolean, reflect: true, attribute: 'show-items' }) showItems = false;

  /** Text shown when there is no basket (e.g. "Your basket is empty"); without it the timer shows nothing. */
  @property({ attribute: 'empty-text' }) emptyText: string | null = null;

  /** Read-only: the current state, reflected for styling the host (`basket-timer[state='final']`). */
  @property({ reflect: true }) state: BasketTimerState = 'empty';

  /**
   * Everything beyond the empty state (the countdown, its warnings, the released tickets, and
   * their styles) is loaded the first time there is a basket: a page whose visitor has none does
   * not download it.
   */
  private view: BasketTimerView | undefined;
  private readonly loadView = this.lazy(() =>
    import('./basket-timer.view.ts').then(({ BasketTimerView, basketTimerViewStyles }) => {
      this.addStyles(basketTimerViewStyles);
      return new BasketTimerView(this, {
        booking: () => this.bookingController.booking,
        expiryBaseline: (store) => (this.seen?.store === store ? this.seen.expiryCount : store.value.expiryCount),
        emit: (type, detail) => this.emit(type, detail),
      });
    }),
  );
  /** The store shown, and its expiry count then: a release after that is news, even before the view arrives. */
  private seen: { store: BasketStore; expiryCount: number } | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const store = this.bookingController.booking.basket;
    if (this.seen?.store !== store) this.seen = { store, expiryCount: store.value.expiryCount };
    const basket = store.value;
    // A basket id (restored from the session, or just created) means a countdown is coming: load the
    // view now, alongside the basket's own request, not after it.
    if (!this.view && (basket.basketId || basket.content?.Items.length || basket.released.length || store.awaitingPayment)) this.view = this.loadView();
    if (this.view) this.view.willUpdate();
    else this.state = 'empty';
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.view?.updated();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.view?.disconnected();
  }

  protected override render(): TemplateResult {
    const empty = this.emptyText ? html`<p part="empty" class="empty" tabindex="-1">${this.emptyText}</p>` : nothing;
    // One live region for the element's life: present (empty) before the first announcement.
    return html`<div part="base">${this.view ? this.view.renderBody(empty) : empty}
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.view?.announcement ?? ''}</div></div>`;
  }
}
