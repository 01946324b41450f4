import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { Task, TaskStatus, initialState } from '@lit/task';
import { localized, msg, str } from '../../i18n/msg.ts';
import { isAbortError } from '../../api/client.ts';
import { toFailure, type Failure } from '../../state/failure.ts';
import { daysInMonth, parseServiceDateTime, serviceDate, serviceToday } from '../../api/time.ts';
import type { PerformanceInfo, PreliminaryPerformanceInfo } from '../../api/types.ts';
import { formatDateTime, formatList, formatMoney } from '../../format.ts';
import { intlLocale } from '../../i18n/locale.ts';
import { firstDayOfWeek } from '../../i18n/week.ts';
import { plural } from '../../i18n/plural.ts';
import { lookAhead } from '../../state/lookahead.ts';
import { monthPerformances, monthPrices, type Month } from '../../state/month-performances.ts';
import { BookingElement } from '../booking-element.ts';
import { renderFailure } from '../failure-view.ts';
import { performanceCalendarStyles } from './performance-calendar.styles.ts';

/**
 * @summary When it is on: a month of performances for one event, with prices, availability and offers.
 *
 * Shows the performances of the selected event (the shared selection, set by
 * `<event-list>`) or of `event-id`, a month at a time (Get Event Performances
 * from the month's first day to the next month's first, kept to the month, so
 * either reading of a date-only dateTo is right). A ticket-count control keeps only performances with
 * that many tickets left and shows each one's price range for that many
 * (PreliminaryBookingInfo). Times are the venue's wall clock. Performances
 * that are not directly bookable show as part of their bookable pair.
 *
 * The grid follows the ARIA date-grid pattern: one tab stop, arrows move by
 * day and week, Home/End to the week's start/end, PageUp/PageDown by month,
 * Enter or Space opens the day's performances. In a narrow container (below
 * about 34rem, a container query) it shows a list instead.
 *
 * @fires booking-selection - `{ kind: 'performance', eventId, performanceId }` when the visitor chooses a performance.
 * @fires booking-error - `{ source: 'performance-calendar', message, status }` when the performances could not be loaded.
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The element's outer box.
 * @csspart status - The visually hidden live region.
 * @csspart header - The month title and the month buttons.
 * @csspart month-heading - The month's name, the heading of the grid.
 * @csspart nav-button - A month button; `nav-button previous` and `nav-button next`.
 * @csspart count - The ticket-count control's wrapper.
 * @csspart count-select - The ticket-count select.
 * @csspart grid - The month grid (a table with role="grid").
 * @csspart weekday - A column header.
 * @csspart day-button - A day button, with tokens `today`, `has-performances`, `disabled`, `sold-out`, `few-left`, `selected`, `open`.
 * @csspart day-number - A day's number.
 * @csspart day-times - The times shown in a day.
 * @csspart day-panel - The open day's performances (grid view).
 * @csspart day-heading - A day's heading: the open day (grid view) and each day of the list view.
 * @csspart list - The list view (narrow containers).
 * @csspart list-day - One day in the list view.
 * @csspart performance-button - A performance button, with tokens `sold-out`, `few-left`, `selected`.
 * @csspart time - A performance's time, or the times of a pair.
 * @csspart availability - "Available", "Few left" or "Sold out".
 * @csspart price - The "from" price, or the price range for the chosen count.
 * @csspart badge - An offer badge: `badge discount` or `badge no-fee`.
 * @csspart empty - No event chosen, or no performances this month.
 * @csspart error - A failure (role="alert"): its sentence and, when trying again may help, the retry button.
 * @csspart error-message - The failure's sentence.
 * @csspart retry-button - Tries again: the step that failed, or a check still waiting for its answer.
 *
 * @cssprop --booking-day-size - Minimum height of a day cell.
 * @cssprop --booking-accent - Days with performances, the open day, buttons.
 * @cssprop --booking-success - Discount and no-fee badges.
 * @cssprop --booking-warning - "Few left".
 */
@localized()
export class PerformanceCalendar extends BookingElement {
  static override styles = [...BookingElement.styles, performanceCalendarStyles];

