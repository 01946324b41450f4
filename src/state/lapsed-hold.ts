/**
 * Expired seats, one click away. When a hold lapses, what was held is kept
 * (the performance, the very seats, whether chosen on the map or as best
 * available, and how many), and "Hold these seats again" adds the same seats
 * to a new hold:
 *
 * - all still free: they are held again (one add per item, as first added);
 * - some taken meanwhile: nothing is held, the visitor is told which seats
 *   are gone, and the shared selection moves to that performance, so the seat
 *   map shows it to choose again;
 * - any other failure: said as the basket store says it; what was held is kept
 *   for another try.
 *
 * One per basket store (every timer of the page shows the same). Each tab
 * keeps what its own basket released (basket-sync.ts makes every tab see the
 * release); a re-hold in one tab reaches the others as an add.
 *
 * No rendering.
 */
import type { ApiClient } from '../api/client.ts';
import type { BasketItem } from '../api/types.ts';
import type { BasketStore } from './basket-store.ts';
import type { SelectionStore } from './selection.ts';
import { Store } from './store.ts';

/** What one lapsed item held. */
export interface HeldItem {
  eventId: number;
  eventName: string;
  /** PerformanceDate, a service DateTime. */
  performanceDate: string;
  /** Seat names, in the order of `ticketIds`. */
  seats: readonly string[];
  ticketIds: readonly number[];
}

export type Rehold =
  /** Nothing asked yet (or the notice was dismissed). */
  | 'idle'
  /** Adding the seats again. */
  | 'holding'
  /** Held again. */
  | 'held'
  /** Some seats were taken meanwhile: `gone` names them, the map shows the performance. */
  | 'gone'
  /** The add failed for another reason: `message` says why; try again. */
  | 'failed';

export interface LapsedState {
  items: readonly HeldItem[];
  status: Rehold;
  /** The seats no longer free (status `gone`). */
  gone: readonly string[];
  /** The performance whose map now shows (status `gone`), when found. */
  performanceId: number | null;
  /** Why it failed (status `failed`). */
  message: string | null;
  /** Bumped on every outcome (never reset), so a view can tell a new one. */
  outcomes: number;
}

const EMPTY: LapsedState = Object.freeze({ items: Object.freeze([]), status: 'idle', gone: Object.freeze([]), performanceId: null, message: null, outcomes: 0 });

function heldItem(item: BasketItem): HeldItem {
  return Object.freeze({
    eventId: item.EventId,
    eventName: item.EventName,
    performanceDate: item.PerformanceDate,
    seats: Object.freeze([...item.Seats]),
    ticketIds: Object.freeze(item.Tickets.map((t) => t.TicketId)),
  });
}

export class LapsedHold extends Store<LapsedState> {
  private seenExpiry: number;

  constructor(
    private readonly basket: BasketStore,
    private readonly selection: SelectionStore,
  ) {
    super(EMPTY);
    this.seenExpiry = basket.value.expiryCount;
    if (basket.value.released.length) this.keep(basket.value.released);
    basket.subscribe((value) => {
      if (value.expiryCount !== this.seenExpiry) {
        this.seenExpiry = value.expiryCount;
        if (value.released.length) this.keep(value.released);
      } else if (!value.released.length && this.value.items.length && this.value.status !== 'holding' && this.value.status !== 'gone') {
        // The visitor started again (or another tab held them again): nothing to offer.
        this.set({ ...EMPTY, outcomes: this.value.outcomes });
      }
    });
  }

  private get api(): ApiClient {
    return this.basket.api;
  }

  /** Whether there is something to hold again. */
  get offered(): boolean {
    return this.value.items.some((i) => i.ticketIds.length > 0) && this.value.status !== 'held';
  }

  private keep(released: readonly BasketItem[]): void {
    this.set({ ...EMPTY, items: Object.freeze(released.map(heldItem)), outcomes: this.value.outcomes });
  }

  /** Forget what was held (the visitor started again). */
  dismiss(): void {
    if (this.value !== EMPTY) this.set({ ...EMPTY, outcomes: this.value.outcomes });
  }

  /** Add the same seats to a new hold (see the module comment). Once at a time. */
  async holdAgain(): Promise<Rehold> {
    const { items, status } = this.value;
    if (status === 'holding' || !items.length) return status;
    this.patch({ status: 'holding', gone: EMPTY.gone, message: null });
    for (const item of items) {
      if (!item.ticketIds.length) continue;
      const outcome = await this.basket.add({ Tickets: [...item.ticketIds] });
      if (outcome.ok) continue;
      const failure = outcome.error;
      if (failure.kind === 'unavailable' || failure.reason === 'TicketNotAvailable' || failure.reason === 'TicketLeavesSingleSeat') {
        this.basket.dismissError(); // said below, with the seats named
        await this.showMap(item);
        return this.value.status;
      }
      this.patch({ status: 'failed', message: failure.message, outcomes: this.value.outcomes + 1 });
      return 'failed';
    }
    this.basket.clearReleased();
    this.patch({ status: 'held', outcomes: this.value.outcomes + 1 });
    return 'held';
  }

  /** Some seats of `item` are gone: name them, and show that performance's map. */
  private async showMap(item: HeldItem): Promise<void> {
    let performanceId: number | null = null;
    let gone: readonly string[] = item.seats;
    try {
      const { Performances } = await this.api.getEventPerformances({ eventId: item.eventId });
      performanceId = Performances.find((p) => p.PerformanceDate === item.performanceDate)?.PerformanceId ?? null;
      if (performanceId !== null) {
        const { AvailableTickets } = await this.api.getFullAvailability({ performanceId }, { fresh: true });
        const free = new Set(AvailableTickets.map((t) => t.TicketId));
        gone = item.seats.filter((_, i) => !free.has(item.ticketIds[i] ?? -1));
      }
    } catch {
      /* the map of the chosen performance is still offered */
    }
    if (performanceId !== null) this.selection.selectPerformance(performanceId, item.eventId);
    this.patch({ status: 'gone', gone: Object.freeze([...gone]), performanceId, outcomes: this.value.outcomes + 1 });
  }
}

const stores = new WeakMap<BasketStore, LapsedHold>();

/** What the basket's lapsed hold held, and the way to hold it again (one per basket store). */
export function lapsedHold(booking: { basket: BasketStore; selection: SelectionStore }): LapsedHold {
  let store = stores.get(booking.basket);
  if (!store) {
    store = new LapsedHold(booking.basket, booking.selection);
    stores.set(booking.basket, store);
  }
  return store;
}
