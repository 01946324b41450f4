import { defineElement } from '../../define.ts';
import { BookingProvider } from './booking-provider.component.ts';

export { BookingProvider };
defineElement('booking-provider', BookingProvider);

declare global {
  interface HTMLElementTagNameMap {
    'booking-provider': BookingProvider;
  }
}