  /** Show this event's performances (default: the event in the shared selection). */
  @property({ type: Number, attribute: 'event-id' }) eventId: number | null = null;

  /** The month shown first, `yyyy-MM` (default: this month in the service's time zone). */
  @property() month: string | null = null;

  /**
   * Tickets asked for at first (default: the shared selection's count, else none: every
   * performance shows, sold-out ones included, with its "from" price).
   */
  @property({ type: Number, attribute: 'ticket-count' }) ticketCount: number | null = null;

  /** The largest ticket count offered. Default 10. */
  @property({ type: Number, attribute: 'max-tickets' }) maxTickets = 10;

  /** "Few left" when at most this share of the seats is available. Default 0.1 (10%). */
  @property({ type: Number, attribute: 'few-left-ratio' }) fewLeftRatio = 0.1;

  @state() private visible: Month | null = null;
  @state() private activeDay = 1;
  @state() private openDay: number | null = null;
  /** The count the visitor chose here: a number, 'any', or undefined (not touched yet). */
  @state() private count: number | 'any' | undefined = undefined;
  /** Whether the visitor has moved in the grid (then data arriving does not move the focus day). */
  private navigated = false;
  private focusAfterUpdate: 'grid' | 'panel' | null = null;

  private get booking() {
    return this.bookingController.booking;
  }

  /** The event shown. */
  get currentEventId(): number | null {
    return this.eventId ?? this.bookingController.selection.eventId;
  }

  /** The number of tickets asked for, or null for any number. */
  get tickets(): number | null {
    const wanted = this.count === undefined ? (this.bookingController.selection.ticketCount ?? this.ticketCount) : this.count;
    if (wanted === 'any' || wanted === null || !Number.isFinite(wanted)) return null;
    return Math.max(1, Math.min(this.maxCount, Math.floor(wanted) || 1));
  }

  private get maxCount(): number {
    return Math.max(1, Math.floor(this.maxTickets) || 10);
  }

  private get today(): CalendarDate {
    return serviceToday(this.booking.api.clock.now(), this.booking.config.timeZone);
  }

  // The month's performances and prices come from state (month-performances.ts): asked so that either
  // reading of a date-only dateTo covers the month, and filtered to the month (never the service's edge).
  private readonly performancesTask = new Task(this, {
    onError: (error) => {
      if (isAbortError(error)) return;
      const failure = this.failure(error);
      void this.emit('booking-error', { source: 'performance-calendar', message: failure.message, status: failure.status });
    },
    task: async ([eventId, year, month, count], { signal }) => {
      if (eventId === null || year === null || month === null) return initialState;
      const performances = await monthPerformances(this.booking.api, eventId, { year, month }, count, signal);
      return { key: `${eventId}|${year}|${month}|${count}`, performances };
    },
    args: () => [this.currentEventId, this.visible?.year ?? null, this.visible?.month ?? null, this.tickets] as const,
  });

  private readonly pricesTask = new Task(this, {
    task: async ([eventId, year, month, count], { signal }) => {
      if (eventId === null || year === null || month === null || count === null) return initialState;
      const prices = await monthPrices(this.booking.api, eventId, { year, month }, count, signal);
      return { key: `${eventId}|${year}|${month}|${count}`, prices };
    },
    args: () => [this.currentEventId, this.visible?.year ?? null, this.visible?.month ?? null, this.tickets] as const,
  });

