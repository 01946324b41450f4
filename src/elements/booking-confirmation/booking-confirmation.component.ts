import { msg, str, localized } from '@lit/localize';
import { Task, TaskStatus } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError, NetworkError, isAbortError, isNotAvailableYet } from '../../api/client.ts';
import type { NotAvailableYet } from '../../api/operations.ts';
import type { BasketItem, BasketTicket, DeliveryType, ETicketLink, SubmittedBasketSummary } from '../../api/types.ts';
import { formatDateTime, formatMoney } from '../../format.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import {
  claimAwaitingBasket,
  confirmationPresence,
  firstAnnouncement,
  resumeAfterFailureOnce,
  returnMarker,
  type FailedPaymentResult,
  type ReturnOutcome,
} from '../../state/payment-return.ts';
import { safeUrl } from '../../safe-url.ts';
import { BookingElement } from '../booking-element.ts';
import { orderStyles } from '../order.styles.ts';
import { bookingConfirmationStyles } from './booking-confirmation.styles.ts';

/** Words for the e-ticket Type strings; anything else is shown as the service sends it. */
export function eTicketTypeLabel(type: string): string {
  switch (type.replace(/[\s_-]/g, '').toLowerCase()) {
    case 'pdf':
      return msg('PDF ticket');
    case 'applewallet':
    case 'apple':
    case 'passbook':
      return msg('Apple Wallet');
    case 'googlewallet':
    case 'googlepay':
    case 'google':
      return msg('Google Wallet');
    default:
      return type;
  }
}

interface Waiting {
  what: 'summary' | 'etickets';
  attempt: number;
  seconds: number;
}

/** The summary, with the delivery types' names when the System list could be read. */
interface SummaryView {
  summary: SubmittedBasketSummary;
  deliveryTypes: DeliveryType[];
}

