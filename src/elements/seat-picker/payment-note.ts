/**
 * The note beside <seat-picker>'s Add while a payment this tab started is open
 * (pending-payment.ts): why Add waits, for how long (a countdown), and the way back
 * to the same payment page. Loaded by payment-in-progress.ts only when a payment was
 * kept for the basket, with the payment in progress and the countdown: a visit with no
 * payment open (every first visit) never downloads it.
 */
import { msg } from '../../i18n/msg.ts';
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { CountdownController, durationInWords, formatCountdown, secondsLeft } from '../../controllers/countdown-controller.ts';
import { intlLocale } from '../../i18n/locale.ts';
import type { BasketStore } from '../../state/basket-store.ts';
import { pendingPayment, type PendingPayment } from '../../state/pending-payment.ts';
import type { PaymentInProgressOptions } from './payment-in-progress.ts';

/** From payment-in-progress.ts, which stays the one place of both (given here: this module imports nothing from the later part). */
export interface NoteWords {
  /** The note's id, for the Add buttons' aria-describedby. */
  id: string;
  /** Why adding waits, with the time or without it. */
  sentence: (time: string | null) => string;
}

export class PaymentNote implements ReactiveController {
  private store: PendingPayment | undefined;
  private storeOf: BasketStore | undefined;
  private off: (() => void) | undefined;
  private readonly countdown: CountdownController;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: PaymentInProgressOptions,
    private readonly words: NoteWords,
  ) {
    this.countdown = new CountdownController(host, {
      now: () => options.basket().api.clock.latest(),
      align: () => this.store?.value.deadline ?? null,
      onVisible: () => void this.store?.check(),
    });
    host.addController(this);
    this.follow();
  }

  /** Whether a payment is open (or may be): adding waits until it is booked or released. */
  get open(): boolean {
    return this.store?.open ?? false;
  }

  hostConnected(): void {
    this.follow();
  }

  hostUpdate(): void {
    this.follow();
    const pending = this.store?.value;
    this.countdown.running = Boolean(this.store?.open && pending?.deadline !== null);
  }

  hostDisconnected(): void {
    this.off?.();
    this.off = undefined;
    this.storeOf = undefined;
    this.store = undefined;
  }

  /** Follow the payment in progress of the basket the element shows now. */
  private follow(): void {
    const basket = this.options.basket();
    if (this.storeOf === basket) return;
    this.off?.();
    this.storeOf = basket;
    this.store = pendingPayment(basket);
    this.off = this.store.subscribe(() => this.host.requestUpdate());
  }

  /** The seconds the payment stays open, shown (null: not known, or the time is up and the service not yet caught up). */
  private get seconds(): number | null {
    const deadline = this.store?.value.deadline ?? null;
    if (deadline === null) return null;
    const left = deadline - this.countdown.now;
    return left > 0 ? secondsLeft(left) : null;
  }

  /** What to say when Add is pressed while the payment is open (the time in words). */
  get announcement(): string {
    const seconds = this.seconds;
    return this.words.sentence(seconds === null ? null : durationInWords(seconds, intlLocale(this.options.config().locale)));
  }

  /** The note beside Add while the payment is open: why, for how long, and the way back to the payment page. */
  render(): TemplateResult | typeof nothing {
    const store = this.store;
    if (!store?.open) return nothing;
    const seconds = this.seconds;
    const url = store.continueUrl;
    return html`<div part="notice payment" id=${this.words.id} data-tone="warning">
      <p>${this.words.sentence(seconds === null ? null : formatCountdown(seconds))}</p>
      ${url ? html`<p><a part="continue-button" href=${url}>${msg('Continue to payment')}</a></p>` : nothing}
    </div>`;
  }
}
