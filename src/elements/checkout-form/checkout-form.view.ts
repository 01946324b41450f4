/**
 * What <checkout-form> shows once there is a basket, or a payment return: its
 * items, the form's sections, what the checkout loads and sums, sending the
 * order, and the embedded confirmation. The element loads this module (with
 * its styles) the first time its basket has content or its page is a payment
 * return: a page whose visitor has no basket yet (the checkout in every
 * page's sidebar) shows "Your basket is empty" without downloading any of it
 * (src/elements/checkout-form/checkout-form.component.ts).
 */
import { msg, str } from '../../i18n/msg.ts';
import { Task } from '@lit/task';
import { html, nothing, type TemplateResult } from 'lit';
import { ApiError, isAbortError, type ApiClient } from '../../api/client.ts';
import type { BasketContent, BasketItem } from '../../api/types.ts';
import { CountdownController, durationInWords, formatCountdown, holdLevel, secondsLeft } from '../../controllers/countdown-controller.ts';
import { FocusRecovery, type LostFocus } from '../../controllers/focus-recovery.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BookingEventDetails, BookingEventName } from '../../events.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import type { BookingContextValue } from '../../state/booking.ts';
import { orderStore } from '../../state/order.ts';
import { paymentBegunElsewhere, savedEntries } from '../../state/pending-payment.ts';
import { confirmationPresence, type ReturnOutcome } from '../../state/return-page.ts';
import { orderStyles } from '../order.styles.ts';
import { renderFailure } from '../failure-view.ts';
import { renderBasket } from './checkout-basket.ts';
import { cheapestDelivery, loadCheckout, loadFailure, loadSystemLists, orderTotal, type CheckoutData, type SystemLists } from './checkout-data.ts';
import { PendingPanel, pendingStyles } from './checkout-pending.ts';
import { problemsLeft, renderCustomer, renderDelivery, renderErrorSummary, renderExtras, renderNotices, renderTotals, type FormState } from './checkout-details.ts';
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
import type { CheckoutForm } from './checkout-form.component.ts';
import { checkoutFormViewStyles } from './checkout-form.view.styles.ts';
import { fieldRefusal, orderFields, sendFailure } from './checkout-submit.ts';
import { provideBasketEngine, provideBasketWords } from '../../state/basket-store.ts';
import { basketEngine } from '../../state/basket-engine.ts';
import { basketWords } from '../../state/basket-failure.ts';

// The basket store words a change of the basket here that fails at once (basket-store.ts): this part is loaded when the visitor can make one.
// and its requests (basket-engine.ts) arrive with it, so the first click waits for no download.
provideBasketWords(basketWords);
provideBasketEngine(basketEngine);

/** The styles of what the view shows (added to the element's own when it loads). */
export const checkoutViewStyles = [orderStyles, checkoutFormViewStyles, pendingStyles];

type Phase = 'form' | 'submitting' | 'redirecting' | 'booked-on-account';

/** What the view needs of its element beyond its public properties. */
export interface CheckoutPort {
  booking(): BookingContextValue;
  /** The outcome marker of the page the element was connected on. */
  returnOutcome(): ReturnOutcome | null;
  /** What the element shows without a basket's content (the empty basket, the basket being read). */
  basketStatus(): TemplateResult | typeof nothing;
  emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): Promise<void>;
}

/** What the form shows: each change renders the element again, as a `@state()` field would. */
interface Shown {
  values: Values;
  deliveryTypeId: number | null;
  requireTicketPlan: boolean;
  sendConfirmationEmail: boolean;
  confirmed: ReadonlySet<number>;
  attempted: boolean;
  fieldErrors: Readonly<Record<string, string>>;
  problems: readonly Problem[];
  /** The submit attempts that showed problems (each summary a new alert), and whether a fix has quietened the summary since. */
  summary: { submit: number; quiet: boolean };
  phase: Phase;
  formMessage: { kind: 'error' | 'warning' | 'info'; text: string } | null;
  confirmingEmpty: boolean;
  announcement: string;
  redirectUrl: string | null;
  bookingReference: string | null;
}