const NOT_YET = Symbol('not-yet');

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
 * once and `booking-order-completed` fires once.
 *
 * @fires booking-order-completed - The summary is shown: `{ basketId, bookingReference, total, currency, ticketCount }`.
 * @fires booking-payment-failed - Back from a failed payment: `{ basketId }`.
 * @fires booking-error - The summary could not be read: `{ source, message, status }`.
 *
 * @csspart summary - The confirmation section.
 * @csspart heading - Headings.
 * @csspart message - A message (state tokens `success`, `failure`, `waiting`, `error`).
 * @csspart reference - The booking reference line.
 * @csspart items - The list of booked items.
 * @csspart item - One booked item.
 * @csspart tickets - An item's tickets.
 * @csspart ticket - One ticket (seat, price, scheduled date, e-ticket links).
 * @csspart etickets - A ticket's e-ticket links.
 * @csspart eticket-link - One e-ticket link (state token: the type in lower case, e.g. `pdf`).
 * @csspart delivery - The delivery information list.
 * @csspart total - The total paid.
 * @csspart retry-button - Checks again after "not available yet" or an error.
 *
 * @cssprop [--booking-confirmation-max-width=48rem] - Maximum width of the element.
 * @cssprop [--booking-success=#1e6b35] - The confirmed message's accent.
 * @cssprop [--booking-danger=#b3261e] - The failed-payment message's accent.
 * @cssprop [--booking-warning=#8a5a00] - The "not available yet" message's accent.
 * @cssprop [--booking-accent=#7a1f3d] - E-ticket links.
 */
@localized()
export class BookingConfirmation extends BookingElement {
  static override styles = [...BookingElement.styles, orderStyles, bookingConfirmationStyles];

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

  @state() private waiting: Waiting | null = null;
  @state() private failure: FailedPaymentResult | null = null;
  @state() private resuming = false;

  private basketId: string | null = null;
  /** A wait was cut short by a disconnect. */
  private interrupted = false;
  private presenceBasket: BasketStore | undefined;

  private readonly summaryTask = new Task(this, {
    args: () => [this.bookingController.booking.api, this.effectiveOutcome === 'success' ? this.basketId : null] as const,
    task: async ([api, basketId], { signal }): Promise<SummaryView | null | typeof NOT_YET> => {
      if (!basketId) return null;
      let summary: SubmittedBasketSummary | typeof NOT_YET;
      try {
        summary = await this.withBackoff('summary', signal, () => api.getSubmittedBasketSummary({ basketId }, { signal }));
      } catch (error) {
        if (!isAbortError(error)) {
          void this.emit('booking-error', { source: 'booking-confirmation', message: this.errorMessage(error), status: error instanceof ApiError ? error.status : null });
        }
        throw error;
      }
      if (summary === NOT_YET) return NOT_YET;
      const deliveryTypes = await api
        .getDeliveryTypes(undefined, { signal })
        .then((r) => r.DeliveryTypes)
        .catch(() => [] as DeliveryType[]);
      void this.shown(basketId, summary);
      return { summary, deliveryTypes };
    },
  });

  private readonly eticketsTask = new Task(this, {
    args: () => {
      const view = this.summaryTask.value;
      return [this.bookingController.booking.api, view && view !== NOT_YET ? view.summary.BasketId || this.basketId : null] as const;
    },
    task: async ([api, basketId], { signal }) => {
      if (!basketId) return null;
      const result = await this.withBackoff('etickets', signal, () => api.getETickets({ basketId }, { signal }));
      if (result === NOT_YET) return NOT_YET;
      return new Map(result.Items.map((item) => [item.TicketId, item.ETickets] as const));
    },
  });

  private get effectiveOutcome(): ReturnOutcome | null {
    return this.outcome ?? returnMarker();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.interrupted) {
      this.interrupted = false;
      if (this.summaryTask.status === TaskStatus.ERROR) void this.summaryTask.run();
      else if (this.eticketsTask.status === TaskStatus.ERROR) void this.eticketsTask.run();
    }
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
    // No timer left behind: a wait between two asks ends with the element, and starts again if it comes back.
    if (this.summaryTask.status === TaskStatus.PENDING || this.eticketsTask.status === TaskStatus.PENDING) {
      this.interrupted = true;
      this.summaryTask.abort();
      this.eticketsTask.abort();
      this.waiting = null;
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const outcome = this.effectiveOutcome;
    const basket = this.bookingController.booking.basket;
    if (outcome === 'success' && this.basketId === null) this.basketId = claimAwaitingBasket(basket);
    if (outcome === 'failure' && !this.failure) void this.handleFailure(basket);
  }

  /** Ask until the answer is not "not available yet", waiting longer each time; NOT_YET after the last try. */
  private async withBackoff<T>(what: Waiting['what'], signal: AbortSignal, call: () => Promise<T | NotAvailableYet>): Promise<T | typeof NOT_YET> {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await call();
      if (!isNotAvailableYet(answer)) {
        if (this.waiting?.what === what) this.waiting = null;
        return answer;
      }
      if (attempt >= this.retryLimit) {
        if (this.waiting?.what === what) this.waiting = null;
        return NOT_YET;
      }
      const delay = Math.min(this.retryDelay * 2 ** attempt, 30_000);
      this.waiting = { what, attempt: attempt + 1, seconds: Math.ceil(delay / 1000) };
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, delay);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        }, { once: true });
      });
    }
  }

  private async shown(basketId: string, summary: SubmittedBasketSummary): Promise<void> {
    const booking = this.bookingController.booking;
    booking.basket.completed();
    if (!firstAnnouncement(booking.basket, basketId)) return;
    const items = summary.BasketItems ?? [];
    await this.emit('booking-order-completed', {
      basketId,
      bookingReference: summary.BookingReference,
      total: this.totalOf(summary),
      currency: booking.config.currency,
      ticketCount: items.reduce((n, item) => n + item.Tickets.length, 0),
    });
  }

  private async handleFailure(basket: BasketStore): Promise<void> {
    this.failure = { basketId: null, resumed: false, checked: false };
    const pending = resumeAfterFailureOnce(basket);
    this.resuming = true;
    const result = await pending;
    this.resuming = false;
    this.failure = result;
    if (firstAnnouncement(basket, `failed:${result.basketId ?? ''}`)) {
      await this.emit('booking-payment-failed', { basketId: result.basketId });
    }
  }

  /** After a failed payment whose basket could not be checked: ask the service again. */
  private async checkBasketAgain(): Promise<void> {
    const failure = this.failure;
    if (!failure?.basketId) return;
    const basket = this.bookingController.booking.basket;
    this.resuming = true;
    const outcome = await basket.refresh();
    this.resuming = false;
    const held = (basket.value.content?.Items.length ?? 0) > 0;
    this.failure = { ...failure, resumed: held, checked: outcome.ok && (held || basket.value.basketId === null) };
  }

  private totalOf(summary: SubmittedBasketSummary): number {
    const items = (summary.BasketItems ?? []).reduce((sum, item) => sum + item.PriceSubTotal, 0);
    const delivery = summary.DeliveryInformation?.DeliveryPrice ?? 0;
    const protection = summary.ProtectionInformation?.TotalProtectionPrice ?? 0;
    return Math.round((items + delivery + protection) * 100) / 100;
  }

  // ------------------------------------------------------------------ render

  protected override render() {
    const outcome = this.effectiveOutcome;
    if (outcome === 'failure') return this.renderFailure();
    if (outcome !== 'success') return nothing;
    if (!this.basketId) {
      return html`<div part="message" role="status">
        <h2 part="heading">${msg('Your booking')}</h2>
        <p>${msg('There is no booking from this browser tab to show. If you completed a payment, your confirmation e-mail has the details.')}</p>
      </div>`;
    }
    return this.summaryTask.render({
      initial: () => this.renderLoading(),
      pending: () => this.renderLoading(),
      error: (error) => this.renderError(error, () => this.summaryTask.run()),
      complete: (view) => {
        if (view === NOT_YET) {
          return html`<div part="message waiting" class="waiting" role="status">
            <h2 part="heading">${msg('Payment received')}</h2>
            <p>${msg('Your booking is not available yet. It can take a few minutes; you will also receive it by e-mail.')}</p>
            <button part="retry-button" @click=${() => this.summaryTask.run()}>${msg('Check again')}</button>
          </div>`;
        }
        return view ? this.renderSummary(view) : nothing;
      },
    });
  }

  private renderLoading(): TemplateResult {
    const waiting = this.waiting;
    if (waiting?.what === 'summary') {
      return html`<div part="message waiting" class="waiting" role="status">
        <h2 part="heading">${msg('Payment received')}</h2>
        <p>${msg(str`Your booking is not available yet. Checking again in ${waiting.seconds} seconds.`)}</p>
      </div>`;
    }
    return html`<p part="message" role="status">${msg('Loading your booking…')}</p>`;
  }

  private errorMessage(error: unknown): string {
    return error instanceof NetworkError
      ? msg('We could not reach the box office to show your booking. Your booking is not affected.')
      : msg('Your booking could not be shown just now. Your booking is not affected.');
  }

  private renderError(error: unknown, retry: () => unknown): TemplateResult {
    return html`<div part="message error" role="alert">
      <p>${this.errorMessage(error)}</p>
      <button part="retry-button" @click=${retry}>${msg('Try again')}</button>
    </div>`;
  }

  private renderFailure(): TemplateResult {
    const failure = this.failure;
    let next: TemplateResult | string;
    if (this.resuming || !failure) next = msg('Checking your basket…');
    else if (failure.resumed) next = msg('Your tickets are still in your basket: you can try again.');
    else if (failure.basketId && !failure.checked) next = msg('We could not check your basket just now. Your seats may still be held.');
    else if (failure.basketId) next = msg('Your basket is no longer held: its tickets have been released. Please choose your seats again.');
    else next = msg('Please try again.');
    const uncertain = !this.resuming && failure?.basketId && !failure.checked;
    return html`<div part="message failure" class="failure" role="alert">
      <h2 part="heading">${msg('Your payment did not go through')}</h2>
      <p>${next}</p>
      ${uncertain ? html`<button part="retry-button" @click=${() => void this.checkBasketAgain()}>${msg('Check again')}</button>` : nothing}
    </div>`;
  }

  private renderSummary({ summary, deliveryTypes }: SummaryView): TemplateResult {
    const config = this.bookingController.booking.config;
    const delivery = summary.DeliveryInformation;
    const deliveryName = delivery ? deliveryTypes.find((d) => d.DeliveryTypeId === delivery.DeliveryType)?.DeliveryTypeName : undefined;
    const protection = summary.ProtectionInformation;
    return html`<section part="summary" aria-labelledby="confirmation-heading">
      <div part="message success" class="success" role="status">
        <h2 id="confirmation-heading" part="heading">${msg('Thank you: your booking is confirmed')}</h2>
        <p part="reference">${msg('Booking reference')} <strong>${summary.BookingReference}</strong></p>
      </div>
      ${this.renderETicketStatus()}
      <ul part="items">
        ${(summary.BasketItems ?? []).map((item) => this.renderItem(item))}
      </ul>
      ${delivery
        ? html`<section aria-labelledby="delivery-heading">
            <h3 id="delivery-heading" part="heading">${msg('Delivery and billing')}</h3>
            <dl part="delivery">
              <dt>${msg('Delivery')}</dt>
              <dd>${deliveryName ?? msg('As chosen')} (${formatMoney(delivery.DeliveryPrice, config)})</dd>
              <dt>${msg('Name')}</dt>
              <dd>${[delivery.BillingFirstName, delivery.BillingSurname].filter(Boolean).join(' ')}</dd>
              ${delivery.CustomerEmail ? html`<dt>${msg('E-mail')}</dt><dd>${delivery.CustomerEmail}</dd>` : nothing}
              ${this.addressOf(delivery) ? html`<dt>${msg('Address')}</dt><dd>${this.addressOf(delivery)}</dd>` : nothing}
              ${protection && protection.ProtectedTicketsCount > 0
                ? html`<dt>${msg('Refund protection')}</dt>
                    <dd>${msg(str`${protection.ProtectedTicketsCount} tickets, ${formatMoney(protection.TotalProtectionPrice, config)}`)}</dd>`
                : nothing}
            </dl>
          </section>`
        : nothing}
      <p part="total">${msg(str`Total: ${formatMoney(this.totalOf(summary), config)}`)}</p>
    </section>`;
  }

  private addressOf(d: NonNullable<SubmittedBasketSummary['DeliveryInformation']>): string {
    return [d.DeliveryAddressLine1 || d.BillingAddressLine1, d.DeliveryAddressLine2 || d.BillingAddressLine2, d.DeliveryCity || d.BillingCity,
      d.DeliveryStateCode || d.BillingStateCode, d.DeliveryPostCode || d.BillingPostCode, d.DeliveryCountryName || d.BillingCountryName]
      .filter(Boolean)
      .join(', ');
  }

  private renderETicketStatus(): TemplateResult | typeof nothing {
    const waiting = this.waiting;
    if (waiting?.what === 'etickets') {
      return html`<p part="message waiting" class="waiting" role="status">
        ${msg(str`Your e-tickets are not available yet. Checking again in ${waiting.seconds} seconds.`)}
      </p>`;
    }
    if (this.eticketsTask.value === NOT_YET) {
      return html`<div part="message waiting" class="waiting" role="status">
        <p>${msg('Your e-tickets are not available yet. They will also be sent to you by e-mail.')}</p>
        <button part="retry-button" @click=${() => this.eticketsTask.run()}>${msg('Check again for e-tickets')}</button>
      </div>`;
    }
    if (this.eticketsTask.status === TaskStatus.ERROR) {
      return html`<div part="message error" role="alert">
        <p>${msg('Your e-tickets could not be loaded just now.')}</p>
        <button part="retry-button" @click=${() => this.eticketsTask.run()}>${msg('Try again')}</button>
      </div>`;
    }
    return nothing;
  }

  private renderItem(item: BasketItem): TemplateResult {
    const config = this.bookingController.booking.config;
    const when = formatDateTime(item.PerformanceDate, config, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
    return html`<li part="item">
      <h3 part="heading">${item.EventName}</h3>
      <p class="meta">${when} · ${item.VenueName}${item.VenueCity ? `, ${item.VenueCity}` : ''} · ${item.AreaName}</p>
      <ul part="tickets">
        ${item.Tickets.map((ticket) => this.renderTicket(ticket))}
      </ul>
    </li>`;
  }

  private renderTicket(ticket: BasketTicket): TemplateResult {
    const config = this.bookingController.booking.config;
    const seat = [ticket.TicketName1, ticket.TicketName2].filter(Boolean).join(' ');
    const etickets = this.eticketsTask.value;
    const links: ETicketLink[] = etickets instanceof Map
      ? (etickets.get(ticket.TicketId) ?? []).flatMap((link) => {
          const href = safeUrl(link.DownloadUrl);
          return href ? [{ Type: link.Type, DownloadUrl: href }] : [];
        })
      : [];
    return html`<li part="ticket">
      <span class="seat">${seat}</span>
      <span class="price">${formatMoney(ticket.SellingPrice, config)}</span>
      ${ticket.ScheduledOn || ticket.IsRestrictedView
        ? html`<span class="details meta">
            ${ticket.ScheduledOn ? html`<span>${msg(str`Scheduled on ${formatDateTime(ticket.ScheduledOn, config)}`)}</span>` : nothing}
            ${ticket.IsRestrictedView ? html`<span>${msg('Restricted view')}</span>` : nothing}
          </span>`
        : nothing}
      ${links.length
        ? html`<span part="etickets">
            ${links.map(
              (link) => html`<a part="eticket-link ${link.Type.toLowerCase().replace(/[^a-z0-9-]/g, '')}" href=${link.DownloadUrl} target="_blank" rel="noopener">
                ${eTicketTypeLabel(link.Type)}<span class="visually-hidden">${msg(str`, ${seat}`)}</span>
              </a>`,
            )}
          </span>`
        : nothing}
    </li>`;
  }
}
