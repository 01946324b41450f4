/**
 * One add to the shared basket from <seat-picker> (seats, best available or
 * general admission), and what the visitor is told about its outcome.
 */
import { tryAgain } from '../failure-view.ts';
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import type { AddTicketsV2Body } from '../../api/types.ts';
import type { BookingEventDetails, BookingEventName } from '../../events.ts';
import { focusDropped, focusedIn } from '../../controllers/focus-recovery.ts';
import { plural } from '../../i18n/plural.ts';
import type { AddOutcome, BasketFailure, BasketStore } from '../../state/basket-store.ts';
import { focusBasketItem } from '../../state/focus-handoff.ts';

/** A message about the last add, or about seats lost while choosing. */
export interface Notice {
  tone: 'error' | 'warning' | 'success';
  message: string;
  /** Shown under the message (the seats that were lost). */
  detail?: string;
  /** A button beside the message: `retry-button` for the same add again, else `action-button`. */
  action?: { label: string; run: () => void; retry?: boolean };
}

/** What each way of choosing does next, by outcome. */
export interface AddSteps {
  /** The seats were taken (409 or TicketNotAvailable): refresh what is shown. */
  unavailable: (f: BasketFailure) => void;
  /** Fewer may be booked: the visitor chose to continue with `n`. */
  exceeded: (n: number) => void;
  /** A failure worth retrying: the visitor chose to try again. */
  retry: () => void;
  /** Added. */
  done: () => void;
}

/** What adding needs from the element. */
export interface AddHost {
  readonly basket: BasketStore;
  setAdding(adding: boolean): void;
  setNotice(notice: Notice | null): void;
  announce(text: string): void;
  emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): void;
  /** The element (the keyboard focus is followed from it). */
  readonly host: HTMLElement;
  /** Focus the notice about the add (after its next render). */
  focusNotice(): void;
  /** The proxy's waiting room refused the add (428: the pass ran out): back to the waiting view. */
  waitInRoom(): void;
}

/**
 * Focus after an add, when the keyboard focus is in the picker (or fell out of it): on
 * success to the added item in the basket (<checkout-form>, wherever it is on the page),
 * else to the notice that says it was added; on a refusal, to the notice that says why.
 */
async function focusAfter(host: AddHost, added: number | null): Promise<void> {
  if (!focusedIn(host.host.shadowRoot) && !focusDropped(host.host)) return;
  if (added !== null && (await focusBasketItem(host.basket, added))) return;
  host.focusNotice();
}

/** One add through the shared basket store, and what the visitor is told about its outcome. */
export async function addToBasket(host: AddHost, body: AddTicketsV2Body, count: number, then: AddSteps): Promise<void> {
  const basket = host.basket;
  host.setAdding(true);
  host.setNotice(null);
  const before = new Set((basket.value.content?.Items ?? []).map((i) => i.BasketItemId));
  let outcome: AddOutcome;
  try {
    outcome = await basket.add(body);
  } finally {
    host.setAdding(false);
  }
  if (outcome.ok) {
    then.done();
    const message = plural(count, {
      one: () => msg(str`${count} ticket added to your basket.`),
      other: () => msg(str`${count} tickets added to your basket.`),
    });
    host.setNotice({ tone: 'success', message });
    host.announce(message);
    host.emit('booking-basket-change', { action: 'add', basketId: basket.value.basketId, basket: outcome.content });
    void focusAfter(host, outcome.content.Items.find((i) => !before.has(i.BasketItemId))?.BasketItemId ?? null);
    return;
  }
  const failure = outcome.error;
  // Only the waiting room answers 428 (its pass ran out, or none): the picker shows the room again.
  if (failure.status === 428) return host.waitInRoom();
  const exceeded = failure.kind === 'bookable-exceeded' || failure.reason === 'BookableTicketsExceeded';
  const n = failure.bookableTicketsCount;
  if (exceeded && n !== null && n > 0 && n < count) {
    host.setNotice({
      tone: 'warning',
      message: failure.message,
      action: {
        label: plural(n, { one: () => msg(str`Continue with ${n} ticket`), other: () => msg(str`Continue with ${n} tickets`) }),
        run: () => then.exceeded(n),
      },
    });
  } else if (failure.kind === 'unavailable' || failure.reason === 'TicketNotAvailable') {
    host.setNotice({ tone: 'error', message: failure.message });
    then.unavailable(failure);
  } else if (failure.retryable) {
    host.setNotice({
      tone: 'error',
      message: failure.message,
      detail: msg('Your choice is kept.'),
      action: { label: tryAgain(), run: () => then.retry(), retry: true },
    });
  } else {
    host.setNotice({ tone: 'error', message: failure.message });
  }
  host.announce(failure.message);
  host.emit('booking-error', { source: 'seat-picker', message: failure.message, status: failure.status });
  void focusAfter(host, null);
}

/** The notice with its action and a dismiss button (a status when good news, else an alert). */
export function renderNotice(n: Notice | null, dismiss: () => void): TemplateResult | typeof nothing {
  if (!n) return nothing;
  return html`<div part="notice result" data-tone=${n.tone} role=${n.tone === 'success' ? 'status' : 'alert'} tabindex="-1">
    <p>${n.message}</p>
    ${n.detail ? html`<p>${n.detail}</p>` : nothing}
    <div class="row-of">
      ${n.action ? html`<button type="button" part=${n.action.retry ? 'retry-button' : 'action-button'} @click=${n.action.run}>${n.action.label}</button>` : nothing}
      <button type="button" part="dismiss-button" data-variant="secondary" @click=${dismiss}>${msg('Dismiss')}</button>
    </div>
  </div>`;
}
