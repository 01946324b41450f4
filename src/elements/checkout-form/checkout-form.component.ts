import { localized, msg } from '../../i18n/msg.ts';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property } from 'lit/decorators.js';
import type { BasketStore } from '../../state/basket-store.ts';
import { networkMessage } from '../../state/failure.ts';
import { renderFailure } from '../failure-view.ts';
import { takeBasketItemFocus } from '../../state/focus-handoff.ts';
import { returnMarker, type ReturnOutcome } from '../../state/return-page.ts';
import { BookingElement } from '../booking-element.ts';
import { orderStyles } from '../order.styles.ts';
import { checkoutFormStyles } from './checkout-form.styles.ts';
import type { CheckoutFormView } from './checkout-form.view.ts';

/**
 * Scroll a focused element into view, below the page's sticky header (the page's
 * `scroll-padding-top`), until it is there: scrollIntoView first, then the page by what is still
 * missing. In a sticky sidebar Firefox's scrollIntoView leaves it under the header.
 */
async function revealFocused(el: HTMLElement, stillFocused: () => boolean): Promise<void> {
  el.scrollIntoView({ block: 'nearest' });
  for (let i = 0; i < 4 && stillFocused(); i += 1) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const rect = el.getBoundingClientRect();
    const header = Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
    const margin = Number.parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
    if (rect.top < header) window.scrollBy(0, rect.top - header - margin);
    else if (rect.bottom > window.innerHeight && rect.height < window.innerHeight - header) window.scrollBy(0, rect.bottom - window.innerHeight + margin);
    else return;
  }
}

/**
 * @summary The basket and the checkout: items, delivery, customer details, refund protection, and the hand-over to payment.
 *
 * Shows every basket item (event, venue wall-clock date and time, venue, area, seats, each
 * ticket's face value and price, restricted-view notes, e-ticket notices) with remove-one
 * and empty-basket (with an inline confirmation); the checkout notices (those requiring
 * confirmation must be ticked); delivery choices with prices; the customer's details with
 * autocomplete tokens; refund protection; and submits the order once, then sends the
 * browser to the payment page. With booking on account (configured AND allowed by the
 * proxy) it books at once and shows the booking reference.
 *
 * Coming back from payment (`?stagedoor=success` / `?stagedoor=failure`), it shows an
 * embedded `<booking-confirmation>` unless the page has its own.
 *
 * @fires booking-checkout-submitted - The order went to payment (or was booked on account): `{ basketId, paymentRedirectUrl, total, currency }`.
 * @fires booking-basket-change - An item was removed or the basket emptied: `{ action, basketId, basket }`.
 * @fires booking-error - The order could not be sent, or the checkout could not load: `{ source, message, status }`.
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The element's outer box.
 * @csspart hold - How long the seats are still held (m:ss), with a state token: `hold normal`, `hold warning` (2 minutes), `hold final` (30 seconds), `hold expired`; at the top of the page while the form scrolls on a narrow screen.
 * @csspart basket - The basket section.
 * @csspart heading - Section headings.
 * @csspart items - The list of basket items.
 * @csspart item - One basket item.
 * @csspart item-heading - The event name of an item.
 * @csspart item-meta - Date, time, venue, area and seats of an item.
 * @csspart tickets - The table of an item's tickets.
 * @csspart restriction - A restricted-view note.
 * @csspart eticket-notice - An e-ticket notice beside its event.
 * @csspart item-subtotal - An item's subtotal.
 * @csspart remove-button - The button removing one item.
 * @csspart empty-button - The button that asks to empty the basket.
 * @csspart empty-confirm - The inline confirmation of emptying (with `confirm-empty-button` and `cancel-empty-button`).
 * @csspart confirm-empty-button - Empties the basket.
 * @csspart cancel-empty-button - Keeps the basket.
 * @csspart empty - The empty-basket message.
 * @csspart form - The checkout form.
 * @csspart error-summary - The list of problems after a submit attempt: read out once, on that submit; as each is fixed it changes quietly and the count left is said politely.
 * @csspart notices - The checkout notices.
 * @csspart notice - One checkout notice (state token `required` when it must be confirmed).
 * @csspart delivery - The delivery choices.
 * @csspart delivery-option - One delivery choice (state token `selected`).
 * @csspart customer - The customer's details.
 * @csspart field - One field wrapper (state token `invalid`).
 * @csspart label - A field's label.
 * @csspart input - A text input or select.
 * @csspart field-error - A field's error message.
 * @csspart extras - Refund protection and the confirmation e-mail choice.
 * @csspart totals - The totals list.
 * @csspart total - The grand total.
 * @csspart submit-button - The button that sends the order.
 * @csspart message - A message about the order (state tokens `error`, `warning`, `info`).
 * @csspart status - Loading and progress text.
 * @csspart on-account-reference - The booking reference of an order booked on account.
 * @csspart confirmation - The embedded `<booking-confirmation>`.
 * @csspart pending - Back from the payment page without paying: the unfinished payment (or that it timed out).
 * @csspart continue-button - Continues to the same payment page.
 * @csspart time-left - How long the unfinished payment stays open.
 * @csspart start-again-button - After an unfinished payment timed out: starts again.
 * @csspart error - A failure (role="alert"): its sentence and, when trying again may help, the retry button.
 * @csspart error-message - The failure's sentence.
 * @csspart retry-button - Tries again: the step that failed, or a check still waiting for its answer.
 *
 * @cssprop --booking-checkout-max-width - Maximum width of the element.
 * @cssprop --booking-sticky-top - On a narrow screen, how far from the top the hold's time stays (a sticky header's height).
 * @cssprop --booking-scroll-margin - Room kept around a basket item or heading that the focus is brought to (add a sticky header's height on the page's `html { scroll-padding-top }`).
 * @cssprop --booking-field-border - Border colour of inputs.
 * @cssprop --booking-field-background - Background of inputs.
 * @cssprop --booking-accent - Buttons, selected delivery, notices.
 * @cssprop --booking-danger - Errors.
 * @cssprop --booking-warning - Restricted-view notes.
 */
