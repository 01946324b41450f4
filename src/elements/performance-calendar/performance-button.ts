/**
 * One performance (or pair) as <performance-calendar> offers it, in the open day and in the
 * list view: its time or parts, availability, price and offer badges.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { msg, str } from '../../i18n/msg.ts';
import { formatDateTime, formatMoney } from '../../format.ts';
import { plural } from '../../i18n/plural.ts';
import type { BookingConfig } from '../../state/config.ts';
import { time } from './calendar-words.ts';
import type { PerformanceChoice } from './performance-choices.ts';

/** What a performance button needs from the element. */
export interface ChoiceView {
  config: BookingConfig;
  /** The tickets asked for, or null for any number. */
  tickets: number | null;
  /** The performance in the shared selection. */
  selected: number | null;
  /** `byKeyboard`: pressed with Enter or Space (the seats then take the focus). */
  choose(choice: PerformanceChoice, byKeyboard: boolean): void;
  lookAhead(choice: PerformanceChoice): void;
}

export function renderChoice(choice: PerformanceChoice, view: ChoiceView): TemplateResult {
  const p = choice.performance;
  const selected = view.selected === p.PerformanceId;
  const tokens = ['performance-button', choice.soldOut ? 'sold-out' : '', choice.fewLeft ? 'few-left' : '', selected ? 'selected' : '']
    .filter(Boolean)
    .join(' ');
  const { config, tickets } = view;
  return html`<button
    part=${tokens}
    class="performance"
    data-performance-id=${String(p.PerformanceId)}
    aria-pressed=${selected ? 'true' : 'false'}
    ?disabled=${choice.soldOut}
    @click=${(e: MouseEvent) => view.choose(choice, e.detail === 0)}
    @pointerenter=${() => view.lookAhead(choice)}
    @focus=${() => view.lookAhead(choice)}
  >
    <span part="time" class="time">${partsLabel(choice, config)}</span>
    <span part="availability" class="availability">
      ${choice.soldOut ? msg('Sold out') : choice.fewLeft ? msg('Few left') : msg('Available')}
    </span>
    ${choice.soldOut
      ? nothing
      : html`<span part="price" class="price">
          ${choice.range && tickets !== null
            ? rangeText(choice.range, tickets, config)
            : msg(str`From ${formatMoney(p.MinimumTicketPrice, config)}`)}
        </span>`}
    ${p.ContainsDiscountOfferTickets && !choice.soldOut ? html`<span part="badge discount" class="badge">${msg('Discount')}</span>` : nothing}
    ${p.ContainsNoFeeOfferTickets && !choice.soldOut ? html`<span part="badge no-fee" class="badge">${msg('No booking fee')}</span>` : nothing}
  </button>`;
}

/** "£40.00 each for 2 tickets", "£40.00–£65.00 each for 2 tickets". */
function rangeText(range: { min: number; max: number }, tickets: number, config: BookingConfig): string {
  const min = formatMoney(range.min, config);
  if (range.min === range.max) {
    return plural(tickets, {
      one: () => msg(str`${min} for ${tickets} ticket`),
      other: () => msg(str`${min} each for ${tickets} tickets`),
    });
  }
  const max = formatMoney(range.max, config);
  return plural(tickets, {
    one: () => msg(str`${min}–${max} for ${tickets} ticket`),
    other: () => msg(str`${min}–${max} each for ${tickets} tickets`),
  });
}

/** "19:30", or for a pair "Part 1 14:30 + Part 2 19:30" (with the date when a part is on another day). */
function partsLabel(choice: PerformanceChoice, config: BookingConfig): string {
  if (choice.parts.length === 1) {
    return choice.missingParts ? msg(str`${time(choice.performance, config)}, booked with its paired performance`) : time(choice.performance, config);
  }
  const day = choice.performance.PerformanceDate.slice(0, 10);
  return choice.parts
    .map((part, i) => {
      const sameDay = part.PerformanceDate.slice(0, 10) === day;
      const when = sameDay
        ? time(part, config)
        : formatDateTime(part.PerformanceDate, config, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
      return msg(str`Part ${i + 1} ${when}`);
    })
    .join(' + ');
}
