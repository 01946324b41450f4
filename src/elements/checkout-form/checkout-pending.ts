/**
 * <checkout-form> while a payment this tab started is unfinished (pending-payment.ts):
 * the customer came back from the payment page without paying or declining. It
 * says so, with the seats and the total, the time the payment stays open, and
 * a way back to the same payment page; or that the payment timed out and the
 * seats were released, with a way to start again. An order the box office took
 * whose payment page was lost with its answer (order.ts) shows the same, saying
 * plainly that it waits for payment, that the page cannot be opened from here,
 * and what happens to the seats.
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { CountdownController, durationInWords, formatCountdown, secondsLeft } from '../../controllers/countdown-controller.ts';
import { continueButtonStyles } from '../continue-button.styles.ts';
import { renderFailure } from '../failure-view.ts';
import { formatDateTime, formatList, formatMoney } from '../../format.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BookingConfig } from '../../state/config.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import type { BookingContextValue } from '../../state/booking.ts';
import { pendingPayment, type PendingPayment, type PendingState, type PendingStatus } from '../../state/pending-payment.ts';

/** The way back to the payment page (a link that looks like the primary button it is). */
export const pendingStyles = continueButtonStyles;

export interface PendingView {
  pending: PendingState;
  config: BookingConfig;
  /** The server's clock now. */
  now: number;
  /** The payment page, when it is a web address. */
  continueUrl: string | null;
  onContinue: (event: Event) => void;
  onStartAgain: () => void;
  onRetry: () => void;
}

