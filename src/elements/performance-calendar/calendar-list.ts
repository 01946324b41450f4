/**
 * <performance-calendar>'s list view (narrow containers, below about 34rem): the month's days
 * with performances, each with its performances.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { msg, str } from '../../i18n/msg.ts';
import type { Month } from './calendar-dates.ts';
import { dayLabel, monthTitle } from './calendar-words.ts';
import { renderChoice, type ChoiceView } from './performance-button.ts';
import type { PerformanceChoice } from './performance-choices.ts';

export function renderList(month: Month, days: Map<number, PerformanceChoice[]> | null, view: ChoiceView): TemplateResult | typeof nothing {
  if (!days || !days.size) return nothing;
  const sorted = [...days.entries()].sort(([a], [b]) => a - b);
  return html`
    <ol part="list" class="list" aria-label=${msg(str`Performances in ${monthTitle(month, view.config)}`)}>
      ${sorted.map(
        ([day, choices]) => html`<li part="list-day" class="list-day">
          <h3 part="day-heading">${dayLabel({ ...month, day }, view.config)}</h3>
          <ul class="performances">${choices.map((c) => html`<li>${renderChoice(c, view)}</li>`)}</ul>
        </li>`,
      )}
    </ol>
  `;
}
