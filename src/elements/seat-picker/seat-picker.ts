import { defineElement } from '../../define.ts';
import { SeatPicker } from './seat-picker.component.ts';

export { SeatPicker };
defineElement('seat-picker', SeatPicker);

declare global {
  interface HTMLElementTagNameMap {
    'seat-picker': SeatPicker;
  }
}
