/**
 * <booking-confirmation> once there is a payment return to show: the
 * submitted basket's summary and e-tickets (asking again with backoff while
 * the service says "not available yet"), or why payment failed, with the
 * basket resumed. Loaded by the element only when an outcome is set or the
 * page's URL carries one (src/elements/booking-confirmation/booking-confirmation.component.ts):
 * every other page that holds a confirmation does not download it.
 */
import { msg, str } from '../../i18n/msg.ts';
import { Task, TaskStatus } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { isAbortError, isNotAvailableYet } from '../../api/client.ts';
import { toFailure, type Failure } from '../../state/failure.ts';
import { renderFailure } from '../failure-view.ts';
import type { NotAvailableYet } from '../../api/operations.ts';
import type { BasketItem, BasketTicket, DeliveryType, ETicketLink, SubmittedBasketSummary } from '../../api/types.ts';
import type { BookingEventDetails, BookingEventName } from '../../events.ts';
import { formatDateTime, formatMoney } from '../../format.ts';
import { regionName } from '../../i18n/region-name.ts';
import { plural } from '../../i18n/plural.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import type { BookingContextValue } from '../../state/booking.ts';
import {
  claimAwaitingBasket,
  completeBooking,
  firstAnnouncement,
  resumeAfterFailureOnce,
  type FailedPaymentResult,
} from '../../state/payment-return.ts';
import { focusBasketItem } from '../../state/focus-handoff.ts';
import { returnMarker, type ReturnOutcome } from '../../state/return-page.ts';
import { safeUrl } from '../../safe-url.ts';
import { orderStyles } from '../order.styles.ts';
import type { BookingConfirmation } from './booking-confirmation.component.ts';
import { bookingConfirmationStyles } from './booking-confirmation.styles.ts';

/** How the confirmation writes a performance's date and time ("Sat 5 Dec 2026, 19:30"; "Sa., 5. Dez. 2026, 19:30"). */
const WHEN: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' };

/** The styles of what the view shows (the element's first view, nothing, needs none of its own). */
export const confirmationViewStyles = [orderStyles, bookingConfirmationStyles];

/**
 * The part token of an e-ticket link: the kinds of e-ticket the service names, each a documented
 * token (docs/vocabulary.md). The Type is service text: any other value gives no token, so it can
 * never name another part (a Type "Heading" must not be styled by `::part(heading)`).
 */
export type ETicketToken = 'pdf' | 'apple-wallet' | 'google-wallet';

/** Which kind of e-ticket a Type string names, or null for one we do not know. */
export function eTicketToken(type: string): ETicketToken | null {
  switch (type.replace(/[\s_-]/g, '').toLowerCase()) {
    case 'pdf':
      return 'pdf';
    case 'applewallet':
    case 'apple':
    case 'passbook':
      return 'apple-wallet';
    case 'googlewallet':
    case 'googlepay':
    case 'google':
      return 'google-wallet';
    default:
      return null;
  }
}