/** The unfinished payment, or what became of it; nothing once it is none of this view's business. */
export function renderPending(view: PendingView): TemplateResult | typeof nothing {
  const { pending, config } = view;
  switch (pending.status) {
    case 'checking':
      return html`<p part="status" role="status">${msg('Checking your payment…')}</p>`;
    case 'unchecked':
      return renderFailure(msg('We could not check your payment just now. Your seats may still be held.'), view.onRetry);
    case 'released':
      return html`<section part="message warning pending" aria-labelledby="pending-heading">
        <h2 id="pending-heading" part="heading" tabindex="-1">${msg('Your payment was not finished')}</h2>
        <p>${msg('The time to pay ran out, so your seats were released.')}</p>
        <button part="start-again-button" @click=${view.onStartAgain}>${msg('Start again')}</button>
      </section>`;
    case 'awaiting':
      break;
    default:
      return nothing;
  }
  const record = pending.record;
  const left = pending.deadline === null ? null : pending.deadline - view.now;
  const seconds = left === null ? null : secondsLeft(left);
  const when = (date: string) => formatDateTime(date, config, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  const url = view.continueUrl;
  return html`<section part="message info pending" aria-labelledby="pending-heading">
    <h2 id="pending-heading" part="heading" tabindex="-1">${url ? msg("Your payment isn't finished") : msg('Your order is waiting for payment')}</h2>
    <p>
      ${url
        ? msg('Your seats are held while your payment is open.')
        : msg('The box office has your order, but the address of its payment page was lost on the way to us, so we cannot take you there.')}
    </p>
    ${record?.items?.length
      ? html`<ul part="items">
          ${record.items.map(
            (item) => html`<li part="item">
              <strong>${item.name}</strong>
              <span class="meta">${when(item.date)} · ${item.venue}</span>
              ${item.seats.length ? html`<span class="meta">${msg(str`Seats ${formatList(item.seats, config, { style: 'short', type: 'conjunction' })}`)}</span>` : nothing}
            </li>`,
          )}
        </ul>`
      : nothing}
    ${typeof record?.total === 'number' ? html`<p part="total">${msg(str`Total: ${formatMoney(record.total, config)}`)}</p>` : nothing}
    ${left !== null && seconds !== null
      ? html`<p part="time-left">
          ${left > 0 // its last second shows 0:00: the time to pay is up at the deadline, not a second before
            ? html`${msg('Your payment stays open for')}
                <strong role="timer"><span aria-hidden="true">${formatCountdown(seconds)}</span><span class="visually-hidden">${durationInWords(seconds, intlLocale(config.locale))}</span></strong>`
            : msg('The time to pay is up. Checking your payment…')}
        </p>`
      : nothing}
    ${url ? html`<p><a part="continue-button" href=${url} @click=${view.onContinue}>${msg('Continue to payment')}</a></p>` : nothing}
    <p class="hint">
      ${url
        ? msg('To change your seats, let this payment lapse or finish it.')
        : msg('Your seats stay held for this order until the time to pay runs out. Then they are released, and you can book them again here.')}
    </p>
  </section>`;
}

/** What the panel needs of the checkout. */
export interface PendingPort {
  booking(): BookingContextValue;
  /** The element's shadow root (the panel's heading is focused there). */
  root(): ParentNode & { activeElement?: Element | null };
  /** Say it in the element's live region. */
  announce(text: string): void;
  /** Go to the payment page. */
  navigate(url: string): void;
  /** The page was shown again from the back/forward cache (the checkout left for payment from it). */
  shownAgain(): void;
}

/**
 * The unfinished payment in <checkout-form>: follows the basket's payment in progress,
 * counts its time down by the server's clock, and puts the focus on its heading (saying
 * it in the live region) when it first shows each state.
 */
export class PendingPanel {
  private readonly countdown: CountdownController;
  private store: PendingPayment | undefined;
  private storeOf: BasketStore | undefined;
  private off: (() => void) | undefined;
  private shownStatus: PendingStatus = 'none';
  private seenVisit = 0;
  private focusNext = false;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly port: PendingPort,
  ) {
    this.countdown = new CountdownController(host, {
      now: () => port.booking().api.clock.latest(),
      clock: () => port.booking().api.clock,
      align: () => this.store?.value.deadline ?? null,
      onVisible: () => void this.store?.check(),
    });
  }

  /** What the basket's payment in progress is (none before the panel first updates). */
  get status(): PendingStatus {
    return this.store?.value.status ?? 'none';
  }

  /** Whether the payment is open, or may be (pending-payment.ts `open`). */
  get open(): boolean {
    return this.store?.open ?? false;
  }

  willUpdate(): void {
    const basket = this.port.booking().basket;
    if (this.storeOf !== basket) {
      this.off?.();
      this.storeOf = basket;
      this.store = pendingPayment(basket);
      this.off = this.store.subscribe(() => this.host.requestUpdate());
      this.seenVisit = this.store.value.visit;
    }
    const pending = this.store?.value;
    if (!pending) return;
    if (pending.visit !== this.seenVisit) {
      this.seenVisit = pending.visit;
      this.port.shownAgain();
    }
    this.countdown.running = pending.status === 'awaiting' && pending.deadline !== null;
    const status = pending.status;
    if (status !== this.shownStatus && (status === 'awaiting' || status === 'released')) {
      this.focusNext = !basket.value.content;
      const awaiting = this.store?.continueUrl ? msg("Your payment isn't finished. Your seats are still held.") : msg('Your order is waiting for payment. Your seats are still held.');
      this.port.announce(status === 'awaiting' ? awaiting : msg('The time to pay ran out, so your seats were released.'));
    }
    this.shownStatus = status;
  }

  updated(): void {
    if (!this.focusNext) return;
    this.focusNext = false;
    this.port.root().querySelector<HTMLElement>('#pending-heading')?.focus();
  }

  disconnected(): void {
    this.off?.();
    this.off = undefined;
    this.storeOf = undefined;
    this.store = undefined;
  }

  render(): TemplateResult | typeof nothing {
    const store = this.store;
    if (!store) return nothing;
    return renderPending({
      pending: store.value,
      config: this.port.booking().config,
      now: this.countdown.now,
      continueUrl: store.continueUrl,
      onContinue: (event) => {
        const url = store.continueUrl;
        if (!url) return;
        event.preventDefault();
        this.port.navigate(url);
      },
      onStartAgain: () => {
        store.dismiss();
        void this.host.updateComplete.then(() => this.port.root().querySelector<HTMLElement>('#basket-status, #basket-heading')?.focus());
      },
      onRetry: () => void store.check(),
    });
  }
}
