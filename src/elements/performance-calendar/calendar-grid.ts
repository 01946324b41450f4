/**
 * <performance-calendar>'s grid view: the month as a table with role="grid" (column headers in
 * the locale's week, one button per day with its times and state tokens, one tab stop) and the
 * open day's performances below it.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { msg } from '../../i18n/msg.ts';
import type { BookingConfig } from '../../state/config.ts';
import { monthWeeks, type CalendarDate, type Month } from './calendar-dates.ts';
import { dayAriaLabel, dayLabel, time } from './calendar-words.ts';
import { renderChoice, type ChoiceView } from './performance-button.ts';
import type { PerformanceChoice } from './performance-choices.ts';

/** What the grid needs from the element. */
export interface GridView extends ChoiceView {
  config: BookingConfig;
  today: CalendarDate;
  /** 1 = Monday … 7 = Sunday. */
  firstWeekday: number;
  /** The day with the tab stop. */
  activeDay: number;
  openDay: number | null;
  busy: boolean;
  onKeydown(e: KeyboardEvent): void;
  onDay(day: number): void;
  onPanelKeydown(e: KeyboardEvent): void;
}

export function renderGrid(month: Month, days: Map<number, PerformanceChoice[]> | null, view: GridView): TemplateResult {
  const { config, today, firstWeekday: first, selected } = view;
  const weeks = monthWeeks(month, first);
  const isThisMonth = today.year === month.year && today.month === month.month;
  // Column headers from a week that starts on the right day (5–11 January 2026 is Monday to Sunday).
  const headers = Array.from({ length: 7 }, (_, i) => {
    const date: CalendarDate = { year: 2026, month: 1, day: 5 + ((first - 1 + i) % 7) };
    return { short: dayLabel(date, config, { weekday: 'short' }), long: dayLabel(date, config, { weekday: 'long' }) };
  });
  return html`
    <table
      role="grid"
      part="grid"
      class="grid"
      aria-labelledby="month-title"
      aria-busy=${view.busy ? 'true' : 'false'}
      @keydown=${view.onKeydown}
    >
      <thead>
        <tr>
          ${headers.map((h) => html`<th part="weekday" scope="col" abbr=${h.long}><span aria-hidden="true">${h.short}</span><span class="visually-hidden">${h.long}</span></th>`)}
        </tr>
      </thead>
      <tbody>
        ${weeks.map(
          (week) => html`<tr>
            ${week.map((day) => {
              if (day === null) return html`<td class="outside"></td>`;
              const choices = days?.get(day) ?? [];
              const has = choices.length > 0;
              const soldOut = has && choices.every((c) => c.soldOut);
              const fewLeft = has && !soldOut && choices.some((c) => c.fewLeft && !c.soldOut);
              const isSelected = choices.some((c) => c.performance.PerformanceId === selected);
              const open = view.openDay === day;
              const tokens = [
                'day-button',
                isThisMonth && day === today.day ? 'today' : '',
                has ? 'has-performances' : 'disabled',
                soldOut ? 'sold-out' : '',
                fewLeft ? 'few-left' : '',
                isSelected ? 'selected' : '',
                open ? 'open' : '',
              ].filter(Boolean).join(' ');
              return html`<td aria-selected=${open ? 'true' : 'false'}>
                <button
                  part=${tokens}
                  class="day"
                  data-day=${String(day)}
                  tabindex=${day === view.activeDay ? '0' : '-1'}
                  aria-disabled=${has ? 'false' : 'true'}
                  aria-current=${isThisMonth && day === today.day ? 'date' : nothing}
                  @click=${() => view.onDay(day)}
                >
                  <span class="visually-hidden">${dayAriaLabel({ ...month, day }, choices, soldOut, fewLeft, config)}</span>
                  <span part="day-number" class="day-number" aria-hidden="true">${day}</span>
                  ${has
                    ? html`<span part="day-times" class="day-times" aria-hidden="true">
                        ${choices.slice(0, 2).map((c) => html`<span>${time(c.performance, config)}</span>`)}
                        ${choices.length > 2 ? html`<span>+${choices.length - 2}</span>` : nothing}
                      </span>`
                    : nothing}
                </button>
              </td>`;
            })}
          </tr>`,
        )}
      </tbody>
    </table>
  `;
}

/** The open day's performances (grid view); Escape closes it. */
export function renderDayPanel(month: Month, days: Map<number, PerformanceChoice[]> | null, view: GridView): TemplateResult | typeof nothing {
  const day = view.openDay;
  if (day === null || !days) return nothing;
  const choices = days.get(day) ?? [];
  return html`
    <section part="day-panel" class="day-panel" aria-labelledby="day-title" @keydown=${view.onPanelKeydown}>
      <h3 part="day-heading" id="day-title">${dayLabel({ ...month, day }, view.config, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}</h3>
      ${choices.length
        ? html`<ul class="performances">${choices.map((c) => html`<li>${renderChoice(c, view)}</li>`)}</ul>`
        : html`<p>${msg('No performances on this day.')}</p>`}
    </section>
  `;
}
