import { msg, str, localized } from '@lit/localize';
import { Task } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { ApiError, NetworkError, isAbortError } from '../../api/client.ts';
import type {
  BasketContent,
  BasketItem,
  BasketTicket,
  CheckoutOptions,
  Country,
  DeliveryType,
  SubmitOrderBody,
  USState,
} from '../../api/types.ts';
import { formatDateTime, formatMoney } from '../../format.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import {
  confirmationPresence,
  paymentGateLanguage,
  resetClaim,
  returnMarker,
  returnUrls,
  type ReturnOutcome,
} from '../../state/payment-return.ts';
import { safeUrl } from '../../safe-url.ts';
import { BookingElement } from '../booking-element.ts';
import { orderStyles } from '../order.styles.ts';
import { checkoutFormStyles } from './checkout-form.styles.ts';

/** The customer fields of the form (their `name` attributes). */
export type CheckoutFieldName =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'addressLine1'
  | 'addressLine2'
  | 'company'
  | 'city'
  | 'zip'
  | 'country'
  | 'state';

type TextFieldName = Exclude<CheckoutFieldName, 'country' | 'state'>;

interface TextFieldSpec {
  name: TextFieldName;
  label: () => string;
  type: 'text' | 'email' | 'tel';
  autocomplete: string;
  required: boolean;
  wide?: boolean;
  pattern?: string;
  /** Shown when the field is required and empty. */
  missing: () => string;
  /** Shown when the value does not match its type or pattern. */
  mismatch?: () => string;
}

const TEXT_FIELDS: readonly TextFieldSpec[] = [
  { name: 'firstName', label: () => msg('First name'), type: 'text', autocomplete: 'given-name', required: true, missing: () => msg('Enter your first name.') },
  { name: 'lastName', label: () => msg('Last name'), type: 'text', autocomplete: 'family-name', required: true, missing: () => msg('Enter your last name.') },
  {
    name: 'email', label: () => msg('E-mail address'), type: 'email', autocomplete: 'email', required: true,
    missing: () => msg('Enter your e-mail address.'),
    mismatch: () => msg('Enter an e-mail address like name@example.com.'),
  },
  {
    name: 'phone', label: () => msg('Phone'), type: 'tel', autocomplete: 'tel', required: false,
    // Browsers compile `pattern` with the v flag: ( ) . - are escaped inside the class.
    pattern: '\\+?[0-9 \\(\\)\\.\\-]{6,24}',
    missing: () => msg('Enter your phone number.'),
    mismatch: () => msg('Enter a phone number using digits, spaces and an optional leading +.'),
  },
  { name: 'addressLine1', label: () => msg('Address line 1'), type: 'text', autocomplete: 'address-line1', required: false, wide: true, missing: () => msg('Enter the first line of your address.') },
  { name: 'addressLine2', label: () => msg('Address line 2'), type: 'text', autocomplete: 'address-line2', required: false, wide: true, missing: () => msg('Enter the second line of your address.') },
  { name: 'company', label: () => msg('Company'), type: 'text', autocomplete: 'organization', required: false, missing: () => msg('Enter your company.') },
  { name: 'city', label: () => msg('Town or city'), type: 'text', autocomplete: 'address-level2', required: false, missing: () => msg('Enter your town or city.') },
  { name: 'zip', label: () => msg('Postcode'), type: 'text', autocomplete: 'postal-code', required: false, missing: () => msg('Enter your postcode.') },
];

/** SubmitOrder body fields, as the service names them in its 400 messages, to the form field that holds them. */
const SERVICE_FIELDS: Readonly<Record<string, CheckoutFieldName>> = {
  Email: 'email',
  Name: 'firstName',
  LastName: 'lastName',
  Phone: 'phone',
  Mobile: 'phone',
  AddressLine1: 'addressLine1',
  AddressLine2: 'addressLine2',
  CompanyName: 'company',
  City: 'city',
  Zip: 'zip',
  Country: 'country',
  StateCode: 'state',
};

/** The form field a 400 from SubmitOrder is about, when its message says. */
export function fieldOfServiceError(error: ApiError): CheckoutFieldName | null {
  const detail = typeof error.body === 'object' && error.body !== null ? (error.body as { MessageDetail?: unknown }).MessageDetail : undefined;
  const text = [error.serviceMessage ?? '', typeof detail === 'string' ? detail : ''].join(' ');
  if (/phone|mobile/i.test(text)) return 'phone';
  for (const match of text.matchAll(/'(\w+)'/g)) {
    const field = SERVICE_FIELDS[match[1] ?? ''];
    if (field) return field;
  }
  return null;
}

type Values = Record<CheckoutFieldName, string>;
const EMPTY_VALUES: Values = {
  firstName: '', lastName: '', email: '', phone: '', addressLine1: '', addressLine2: '', company: '', city: '', zip: '', country: '', state: '',
};

interface Problem {
  /** The control's id (inside the shadow root). */
  id: string;
  /** The control's name. */
  name: string;
  label: string;
  message: string;
}

type Phase = 'form' | 'submitting' | 'redirecting' | 'booked-on-account';

interface SystemLists {
  countries: Country[];
  states: USState[];
  ticketPlanPrice: number | null;
}

