import { localized } from '../../i18n/msg.ts';
import { html, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { BasketStore } from '../../state/basket-store.ts';
import { confirmationPresence, returnMarker, type ReturnOutcome } from '../../state/return-page.ts';
import { BookingElement } from '../booking-element.ts';
import type { BookingConfirmationView } from './booking-confirmation.view.ts';

/**
 * @summary The page a customer returns to from payment: the booking and its e-tickets, or why payment failed.
 *
 * With `outcome="success"` (or `?stagedoor=success` in the page's URL) it shows the
 * submitted basket summary of the basket this tab sent to payment (booking reference,
 * items with their tickets and ScheduledOn, delivery information, refund protection)
 * and a link per e-ticket, labelled by type (PDF, Apple Wallet, Google Wallet). While
 * the service answers "not available yet" (204) it says so and asks again with
 * exponential backoff, at most `retry-limit` times, then offers to check again.
 * With `outcome="failure"` it says the payment did not go through and brings the
 * basket back into the shared store when the service still holds it (so
 * `<checkout-form>` shows it again).
 *
 * Whatever the number of confirmation elements on the page, the basket is resumed
 * once and `booking-order-completed` fires once. The last completed booking is
 * kept for the session (per endpoint): reloading the page shows its summary and
 * e-tickets again, without firing `booking-order-completed` a second time.
 *
 * @fires booking-order-completed - The summary is shown: `{ basketId, bookingReference, total, currency, ticketCount }`.
 * @fires booking-payment-failed - Back from a failed payment: `{ basketId }`.
 * @fires booking-error - The summary could not be read: `{ source, message, status }`.
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The element's outer box.
 * @csspart summary - The confirmation section.
 * @csspart heading - Headings.
 * @csspart message - A message (state tokens `success`, `failure`, `waiting`).
 * @csspart reference - The booking reference line.
 * @csspart items - The list of booked items.
 * @csspart item - One booked item.
 * @csspart tickets - An item's tickets.
 * @csspart ticket - One ticket (seat, price, scheduled date, e-ticket links).
 * @csspart etickets - A ticket's e-ticket links.
 * @csspart eticket-link - One e-ticket link, with a token for its kind: `pdf`, `apple-wallet` or `google-wallet` (a Type the service sends that is none of these gets no token; its raw value is in `data-eticket-type`).
 * @csspart delivery - The delivery information list.
 * @csspart total - The total paid.
 * @csspart basket-button - After a failed payment whose basket is back: goes to the basket in the checkout.
 * @csspart error - A failure (role="alert"): its sentence and, when trying again may help, the retry button.
 * @csspart error-message - The failure's sentence.
 * @csspart retry-button - Tries again: the step that failed, or a check still waiting for its answer.
 *
 * @cssprop --booking-confirmation-max-width - Maximum width of the element.
 * @cssprop --booking-success - The confirmed message's accent.
 * @cssprop --booking-danger - The failed-payment message's accent.
 * @cssprop --booking-warning - The "not available yet" message's accent.
 * @cssprop --booking-accent - E-ticket links.
 */
@localized()
export class BookingConfirmation extends BookingElement {
  static override styles = BookingElement.styles;

  /**
   * `success` or `failure`. Default: the page URL's `stagedoor` parameter
   * (`?stagedoor=success`), as the default return URLs carry it. Nothing is shown without one.
   */
  @property() outcome: ReturnOutcome | null = null;

  /** How many times to ask again while the tickets are "not available yet" (204). Default 6. */
  @property({ type: Number, attribute: 'retry-limit' }) retryLimit = 6;

  /** The first wait before asking again, in milliseconds; it doubles each time, up to 30 s. Default 2000. */
  @property({ type: Number, attribute: 'retry-delay' }) retryDelay = 2000;

  /**
   * Set by `<checkout-form>` on the confirmation it embeds. A confirmation
   * without it is standalone, and `<checkout-form>` then shows no embedded one.
   */
  @property({ type: Boolean, reflect: true }) embedded = false;

  private presenceBasket: BasketStore | undefined;

  /**
   * What it shows (the summary, the e-tickets, the failed payment, and their styles) is loaded
   * only when there is an outcome to show: a page that merely holds a confirmation does not
   * download it.
   */
  private view: BookingConfirmationView | undefined;
  private readonly loadView = this.lazy(() =>
    import('./booking-confirmation.view.ts').then(({ BookingConfirmationView, confirmationViewStyles }) => {
      confirmationViewStyles.forEach((styles) => this.addStyles(styles));
      return new BookingConfirmationView(this, {
        booking: () => this.bookingController.booking,
        emit: (type, detail) => this.emit(type, detail),
      });
    }),
  );

  private get effectiveOutcome(): ReturnOutcome | null {
    return this.outcome ?? returnMarker();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.view?.connected();
    const basket = this.bookingController.booking.basket;
    if (!this.embedded) {
      this.presenceBasket = basket;
      confirmationPresence(basket).add();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.presenceBasket) confirmationPresence(this.presenceBasket).delete();
    this.presenceBasket = undefined;
    this.view?.disconnected();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!this.view && this.effectiveOutcome) this.view = this.loadView();
    this.view?.willUpdate();
  }

  protected override render() {
    return html`<div part="base">${this.view ? this.view.render() : nothing}</div>`;
  }
}