export class CheckoutFormView {
  private readonly shown: Shown;
  private presenceOff: (() => void) | undefined;
  private presenceStore: BasketStore | undefined;
  /** The basket's item ids in order, as last rendered: where a removed item was. */
  private renderedItems: number[] = [];
  /** Set once the basket has had content: the form (and its lists) has been needed. */
  private formNeeded = false;
  /** The basket whose kept entries (after a failed payment) have been put back in the form. */
  private entriesRestoredFor: string | null = null;
  /** A payment this tab started and did not come back from (checkout-pending.ts). */
  private readonly pending: PendingPanel;

  /**
   * Focus is never dropped: when a render removes the focused control (its item removed, or
   * released at expiry; the basket emptied), focus goes to the item after it (or before), else
   * to the status that says what happened.
   */
  private readonly focusKeeper: FocusRecovery;

  /**
   * The time the seats are still held, counted like <basket-timer> counts it (the server's clock
   * at its latest, the basket's earliest expiry, never more than remains): shown in the checkout itself, for
   * the phone whose page header (and timer) scrolled away while the customer fills in the form.
   */
  private readonly countdown: CountdownController;
  /** When the basket's earliest hold runs out (server clock), while the form is shown; else null. */
  private holdUntil: number | null = null;

  /**
   * The country, US state and other System lists: only the form uses them, so they are read the
   * first time there is a basket to check out, not by a payment return with no basket.
   */
  private readonly systemTask: Task<readonly [ApiClient | null], SystemLists | null>;
  private readonly checkoutTask: Task<readonly [ApiClient, string | null, string], CheckoutData | null>;

  constructor(
    private readonly host: CheckoutForm,
    private readonly port: CheckoutPort,
  ) {
    const initial: Shown = {
      values: { ...EMPTY_VALUES },
      deliveryTypeId: null,
      requireTicketPlan: false,
      sendConfirmationEmail: true,
      confirmed: new Set(),
      attempted: false,
      fieldErrors: {},
      problems: [],
      summary: { submit: 0, quiet: false },
      phase: 'form',
      formMessage: null,
      confirmingEmpty: false,
      announcement: '',
      redirectUrl: null,
      bookingReference: null,
    };
    this.shown = new Proxy(initial, {
      set: (target, key, value) => {
        if (target[key as keyof Shown] !== value) {
          (target as unknown as Record<string | symbol, unknown>)[key] = value;
          host.requestUpdate();
        }
        return true;
      },
    });
    this.focusKeeper = new FocusRecovery(host, (lost) => this.focusTarget(lost));
    this.pending = new PendingPanel(host, {
      booking: () => port.booking(),
      root: () => host.renderRoot,
      announce: (text) => (this.shown.announcement = text),
      navigate: (url) => host.navigate(url),
      // Back from the payment page (back/forward cache): the form is no longer on its way there.
      shownAgain: () => {
        if (this.shown.phase === 'redirecting') Object.assign(this.shown, { phase: 'form', redirectUrl: null, announcement: '' });
      },
    });
    this.countdown = new CountdownController(host, {
      now: () => port.booking().api.clock.latest(),
      clock: () => port.booking().api.clock,
      align: () => this.holdUntil,
    });
    this.systemTask = new Task(host, {
      args: () => [this.formNeeded ? port.booking().api : null] as const,
      task: async ([api], { signal }): Promise<SystemLists | null> => (api ? loadSystemLists(api, signal) : null),
      onError: (error) => this.reportLoadError(error),
    });
    this.checkoutTask = new Task(host, {
      args: () => {
        const { basketId, content } = port.booking().basket.value;
        const items = content?.Items.map((i) => i.BasketItemId).join(',') ?? '';
        return [port.booking().api, content ? basketId : null, items] as const;
      },
      task: async ([api, basketId], { signal }): Promise<CheckoutData | null> => {
        if (!basketId) return null;
        try {
          return await loadCheckout(api, basketId, signal);
        } catch (error) {
          if (loadFailure(error).kind === 'gone') void port.booking().basket.refresh();
          throw error;
        }
      },
      onError: (error) => this.reportLoadError(error),
    });
  }

  /** Once what loads after the basket (checkout options, the System lists) has rendered: it can move the items. */
  async settled(): Promise<void> {
    await Promise.allSettled([this.checkoutTask.taskComplete, this.systemTask.taskComplete]);
    await this.host.updateComplete;
  }