@localized()
export class CheckoutForm extends BookingElement {
  static override styles = [...BookingElement.styles, orderStyles, checkoutFormStyles];

  /**
   * How the browser goes to the payment page. Defaults to `location.assign(url)`;
   * set it (property only) to route through a single-page app, or in tests.
   */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => location.assign(url);

  /** The outcome marker of the page this element was connected on. */
  private returnOutcome: ReturnOutcome | null = null;
  private requestedBasket: string | null = null;
  private takerOff: (() => void) | undefined;
  private takerStore: BasketStore | undefined;

  /**
   * Everything beyond the empty basket (the items, the form, what it loads, sending the order,
   * the embedded confirmation, and their styles) is loaded the first time the basket has content
   * or the page is a payment return: a page whose visitor has no basket (the checkout in every
   * page's sidebar) shows "Your basket is empty" without downloading it.
   */
  private view: CheckoutFormView | undefined;
  /** Loading the view failed: say so, with a way to try again. */
  private viewFailed = false;
  private readonly loadView = this.lazy(() =>
    import('./checkout-form.view.ts').then(
      ({ CheckoutFormView, checkoutViewStyles }) => {
        checkoutViewStyles.forEach((styles) => this.addStyles(styles));
        return new CheckoutFormView(this, {
          booking: () => this.bookingController.booking,
          returnOutcome: () => this.returnOutcome,
          basketStatus: () => this.renderBasketStatus(),
          emit: (type, detail) => this.emit(type, detail),
        });
      },
      (error: unknown) => {
        this.viewFailed = true;
        this.requestUpdate();
        void this.emit('booking-error', { source: 'checkout-form', message: networkMessage(), status: null });
        throw error;
      },
    ),
  );