/** Words for the e-ticket Type strings; anything else is shown as the service sends it (as text). */
export function eTicketTypeLabel(type: string): string {
  switch (eTicketToken(type)) {
    case 'pdf':
      return msg('PDF ticket');
    case 'apple-wallet':
      return msg('Apple Wallet');
    case 'google-wallet':
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

/** What the view needs of its element beyond its public properties. */
export interface ConfirmationPort {
  booking(): BookingContextValue;
  emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): Promise<void>;
}

export class BookingConfirmationView {
  constructor(
    private readonly host: BookingConfirmation,
    private readonly port: ConfirmationPort,
  ) {}

  // What the element shows: each change renders it again.
  private showing: { waiting: Waiting | null; failure: FailedPaymentResult | null; resuming: boolean } = { waiting: null, failure: null, resuming: false };
  private get waiting(): Waiting | null {
    return this.showing.waiting;
  }
  private set waiting(waiting: Waiting | null) {
    this.showing = { ...this.showing, waiting };
    this.host.requestUpdate();
  }
  private get failure(): FailedPaymentResult | null {
    return this.showing.failure;
  }
  private set failure(failure: FailedPaymentResult | null) {
    this.showing = { ...this.showing, failure };
    this.host.requestUpdate();
  }
  private get resuming(): boolean {
    return this.showing.resuming;
  }
  private set resuming(resuming: boolean) {
    this.showing = { ...this.showing, resuming };
    this.host.requestUpdate();
  }

  private basketId: string | null = null;
  /** A wait was cut short by a disconnect. */
  private interrupted = false;

  private readonly summaryTask = new Task(this.host, {
    args: () => [this.port.booking().api, this.effectiveOutcome === 'success' ? this.basketId : null] as const,
    task: async ([api, basketId], { signal }): Promise<SummaryView | null | typeof NOT_YET> => {
      if (!basketId) return null;
      let summary: SubmittedBasketSummary | typeof NOT_YET;
      try {
        summary = await this.withBackoff('summary', signal, () => api.getSubmittedBasketSummary({ basketId }, { signal }));
      } catch (error) {
        if (!isAbortError(error)) {
          const failure = summaryFailure(error);
          void this.port.emit('booking-error', { source: 'booking-confirmation', message: failure.message, status: failure.status });
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

  private readonly eticketsTask = new Task(this.host, {
    args: () => {
      const view = this.summaryTask.value;
      return [this.port.booking().api, view && view !== NOT_YET ? view.summary.BasketId || this.basketId : null] as const;
    },
    task: async ([api, basketId], { signal }) => {
      if (!basketId) return null;
      const result = await this.withBackoff('etickets', signal, () => api.getETickets({ basketId }, { signal }));
      if (result === NOT_YET) return NOT_YET;
      return new Map(result.Items.map((item) => [item.TicketId, item.ETickets] as const));
    },
  });

  private get effectiveOutcome(): ReturnOutcome | null {
    return this.host.outcome ?? returnMarker();
  }

  /** The element is connected again: a wait cut short by a disconnect asks again. */
  connected(): void {
    if (this.interrupted) {
      this.interrupted = false;
      if (this.summaryTask.status === TaskStatus.ERROR) void this.summaryTask.run();
      else if (this.eticketsTask.status === TaskStatus.ERROR) void this.eticketsTask.run();
    }
  }

  disconnected(): void {
    // No timer left behind: a wait between two asks ends with the element, and starts again if it comes back.
    if (this.summaryTask.status === TaskStatus.PENDING || this.eticketsTask.status === TaskStatus.PENDING) {
      this.interrupted = true;
      this.summaryTask.abort();
      this.eticketsTask.abort();
      this.waiting = null;
    }
  }

  willUpdate(): void {
    const outcome = this.effectiveOutcome;
    const basket = this.port.booking().basket;
    if (outcome === 'success' && this.basketId === null) this.basketId = claimAwaitingBasket(basket, { orCompleted: true });
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
      if (attempt >= this.host.retryLimit) {
        if (this.waiting?.what === what) this.waiting = null;
        return NOT_YET;
      }
      const delay = Math.min(this.host.retryDelay * 2 ** attempt, 30_000);
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
    const booking = this.port.booking();
    completeBooking(booking.basket, { basketId, bookingReference: summary.BookingReference });
    if (!firstAnnouncement(booking.basket, basketId)) return;
    const items = summary.BasketItems ?? [];
    await this.port.emit('booking-order-completed', {
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
      await this.port.emit('booking-payment-failed', { basketId: result.basketId });
    }
  }

  /** After a failed payment whose basket could not be checked: ask the service again. */
  private async checkBasketAgain(): Promise<void> {
    const failure = this.failure;
    if (!failure?.basketId) return;
    const basket = this.port.booking().basket;
    this.resuming = true;
    const outcome = await basket.refresh();
    this.resuming = false;
    const held = (basket.value.content?.Items.length ?? 0) > 0;
    this.failure = { ...failure, resumed: held, checked: outcome.ok && (held || basket.value.basketId === null) };
  }

  /** The basket is back, in the checkout wherever it is on the page: the focus goes to (and scrolls to) its first item. */
  private async goToBasket(): Promise<void> {
    const basket = this.port.booking().basket;
    const first = basket.value.content?.Items[0];
    if (first) await focusBasketItem(basket, first.BasketItemId);
  }

  private totalOf(summary: SubmittedBasketSummary): number {
    const items = (summary.BasketItems ?? []).reduce((sum, item) => sum + item.PriceSubTotal, 0);
    const delivery = summary.DeliveryInformation?.DeliveryPrice ?? 0;
    const protection = summary.ProtectionInformation?.TotalProtectionPrice ?? 0;
    return Math.round((items + delivery + protection) * 100) / 100;
  }

  // ------------------------------------------------------------------ render

  render(): TemplateResult | typeof nothing {
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
        <p>${this.checkingAgain('summary', waiting.seconds)}</p>
      </div>`;
    }
    return html`<p part="message" role="status">${msg('Loading your booking…')}</p>`;
  }

  /** "Your booking is not available yet. Checking again in 4 seconds." */
  private checkingAgain(what: Waiting['what'], seconds: number): string {
    if (what === 'summary') {
      return plural(seconds, {
        one: () => msg(str`Your booking is not available yet. Checking again in ${seconds} second.`),
        other: () => msg(str`Your booking is not available yet. Checking again in ${seconds} seconds.`),
      });
    }
    return plural(seconds, {
      one: () => msg(str`Your e-tickets are not available yet. Checking again in ${seconds} second.`),
      other: () => msg(str`Your e-tickets are not available yet. Checking again in ${seconds} seconds.`),
    });
  }

  /** "2 tickets, £7.00". */
  private protectionText(count: number, price: string): string {
    return plural(count, {
      one: () => msg(str`${count} ticket, ${price}`),
      other: () => msg(str`${count} tickets, ${price}`),
    });
  }

  private renderError(error: unknown, retry: () => unknown): TemplateResult {
    return renderFailure(summaryFailure(error).message, retry);
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
      ${!this.resuming && failure?.resumed
        ? html`<button part="basket-button" @click=${() => void this.goToBasket()}>${msg('Go to your basket')}</button>`
        : nothing}
    </div>`;
  }

  private renderSummary({ summary, deliveryTypes }: SummaryView): TemplateResult {
    const config = this.port.booking().config;
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
                    <dd>${this.protectionText(protection.ProtectedTicketsCount, formatMoney(protection.TotalProtectionPrice, config))}</dd>`
                : nothing}
            </dl>
          </section>`
        : nothing}
      <p part="total">${msg(str`Total: ${formatMoney(this.totalOf(summary), config)}`)}</p>
    </section>`;
  }

  private addressOf(d: NonNullable<SubmittedBasketSummary['DeliveryInformation']>): string {
    return [d.DeliveryAddressLine1 || d.BillingAddressLine1, d.DeliveryAddressLine2 || d.BillingAddressLine2, d.DeliveryCity || d.BillingCity,
      d.DeliveryStateCode || d.BillingStateCode, d.DeliveryPostCode || d.BillingPostCode, this.countryOf(d)]
      .filter(Boolean)
      .join(', ');
  }

  /** The address's country in the visitor's language, by its ISO 3166 code; the service's name when Intl does not know the code. */
  private countryOf(d: NonNullable<SubmittedBasketSummary['DeliveryInformation']>): string {
    const [code, name] = d.DeliveryCountry || d.DeliveryCountryName ? [d.DeliveryCountry, d.DeliveryCountryName] : [d.BillingCountry, d.BillingCountryName];
    return code ? regionName(code, name, this.port.booking().config) : name;
  }

  private renderETicketStatus(): TemplateResult | typeof nothing {
    const waiting = this.waiting;
    if (waiting?.what === 'etickets') {
      return html`<p part="message waiting" class="waiting" role="status">
        ${this.checkingAgain('etickets', waiting.seconds)}
      </p>`;
    }
    if (this.eticketsTask.value === NOT_YET) {
      return html`<div part="message waiting" class="waiting" role="status">
        <p>${msg('Your e-tickets are not available yet. They will also be sent to you by e-mail.')}</p>
        <button part="retry-button" @click=${() => this.eticketsTask.run()}>${msg('Check again for e-tickets')}</button>
      </div>`;
    }
    if (this.eticketsTask.status === TaskStatus.ERROR) {
      return renderFailure(msg('Your e-tickets could not be loaded just now.'), () => this.eticketsTask.run());
    }
    return nothing;
  }

  private renderItem(item: BasketItem): TemplateResult {
    const config = this.port.booking().config;
    const when = formatDateTime(item.PerformanceDate, config, WHEN);
    return html`<li part="item">
      <h3 part="heading">${item.EventName}</h3>
      <p class="meta">${when} · ${item.VenueName}${item.VenueCity ? `, ${item.VenueCity}` : ''} · ${item.AreaName}</p>
      <ul part="tickets">
        ${item.Tickets.map((ticket) => this.renderTicket(ticket, item))}
      </ul>
    </li>`;
  }

  private renderTicket(ticket: BasketTicket, item: BasketItem): TemplateResult {
    const config = this.port.booking().config;
    // ScheduledOn: when this ticket's performance is. Said only when it is not the item's date
    // already shown above (a paired performance's part on another day), in the same words and format.
    const scheduled = ticket.ScheduledOn ? formatDateTime(ticket.ScheduledOn, config, WHEN) : null;
    const performance = scheduled !== null && scheduled !== formatDateTime(item.PerformanceDate, config, WHEN) ? scheduled : null;
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
      ${performance || ticket.IsRestrictedView
        ? html`<span class="details meta">
            ${performance ? html`<span>${msg(str`Performance: ${performance}`)}</span>` : nothing}
            ${ticket.IsRestrictedView ? html`<span>${msg('Restricted view')}</span>` : nothing}
          </span>`
        : nothing}
      ${links.length
        ? html`<span part="etickets">
            ${links.map(
              (link) => html`<a
                part="eticket-link ${eTicketToken(link.Type) ?? ''}"
                data-eticket-type=${link.Type}
                href=${link.DownloadUrl}
                target="_blank"
                rel="noopener"
              >
                ${eTicketTypeLabel(link.Type)}<span class="visually-hidden">${msg(str`, ${seat}`)}</span>
              </a>`,
            )}
          </span>`
        : nothing}
    </li>`;
  }
}

/** What the visitor is told when their booking could not be shown (state/failure.ts): never that the booking itself failed. */
function summaryFailure(error: unknown): Failure {
  return toFailure(error, {
    otherwise: () => msg('Your booking could not be shown just now. Your booking is not affected.'),
    network: () => msg('We could not reach the box office to show your booking. Your booking is not affected.'),
  });
}
