/**
 * The base of every Stagedoor element: an `endpoint` attribute (for a page
 * with no <booking-provider>), the booking controller, the shared styles and a
 * typed way to fire public events.
 */
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { BookingController } from '../controllers/booking-controller.ts';
import { bookingEvent, type BookingEventDetails, type BookingEventName } from '../events.ts';
import { sharedStyles } from './shared.styles.ts';

export class BookingElement extends LitElement {
  static override styles = [sharedStyles];

  /**
   * The proxy endpoint, when no <booking-provider> ancestor gives one
   * (default: the page configuration, else `/api`).
   */
  @property({ reflect: true }) endpoint: string | null = null;

  protected readonly bookingController = new BookingController(this);

  /** Fire a public event (bubbling, composed) after the current render. */
  protected async emit<K extends BookingEventName>(type: K, detail: BookingEventDetails[K]): Promise<void> {
    await this.updateComplete;
    this.dispatchEvent(bookingEvent(type, detail));
  }
}