interface CheckoutData {
  options: CheckoutOptions;
  deliveries: DeliveryType[];
}

/** The object without its undefined members: optional order fields the visitor left empty are not sent at all. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const ticketCount = (content: BasketContent | null) => (content?.Items ?? []).reduce((n, item) => n + item.Tickets.length, 0);

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
 *
 * @csspart basket - The basket section.
 * @csspart heading - Section headings.
 * @csspart items - The list of basket items.
 * @csspart item - One basket item.
 * @csspart item-title - The event name of an item.
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
 * @csspart error-summary - The list of problems after a submit attempt.
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
 * @csspart retry-button - Retries a failed load.
 * @csspart on-account-reference - The booking reference of an order booked on account.
 * @csspart confirmation - The embedded `<booking-confirmation>`.
 *
 * @cssprop [--booking-checkout-max-width=48rem] - Maximum width of the element.
 * @cssprop [--booking-field-border=var(--booking-border)] - Border colour of inputs.
 * @cssprop [--booking-field-background=var(--booking-surface)] - Background of inputs.
 * @cssprop [--booking-accent=#7a1f3d] - Buttons, selected delivery, notices.
 * @cssprop [--booking-danger=#b3261e] - Errors.
 * @cssprop [--booking-warning=#8a5a00] - Restricted-view notes.
 */
@localized()
export class CheckoutForm extends BookingElement {
  static override styles = [...BookingElement.styles, orderStyles, checkoutFormStyles];

  /**
   * How the browser goes to the payment page. Defaults to `location.assign(url)`;
   * set it (property only) to route through a single-page app, or in tests.
   */
  @property({ attribute: false }) navigate: (url: string) => void = (url) => location.assign(url);

  @state() private values: Values = { ...EMPTY_VALUES };
  @state() private deliveryTypeId: number | null = null;
  @state() private requireTicketPlan = false;
  @state() private sendConfirmationEmail = true;
  @state() private confirmed: ReadonlySet<number> = new Set();
  @state() private attempted = false;
  @state() private fieldErrors: Readonly<Record<string, string>> = {};
  @state() private problems: readonly Problem[] = [];
  @state() private phase: Phase = 'form';
  @state() private formMessage: { kind: 'error' | 'warning' | 'info'; text: string } | null = null;
  @state() private confirmingEmpty = false;
  @state() private announcement = '';
  @state() private redirectUrl: string | null = null;
  @state() private bookingReference: string | null = null;

  @query('form') private form?: HTMLFormElement;

  /** The outcome marker of the page this element was connected on. */
  private returnOutcome: ReturnOutcome | null = null;
  private presenceOff: (() => void) | undefined;
  private presenceStore: BasketStore | undefined;
  private requestedBasket: string | null = null;

  private readonly systemTask = new Task(this, {
    args: () => [this.bookingController.booking.api] as const,
    task: async ([api], { signal }): Promise<SystemLists> => {
      const [countries, states, plan] = await Promise.all([
        api.getCountries(undefined, { signal }),
        api.getUSStates(undefined, { signal }),
        // Refund protection is optional: the checkout goes on without it.
        api.getTicketPlanPrice(undefined, { signal }).catch((error: unknown) => {
          if (isAbortError(error)) throw error;
          return null;
        }),
      ]);
      const sorted = [...countries.Countries].sort((a, b) => a.Ordering - b.Ordering || a.CountryName.localeCompare(b.CountryName));
      const price = plan && Number.isFinite(plan.Price) && plan.Price > 0 ? plan.Price : null;
      return { countries: sorted, states: [...states.USStates].sort((a, b) => a.StateName.localeCompare(b.StateName)), ticketPlanPrice: price };
    },
    onError: (error) => this.reportLoadError(error),
  });

  private readonly checkoutTask = new Task(this, {
    args: () => {
      const { basketId, content } = this.bookingController.basket;
      const items = content?.Items.map((i) => i.BasketItemId).join(',') ?? '';
      return [this.bookingController.booking.api, content ? basketId : null, items] as const;
    },
    task: async ([api, basketId], { signal }): Promise<CheckoutData | null> => {
      if (!basketId) return null;
      try {
        const [options, deliveries] = await Promise.all([
          api.getCheckoutOptions({ basketId }, { signal }),
          api.getAvailableDeliveries({ basketId }, { signal }),
        ]);
        return { options, deliveries: deliveries.DeliveryTypes };
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) void this.bookingController.booking.basket.refresh();
        throw error;
      }
    },
    onError: (error) => this.reportLoadError(error),
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.returnOutcome = returnMarker();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.presenceOff?.();
    this.presenceOff = undefined;
    this.presenceStore = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const booking = this.bookingController.booking;
    if (this.presenceStore !== booking.basket) {
      this.presenceOff?.();
      this.presenceStore = booking.basket;
      this.presenceOff = confirmationPresence(booking.basket).subscribe(() => this.requestUpdate());
    }
    // A restored basket id with no content yet (and nothing in flight): read it.
    const { basketId, content, busy } = booking.basket.value;
    if (basketId && !content && !busy && this.requestedBasket !== basketId) {
      this.requestedBasket = basketId;
      void booking.basket.refresh();
    }
    const lists = this.systemTask.value;
    if (lists && !this.values.country) {
      const country = this.defaultCountry(lists.countries);
      if (country) this.values = { ...this.values, country: country.ISO3166 };
    }
    const checkout = this.checkoutTask.value;
    if (checkout && !checkout.deliveries.some((d) => d.DeliveryTypeId === this.deliveryTypeId)) {
      const preset = content?.DeliveryInformation?.DeliveryType;
      const chosen = checkout.deliveries.find((d) => d.DeliveryTypeId === preset) ?? checkout.deliveries[0];
      this.deliveryTypeId = chosen ? chosen.DeliveryTypeId : null;
    }
  }

