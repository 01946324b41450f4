/**
 * Which way <seat-picker> offers seats: decided from the data (a seat map, general admission,
 * sold out) unless `mode="best-available"` forces best available, and on a seated show the
 * visitor's own switch between picking seats on the map and best available.
 */
import { msg } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import type { Availability } from './availability.ts';

/** `auto`: decided from the data (seat map, or general admission). `best-available`: best available only. */
export type SeatPickerMode = 'auto' | 'best-available';

/** On a seated show: pick seats on the map, or best available. */
export type Chooser = 'map' | 'best';

/** Whether best available is what is shown (forced, or chosen on a seated show). */
export function showsBest(availability: Availability | null, chooser: Chooser): boolean {
  const kind = availability?.kind;
  return kind === 'best-only' || (kind === 'seated' && chooser === 'best');
}

/** Whether the part that offers best available or general admission (seat-picker.later.ts) is needed now. */
export function needsChoiceByCount(availability: Availability | null, chooser: Chooser): boolean {
  return availability?.kind === 'general' || showsBest(availability, chooser);
}

/** What each way renders (the element's). */
export interface ModeView {
  chooser: Chooser;
  choose(chooser: Chooser): void;
  /** The seat map, with the list path, zoom and summary. */
  seated(): TemplateResult;
  best(): TemplateResult;
  general(areas: Extract<Availability, { kind: 'general' }>['areas']): TemplateResult;
  notices(): TemplateResult | typeof nothing;
}

/** What the picker shows for `a`. */
export function renderByMode(a: Availability, view: ModeView): TemplateResult {
  switch (a.kind) {
    case 'sold-out':
      return html`<p part="empty">${msg('No seats are left for this performance.')}</p>`;
    case 'best-only':
      return html`${view.best()}${view.notices()}`;
    case 'general':
      return html`${view.general(a.areas)}${view.notices()}`;
    case 'seated':
      // The list path comes first in tab order (screen-reader and keyboard users), then the mode switch, then the map.
      if (view.chooser === 'best') {
        return html`${renderModeSwitch(view)} ${view.best()} ${view.notices()}`;
      }
      return html`${view.seated()} ${view.notices()}`;
  }
}

/** The switch between picking seats and best available (seated shows). */
export function renderModeSwitch(view: Pick<ModeView, 'chooser' | 'choose'>): TemplateResult {
  const set = (c: Chooser) => () => view.choose(c);
  return html`<fieldset part="mode-switch">
    <legend>${msg('How would you like to choose?')}</legend>
    <div class="mode-switch">
      <label class="radio"><input type="radio" name="chooser" .checked=${view.chooser === 'map'} @change=${set('map')} />${msg('Pick seats')}</label>
      <label class="radio"><input type="radio" name="chooser" .checked=${view.chooser === 'best'} @change=${set('best')} />${msg('Best available')}</label>
    </div>
  </fieldset>`;
}
