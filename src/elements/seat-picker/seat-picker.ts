import { defineElement } from '../../define.ts';
import { formatMoney } from '../../format.ts';
import { SeatPicker } from './seat-picker.component.ts';

export { SeatPicker };
defineElement('seat-picker', SeatPicker);

// The page's first Intl.NumberFormat costs 15-25 ms (locale data): make it while the page is idle,
// not inside the picker's first render. (The page's own locale; any other is made on first use.)
if (typeof requestIdleCallback === 'function' && typeof document !== 'undefined') {
  requestIdleCallback(() => formatMoney(0, { locale: document.documentElement.lang || 'en-GB', currency: 'GBP' }));
}

declare global {
  interface HTMLElementTagNameMap {
    'seat-picker': SeatPicker;
  }
}