  override connectedCallback(): void {
    super.connectedCallback();
    this.returnOutcome = returnMarker();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.takerOff?.();
    this.takerOff = undefined;
    this.takerStore = undefined;
    this.view?.disconnected();
  }

  /** The added item, when this form shows it visibly: it takes the focus (from <seat-picker>). */
  private readonly takeItemFocus = async (basketItemId: number): Promise<boolean> => {
    if (!this.isConnected) return false;
    // Also waits for the view, when the add that gave the basket content started loading it.
    await this.updateComplete;
    const li = this.renderRoot.querySelector<HTMLElement>(`[part~="item"][data-item-id="${basketItemId}"]`);
    if (!li || li.getClientRects().length === 0) return false;
    li.focus();
    if (this.shadowRoot?.activeElement !== li) return false;
    // What renders after the item (the checkout's options and lists) can move it out of sight, as in
    // a sticky sidebar that grows upwards: once that has rendered, bring the focused item back into view.
    void this.view?.settled().then(() => revealFocused(li, () => this.shadowRoot?.activeElement === li));
    return true;
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const booking = this.bookingController.booking;
    if (this.takerStore !== booking.basket) {
      this.takerOff?.();
      this.takerStore = booking.basket;
      this.takerOff = takeBasketItemFocus(booking.basket, this.takeItemFocus);
    }
    // A restored basket id with no content yet (and nothing in flight): read it.
    const { basketId, content, busy } = booking.basket.value;
    if (basketId && !content && !busy && this.requestedBasket !== basketId) {
      this.requestedBasket = basketId;
      void booking.basket.refresh();
    }
    // A payment this tab started may be unfinished (back from the payment page): the view shows it.
    if (!this.view && !this.viewFailed && (content || this.returnOutcome || booking.basket.awaitingPayment)) this.view = this.loadView();
    this.view?.willUpdate();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.view?.updated();
  }

  // ------------------------------------------------------------------ render

  protected override render() {
    const view = this.view;
    // One live region for the element's life: present (empty) before the first announcement.
    return html`<div part="base">
      ${view?.renderConfirmation() ?? nothing}
      <p class="visually-hidden" role="status" aria-live="polite">${view?.announcement ?? ''}</p>
      ${view ? view.renderBody() : this.renderBasketStatus()}
    </div>`;
  }

  /**
   * What the element shows without a basket's content: the basket being read (or its read
   * failed), the empty basket; with content, while the view is on its way (or failed to load).
   */
  private renderBasketStatus(): TemplateResult | typeof nothing {
    const basket = this.bookingController.basket;
    if (basket.content) {
      if (this.viewFailed) {
        return renderFailure(networkMessage(), this.handleRetryView);
      }
      return html`<p part="status" role="status">${msg('Loading your basket…')}</p>`;
    }
    if (basket.basketId && basket.error?.action === 'refresh') {
      return renderFailure(basket.error.message, this.handleRetryBasket);
    }
    // A basket id with no content: being read (restored, resumed), or just created by an add still in flight.
    if (basket.basketId && (basket.busy || this.requestedBasket !== basket.basketId)) {
      return html`<p part="status" role="status">${msg('Loading your basket…')}</p>`;
    }
    if (this.returnOutcome === 'success') return nothing;
    // The status that says what happened: where focus goes when the basket empties under it.
    return html`<section part="basket" aria-labelledby="basket-heading">
      <h2 id="basket-heading" part="heading" tabindex="-1">${msg('Your basket')}</h2>
      <p part="empty" id="basket-status" role="status" tabindex="-1">
        ${basket.released.length ? msg('Time is up: the hold on your seats ran out and they were released.') : nothing}
        ${msg('Your basket is empty.')}
      </p>
    </section>`;
  }

  private readonly handleRetryBasket = (): void => {
    void this.bookingController.booking.basket.refresh();
  };

  private readonly handleRetryView = (): void => {
    this.viewFailed = false;
    this.requestUpdate();
  };
}
