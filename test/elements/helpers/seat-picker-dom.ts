/** Test helpers: the parts of a <seat-picker>'s shadow DOM a visitor meets (its seats by their names). */
import type { SeatPicker } from '../../../src/elements/seat-picker/seat-picker.component.ts';

export const root = (el: SeatPicker) => el.shadowRoot as ShadowRoot;
/** The seat buttons in place (the overlay over the painted map). */
export const seatButtons = (el: SeatPicker) => [...root(el).querySelectorAll<HTMLButtonElement>('.sizer button')];
/** The seat button whose accessible name starts with `name` ("Stalls, row A, seat 1,"). */
export const seat = (el: SeatPicker, name: string) => {
  const b = seatButtons(el).find((x) => x.getAttribute('aria-label')?.startsWith(name));
  if (!b) throw new Error(`no seat named ${name}`);
  return b;
};