  /** The live region's text. */
  get announcement(): string {
    return this.shown.announcement;
  }

  disconnected(): void {
    this.presenceOff?.();
    this.presenceOff = undefined;
    this.presenceStore = undefined;
    this.pending.disconnected();
  }

  /** Where focus goes when the focused control was removed by a render. */
  private focusTarget(lost: LostFocus): HTMLElement | null {
    const root = this.host.renderRoot;
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

  updated(): void {
    this.pending.updated();
    this.renderedItems = [...this.host.renderRoot.querySelectorAll<HTMLElement>('[part~="item"][data-item-id]')].map((li) => Number(li.dataset.itemId));
  }

  willUpdate(): void {
    const booking = this.port.booking();
    if (this.presenceStore !== booking.basket) {
      this.presenceOff?.();
      this.presenceStore = booking.basket;
      this.presenceOff = confirmationPresence(booking.basket).subscribe(() => this.host.requestUpdate());
    }
    this.pending.willUpdate();
    const { content, basketId } = booking.basket.value;
    if (content) this.formNeeded = true;
    this.restoreEntries(basketId);
    this.holdUntil = content?.Items.length && this.shown.phase === 'form' ? booking.basket.nextExpiry() : null;
    this.countdown.running = this.holdUntil !== null;
    const lists = this.systemTask.value;
    if (lists && !this.shown.values.country) {
      const country = defaultCountry(lists.countries, booking.config.locale);
      if (country) this.shown.values = { ...this.shown.values, country: country.ISO3166 };
    }
    const checkout = this.checkoutTask.value;
    if (checkout && !checkout.deliveries.some((d) => d.DeliveryTypeId === this.shown.deliveryTypeId)) {
      const preset = content?.DeliveryInformation?.DeliveryType;
      const chosen = checkout.deliveries.find((d) => d.DeliveryTypeId === preset) ?? cheapestDelivery(checkout.deliveries);
      this.shown.deliveryTypeId = chosen ? chosen.DeliveryTypeId : null;
    }
  }

  // ------------------------------------------------------------------ render

  /** The confirmation (booked on account, or the embedded one on a payment return), above the live region. */
  renderConfirmation(): TemplateResult | typeof nothing {
    if (this.shown.phase === 'booked-on-account') {
      return html`
        <section part="message info" aria-labelledby="on-account-heading">
          <h2 id="on-account-heading" part="heading" tabindex="-1">${msg('Booked')}</h2>
          <p>${msg('Your booking reference is')} <span part="on-account-reference">${this.shown.bookingReference}</span></p>
        </section>
        <booking-confirmation part="confirmation" embedded outcome="success"></booking-confirmation>
      `;
    }
    const outcome = this.port.returnOutcome() ?? (this.pending.status === 'booked' ? 'success' : null);
    if (!outcome) return nothing;
    if (confirmationPresence(this.port.booking().basket).value > 0) return nothing;
    return html`<booking-confirmation part="confirmation" embedded outcome=${outcome}></booking-confirmation>`;
  }

  /** Below the live region: the message, then the basket and the form (or the hand-over to payment). */
  renderBody(): TemplateResult {
    const basket = this.port.booking().basket.value;
    const phase = this.shown.phase;
    // Back from the payment page without paying: the payment in progress (or what became of it; booked: the confirmation above).
    if (!basket.content && this.pending.status !== 'none') return html`${this.pending.render()}`;
    // A basket beside a payment still open (the seat picker waits for it, but a basket may come from
    // elsewhere): the payment stays in view above it, never hidden by it.
    return html`${this.pending.open ? this.pending.render() : nothing}${!basket.content || phase === 'redirecting' ? this.renderFormMessage() : nothing}
      ${phase === 'redirecting' ? this.renderRedirecting() : phase === 'booked-on-account' ? nothing : this.renderBasketAndForm()}`;
  }

  private renderFormMessage(): TemplateResult | typeof nothing {
    const message = this.shown.formMessage;
    if (!message) return nothing;
    return html`<div part="message ${message.kind}" class=${message.kind} role=${message.kind === 'error' ? 'alert' : 'status'}>
      ${message.text}
    </div>`;
  }

  private renderRedirecting(): TemplateResult {
    return html`<div part="message info" role="status">
      <p>${msg('Taking you to the secure payment page…')}</p>
      ${this.shown.redirectUrl ? html`<p><a href=${this.shown.redirectUrl}>${msg('Continue to payment')}</a></p>` : nothing}
    </div>`;
  }

  private renderBasketAndForm(): TemplateResult | typeof nothing {
    const content = this.port.booking().basket.value.content;
    if (!content) return this.port.basketStatus();
    return html`${this.renderHold()}${this.renderBasket(content)}${this.renderCheckout(content)}`;
  }

  /**
   * "Seats held for 9:57", in the warning and final styles from 2:00 and 0:30 on screen. Never
   * announced: <basket-timer> owns the live announcements (once per basket, however many show it),
   * and a second voice here would double them. It is a timer (live off) with the time in words,
   * so a screen-reader user who reads the checkout still finds it.
   */
  private renderHold(): TemplateResult | typeof nothing {
    const until = this.holdUntil;
    if (until === null) return nothing;
    const ms = until - this.countdown.now;
    const level = holdLevel(ms);
    const seconds = secondsLeft(ms);
    return html`<p part="hold ${level}" class="hold ${level}" role="timer" aria-live="off">
      ${level === 'expired'
        ? html`<span class="label">${msg('Time is up')}</span>`
        : html`<span class="label">${msg('Seats held for')}</span>
            <span class="time" aria-hidden="true">${formatCountdown(seconds)}</span>
            <span class="visually-hidden">${durationInWords(seconds, intlLocale(this.port.booking().config.locale))}</span>`}
    </p>`;
  }

  private renderBasket(content: BasketContent): TemplateResult {
    const booking = this.port.booking();
    return renderBasket(content, {
      basket: booking.basket.value,
      config: booking.config,
      eTicketNotices: this.checkoutTask.value?.options.ETicketNotices,
      confirmingEmpty: this.shown.confirmingEmpty,
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
    const failure = loadFailure(error);
    void this.port.emit('booking-error', { source: 'checkout-form', message: failure.message, status: failure.status });
  }

  private renderLoadError(error: unknown, retry: () => unknown): TemplateResult {
    return renderFailure(loadFailure(error).message, retry);
  }

  private renderForm(content: BasketContent, checkout: CheckoutData, lists: SystemLists): TemplateResult {
    const config = this.port.booking().config;
    const sending = this.shown.phase !== 'form';
    const onAccount = config.onAccount;
    const form = this.formState;
    return html`<form part="form" novalidate @submit=${this.handleSubmit} @input=${this.handleInput} @change=${this.handleInput}
      aria-labelledby="checkout-heading" aria-busy=${sending ? 'true' : 'false'}>
      <h2 id="checkout-heading" part="heading">${msg('Checkout')}</h2>
      ${this.shown.formMessage ? this.renderFormMessage() : nothing}
      ${renderErrorSummary(this.shown.problems, this.focusControl, this.shown.summary)}
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
    const s = this.shown;
    return {
      config: this.port.booking().config,
      values: s.values,
      deliveryTypeId: s.deliveryTypeId,
      requireTicketPlan: s.requireTicketPlan,
      sendConfirmationEmail: s.sendConfirmationEmail,
      confirmed: s.confirmed,
      attempted: s.attempted,
      fieldErrors: s.fieldErrors,
    };
  }

  /** The customer's entries kept with the basket (it came back from a failed payment): put back once. */
  private restoreEntries(basketId: string | null): void {
    if (!basketId || this.entriesRestoredFor === basketId) return;
    const entries = savedEntries(this.port.booking().basket, basketId);
    if (!entries) return;
    this.entriesRestoredFor = basketId;
    const s = this.shown;
    s.values = { ...s.values, ...(entries.values as Partial<Values>) };
    s.deliveryTypeId = entries.deliveryTypeId;
    s.requireTicketPlan = entries.requireTicketPlan;
    s.sendConfirmationEmail = entries.sendConfirmationEmail;
    s.confirmed = new Set(entries.confirmed);
  }

  private total(content: BasketContent, checkout: CheckoutData, lists: SystemLists): number {
    return orderTotal(content, checkout.deliveries, lists, { deliveryTypeId: this.shown.deliveryTypeId, requireTicketPlan: this.shown.requireTicketPlan });
  }

  // ------------------------------------------------------------------ validation

  private controls(): FormControl[] {
    return formControls(this.host.renderRoot.querySelector('form') ?? undefined);
  }

  private async showProblems(problems: Problem[]): Promise<void> {
    this.shown.attempted = true;
    this.shown.summary = { submit: this.shown.summary.submit + 1, quiet: false };
    this.shown.problems = problems;
    this.shown.fieldErrors = Object.fromEntries(problems.map((p) => [p.name, p.message]));
    await this.host.updateComplete;
    const first = problems[0];
    if (first) this.controlById(first.id)?.focus();
  }

  private controlById(id: string): HTMLElement | null {
    const byId = this.host.renderRoot.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    if (byId) return byId;
    return this.controls().find((c) => c.name === id && (c.type !== 'radio' || (c as HTMLInputElement).checked)) ?? this.controls().find((c) => c.name === id) ?? null;
  }

  private readonly focusControl = (event: Event, id: string): void => {
    event.preventDefault();
    this.controlById(id)?.focus();
  };

  // ------------------------------------------------------------------ handlers

  private readonly handleInput = (event: Event): void => {
    const control = event.target;
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) return;
    const name = control.name;
    const s = this.shown;
    if (control instanceof HTMLInputElement && control.type === 'radio' && name === 'delivery') {
      s.deliveryTypeId = Number(control.value);
    } else if (control instanceof HTMLInputElement && control.type === 'checkbox') {
      if (name === 'ticketPlan') s.requireTicketPlan = control.checked;
      else if (name === 'confirmationEmail') s.sendConfirmationEmail = control.checked;
      else if (name.startsWith('notice-')) {
        const index = Number(name.slice('notice-'.length));
        const next = new Set(s.confirmed);
        if (control.checked) next.add(index);
        else next.delete(index);
        s.confirmed = next;
      }
    } else if (name in EMPTY_VALUES) {
      const field = name as CheckoutFieldName;
      const values = { ...s.values, [field]: control.value };
      if (field === 'country' && control.value !== 'US') values.state = '';
      s.values = values;
    }
    // The service's answer about this field no longer holds once it changes.
    if (control.validity.customError) control.setCustomValidity('');
    if (s.attempted) this.revalidate(control);
  };

  /** After a submit attempt, keep one field's message current as the visitor fixes it. */
  private revalidate(control: FormControl): void {
    const { [control.name]: _old, ...rest } = this.shown.fieldErrors;
    const valid = control.checkValidity();
    this.shown.fieldErrors = valid ? rest : { ...rest, [control.name]: messageOf(control) };
    const left = valid ? this.shown.problems.filter((p) => p.name !== control.name) : this.shown.problems;
    if (left.length === this.shown.problems.length) return;
    // The summary was read out on submit: from now on it changes quietly, and the count left is said politely.
    this.shown.problems = left;
    this.shown.summary = { ...this.shown.summary, quiet: true };
    this.shown.announcement = problemsLeft(left.length);
  }

  private readonly handleRemove = async (item: BasketItem): Promise<void> => {
    const store = this.port.booking().basket;
    const outcome = await store.remove(item.BasketItemId);
    if (!outcome.ok) return;
    this.shown.announcement = msg(str`${item.EventName} was removed from your basket.`);
    await this.port.emit('booking-basket-change', { action: 'remove', basketId: store.value.basketId, basket: store.value.content });
    // Focus went on to the next item, or to the status when none is left (focusTarget).
  };

  private readonly handleAskEmpty = async (): Promise<void> => {
    this.shown.confirmingEmpty = true;
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('[part~="cancel-empty-button"]')?.focus();
  };

  private readonly handleCancelEmpty = async (): Promise<void> => {
    this.shown.confirmingEmpty = false;
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('[part~="empty-button"]')?.focus();
  };

  private readonly handleConfirmEmpty = async (): Promise<void> => {
    const store = this.port.booking().basket;
    const basketId = store.value.basketId;
    const outcome = await store.clear();
    this.shown.confirmingEmpty = false;
    if (!outcome.ok) return;
    this.shown.announcement = msg('Your basket is now empty.');
    await this.port.emit('booking-basket-change', { action: 'clear', basketId, basket: null });
    this.focusKeeper.focusSoon(() => this.host.renderRoot.querySelector<HTMLElement>('#basket-status'));
  };

  private readonly handleSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const s = this.shown;
    // One order per visit to the form: a second click, Enter or submit while one is in flight does nothing.
    if (s.phase !== 'form') return;
    const booking = this.port.booking();
    const { basketId, content } = booking.basket.value;
    const checkout = this.checkoutTask.value;
    const lists = this.systemTask.value;
    if (!basketId || !content || !checkout || !lists) return;
    if (paymentBegunElsewhere(booking.basket, basketId)) return; // another tab sent it: continue that payment instead
    const problems = collectProblems(this.controls());
    if (problems.length) {
      s.announcement = '';
      await this.showProblems(problems);
      return;
    }
    s.phase = 'submitting';
    s.problems = [];
    s.fieldErrors = {};
    s.formMessage = null;
    s.announcement = msg('Sending your order…');
    const config = booking.config;
    const total = this.total(content, checkout, lists);
    const entries = { values: { ...s.values }, deliveryTypeId: s.deliveryTypeId, requireTicketPlan: s.requireTicketPlan, sendConfirmationEmail: s.sendConfirmationEmail, confirmed: [...s.confirmed] };
    // The order goes through the state (src/state/order.ts): sent, sent again while its answer is lost, and the unfinished payment kept.
    const outcome = await orderStore(booking.basket).submit({ config, fields: orderFields(basketId, lists, this.formState), content, total, entries });
    switch (outcome.kind) {
      case 'booked':
        await this.bookedOnAccount(basketId, outcome.reference, total);
        return;
      case 'not-accepted':
        this.fail(msg('The box office did not accept the order. Please try again.'), null);
        return;
      case 'failed':
        await this.handleSubmitError(outcome.error);
        return;
      case 'awaiting':
        // Taken, its payment page lost: the unfinished payment says so (and announces it) in the basket's place (checkout-pending.ts).
        s.phase = 'form';
        return;
    }
    const paymentUrl = outcome.url;
    if (outcome.refusedOnAccount) s.formMessage = { kind: 'info', text: msg('Booking on account is not available here, so you will pay by card.') };
    s.redirectUrl = paymentUrl;
    s.phase = 'redirecting';
    s.announcement = msg('Taking you to the secure payment page…');
    await this.port.emit('booking-checkout-submitted', { basketId, paymentRedirectUrl: paymentUrl, total, currency: config.currency });
    this.host.navigate(paymentUrl);
  };

  private async bookedOnAccount(basketId: string, reference: string, total: number): Promise<void> {
    const booking = this.port.booking();
    this.shown.bookingReference = reference;
    this.shown.phase = 'booked-on-account';
    this.shown.announcement = msg(str`Booked. Your booking reference is ${reference}.`);
    await this.port.emit('booking-checkout-submitted', { basketId, paymentRedirectUrl: null, total, currency: booking.config.currency });
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('#on-account-heading')?.focus();
  }

  private fail(text: string, status: number | null): void {
    this.shown.phase = 'form';
    this.shown.formMessage = { kind: 'error', text };
    this.shown.announcement = '';
    void this.port.emit('booking-error', { source: 'checkout-form', message: text, status });
  }

  private async handleSubmitError(error: unknown): Promise<void> {
    if (error instanceof ApiError && error.status === 400) {
      const field = fieldOfServiceError(error);
      const control = field ? this.controls().find((c) => c.name === field) : undefined;
      if (field && control) {
        const text = fieldRefusal(field);
        control.setCustomValidity(text);
        this.shown.phase = 'form';
        this.shown.announcement = '';
        void this.port.emit('booking-error', { source: 'checkout-form', message: text, status: 400 });
        await this.showProblems([{ id: control.id || field, name: field, label: labelOf(field), message: text }]);
        return;
      }
    }
    const failure = sendFailure(error);
    this.fail(failure.text, failure.status);
    if (failure.refresh) void this.port.booking().basket.refresh();
  }
}
