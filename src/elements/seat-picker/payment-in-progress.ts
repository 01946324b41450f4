/**
 * <seat-picker> while a payment this tab started is open (pending-payment.ts): the
 * customer came back from the payment page without paying. The service holds that
 * basket's seats and refuses to change it; a new basket started beside it would hide
 * it (the checkout shows the basket being built), and the customer could pay twice or
 * lose the seats they think they have. So "Add" (seats, best available, general
 * admission) waits: a note beside it says why and for how long, with the way back to
 * the same payment page. Once the payment is known booked or released, Add works again.
 *
 * In the later part (seat-picker.later.ts), like the Add buttons it stands beside; the note
 * itself (payment-note.ts) only once a payment is kept for the basket.
 */
import { msg, str } from '../../i18n/msg.ts';
import { nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { BasketStore } from '../../state/basket-store.ts';
import type { BookingConfig } from '../../state/config.ts';
import type { PaymentNote } from './payment-note.ts';

/** The id of the note, for the Add buttons' aria-describedby. */
export const PAYMENT_NOTE_ID = 'payment-note';

export interface PaymentInProgressOptions {
  basket: () => BasketStore;
  config: () => BookingConfig;
}

/** Why adding waits, with the time as `m:ss` (shown) or in words (said), or without it while it is not known. */
export function paymentSentence(time: string | null): string {
  return time === null
    ? msg('You have a payment in progress. Finish it or let it lapse before choosing more seats.')
    : msg(str`You have a payment in progress. Finish it or let it lapse (${time}) before choosing more seats.`);
}

/**
 * The payment's note and what it knows (payment-note.ts, with the payment in progress and the
 * countdown) are fetched only once the basket has a payment kept for it: from this tab's storage,
 * or heard from another tab. Until they are here, a payment kept and not come back counts as open
 * (Add waits, and says why), as it does while the service is being asked.
 */
export class PaymentInProgress implements ReactiveController {
  private note: PaymentNote | undefined;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: PaymentInProgressOptions,
  ) {
    host.addController(this);
    this.load();
  }

  /** Whether a payment is open (or may be): adding waits until it is booked or released. */
  get open(): boolean {
    return this.note ? this.note.open : this.options.basket().awaitingPayment !== null;
  }

  hostConnected(): void {
    this.load();
  }

  hostUpdate(): void {
    this.load();
  }

  /** A payment is kept for the basket: fetch the note (its two chunks at once, not one after the other). */
  private load(): void {
    if (this.note || this.loading || this.options.basket().pendingRecord === null) return;
    this.loading = Promise.all([import('./payment-note.ts'), import('../../state/pending-payment.ts')]).then(
      ([{ PaymentNote }]) => {
        this.note = new PaymentNote(this.host, this.options, { id: PAYMENT_NOTE_ID, sentence: paymentSentence });
        this.host.requestUpdate();
      },
      () => {
        this.loading = undefined; // asked again at the next update
      },
    );
  }

  /** What to say when Add is pressed while the payment is open (the time in words). */
  get announcement(): string {
    return this.note?.announcement ?? paymentSentence(null);
  }

  /** The note beside Add while the payment is open: why, for how long, and the way back to the payment page. */
  render(): TemplateResult | typeof nothing {
    return this.note?.render() ?? nothing;
  }
}
