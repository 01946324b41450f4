import { defineElement } from '../../define.ts';
import { BasketTimer } from './basket-timer.component.ts';

export { BasketTimer };
defineElement('basket-timer', BasketTimer);

declare global {
  interface HTMLElementTagNameMap {
    'basket-timer': BasketTimer;
  }
}
