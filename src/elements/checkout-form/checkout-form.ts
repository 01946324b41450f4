import { defineElement } from '../../define.ts';
// The form embeds <booking-confirmation> on a return page that has none of its own.
import '../booking-confirmation/booking-confirmation.ts';
import { CheckoutForm } from './checkout-form.component.ts';

export { CheckoutForm };
defineElement('checkout-form', CheckoutForm);

declare global {
  interface HTMLElementTagNameMap {
    'checkout-form': CheckoutForm;
  }
}