  // ------------------------------------------------------------------ render

  protected override render() {
    const basket = this.bookingController.basket;
    return html`
      ${this.renderConfirmation()}
      <p class="visually-hidden" role="status" aria-live="polite">${this.announcement}</p>
      ${!basket.content || this.phase === 'redirecting' ? this.renderFormMessage() : nothing}
      ${this.phase === 'redirecting'
        ? this.renderRedirecting()
        : this.phase === 'booked-on-account'
          ? nothing
          : this.renderBasketAndForm()}
    `;
  }

  private renderConfirmation(): TemplateResult | typeof nothing {
    if (this.phase === 'booked-on-account') {
      return html`
        <section part="message info" aria-labelledby="on-account-heading">
          <h2 id="on-account-heading" part="heading" tabindex="-1">${msg('Booked')}</h2>
          <p>${msg('Your booking reference is')} <span part="on-account-reference">${this.bookingReference}</span></p>
        </section>
        <booking-confirmation part="confirmation" embedded outcome="success"></booking-confirmation>
      `;
    }
    if (!this.returnOutcome) return nothing;
    if (confirmationPresence(this.bookingController.booking.basket).value > 0) return nothing;
    return html`<booking-confirmation part="confirmation" embedded outcome=${this.returnOutcome}></booking-confirmation>`;
  }

  private renderFormMessage(): TemplateResult | typeof nothing {
    const message = this.formMessage;
    if (!message) return nothing;
    return html`<div part="message ${message.kind}" class=${message.kind} role=${message.kind === 'error' ? 'alert' : 'status'}>
      ${message.text}
    </div>`;
  }

  private renderRedirecting(): TemplateResult {
    return html`<div part="message info" role="status">
      <p>${msg('Taking you to the secure payment page…')}</p>
      ${this.redirectUrl ? html`<p><a href=${this.redirectUrl}>${msg('Continue to payment')}</a></p>` : nothing}
    </div>`;
  }

  private renderBasketAndForm(): TemplateResult | typeof nothing {
    const basket = this.bookingController.basket;
    const content = basket.content;
    if (!content) {
      if (basket.basketId && basket.error?.action === 'refresh') {
        return html`<div role="alert" part="message error">
          <p>${basket.error.message}</p>
          <button part="retry-button" @click=${this.handleRetryBasket}>${msg('Try again')}</button>
        </div>`;
      }
      // A basket id with no content: being read (restored, resumed), or just created by an add still in flight.
      if (basket.basketId && (basket.busy || this.requestedBasket !== basket.basketId)) {
        return html`<p part="status" role="status">${msg('Loading your basket…')}</p>`;
      }
      if (this.returnOutcome === 'success') return nothing;
      return html`<section part="basket" aria-labelledby="basket-heading">
        <h2 id="basket-heading" part="heading" tabindex="-1">${msg('Your basket')}</h2>
        <p part="empty">${msg('Your basket is empty.')}</p>
      </section>`;
    }
    return html`${this.renderBasket(content)}${this.renderCheckout(content)}`;
  }

  private renderBasket(content: BasketContent): TemplateResult {
    const basket = this.bookingController.basket;
    const config = this.bookingController.booking.config;
    const busy = basket.busy === 'remove' || basket.busy === 'clear';
    const storeError = basket.error && (basket.error.action === 'remove' || basket.error.action === 'clear') ? basket.error : null;
    return html`<section part="basket" aria-labelledby="basket-heading">
      <h2 id="basket-heading" part="heading" tabindex="-1">${msg('Your basket')}</h2>
      ${storeError ? html`<p role="alert" part="message error">${storeError.message}</p>` : nothing}
      <ul part="items">
        ${content.Items.map((item) => this.renderItem(item, busy))}
      </ul>
      <p class="actions">
        <span>${msg(str`Subtotal: ${formatMoney(this.subtotal(content), config)}`)}</span>
      </p>
      ${this.confirmingEmpty
        ? html`<div part="empty-confirm" role="group" aria-labelledby="empty-question">
            <p id="empty-question">${msg('Remove every ticket from your basket? The seats will be released.')}</p>
            <div class="actions">
              <button part="confirm-empty-button" ?disabled=${busy} @click=${this.handleConfirmEmpty}>${msg('Yes, empty my basket')}</button>
              <button part="cancel-empty-button" data-variant="secondary" @click=${this.handleCancelEmpty}>${msg('Keep my tickets')}</button>
            </div>
          </div>`
        : html`<div class="actions">
            <button part="empty-button" data-variant="secondary" ?disabled=${busy} @click=${this.handleAskEmpty}>${msg('Empty basket')}</button>
          </div>`}
    </section>`;
  }

