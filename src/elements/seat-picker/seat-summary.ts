/**
 * What <seat-picker> shows below its seat map once the map has painted: the
 * seat under focus in words, the venue's seating plan, and the visitor's
 * choice (seats, total, the service's word on it, the paired-part note) with
 * its Add button. In the later part (seat-picker.later.ts): the map's first
 * paint neither waits for nor downloads it.
 */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, type TemplateResult } from 'lit';
import type { MapSeat } from '../../state/seat-map.ts';
import type { PerformanceFacts } from './availability.ts';
import { PAYMENT_NOTE_ID } from './payment-in-progress.ts';
import { addSeatsLabel, restriction, seatName, shortName, type MoneyText } from './seat-words.ts';
import type { ChoiceView } from './ticket-count.ts';

/**
 * What the service said of the current selection: nothing chosen; still being
 * checked; fine to add; or refused, with its message and the seat it named.
 */
export type SelectionCheck =
  | { state: 'none' | 'checking' | 'addable' }
  | { state: 'refused'; message: string; seat: number | null; disable: boolean };

/** Whether "Add" may add now: the service answered for this very selection (or could not, and the add will be judged). */
export function addable(check: SelectionCheck): boolean {
  return check.state === 'addable' || (check.state === 'refused' && !check.disable);
}

/** The line under the map: the seat under focus, or how to choose. */
export function renderSeatDetails(active: MapSeat | undefined, held: boolean, money: MoneyText): TemplateResult {
  return html`<p class="seat-details" part="seat-details" aria-hidden="true">
    ${active ? seatName(active, money, held) : msg('Tap or click a seat to choose it. Drag to move around the map.')}
  </p>`;
}

/** The venue's seating plan image (PlanLink), when there is one. */
export function renderPlan(plan: { planLink: string; venue: string } | null | undefined): TemplateResult | typeof nothing {
  if (!plan) return nothing;
  return html`<details class="plan" part="plan">
    <summary>${msg('Seating plan of the venue')}</summary>
    <img src=${plan.planLink} alt=${msg(str`Seating plan of ${plan.venue}`)} loading="lazy" />
  </details>`;
}

/** Before adding: the paired part (its dates) is booked too; or this part is not bookable on its own. */
export function renderPaired(facts: PerformanceFacts, date: (value: string) => string): TemplateResult {
  const dates = facts.paired.map((p) => (p.date ? date(p.date) : msg('its other date')));
  const when = dates.join('; ');
  return html`<p part="notice paired" id="paired-note" data-tone="warning">
    ${facts.performance.DirectlyBookablePerformance === false
      ? msg(str`This part cannot be booked on its own: it is booked together with its paired part (${when}). Please choose your seats for that performance.`)
      : msg(str`This is a two-part show: the same tickets for its paired part (${when}) are added to your basket too.`)}
  </p>`;
}

/** What the summary renders with, from the element. */
export interface SummaryView extends ChoiceView {
  seats: readonly MapSeat[];
  check: SelectionCheck;
  total: number;
  onAdd: () => void;
  onClear: () => void;
}

/**
 * The visitor's choice: seats, total, the service's word on it, and "Add". Called with the
 * view as `this` (`renderSummary.call(view)`): the messages' placeholders read as they always
 * have (`${this.maxSeats}`), which is what their translations are keyed to.
 */
export function renderSummary(this: SummaryView): TemplateResult {
  const { seats, check } = this;
  // "Add" is enabled only once the service has answered for this very selection. It stays
  // focusable (aria-disabled, not disabled) so a keyboard user's focus is never dropped.
  const inert = !addable(check) || this.adding || this.notBookable || this.paymentOpen;
  const describedBy = [
    this.paymentOpen ? PAYMENT_NOTE_ID : '',
    check.state === 'checking' ? 'checking-note' : '',
    this.pairedNoteId === nothing ? '' : 'paired-note',
  ].filter(Boolean).join(' ');
  return html`<div part="summary" aria-labelledby="summary-title">
    <h3 id="summary-title" part="heading">${msg('Your choice')}</h3>
    ${seats.length
      ? html`<ul class="chosen">
          ${seats.map((s) => html`<li>${shortName(s)} · ${this.money(s.price)}${s.restricted ? html` · ${restriction(s)}` : nothing}</li>`)}
        </ul>`
      : html`<p class="muted">${msg(str`No seats chosen yet. You can choose up to ${this.maxSeats}.`)}</p>`}
    <p class="total" part="total">${msg(str`Total: ${this.money(this.total)}`)}</p>
    ${check.state === 'refused' ? html`<p part="validation notice" data-tone="error" role="alert" tabindex="-1">${check.message}</p>` : nothing}
    ${this.paired} ${this.payment}
    <div class="row-of">
      <button type="button" part="add-button" aria-disabled=${inert ? 'true' : 'false'} aria-describedby=${describedBy || nothing} @click=${this.onAdd}>
        ${this.adding ? msg('Adding…') : seats.length === 0 ? msg('Add to basket') : addSeatsLabel(seats.length)}
      </button>
      <span id="checking-note" class="visually-hidden">${check.state === 'checking' ? msg('Checking that these seats can be booked together…') : ''}</span>
      ${seats.length ? html`<button type="button" part="clear-button" data-variant="secondary" @click=${this.onClear}>${msg('Clear choice')}</button>` : nothing}
    </div>
  </div>`;
}
