import { defineElement } from '../../define.ts';
import { BookingConfirmation } from './booking-confirmation.component.ts';

export { BookingConfirmation };
defineElement('booking-confirmation', BookingConfirmation);

declare global {
  interface HTMLElementTagNameMap {
    'booking-confirmation': BookingConfirmation;
  }
}