  private renderItem(item: BasketItem, busy: boolean): TemplateResult {
    const config = this.bookingController.booking.config;
    const when = formatDateTime(item.PerformanceDate, config, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
    const notices = this.checkoutTask.value?.options.ETicketNotices.filter((n) => n.EventId === item.EventId) ?? [];
    const titleId = `item-${item.BasketItemId}-title`;
    return html`<li part="item" aria-labelledby=${titleId}>
      <div class="item-head">
        <h3 id=${titleId} part="item-title">${item.EventName}</h3>
        <button part="remove-button" data-variant="secondary" ?disabled=${busy}
          aria-label=${msg(str`Remove ${item.EventName}, ${when}`)}
          @click=${() => this.handleRemove(item)}>${msg('Remove')}</button>
      </div>
      <p part="item-meta" class="meta">${when} · ${item.VenueName}${item.VenueCity ? `, ${item.VenueCity}` : ''}</p>
      <p part="item-meta" class="meta">${item.AreaName}${item.Seats.length ? html` · ${msg(str`Seats ${item.Seats.join(', ')}`)}` : nothing}</p>
      <table part="tickets">
        <caption class="visually-hidden">${msg(str`Tickets for ${item.EventName}`)}</caption>
        <thead>
          <tr>
            <th scope="col">${msg('Seat')}</th>
            <th scope="col" class="num">${msg('Face value')}</th>
            <th scope="col" class="num">${msg('Price')}</th>
          </tr>
        </thead>
        <tbody>
          ${item.Tickets.map((ticket) => this.renderTicket(ticket))}
        </tbody>
      </table>
      ${notices.map((n) => html`<p part="eticket-notice">${n.Message}</p>`)}
      <p part="item-subtotal">${msg(str`Item total: ${formatMoney(item.PriceSubTotal, config)}`)}</p>
    </li>`;
  }

  private renderTicket(ticket: BasketTicket): TemplateResult {
    const config = this.bookingController.booking.config;
    const seat = [ticket.TicketName1, ticket.TicketName2].filter(Boolean).join(' ');
    return html`<tr>
      <td>
        ${seat}
        ${ticket.IsRestrictedView
          ? html`<span part="restriction">${msg('Restricted view')}${ticket.RestrictionDescription ? `: ${ticket.RestrictionDescription}` : ''}</span>`
          : nothing}
      </td>
      <td class="num">${formatMoney(ticket.FaceValue, config)}</td>
      <td class="num">${formatMoney(ticket.SellingPrice, config)}</td>
    </tr>`;
  }

  private renderCheckout(content: BasketContent): TemplateResult {
    return this.checkoutTask.render({
      initial: () => html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
      pending: () => html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
      error: (error) => this.renderLoadError(error, () => this.checkoutTask.run()),
      complete: (checkout) =>
        checkout
          ? this.systemTask.render({
              initial: () => html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
              pending: () => html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
              error: (error) => this.renderLoadError(error, () => this.systemTask.run()),
              complete: (lists) => this.renderForm(content, checkout, lists),
            })
          : html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
    });
  }

  private loadErrorMessage(error: unknown): string {
    return error instanceof ApiError && error.status === 403
      ? msg('Your basket is no longer valid.')
      : error instanceof NetworkError
        ? msg('We could not reach the box office. Check your connection and try again.')
        : msg('The checkout could not be loaded.');
  }

  private reportLoadError(error: unknown): void {
    if (isAbortError(error)) return;
    void this.emit('booking-error', { source: 'checkout-form', message: this.loadErrorMessage(error), status: error instanceof ApiError ? error.status : null });
  }

  private renderLoadError(error: unknown, retry: () => unknown): TemplateResult {
    return html`<div role="alert" part="message error">
      <p>${this.loadErrorMessage(error)}</p>
      <button part="retry-button" @click=${retry}>${msg('Try again')}</button>
    </div>`;
  }

  private renderForm(content: BasketContent, checkout: CheckoutData, lists: SystemLists): TemplateResult {
    const config = this.bookingController.booking.config;
    const sending = this.phase !== 'form';
    const onAccount = config.onAccount;
    return html`<form part="form" novalidate @submit=${this.handleSubmit} @input=${this.handleInput} @change=${this.handleInput}
      aria-labelledby="checkout-heading" aria-busy=${sending ? 'true' : 'false'}>
      <h2 id="checkout-heading" part="heading">${msg('Checkout')}</h2>
      ${this.formMessage ? this.renderFormMessage() : nothing}
      ${this.renderErrorSummary()}
      ${this.renderNotices(checkout.options)}
      ${this.renderDelivery(checkout.deliveries)}
      ${this.renderCustomer(checkout.options, lists)}
      ${this.renderExtras(content, lists)}
      ${this.renderTotals(content, checkout.deliveries, lists)}
      <button type="submit" part="submit-button" aria-disabled=${sending ? 'true' : 'false'}>
        ${sending ? msg('Sending your order…') : onAccount ? msg('Book now') : msg('Continue to payment')}
      </button>
    </form>`;
  }

  private renderErrorSummary(): TemplateResult | typeof nothing {
    if (!this.problems.length) return nothing;
    const count = this.problems.length;
    return html`<div part="error-summary" role="alert" aria-labelledby="error-summary-heading">
      <h3 id="error-summary-heading">${count === 1 ? msg('There is a problem') : msg(str`There are ${count} problems`)}</h3>
      <ul>
        ${this.problems.map(
          (p) => html`<li><a href="#${p.id}" @click=${(e: Event) => this.focusControl(e, p.id)}>${p.label}: ${p.message}</a></li>`,
        )}
      </ul>
    </div>`;
  }

  private renderNotices(options: CheckoutOptions): TemplateResult | typeof nothing {
    const notices = options.CheckoutNotices;
    if (!notices.length) return nothing;
    return html`<fieldset part="notices">
      <legend>${msg('Before you book')}</legend>
      ${notices.map((notice, index) => {
        if (!notice.RequiresCustomerConfirmation) return html`<p part="notice">${notice.Message}</p>`;
        const id = `notice-${index}`;
        const error = this.attempted ? this.fieldErrors[id] : undefined;
        return html`<div part="notice required field${error ? ' invalid' : ''}">
          <label class="check" for=${id}>
            <input type="checkbox" id=${id} name=${id} required .checked=${live(this.confirmed.has(index))}
              aria-invalid=${error ? 'true' : 'false'} aria-describedby=${ifDefined(error ? `${id}-error` : undefined)} />
            <span>${notice.Message}</span>
          </label>
          ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
        </div>`;
      })}
    </fieldset>`;
  }

  private renderDelivery(deliveries: DeliveryType[]): TemplateResult {
    const config = this.bookingController.booking.config;
    const error = this.attempted ? this.fieldErrors.delivery : undefined;
    if (!deliveries.length) {
      return html`<fieldset part="delivery">
        <legend>${msg('Delivery')}</legend>
        <p role="alert" part="message error">${msg('No delivery method is available for this basket.')}</p>
      </fieldset>`;
    }
    return html`<fieldset part="delivery" aria-describedby=${ifDefined(error ? 'delivery-error' : undefined)}>
      <legend>${msg('Delivery')}</legend>
      ${deliveries.map((d) => {
        const selected = d.DeliveryTypeId === this.deliveryTypeId;
        return html`<label part="delivery-option${selected ? ' selected' : ''}" class=${selected ? 'selected' : ''}>
          <input type="radio" name="delivery" required value=${String(d.DeliveryTypeId)} .checked=${live(selected)} />
          <span>${d.DeliveryTypeName}</span>
          <span class="price">${d.DeliveryTypePrice > 0 ? formatMoney(d.DeliveryTypePrice, config) : msg('Free')}</span>
        </label>`;
      })}
      ${error ? html`<p id="delivery-error" part="field-error">${error}</p>` : nothing}
    </fieldset>`;
  }

  private renderCustomer(options: CheckoutOptions, lists: SystemLists): TemplateResult {
    const isUS = this.values.country === 'US';
    return html`<fieldset part="customer">
      <legend>${msg('Your details')}</legend>
      <div class="fields">
        ${TEXT_FIELDS.map((spec) => this.renderTextField(spec, options))}
        ${this.renderSelect(
          'country',
          msg('Country'),
          'country',
          lists.countries.map((c) => ({ value: c.ISO3166, label: c.CountryName })),
          true,
        )}
        ${isUS
          ? this.renderSelect(
              'state',
              msg('State'),
              'address-level1',
              lists.states.map((s) => ({ value: s.StateCode, label: s.StateName })),
              true,
              msg('Choose a state'),
            )
          : nothing}
      </div>
    </fieldset>`;
  }

  private describedBy(...ids: (string | false | undefined)[]): string | undefined {
    const list = ids.filter((id): id is string => Boolean(id));
    return list.length ? list.join(' ') : undefined;
  }

  private renderTextField(spec: TextFieldSpec, options: CheckoutOptions): TemplateResult {
    const id = `field-${spec.name}`;
    const error = this.attempted ? this.fieldErrors[spec.name] : undefined;
    const hint =
      spec.name === 'email'
        ? options.CustomerEmailIsMandatory
          ? msg('Your tickets and booking details are sent to this address.')
          : msg('We send your booking details to this address.')
        : spec.name === 'phone'
          ? msg('In case the box office needs to reach you about this booking.')
          : null;
    return html`<div part="field${error ? ' invalid' : ''}" class=${spec.wide ? 'wide' : ''}>
      <label part="label" for=${id}>${spec.label()}${spec.required ? nothing : html` <span class="optional">${msg('(optional)')}</span>`}</label>
      <input part="input" id=${id} name=${spec.name} type=${spec.type} autocomplete=${spec.autocomplete}
        ?required=${spec.required} pattern=${ifDefined(spec.pattern)}
        inputmode=${ifDefined(spec.type === 'tel' ? 'tel' : undefined)}
        .value=${live(this.values[spec.name])}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${ifDefined(this.describedBy(hint ? `${id}-hint` : false, error ? `${id}-error` : false))} />
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : nothing}
      ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
    </div>`;
  }

  private renderSelect(
    name: 'country' | 'state',
    label: string,
    autocomplete: string,
    options: { value: string; label: string }[],
    required: boolean,
    placeholder?: string,
  ): TemplateResult {
    const id = `field-${name}`;
    const error = this.attempted ? this.fieldErrors[name] : undefined;
    const value = this.values[name];
    return html`<div part="field${error ? ' invalid' : ''}">
      <label part="label" for=${id}>${label}</label>
      <select part="input" id=${id} name=${name} autocomplete=${autocomplete} ?required=${required}
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${ifDefined(error ? `${id}-error` : undefined)}>
        ${placeholder ? html`<option value="" ?selected=${value === ''}>${placeholder}</option>` : nothing}
        ${options.map((o) => html`<option value=${o.value} ?selected=${o.value === value}>${o.label}</option>`)}
      </select>
      ${error ? html`<p id="${id}-error" part="field-error">${error}</p>` : nothing}
    </div>`;
  }

  private renderExtras(content: BasketContent, lists: SystemLists): TemplateResult {
    const config = this.bookingController.booking.config;
    const count = ticketCount(content);
    const price = lists.ticketPlanPrice;
    return html`<fieldset part="extras">
      <legend>${msg('Options')}</legend>
      ${price !== null
        ? html`<label class="check">
            <input type="checkbox" name="ticketPlan" .checked=${live(this.requireTicketPlan)} aria-describedby="ticket-plan-hint" />
            <span>
              ${msg(str`Add refund protection: ${formatMoney(price, config)} per ticket`)}
              <span class="hint" id="ticket-plan-hint">${msg(str`${formatMoney(price * count, config)} for ${count} tickets`)}</span>
            </span>
          </label>`
        : nothing}
      <label class="check">
        <input type="checkbox" name="confirmationEmail" .checked=${live(this.sendConfirmationEmail)} />
        <span>${msg('Send me a confirmation e-mail')}</span>
      </label>
    </fieldset>`;
  }

  private renderTotals(content: BasketContent, deliveries: DeliveryType[], lists: SystemLists): TemplateResult {
    const config = this.bookingController.booking.config;
    const delivery = deliveries.find((d) => d.DeliveryTypeId === this.deliveryTypeId) ?? null;
    const protection = this.protectionPrice(content, lists);
    return html`<dl part="totals">
      <dt>${msg('Tickets')}</dt>
      <dd>${formatMoney(this.subtotal(content), config)}</dd>
      <dt>${delivery ? msg(str`Delivery (${delivery.DeliveryTypeName})`) : msg('Delivery')}</dt>
      <dd>${formatMoney(delivery?.DeliveryTypePrice ?? 0, config)}</dd>
      ${protection > 0
        ? html`<dt>${msg('Refund protection')}</dt>
            <dd>${formatMoney(protection, config)}</dd>`
        : nothing}
      <dt class="grand">${msg('Total')}</dt>
      <dd class="grand" part="total" aria-live="polite" aria-atomic="true">${formatMoney(this.total(content, deliveries, lists), config)}</dd>
    </dl>`;
  }

  // ------------------------------------------------------------------ derived

  private subtotal(content: BasketContent): number {
    return content.Items.reduce((sum, item) => sum + item.PriceSubTotal, 0);
  }

  private protectionPrice(content: BasketContent, lists: SystemLists): number {
    if (!this.requireTicketPlan || lists.ticketPlanPrice === null) return 0;
    return Math.round(lists.ticketPlanPrice * ticketCount(content) * 100) / 100;
  }

  private total(content: BasketContent, deliveries: DeliveryType[], lists: SystemLists): number {
    const delivery = deliveries.find((d) => d.DeliveryTypeId === this.deliveryTypeId)?.DeliveryTypePrice ?? 0;
    return Math.round((this.subtotal(content) + delivery + this.protectionPrice(content, lists)) * 100) / 100;
  }

  private defaultCountry(countries: Country[]): Country | undefined {
    const region = /[-_]([A-Za-z]{2})(?:$|[-_])/.exec(this.bookingController.booking.config.locale)?.[1]?.toUpperCase();
    return countries.find((c) => c.ISO3166.toUpperCase() === region) ?? countries[0];
  }

  // ------------------------------------------------------------------ validation

  private controls(): (HTMLInputElement | HTMLSelectElement)[] {
    if (!this.form) return [];
    return [...this.form.elements].filter(
      (el): el is HTMLInputElement | HTMLSelectElement => el instanceof HTMLInputElement || el instanceof HTMLSelectElement,
    );
  }

  private labelOf(name: string): string {
    if (name === 'delivery') return msg('Delivery');
    if (name.startsWith('notice-')) return msg('Confirmation');
    if (name === 'country') return msg('Country');
    if (name === 'state') return msg('State');
    return TEXT_FIELDS.find((f) => f.name === name)?.label() ?? name;
  }

  /** The message for an invalid control, in the widget's words. */
  private messageOf(control: HTMLInputElement | HTMLSelectElement): string {
    const v = control.validity;
    if (v.customError) return control.validationMessage;
    if (control.name === 'delivery') return msg('Choose a delivery method.');
    if (control.name.startsWith('notice-')) return msg('Please tick to confirm you have read this.');
    if (control.name === 'country') return msg('Choose your country.');
    if (control.name === 'state') return msg('Choose your state.');
    const spec = TEXT_FIELDS.find((f) => f.name === control.name);
    if (v.valueMissing) return spec?.missing() ?? msg('This field is required.');
    if ((v.typeMismatch || v.patternMismatch) && spec?.mismatch) return spec.mismatch();
    return control.validationMessage || msg('Please check this field.');
  }

  /** Every invalid control, in the form's order (one entry per radio group). */
  private collectProblems(): Problem[] {
    const problems: Problem[] = [];
    const seen = new Set<string>();
    for (const control of this.controls()) {
      if (!control.willValidate || control.checkValidity() || seen.has(control.name)) continue;
      seen.add(control.name);
      problems.push({ id: control.id || control.name, name: control.name, label: this.labelOf(control.name), message: this.messageOf(control) });
    }
    return problems;
  }

  private async showProblems(problems: Problem[]): Promise<void> {
    this.attempted = true;
    this.problems = problems;
    this.fieldErrors = Object.fromEntries(problems.map((p) => [p.name, p.message]));
    await this.updateComplete;
    const first = problems[0];
    if (first) this.controlById(first.id)?.focus();
  }

  private controlById(id: string): HTMLElement | null {
    const byId = this.renderRoot.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    if (byId) return byId;
    return this.controls().find((c) => c.name === id && (c.type !== 'radio' || (c as HTMLInputElement).checked)) ?? this.controls().find((c) => c.name === id) ?? null;
  }

  private focusControl(event: Event, id: string): void {
    event.preventDefault();
    this.controlById(id)?.focus();
  }

  // ------------------------------------------------------------------ handlers

  private handleInput(event: Event): void {
    const control = event.target;
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) return;
    const name = control.name;
    if (control instanceof HTMLInputElement && control.type === 'radio' && name === 'delivery') {
      this.deliveryTypeId = Number(control.value);
    } else if (control instanceof HTMLInputElement && control.type === 'checkbox') {
      if (name === 'ticketPlan') this.requireTicketPlan = control.checked;
      else if (name === 'confirmationEmail') this.sendConfirmationEmail = control.checked;
      else if (name.startsWith('notice-')) {
        const index = Number(name.slice('notice-'.length));
        const next = new Set(this.confirmed);
        if (control.checked) next.add(index);
        else next.delete(index);
        this.confirmed = next;
      }
    } else if (name in EMPTY_VALUES) {
      const field = name as CheckoutFieldName;
      const values = { ...this.values, [field]: control.value };
      if (field === 'country' && control.value !== 'US') values.state = '';
      this.values = values;
    }
    // The service's answer about this field no longer holds once it changes.
    if (control.validity.customError) control.setCustomValidity('');
    if (this.attempted) this.revalidate(control);
  }

