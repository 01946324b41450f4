/**
 * The add wiring of <seat-picker>: "Add" on the map's choice (after the service's seat check),
 * best available and general admission all go through one add to the shared basket store
 * (add-to-basket.ts, in the later part), refused while a payment from this tab is open, and
 * busy while one is on its way.
 */
import { msg } from '../../i18n/msg.ts';
import type { ReactiveControllerHost } from 'lit';
import type { AddTicketsV2Body, SeatsSelectionValidationResult } from '../../api/types.ts';
import type { BookingEventDetails, BookingEventName } from '../../events.ts';
import type { BasketFailure, BasketStore } from '../../state/basket-store.ts';
import { networkMessage } from '../../state/failure.ts';
import { notTogetherMessage } from '../../state/single-seat-words.ts';
import type { AddSteps, Notice } from './add-to-basket.ts';
import type { PaymentInProgress } from './payment-in-progress.ts';
import type { SelectionCheck } from './seat-summary.ts';

/** seat-picker.later.ts, with the payment in progress made for this element. */
export type LaterPart = typeof import('./seat-picker.later.ts') & { payment: PaymentInProgress };

/** What adding needs of the element. */
export interface AddingPort {
  readonly host: ReactiveControllerHost & HTMLElement;
  basket(): BasketStore;
  /** The later part, fetched when it is not here yet. */
  later(): LaterPart | undefined;
  /** The later part when it is here (reading it does not fetch it). */
  laterPart(): LaterPart | undefined;
  /** The chosen tickets, and a new choice. */
  selected(): readonly number[];
  select(ticketIds: readonly number[]): void;
  check(): SelectionCheck;
  /** The service's seat check of the current choice, once it has answered. */
  validation(): Promise<SeatsSelectionValidationResult | null>;
  /** This performance cannot be booked on its own (a paired part). */
  notBookable(): boolean;
  announce(text: string): void;
  setNotice(notice: Notice | null): void;
  emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): void;
  /** Some chosen seats were taken meanwhile (409): read the map again and say which. */
  seatsTaken(failure: BasketFailure): void;
  focusNotice(): void;
  /** The waiting room refused the add: ask for the seats again, which shows the room. */
  waitInRoom(): void;
}

export class SeatAdding {
  private busy = false;

  constructor(private readonly port: AddingPort) {}

  /** An add is on its way (or waits for the seat check, or for the later part). */
  get adding(): boolean {
    return this.busy;
  }

  private set adding(value: boolean) {
    if (value === this.busy) return;
    this.busy = value;
    this.port.host.requestUpdate();
  }

  /** "Add": only when the service has said the selection may be booked (the button is aria-disabled otherwise). */
  readonly handleAddClick = (): void => {
    const check = this.port.check();
    if (this.refusedForPayment()) return;
    if (!this.port.laterPart()?.addable(check) || this.adding || this.port.notBookable()) {
      if (check.state === 'checking') this.port.announce(msg('Checking that these seats can be booked together…'));
      else if (check.state === 'refused') this.port.announce(check.message);
      return;
    }
    void this.addSeats(this.port.selected());
  };

  /** Add the chosen seats, once the service's seat check has answered. */
  async addSeats(ticketIds: readonly number[]): Promise<void> {
    if (!ticketIds.length || this.adding) return;
    // Busy from the first click: a second click while the seat check is still pending adds nothing more.
    this.adding = true;
    let validation: SeatsSelectionValidationResult | null;
    try {
      validation = await this.port.validation().catch(() => null);
    } finally {
      this.adding = false;
    }
    if (validation && !validation.SelectionValid && validation.DisableBooking && this.port.selected() === ticketIds) {
      this.port.announce(validation.ErrorMessagePlan || notTogetherMessage());
      return;
    }
    await this.add({ Tickets: [...ticketIds] }, ticketIds.length, {
      unavailable: (failure) => this.port.seatsTaken(failure),
      exceeded: (n) => {
        this.port.select(this.port.selected().slice(0, n));
        void this.addSeats(this.port.selected());
      },
      retry: () => void this.addSeats(ticketIds),
      done: () => this.port.select([]),
    });
  }

  /**
   * A payment from this tab is open (payment-in-progress.ts): no add, and the visitor is told
   * why in the live region (the note beside Add says it too). Focus stays on the Add pressed.
   */
  refusedForPayment(): boolean {
    const payment = this.port.laterPart()?.payment;
    if (!payment?.open) return false;
    this.port.announce(payment.announcement);
    return true;
  }

  /** One add through the shared basket store (see add-to-basket.ts). */
  readonly add = async (body: AddTicketsV2Body, count: number, then: AddSteps): Promise<void> => {
    if (this.refusedForPayment()) return;
    const port = this.port;
    let later = port.later();
    if (!later) {
      // Still on its way (it is normally fetched while the page is idle after the map paints): busy until it is here.
      this.adding = true;
      try {
        await port.host.updateComplete;
      } finally {
        this.adding = false;
      }
      later = port.later();
      if (!later) {
        port.announce(networkMessage());
        return;
      }
    }
    return later.addToBasket(
      {
        basket: port.basket(),
        setAdding: (adding) => {
          this.adding = adding;
        },
        setNotice: (notice) => port.setNotice(notice),
        announce: (text) => port.announce(text),
        emit: (type, detail) => port.emit(type, detail),
        host: port.host,
        focusNotice: () => port.focusNotice(),
        waitInRoom: () => port.waitInRoom(),
      },
      body,
      count,
      then,
    );
  };
}
