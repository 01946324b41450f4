/**
 * Connects an element to its booking: the context from a <booking-provider>
 * ancestor when there is one, else the page's shared booking for the element's
 * endpoint. Re-renders the host when the basket or the selection changes.
 */
import { ContextConsumer } from '@lit/context';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BasketState } from '../state/basket-store.ts';
import { showsBasket } from '../state/basket-sync.ts';
import { bookingContext, sharedBooking, type BookingContextValue } from '../state/booking.ts';
import { readPageConfig, resolveConfig } from '../state/config.ts';
import type { Selection } from '../state/selection.ts';

export type BookingHost = ReactiveControllerHost & HTMLElement & { endpoint?: string | null };

export class BookingController implements ReactiveController {
  private current: BookingContextValue | undefined;
  private fromContext = false;
  private unsubscribe: (() => void)[] = [];
  private attachedEndpoint: string | null | undefined;
  private readonly consumer: ContextConsumer<typeof bookingContext, BookingHost>;

  constructor(private readonly host: BookingHost) {
    // The consumer is added first, so a provider's answer arrives before hostConnected below.
    this.consumer = new ContextConsumer(host, {
      context: bookingContext,
      subscribe: true,
      callback: (value) => {
        this.fromContext = Boolean(value);
        if (value) this.attach(value);
      },
    });
    host.addController(this);
  }

  /** The booking this element uses (always set once connected). */
  get booking(): BookingContextValue {
    if (!this.current) this.attach(this.fallback());
    return this.current as BookingContextValue;
  }

  get basket(): BasketState {
    return this.booking.basket.value;
  }

  get selection(): Selection {
    return this.booking.selection.value;
  }

  hostConnected(): void {
    if (this.consumer.value) this.attach(this.consumer.value);
    else if (!this.current || !this.fromContext) this.attach(this.fallback());
  }

  hostUpdate(): void {
    // An element's own endpoint attribute changed: move to that endpoint's booking.
    if (!this.fromContext && this.attachedEndpoint !== (this.host.endpoint ?? null)) this.attach(this.fallback());
  }

  hostDisconnected(): void {
    // Keep `current`: a Task finishing after disconnect re-renders the host, and reading
    // `booking` then must not fall back to the page's default endpoint and fetch from it.
    // hostConnected attaches again (to a new provider's booking, if the element moved).
    this.detach();
  }

  private fallback(): BookingContextValue {
    const own = this.host.endpoint ? { endpoint: this.host.endpoint } : {};
    this.attachedEndpoint = this.host.endpoint ?? null;
    return sharedBooking(resolveConfig(readPageConfig(), own));
  }

  private attach(booking: BookingContextValue): void {
    if (booking === this.current && this.unsubscribe.length) return;
    this.detach();
    this.current = booking;
    const update = () => this.host.requestUpdate();
    // Shown here: a change from another tab may be told from this element (basket-sync.ts).
    this.unsubscribe = [booking.basket.subscribe(update), booking.selection.subscribe(update), showsBasket(booking.basket, this.host)];
    this.host.requestUpdate();
  }

  private detach(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
  }
}
