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
import { ensureContextRoot } from './context-root.ts';
import { readPageConfig, resolveConfig } from '../state/config.ts';
import type { Selection } from '../state/selection.ts';

/**
 * `true` in the script-tag bundle (scripts/build.mjs), whose loader defines
 * <booking-provider> before any other of our tags; undefined everywhere else.
 */
declare const __STAGEDOOR_SCRIPT_TAG__: true | undefined;

export type BookingHost = ReactiveControllerHost &
  HTMLElement & {
    endpoint?: string | null;
    /** Told when the booking moves to another api after the first (its data came from the old one). */
    bookingApiChanged?(): void;
  };

export class BookingController implements ReactiveController {
  private current: BookingContextValue | undefined;
  private fromContext = false;
  private unsubscribe: (() => void)[] = [];
  private attachedEndpoint: string | null | undefined;
  private readonly consumer: ContextConsumer<typeof bookingContext, BookingHost>;

  constructor(private readonly host: BookingHost) {
    // Before the consumer's first request, so a provider upgraded later still answers it. Not
    // in the script-tag bundle, where the provider is always defined first (a few hundred bytes
    // fewer in every page's first download).
    if (typeof __STAGEDOOR_SCRIPT_TAG__ === 'undefined') ensureContextRoot();
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
    const previous = this.current;
    this.current = booking;
    const update = () => this.host.requestUpdate();
    // Shown here: a change from another tab may be told from this element (basket-sync.ts).
    this.unsubscribe = [booking.basket.subscribe(update), booking.selection.subscribe(update), showsBasket(booking.basket, this.host)];
    if (previous && previous.api !== booking.api) this.host.bookingApiChanged?.();
    this.host.requestUpdate();
  }

  private detach(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
  }
}
