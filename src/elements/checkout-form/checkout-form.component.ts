import { msg, str, localized } from '../../i18n/msg.ts';
import { Task } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ApiError, isAbortError } from '../../api/client.ts';
import type { BasketContent, BasketItem } from '../../api/types.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import { confirmationPresence, resetClaim, returnMarker, returnUrls, type ReturnOutcome } from '../../state/payment-return.ts';
import { FocusRecovery, type LostFocus } from '../../controllers/focus-recovery.ts';
import { takeBasketItemFocus } from '../../state/focus-handoff.ts';
import { BookingElement } from '../booking-element.ts';
import { orderStyles } from '../order.styles.ts';
import type { CheckoutData, SystemLists } from './checkout-data.ts';
import type { FormState } from './checkout-details.ts';
import {
  collectProblems,
  defaultCountry,
  fieldOfServiceError,
  formControls,
  labelOf,
  messageOf,
  EMPTY_VALUES,
  type CheckoutFieldName,
  type FormControl,
  type Problem,
  type Values,
} from './checkout-fields.ts';
import { checkoutFormStyles } from './checkout-form.styles.ts';

type Phase = 'form' | 'submitting' | 'redirecting' | 'booked-on-account';

/** What the element shows once there is a basket (checkout-form.later.ts). */
type FormPart = typeof import('./checkout-form.later.ts');
const loadFormPart = (): Promise<FormPart> => import('./checkout-form.later.ts');

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
 * @cssprop [--booking-accent=light-dark(#7a1f3d, #f2a0bd)] - Buttons, selected delivery, notices.
 * @cssprop [--booking-danger=light-dark(#b3261e, #ffb4ab)] - Errors.
 * @cssprop [--booking-warning=light-dark(#8a5a00, #f3c06b)] - Restricted-view notes.
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
  /** The basket's item ids in order, as last rendered: where a removed item was. */
  private renderedItems: number[] = [];

  /**
   * Focus is never dropped: when a render removes the focused control (its item removed, or
   * released at expiry; the basket emptied), focus goes to the item after it (or before), else
   * to the status that says what happened.
   */
  private readonly focusKeeper = new FocusRecovery(this, (lost) => this.focusTarget(lost));

  /**
   * The country, US state and other System lists: only the form uses them, so they are read the
   * first time there is a basket to check out, not by every page that shows an empty basket.
   */
  private readonly systemTask = new Task(this, {
    args: () => [this.formNeeded ? this.bookingController.booking.api : null] as const,
    task: async ([api], { signal }): Promise<SystemLists | null> => (api ? (await loadFormPart()).loadSystemLists(api, signal) : null),
    onError: (error) => this.reportLoadError(error),
  });
  /** Set once the basket has had content: the form (and its lists) has been needed. */
  private formNeeded = false;
  /** The items and the form (checkout-form.later.ts), once the basket has content. */
  private readonly formPart = this.lazy(loadFormPart);

  private readonly checkoutTask = new Task(this, {
    args: () => {
      const { basketId, content } = this.bookingController.basket;
      const items = content?.Items.map((i) => i.BasketItemId).join(',') ?? '';
      return [this.bookingController.booking.api, content ? basketId : null, items] as const;
    },
    task: async ([api, basketId], { signal }): Promise<CheckoutData | null> => {
      if (!basketId) return null;
      try {
        return await (await loadFormPart()).loadCheckout(api, basketId, signal);
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

  /** Where focus goes when the focused control was removed by a render. */
  private focusTarget(lost: LostFocus): HTMLElement | null {
    const root = this.renderRoot;
    const item = (id: number) => root.querySelector<HTMLElement>(`[part~="item"][data-item-id="${id}"]`);
    const lostId = lost.key?.startsWith('item-') ? Number(lost.key.slice(5)) : null;
    if (lostId !== null) {
      const at = this.renderedItems.indexOf(lostId);
      const after = this.renderedItems.slice(at + 1).map(item).find(Boolean);
      const before = this.renderedItems.slice(0, Math.max(0, at)).reverse().map(item).find(Boolean);
      if (after ?? before) return after ?? before ?? null;
    }
    return root.querySelector<HTMLElement>('#basket-status') ?? root.querySelector<HTMLElement>('#basket-heading');
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.renderedItems = [...this.renderRoot.querySelectorAll<HTMLElement>('[part~="item"][data-item-id]')].map((li) => Number(li.dataset.itemId));
  }

  /** The added item, when this form shows it visibly: it takes the focus (from <seat-picker>). */
  private readonly takeItemFocus = async (basketItemId: number): Promise<boolean> => {
    if (!this.isConnected) return false;
    await this.updateComplete;
    const li = this.renderRoot.querySelector<HTMLElement>(`[part~="item"][data-item-id="${basketItemId}"]`);
    if (!li || li.getClientRects().length === 0) return false;
    li.focus();
    return this.shadowRoot?.activeElement === li;
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const booking = this.bookingController.booking;
    if (this.presenceStore !== booking.basket) {
      this.presenceOff?.();
      this.presenceStore = booking.basket;
      const presence = confirmationPresence(booking.basket).subscribe(() => this.requestUpdate());
      const taker = takeBasketItemFocus(booking.basket, this.takeItemFocus);
      this.presenceOff = () => {
        presence();
        taker();
      };
    }
    // A restored basket id with no content yet (and nothing in flight): read it.
    const { basketId, content, busy } = booking.basket.value;
    if (basketId && !content && !busy && this.requestedBasket !== basketId) {
      this.requestedBasket = basketId;
      void booking.basket.refresh();
    }
    if (content) {
      this.formNeeded = true;
      this.formPart();
    }
    const lists = this.systemTask.value;
    if (lists && !this.values.country) {
      const country = defaultCountry(lists.countries, booking.config.locale);
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
      // The status that says what happened: where focus goes when the basket empties under it.
      return html`<section part="basket" aria-labelledby="basket-heading">
        <h2 id="basket-heading" part="heading" tabindex="-1">${msg('Your basket')}</h2>
        <p part="empty" id="basket-status" role="status" tabindex="-1">
          ${basket.released.length ? msg('Time is up: the hold on your seats ran out and they were released.') : nothing}
          ${msg('Your basket is empty.')}
        </p>
      </section>`;
    }
    const part = this.formPart();
    if (!part) return html`<p part="status" role="status">${msg('Loading your basket…')}</p>`;
    return html`${this.renderBasket(part, content)}${this.renderCheckout(content)}`;
  }

  private renderBasket(part: FormPart, content: BasketContent): TemplateResult {
    return part.renderBasket(content, {
      basket: this.bookingController.basket,
      config: this.bookingController.booking.config,
      eTicketNotices: this.checkoutTask.value?.options.ETicketNotices,
      confirmingEmpty: this.confirmingEmpty,
      onRemove: this.handleRemove,
      onAskEmpty: this.handleAskEmpty,
      onConfirmEmpty: this.handleConfirmEmpty,
      onCancelEmpty: this.handleCancelEmpty,
    });
  }

  private renderCheckout(content: BasketContent): TemplateResult | typeof nothing {
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
              complete: (lists) => (lists ? this.renderForm(content, checkout, lists) : html`<p part="status" role="status">${msg('Loading checkout…')}</p>`),
            })
          : html`<p part="status" role="status">${msg('Loading checkout…')}</p>`,
    });
  }

  private reportLoadError(error: unknown): void {
    if (isAbortError(error)) return;
    void this.emit('booking-error', { source: 'checkout-form', message: this.loadErrorMessage(error), status: error instanceof ApiError ? error.status : null });
  }

  /** Why loading failed, in words (a failure to load the form's own code is a network failure too). */
  private loadErrorMessage(error: unknown): string {
    return this.formPart()?.loadErrorMessage(error) ?? msg('We could not reach the box office. Check your connection and try again.');
  }

  private renderLoadError(error: unknown, retry: () => unknown): TemplateResult {
    return html`<div role="alert" part="message error">
      <p>${this.loadErrorMessage(error)}</p>
      <button part="retry-button" @click=${retry}>${msg('Try again')}</button>
    </div>`;
  }

  private renderForm(content: BasketContent, checkout: CheckoutData, lists: SystemLists): TemplateResult | typeof nothing {
    // The tasks that gave `checkout` and `lists` loaded the part first.
    const part = this.formPart();
    if (!part) return nothing;
    const { renderErrorSummary, renderNotices, renderDelivery, renderCustomer, renderExtras, renderTotals } = part;
    const config = this.bookingController.booking.config;
    const sending = this.phase !== 'form';
    const onAccount = config.onAccount;
    const form = this.formState;
    return html`<form part="form" novalidate @submit=${this.handleSubmit} @input=${this.handleInput} @change=${this.handleInput}
      aria-labelledby="checkout-heading" aria-busy=${sending ? 'true' : 'false'}>
      <h2 id="checkout-heading" part="heading">${msg('Checkout')}</h2>
      ${this.formMessage ? this.renderFormMessage() : nothing}
      ${renderErrorSummary(this.problems, this.focusControl)}
      ${renderNotices(checkout.options, form)}
      ${renderDelivery(checkout.deliveries, form)}
      ${renderCustomer(checkout.options, lists, form)}
      ${renderExtras(content, lists, form)}
      ${renderTotals(content, checkout.deliveries, lists, form)}
      <button type="submit" part="submit-button" aria-disabled=${sending ? 'true' : 'false'}>
        ${sending ? msg('Sending your order…') : onAccount ? msg('Book now') : msg('Continue to payment')}
      </button>
    </form>`;
  }

  /** What the form's sections show. */
  private get formState(): FormState {
    return {
      config: this.bookingController.booking.config,
      values: this.values,
      deliveryTypeId: this.deliveryTypeId,
      requireTicketPlan: this.requireTicketPlan,
      sendConfirmationEmail: this.sendConfirmationEmail,
      confirmed: this.confirmed,
      attempted: this.attempted,
      fieldErrors: this.fieldErrors,
    };
  }

  private total(part: FormPart, content: BasketContent, checkout: CheckoutData, lists: SystemLists): number {
    return part.orderTotal(content, checkout.deliveries, lists, { deliveryTypeId: this.deliveryTypeId, requireTicketPlan: this.requireTicketPlan });
  }

  // ------------------------------------------------------------------ validation

  private controls(): FormControl[] {
    return formControls(this.form);
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

  private readonly focusControl = (event: Event, id: string): void => {
    event.preventDefault();
    this.controlById(id)?.focus();
  };

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
  private revalidate(control: FormControl): void {
    const { [control.name]: _old, ...rest } = this.fieldErrors;
    const valid = control.checkValidity();
    this.fieldErrors = valid ? rest : { ...rest, [control.name]: messageOf(control) };
    if (valid) this.problems = this.problems.filter((p) => p.name !== control.name);
  }

  private handleRetryBasket(): void {
    void this.bookingController.booking.basket.refresh();
  }

  private readonly handleRemove = async (item: BasketItem): Promise<void> => {
    const store = this.bookingController.booking.basket;
    const outcome = await store.remove(item.BasketItemId);
    if (!outcome.ok) return;
    this.announcement = msg(str`${item.EventName} was removed from your basket.`);
    await this.emit('booking-basket-change', { action: 'remove', basketId: store.value.basketId, basket: store.value.content });
    // Focus went on to the next item, or to the status when none is left (focusTarget).
  };

  private readonly handleAskEmpty = async (): Promise<void> => {
    this.confirmingEmpty = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="cancel-empty-button"]')?.focus();
  };

  private readonly handleCancelEmpty = async (): Promise<void> => {
    this.confirmingEmpty = false;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="empty-button"]')?.focus();
  };

  private readonly handleConfirmEmpty = async (): Promise<void> => {
    const store = this.bookingController.booking.basket;
    const basketId = store.value.basketId;
    const outcome = await store.clear();
    this.confirmingEmpty = false;
    if (!outcome.ok) return;
    this.announcement = msg('Your basket is now empty.');
    await this.emit('booking-basket-change', { action: 'clear', basketId, basket: null });
    this.focusKeeper.focusSoon(() => this.renderRoot.querySelector<HTMLElement>('#basket-status'));
  };

  private async handleSubmit(event: Event): Promise<void> {
    event.preventDefault();
    // One order per visit to the form: a second click, Enter or submit while one is in flight does nothing.
    if (this.phase !== 'form') return;
    const booking = this.bookingController.booking;
    const { basketId, content } = booking.basket.value;
    const checkout = this.checkoutTask.value;
    const lists = this.systemTask.value;
    const part = this.formPart();
    if (!basketId || !content || !checkout || !lists || !part) return;
    const problems = collectProblems(this.controls());
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
    const total = this.total(part, content, checkout, lists);
    const config = booking.config;
    const urls = returnUrls(config);
    const fields = part.orderFields(basketId, lists, this.formState);
    try {
      const outcome = await part.sendOrder(booking.api, config, basketId, fields, urls);
      if (outcome.kind === 'booked') {
        await this.bookedOnAccount(basketId, outcome.reference, total);
        return;
      }
      if (outcome.kind === 'not-accepted') {
        this.fail(msg('The box office did not accept the order. Please try again.'), null);
        return;
      }
      const paymentUrl = outcome.url;
      if (outcome.refusedOnAccount) this.formMessage = { kind: 'info', text: msg('Booking on account is not available here, so you will pay by card.') };
      this.redirectUrl = paymentUrl;
      this.phase = 'redirecting';
      this.announcement = msg('Taking you to the secure payment page…');
      await this.emit('booking-checkout-submitted', { basketId, paymentRedirectUrl: paymentUrl, total, currency: config.currency });
      booking.basket.submitted();
      this.navigate(paymentUrl);
    } catch (error) {
      await this.handleSubmitError(part, error);
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

  private async handleSubmitError(part: FormPart, error: unknown): Promise<void> {
    if (error instanceof ApiError && error.status === 400) {
      const field = fieldOfServiceError(error);
      const control = field ? this.controls().find((c) => c.name === field) : undefined;
      if (field && control) {
        const text = part.fieldRefusal(field);
        control.setCustomValidity(text);
        this.phase = 'form';
        this.announcement = '';
        void this.emit('booking-error', { source: 'checkout-form', message: text, status: 400 });
        await this.showProblems([{ id: control.id || field, name: field, label: labelOf(field), message: text }]);
        return;
      }
    }
    const failure = part.sendFailure(error);
    this.fail(failure.text, failure.status);
    if (failure.refresh) void this.bookingController.booking.basket.refresh();
  }
}
