import { ContextProvider } from '@lit/context';
import { LitElement, html, css, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { bookingContext, createBooking, sharedBooking, type BookingContextValue } from '../../state/booking.ts';
import { readPageConfig, resolveConfig, type BookingConfig } from '../../state/config.ts';

/**
 * @summary Gives the Stagedoor elements inside it one configuration and one basket.
 *
 * Optional: without it, elements use the page configuration
 * (`<script type="application/json" data-stagedoor-config>`) and share one
 * basket per endpoint. Elements inside a provider with the same endpoint as
 * loose elements elsewhere on the page share that basket too.
 *
 * @slot - The booking elements.
 */
export class BookingProvider extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
  `;

  /** The proxy endpoint. Default `/api`. */
  @property() endpoint: string | null = null;
  /** ISO 4217 currency code. Default `GBP`. */
  @property() currency: string | null = null;
  /** BCP 47 locale. Default: the page's `lang`, else `en-GB`. */
  @property() locale: string | null = null;
  /** IANA zone of the service's DateTimes. Default `Europe/London`. */
  @property({ attribute: 'time-zone' }) timeZone: string | null = null;
  /** Return URL after a successful payment. Default: this page with `?stagedoor=success`. */
  @property({ attribute: 'success-url' }) successUrl: string | null = null;
  /** Return URL after a failed payment. Default: this page with `?stagedoor=failure`. */
  @property({ attribute: 'failure-url' }) failureUrl: string | null = null;
  /** Offer booking on account (the proxy must allow it too). */
  @property({ type: Boolean, attribute: 'on-account' }) onAccount = false;
  /** An external reference attached to the order. */
  @property({ attribute: 'transaction-reference' }) transactionReference: string | null = null;
  /** `ga4`: GA4's e-commerce events to `dataLayer` and `booking-analytics`; `events`: only `booking-analytics`. Default off. */
  @property() analytics: string | null = null;
  /** `off`: the page's address and history are left alone (a host that routes itself). Default on: Back and Forward move through the flow. */
  @property() history: string | null = null;
  /** The query parameter naming the step in the page's address. Default `stagedoor-event`. */
  @property({ attribute: 'event-param' }) eventParam: string | null = null;

  /** The booking this provider gives its descendants. Set it to inject one (tests). */
  @property({ attribute: false }) booking: BookingContextValue | undefined;

  private readonly provider = new ContextProvider(this, { context: bookingContext });
  /** The booking this provider built from its attributes (as opposed to one injected). */
  private built: BookingContextValue | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.booking) this.booking = this.built = this.build();
    this.provider.setValue(this.booking);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const injected = this.booking !== undefined && this.booking !== this.built;
    const configChanged = [...changed.keys()].some((k) => k !== 'booking');
    if (configChanged && !injected && this.isConnected) this.booking = this.built = this.build();
    if (this.booking) this.provider.setValue(this.booking);
  }

  private build(): BookingContextValue {
    const own: Partial<BookingConfig> = {
      endpoint: this.endpoint ?? undefined,
      currency: this.currency ?? undefined,
      locale: this.locale ?? undefined,
      timeZone: this.timeZone ?? undefined,
      successUrl: this.successUrl,
      failureUrl: this.failureUrl,
      onAccount: this.onAccount,
      transactionReference: this.transactionReference,
      analytics: this.analytics ?? undefined,
      history: this.history ?? undefined,
      eventParam: this.eventParam ?? undefined,
    };
    const config = resolveConfig(readPageConfig(), own);
    const shared = sharedBooking(config);
    // Same endpoint, same basket; a provider's other settings (currency, locale...) are its own.
    if (JSON.stringify(shared.config) === JSON.stringify(config)) return shared;
    return { ...createBooking(config, { api: shared.api }), basket: shared.basket, selection: shared.selection };
  }

  protected override render() {
    return html`<slot></slot>`;
  }
}