  private shownEvent: number | null = null;

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (!this.visible || changed.has('month')) {
      const today = this.today;
      const fromAttribute = parseMonth(this.month);
      this.visible = fromAttribute ?? { year: today.year, month: today.month };
      this.activeDay = this.visible.year === today.year && this.visible.month === today.month ? today.day : 1;
      this.openDay = null;
      this.navigated = false;
    }
    const eventId = this.currentEventId;
    if (eventId !== this.shownEvent) {
      this.shownEvent = eventId;
      this.openDay = null;
      this.navigated = false;
    }
    // Before the visitor moves, the focus day follows the data: the first day with a performance.
    const days = this.choicesByDay();
    if (!this.navigated && days && days.size && !days.has(this.activeDay)) this.activeDay = Math.min(...days.keys());
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (this.focusAfterUpdate === 'grid') {
      this.focusAfterUpdate = null;
      this.renderRoot.querySelector<HTMLElement>(`[part~="day-button"][data-day="${this.activeDay}"]`)?.focus();
    } else if (this.focusAfterUpdate === 'panel') {
      this.focusAfterUpdate = null;
      this.renderRoot.querySelector<HTMLElement>('[part~="day-panel"] [part~="performance-button"]:not([disabled])')?.focus();
    }
  }

  /** The visible month's choices by day, when the data for the current arguments is in. */
  private choicesByDay(): Map<number, PerformanceChoice[]> | null {
    const month = this.visible;
    const eventId = this.currentEventId;
    const data = this.performancesTask.value;
    if (!month || eventId === null || !data) return null;
    const key = `${eventId}|${month.year}|${month.month}|${this.tickets}`;
    if (data.key !== key || this.performancesTask.status !== TaskStatus.COMPLETE) return null;
    const prices = this.tickets !== null && this.pricesTask.value?.key === key ? this.pricesTask.value.prices : [];
    const ratio = Number.isFinite(this.fewLeftRatio) && this.fewLeftRatio >= 0 ? this.fewLeftRatio : 0.1;
    const days = groupChoices(data.performances, month, { fewLeftRatio: ratio, prices });
    // Days already gone at the venue cannot be booked, whatever the answer holds.
    const today = this.today;
    if (today.year === month.year && today.month === month.month) {
      for (const day of days.keys()) if (day < today.day) days.delete(day);
    }
    return days;
  }

  protected override render(): TemplateResult {
    const eventId = this.currentEventId;
    const month = this.visible;
    if (eventId === null || !month) {
      return html`<div part="base"><p part="empty" class="empty">${msg('Choose a show to see its dates.')}</p></div>`;
    }
    const days = this.choicesByDay();
    const status = this.performancesTask.status;
    return html`<div part="base">
      <p part="status" class="visually-hidden" role="status">${this.statusText(days)}</p>
      <div class="toolbar">
        ${this.renderHeader(month)}
        ${this.renderCount()}
      </div>
      ${status === TaskStatus.ERROR
        ? renderFailure(this.failure(this.performancesTask.error).message, () => void this.performancesTask.run())
        : nothing}
      ${days && days.size === 0
        ? html`<p part="empty" class="empty">
            ${this.emptyText(month)}
          </p>`
        : nothing}
      <div class="grid-view">
        ${this.renderGrid(month, days)}
        ${this.renderDayPanel(month, days)}
      </div>
      <div class="list-view">${this.renderList(month, days)}</div>
    </div>`;
  }

  private emptyText(month: Month): string {
    const title = this.monthTitle(month);
    const tickets = this.tickets;
    if (tickets === null) return msg(str`No performances in ${title}.`);
    return plural(tickets, {
      one: () => msg(str`No performances in ${title} with ${tickets} ticket available.`),
      other: () => msg(str`No performances in ${title} with ${tickets} tickets available.`),
    });
  }

  /** What the visitor is told when the month's performances could not be read (state/failure.ts). */
  private failure(error: unknown): Failure {
    const notLoaded = () => msg('The performances could not be loaded.');
    return toFailure(error, { otherwise: notLoaded, network: notLoaded });
  }

  private statusText(days: Map<number, PerformanceChoice[]> | null): string {
    const month = this.visible;
    if (!month) return '';
    if (this.performancesTask.status === TaskStatus.PENDING) return msg('Loading performances…');
    if (!days) return '';
    const count = [...days.values()].reduce((n, list) => n + list.length, 0);
    const title = this.monthTitle(month);
    return plural(count, {
      one: () => msg(str`${title}: ${count} performance`),
      other: () => msg(str`${title}: ${count} performances`),
    });
  }

  private monthTitle(month: Month): string {
    return formatDateTime(`${serviceDate(month.year, month.month, 1)}T12:00:00`, this.booking.config, { month: 'long', year: 'numeric' });
  }

  private dayLabel(date: CalendarDate, options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' }): string {
    return formatDateTime(`${serviceDate(date.year, date.month, date.day)}T12:00:00`, this.booking.config, options);
  }

  private renderHeader(month: Month): TemplateResult {
    const today = this.today;
    const atFirst = compareMonths(month, today) <= 0;
    return html`
      <div part="header" class="header">
        <button part="nav-button previous" class="nav" data-variant="secondary" ?disabled=${atFirst}
          aria-label=${msg('Previous month')} @click=${() => this.showMonth(-1)}>‹</button>
        <h2 part="month-heading" id="month-title" class="month">${this.monthTitle(month)}</h2>
        <button part="nav-button next" class="nav" data-variant="secondary"
          aria-label=${msg('Next month')} @click=${() => this.showMonth(1)}>›</button>
      </div>
    `;
  }

  private renderCount(): TemplateResult {
    const options = Array.from({ length: this.maxCount }, (_, i) => i + 1);
    const tickets = this.tickets;
    return html`
      <div part="count" class="count">
        <label for="ticket-count">${msg('Tickets')}</label>
        <select id="ticket-count" part="count-select" @change=${this.handleCountChange}>
          <option value="" ?selected=${tickets === null}>${msg('Any number')}</option>
          ${options.map((n) => html`<option value=${String(n)} ?selected=${n === tickets}>${n}</option>`)}
        </select>
      </div>
    `;
  }

  /** The week starts where the visitor's locale starts it (Monday in Europe, Sunday in the US). */
  private firstWeekday(): number {
    return firstDayOfWeek(intlLocale(this.booking.config.locale));
  }

  private renderGrid(month: Month, days: Map<number, PerformanceChoice[]> | null): TemplateResult {
    const first = this.firstWeekday();
    const weeks = monthWeeks(month, first);
    const today = this.today;
    const isThisMonth = today.year === month.year && today.month === month.month;
    // Column headers from a week that starts on the right day (5–11 January 2026 is Monday to Sunday).
    const headers = Array.from({ length: 7 }, (_, i) => {
      const date: CalendarDate = { year: 2026, month: 1, day: 5 + ((first - 1 + i) % 7) };
      return { short: this.dayLabel(date, { weekday: 'short' }), long: this.dayLabel(date, { weekday: 'long' }) };
    });
    const selected = this.bookingController.selection.performanceId;
    return html`
      <table
        role="grid"
        part="grid"
        class="grid"
        aria-labelledby="month-title"
        aria-busy=${this.performancesTask.status === TaskStatus.PENDING ? 'true' : 'false'}
        @keydown=${this.handleGridKeydown}
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
                const open = this.openDay === day;
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
                    tabindex=${day === this.activeDay ? '0' : '-1'}
                    aria-disabled=${has ? 'false' : 'true'}
                    aria-current=${isThisMonth && day === today.day ? 'date' : nothing}
                    @click=${() => this.openDayPanel(day, false)}
                  >
                    <span class="visually-hidden">${this.dayAriaLabel({ ...month, day }, choices, soldOut, fewLeft)}</span>
                    <span part="day-number" class="day-number" aria-hidden="true">${day}</span>
                    ${has
                      ? html`<span part="day-times" class="day-times" aria-hidden="true">
                          ${choices.slice(0, 2).map((c) => html`<span>${this.time(c.performance)}</span>`)}
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

  private dayAriaLabel(date: CalendarDate, choices: PerformanceChoice[], soldOut: boolean, fewLeft: boolean): string {
    const label = this.dayLabel(date);
    if (!choices.length) return msg(str`${label}, no performances`);
    const times = formatList(choices.map((c) => this.time(c.performance)), this.booking.config, { style: 'short', type: 'unit' });
    if (soldOut) return msg(str`${label}, sold out (${times})`);
    if (fewLeft) return msg(str`${label}, few tickets left, ${times}`);
    const count = choices.length;
    return plural(count, {
      one: () => msg(str`${label}, ${count} performance, ${times}`),
      other: () => msg(str`${label}, ${count} performances, ${times}`),
    });
  }

  private time(p: PerformanceInfo): string {
    return formatDateTime(p.PerformanceDate, this.booking.config, { timeStyle: 'short' });
  }

  private renderDayPanel(month: Month, days: Map<number, PerformanceChoice[]> | null): TemplateResult | typeof nothing {
    const day = this.openDay;
    if (day === null || !days) return nothing;
    const choices = days.get(day) ?? [];
    return html`
      <section part="day-panel" class="day-panel" aria-labelledby="day-title" @keydown=${this.handlePanelKeydown}>
        <h3 part="day-heading" id="day-title">${this.dayLabel({ ...month, day }, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}</h3>
        ${choices.length
          ? html`<ul class="performances">${choices.map((c) => html`<li>${this.renderChoice(c)}</li>`)}</ul>`
          : html`<p>${msg('No performances on this day.')}</p>`}
      </section>
    `;
  }

  private renderList(month: Month, days: Map<number, PerformanceChoice[]> | null): TemplateResult | typeof nothing {
    if (!days || !days.size) return nothing;
    const sorted = [...days.entries()].sort(([a], [b]) => a - b);
    return html`
      <ol part="list" class="list" aria-label=${msg(str`Performances in ${this.monthTitle(month)}`)}>
        ${sorted.map(
          ([day, choices]) => html`<li part="list-day" class="list-day">
            <h3 part="day-heading">${this.dayLabel({ ...month, day })}</h3>
            <ul class="performances">${choices.map((c) => html`<li>${this.renderChoice(c)}</li>`)}</ul>
          </li>`,
        )}
      </ol>
    `;
  }

  private renderChoice(choice: PerformanceChoice): TemplateResult {
    const p = choice.performance;
    const selected = this.bookingController.selection.performanceId === p.PerformanceId;
    const tokens = ['performance-button', choice.soldOut ? 'sold-out' : '', choice.fewLeft ? 'few-left' : '', selected ? 'selected' : '']
      .filter(Boolean)
      .join(' ');
    const config = this.booking.config;
    const tickets = this.tickets;
    return html`<button
      part=${tokens}
      class="performance"
      data-performance-id=${String(p.PerformanceId)}
      aria-pressed=${selected ? 'true' : 'false'}
      ?disabled=${choice.soldOut}
      @click=${() => this.choose(choice)}
      @pointerenter=${() => this.lookAhead(choice)}
      @focus=${() => this.lookAhead(choice)}
    >
      <span part="time" class="time">${this.partsLabel(choice)}</span>
      <span part="availability" class="availability">
        ${choice.soldOut ? msg('Sold out') : choice.fewLeft ? msg('Few left') : msg('Available')}
      </span>
      ${choice.soldOut
        ? nothing
        : html`<span part="price" class="price">
            ${choice.range && tickets !== null
              ? this.rangeText(choice.range, tickets)
              : msg(str`From ${formatMoney(p.MinimumTicketPrice, config)}`)}
          </span>`}
      ${p.ContainsDiscountOfferTickets && !choice.soldOut ? html`<span part="badge discount" class="badge">${msg('Discount')}</span>` : nothing}
      ${p.ContainsNoFeeOfferTickets && !choice.soldOut ? html`<span part="badge no-fee" class="badge">${msg('No booking fee')}</span>` : nothing}
    </button>`;
  }

  /** "£40.00 each for 2 tickets", "£40.00–£65.00 each for 2 tickets". */
  private rangeText(range: { min: number; max: number }, tickets: number): string {
    const config = this.booking.config;
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
  private partsLabel(choice: PerformanceChoice): string {
    if (choice.parts.length === 1) {
      return choice.missingParts ? msg(str`${this.time(choice.performance)}, booked with its paired performance`) : this.time(choice.performance);
    }
    const day = choice.performance.PerformanceDate.slice(0, 10);
    return choice.parts
      .map((part, i) => {
        const sameDay = part.PerformanceDate.slice(0, 10) === day;
        const when = sameDay
          ? this.time(part)
          : formatDateTime(part.PerformanceDate, this.booking.config, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
        return msg(str`Part ${i + 1} ${when}`);
      })
      .join(' + ');
  }

  // ------------------------------------------------------------------ handlers

  private showMonth(delta: number, focusGrid = false): void {
    const month = this.visible;
    if (!month) return;
    this.moveTo(addMonths({ ...month, day: this.activeDay }, delta), focusGrid);
  }

  private moveTo(date: CalendarDate, focusGrid: boolean): void {
    const today = this.today;
    let target = date;
    if (compareMonths(target, today) < 0) {
      // Nothing before this month is on sale: stay on its first day.
      target = { year: today.year, month: today.month, day: 1 };
    }
    const month = this.visible;
    if (!month || target.year !== month.year || target.month !== month.month) {
      this.visible = { year: target.year, month: target.month };
      this.openDay = null;
    }
    this.activeDay = target.day;
    this.navigated = true;
    if (focusGrid) this.focusAfterUpdate = 'grid';
  }

  private handleGridKeydown(e: KeyboardEvent): void {
    const month = this.visible;
    if (!month || !(e.target instanceof HTMLElement) || !e.target.matches('[part~="day-button"]')) return;
    const current: CalendarDate = { ...month, day: this.activeDay };
    const weekday = (isoWeekday(current) - this.firstWeekday() + 7) % 7;
    let target: CalendarDate | null = null;
    switch (e.key) {
      case 'ArrowLeft':
        target = addDays(current, -1);
        break;
      case 'ArrowRight':
        target = addDays(current, 1);
        break;
      case 'ArrowUp':
        target = addDays(current, -7);
        break;
      case 'ArrowDown':
        target = addDays(current, 7);
        break;
      case 'Home':
        target = addDays(current, -weekday);
        break;
      case 'End':
        target = addDays(current, 6 - weekday);
        break;
      case 'PageUp':
        target = addMonths(current, e.shiftKey ? -12 : -1);
        break;
      case 'PageDown':
        target = addMonths(current, e.shiftKey ? 12 : 1);
        break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        this.openDayPanel(this.activeDay, true);
        return;
      default:
        return;
    }
    e.preventDefault();
    this.moveTo(target, true);
  }

  private handlePanelKeydown(e: KeyboardEvent): void {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    this.openDay = null;
    this.focusAfterUpdate = 'grid';
  }

  private openDayPanel(day: number, byKeyboard: boolean): void {
    this.activeDay = day;
    this.navigated = true;
    const has = (this.choicesByDay()?.get(day)?.length ?? 0) > 0;
    if (!has) return;
    this.openDay = day;
    if (byKeyboard) this.focusAfterUpdate = 'panel';
  }

  private handleCountChange(e: Event): void {
    const raw = (e.target as HTMLSelectElement).value;
    const value = Number(raw);
    this.count = raw !== '' && Number.isInteger(value) && value >= 1 ? value : 'any';
  }

  /** Pointed at (hover, focus; a touch is a pointer entering too): its seats are asked for now, for the picker to take on the click (state/lookahead.ts). */
  private lookAhead(choice: PerformanceChoice): void {
    if (choice.soldOut) return;
    lookAhead(this.booking.api, choice.performance.PerformanceId, this.currentEventId ?? choice.performance.EventId);
  }

  private choose(choice: PerformanceChoice): void {
    if (choice.soldOut) return;
    const performanceId = choice.performance.PerformanceId;
    const eventId = this.currentEventId ?? choice.performance.EventId;
    const selection = this.booking.selection;
    selection.selectPerformance(performanceId, eventId);
    selection.setTicketCount(this.tickets);
    void this.emit('booking-selection', { kind: 'performance', eventId, performanceId });
  }
}

// ---------------------------------------------------------------- the calendar's model
// Calendar arithmetic and the grouping of performances into choices, apart from rendering.
// Calendar dates are plain {year, month, day}; performance dates are read with time.ts
// (venue wall clock), never `new Date(string)`.

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export type { Month };

/** Day of week, 1 = Monday … 7 = Sunday (ISO). */
export function isoWeekday(date: CalendarDate): number {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return d === 0 ? 7 : d;
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The same day `months` later, clamped to the month's length (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

export function compareMonths(a: Month, b: Month): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/** Parse a `yyyy-MM` month attribute. */
export function parseMonth(value: string | null | undefined): Month | null {
  const m = /^(\d{4})-(\d{2})$/.exec(value?.trim() ?? '');
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? { year: Number(m[1]), month } : null;
}

/**
 * The weeks of a month as rows of 7 cells (day numbers, null outside the
 * month), starting on `firstDay` (1 = Monday … 7 = Sunday).
 */
export function monthWeeks(month: Month, firstDay: number): (number | null)[][] {
  const lead = (isoWeekday({ ...month, day: 1 }) - firstDay + 7) % 7;
  const cells: (number | null)[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysInMonth(month.year, month.month); day++) cells.push(day);
  while (cells.length % 7) cells.push(null);
  const weeks: (number | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** A bookable performance with the performances booked together with it (its pair), in time order. */
export interface PerformanceChoice {
  performance: PerformanceInfo;
  /** Every part, the bookable one included, in time order; one element when it is not paired. */
  parts: PerformanceInfo[];
  /** Paired performances that were not in the answer (booked together, details unknown). */
  missingParts: number;
  day: number;
  soldOut: boolean;
  fewLeft: boolean;
  /** The price range for the chosen number of tickets, when PreliminaryBookingInfo gave one. */
  range: { min: number; max: number } | null;
}

function sortKey(p: PerformanceInfo): string {
  const f = parseServiceDateTime(p.PerformanceDate);
  return f ? `${f.year}`.padStart(4, '0') + [f.month, f.day, f.hour, f.minute, f.second].map((n) => String(n).padStart(2, '0')).join('') : '';
}

/**
 * Group a month's performances into the visitor's choices, by venue-local day.
 * Performances that are not directly bookable appear only as parts of their
 * bookable pair; ones whose date is not a service DateTime, or falls outside
 * the month, are left out.
 */
export function groupChoices(
  performances: readonly PerformanceInfo[],
  month: Month,
  options: { fewLeftRatio: number; prices?: readonly PreliminaryPerformanceInfo[] },
): Map<number, PerformanceChoice[]> {
  const byId = new Map(performances.map((p) => [p.PerformanceId, p] as const));
  const partners = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    if (a === b) return;
    if (!partners.has(a)) partners.set(a, new Set());
    partners.get(a)?.add(b);
  };
  for (const p of performances) {
    for (const other of p.PairedPerformances ?? []) {
      link(p.PerformanceId, other);
      link(other, p.PerformanceId);
    }
  }
  const prices = new Map((options.prices ?? []).map((p) => [p.PerformanceId, p] as const));
  const days = new Map<number, PerformanceChoice[]>();
  for (const performance of performances) {
    if (performance.DirectlyBookablePerformance === false) continue;
    const when = parseServiceDateTime(performance.PerformanceDate);
    if (!when || when.year !== month.year || when.month !== month.month) continue;
    const ids = [...(partners.get(performance.PerformanceId) ?? [])];
    const known = ids.map((id) => byId.get(id)).filter((p): p is PerformanceInfo => p !== undefined);
    const parts = [performance, ...known].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    const soldOut = parts.some((p) => p.TotalAvailableTickesCount <= 0);
    const fewLeft =
      !soldOut &&
      parts.some((p) => p.TotalSeatsCount > 0 && p.TotalAvailableTickesCount <= Math.max(1, Math.ceil(p.TotalSeatsCount * options.fewLeftRatio)));
    const price = prices.get(performance.PerformanceId);
    const choice: PerformanceChoice = {
      performance,
      parts,
      missingParts: ids.length - known.length,
      day: when.day,
      soldOut,
      fewLeft,
      range: price ? { min: price.MinimalTicketPrice, max: price.MaximalTicketPrice } : null,
    };
    const list = days.get(when.day) ?? [];
    list.push(choice);
    days.set(when.day, list);
  }
  for (const list of days.values()) list.sort((a, b) => sortKey(a.performance).localeCompare(sortKey(b.performance)));
  return days;
}