  /** After a submit attempt, keep one field's message current as the visitor fixes it. */
  private revalidate(control: HTMLInputElement | HTMLSelectElement): void {
    const { [control.name]: _old, ...rest } = this.fieldErrors;
    const valid = control.checkValidity();
    this.fieldErrors = valid ? rest : { ...rest, [control.name]: this.messageOf(control) };
    if (valid) this.problems = this.problems.filter((p) => p.name !== control.name);
  }

  private handleRetryBasket(): void {
    void this.bookingController.booking.basket.refresh();
  }

  private async handleRemove(item: BasketItem): Promise<void> {
    const store = this.bookingController.booking.basket;
    const outcome = await store.remove(item.BasketItemId);
    if (!outcome.ok) return;
    this.announcement = msg(str`${item.EventName} was removed from your basket.`);
    await this.emit('booking-basket-change', { action: 'remove', basketId: store.value.basketId, basket: store.value.content });
    this.renderRoot.querySelector<HTMLElement>('#basket-heading')?.focus();
  }

  private async handleAskEmpty(): Promise<void> {
    this.confirmingEmpty = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="cancel-empty-button"]')?.focus();
  }

  private async handleCancelEmpty(): Promise<void> {
    this.confirmingEmpty = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="empty-button"]')?.focus();
  }

  private async handleConfirmEmpty(): Promise<void> {
    const store = this.bookingController.booking.basket;
    const basketId = store.value.basketId;
    const outcome = await store.clear();
    this.confirmingEmpty = false;
    if (!outcome.ok) return;
    this.announcement = msg('Your basket is now empty.');
    await this.emit('booking-basket-change', { action: 'clear', basketId, basket: null });
    this.renderRoot.querySelector<HTMLElement>('#basket-heading')?.focus();
  }

  private async handleSubmit(event: Event): Promise<void> {
    event.preventDefault();
    // One order per visit to the form: a second click, Enter or submit while one is in flight does nothing.
    if (this.phase !== 'form') return;
    const booking = this.bookingController.booking;
    const { basketId, content } = booking.basket.value;
    const checkout = this.checkoutTask.value;
    const lists = this.systemTask.value;
    if (!basketId || !content || !checkout || !lists) return;
    const problems = this.collectProblems();
    if (problems.length) {
      this.announcement = '';
      await this.showProblems(problems);
      return;
    }
    this.phase = 'submitting';
    this.problems = [];
    this.fieldErrors = {};
    this.formMessage = null;
    this.announcement = msg('Sending your order…');
    const total = this.total(content, checkout.deliveries, lists);
    const config = booking.config;
    const urls = returnUrls(config);
    const country = lists.countries.find((c) => c.ISO3166 === this.values.country);
    const optional = (value: string) => (value.trim() ? value.trim() : undefined);
    const common = withoutUndefined({
      BasketId: basketId,
      Email: this.values.email.trim(),
      Name: this.values.firstName.trim(),
      LastName: this.values.lastName.trim(),
      AddressLine1: optional(this.values.addressLine1),
      AddressLine2: optional(this.values.addressLine2),
      CompanyName: optional(this.values.company),
      City: optional(this.values.city),
      Country: country?.CountryId,
      Zip: optional(this.values.zip),
      Phone: optional(this.values.phone),
      StateCode: country?.ISO3166 === 'US' ? optional(this.values.state) : undefined,
      DeliveryType: this.deliveryTypeId ?? 0,
      RequireTicketPlan: lists.ticketPlanPrice !== null && this.requireTicketPlan,
      SendConfirmationEmail: this.sendConfirmationEmail,
      TransactionReference: config.transactionReference ?? undefined,
    });
    try {
      let refusedOnAccount = false;
      if (config.onAccount) {
        try {
          const result = await booking.api.submitOrderOnAccount({ basketId, body: { ...common, ReturnUrl: urls.success } });
          if (result.Success && result.BookingReference) {
            await this.bookedOnAccount(basketId, result.BookingReference, total);
            return;
          }
          refusedOnAccount = true;
        } catch (error) {
          // 403 from on-account: this proxy or account does not allow it. Pay instead (a 403 there too means the basket is invalid).
          if (!(error instanceof ApiError && error.status === 403)) throw error;
          refusedOnAccount = true;
        }
      }
      const body: SubmitOrderBody = {
        ...common,
        SuccessReturnUrl: urls.success,
        FailureReturnUrl: urls.failure,
        PaymentGateLanguage: paymentGateLanguage(config.locale),
      };
      const result = await booking.api.submitOrder({ basketId, body });
      const paymentUrl = safeUrl(result.PaymentRedirectUrl);
      if (!result.Success || !paymentUrl) {
        this.fail(msg('The box office did not accept the order. Please try again.'), null);
        return;
      }
      if (refusedOnAccount) this.formMessage = { kind: 'info', text: msg('Booking on account is not available here, so you will pay by card.') };
      this.redirectUrl = paymentUrl;
      this.phase = 'redirecting';
      this.announcement = msg('Taking you to the secure payment page…');
      await this.emit('booking-checkout-submitted', { basketId, paymentRedirectUrl: paymentUrl, total, currency: config.currency });
      booking.basket.submitted();
      this.navigate(paymentUrl);
    } catch (error) {
      await this.handleSubmitError(error);
    }
  }

  private async bookedOnAccount(basketId: string, reference: string, total: number): Promise<void> {
    const booking = this.bookingController.booking;
    this.bookingReference = reference;
    this.phase = 'booked-on-account';
    this.announcement = msg(str`Booked. Your booking reference is ${reference}.`);
    await this.emit('booking-checkout-submitted', { basketId, paymentRedirectUrl: null, total, currency: booking.config.currency });
    booking.basket.submitted();
    resetClaim(booking.basket);
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('#on-account-heading')?.focus();
  }

  private fail(text: string, status: number | null): void {
    this.phase = 'form';
    this.formMessage = { kind: 'error', text };
    this.announcement = '';
    void this.emit('booking-error', { source: 'checkout-form', message: text, status });
  }

  private async handleSubmitError(error: unknown): Promise<void> {
    if (error instanceof ApiError && error.status === 400) {
      const field = fieldOfServiceError(error);
      const control = field ? this.controls().find((c) => c.name === field) : undefined;
      if (field && control) {
        const text =
          field === 'phone'
            ? msg('The box office did not accept this phone number. Check it, or leave it out.')
            : msg('The box office did not accept this. Please check it.');
        control.setCustomValidity(text);
        this.phase = 'form';
        this.announcement = '';
        void this.emit('booking-error', { source: 'checkout-form', message: text, status: 400 });
        await this.showProblems([{ id: control.id || field, name: field, label: this.labelOf(field), message: text }]);
        return;
      }
      this.fail(error.serviceMessage ?? msg('The box office did not accept the order. Please check your details.'), 400);
      return;
    }
    if (error instanceof ApiError && error.status === 403) {
      this.fail(msg('Your basket is no longer valid: its tickets may have been released. It has been refreshed.'), 403);
      void this.bookingController.booking.basket.refresh();
      return;
    }
    if (error instanceof NetworkError) {
      this.fail(msg('We could not reach the box office. Your details are kept: please try again.'), null);
      return;
    }
    const status = error instanceof ApiError ? error.status : null;
    this.fail(msg('The order could not be sent. Your details are kept: please try again.'), status);
  }
}
