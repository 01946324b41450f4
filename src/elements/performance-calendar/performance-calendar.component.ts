import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { TaskStatus } from '@lit/task';
import { localized, msg } from '../../i18n/msg.ts';
import { isAbortError } from '../../api/client.ts';
import { serviceToday } from '../../api/time.ts';
import { intlLocale } from '../../i18n/locale.ts';
import { firstDayOfWeek } from '../../i18n/week.ts';
import { lookAheadIfHere } from '../../state/lookahead-slot.ts';
import { give, take, type SelectionStep } from '../../state/step-handoff.ts';
import { keepFlowInHistory } from '../../state/flow-history-start.ts';
import { keepChosenShow } from '../../state/chosen-show.ts';
import { BookingElement } from '../booking-element.ts';
import { renderFailure } from '../failure-view.ts';
import { addMonths, compareMonths, parseMonth, type CalendarDate, type Month } from './calendar-dates.ts';
import { MonthData, loadFailure } from './calendar-data.ts';
import { renderDayPanel, renderGrid, type GridView } from './calendar-grid.ts';
import { keyTarget } from './calendar-keys.ts';
import { renderList } from './calendar-list.ts';
import { dayLabel, emptyText, monthCountText, monthTitle, movedOnText } from './calendar-words.ts';
import type { PerformanceChoice } from './performance-choices.ts';

/** How many months past the one it opened on, with nothing left to book, the calendar looks for the next performance. */
const NEXT_MONTHS = 3;

/** The month's first day with a performance that still has tickets, or 0. */
function firstBookableDay(days: Map<number, PerformanceChoice[]>): number {
  let first = 0;
  for (const [day, choices] of days) if ((!first || day < first) && choices.some((choice) => !choice.soldOut)) first = day;
  return first;
}
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
 * @fires booking-selection - `{ kind: 'performance', eventId, performanceId }` when the visitor chooses a performance;
 *   `{ kind: 'dates', eventId, performanceId: null }` when they open a day with performances.
 * @fires booking-navigate - Cancelable, before the page's address names the step just chosen: `{ step, eventId, performanceId, url }`;
 *   `preventDefault()` leaves the address and history to the host (unless the configuration's `history` is `off`).
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
 * @csspart next-performance - The calendar opened on a later month because nothing was left to book in this one: names the next performance's date.
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

  /**
   * The month shown first, `yyyy-MM` (default: this month in the service's time zone or, when
   * nothing is left to book in it, the month of the event's next performance, which is named).
   */
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
  /** The month opened on its own (no `month` attribute): until the visitor moves, it may step on past months with nothing left. */
  private autoMonth = false;
  /** The month that opened with nothing left to book, while the calendar shows a later one for it. */
  @state() private movedFrom: Month | null = null;
  /** Nothing to book in the months looked at: it stays on the one it opened on. */
  private gaveUp = false;
  private focusAfterUpdate: 'grid' | 'panel' | null = null;
  /** Handed the focus (a skip from the show to its dates): focus the day to open, once the month's data is in. */
  private focusDates = false;
  /** Registered (while connected) as the taker of the selection's dates, under this store. */
  private takerStore: object | null = null;
  private takerOff: (() => void) | undefined;
  private readonly takeDates = async (step: SelectionStep): Promise<boolean> => {
    if (step.step !== 'dates' || step.eventId !== this.currentEventId || !this.getClientRects().length) return false;
    this.focusDates = true;
    this.requestUpdate();
    return true;
  };

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

  // The month's performances and prices (calendar-data.ts, from state/month-performances.ts).
  private readonly data = new MonthData(
    this,
    () => this.booking.api,
    () => [this.currentEventId, this.visible?.year ?? null, this.visible?.month ?? null, this.tickets] as const,
    (error) => {
      if (isAbortError(error)) return;
      const failure = loadFailure(error);
      void this.emit('booking-error', { source: 'performance-calendar', message: failure.message, status: failure.status });
    },
  );

  private shownEvent: number | null = null;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.takerOff?.();
    this.takerStore = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (this.takerStore !== this.booking.selection) {
      this.takerOff?.();
      this.takerStore = this.booking.selection;
      this.takerOff = take(this.booking.selection, this.takeDates);
      keepFlowInHistory(this.booking);
      keepChosenShow(this.booking);
    }
    const eventId = this.currentEventId;
    const eventChanged = eventId !== this.shownEvent;
    // A show chosen anew opens where its dates begin, as the first one did.
    if (!this.visible || changed.has('month') || (eventChanged && this.autoMonth)) this.openFirstMonth();
    if (eventChanged) {
      this.shownEvent = eventId;
      this.openDay = null;
      this.navigated = false;
    }
    // Before the visitor moves, the focus day follows the data: the first day with tickets left, else with a performance.
    const days = this.choicesByDay();
    if (!this.navigated && days && days.size && !days.has(this.activeDay)) this.activeDay = firstBookableDay(days) || Math.min(...days.keys());
    if (this.autoMonth && !this.gaveUp && !this.navigated && this.count === undefined && days && !firstBookableDay(days)) this.stepPastEmptyMonth();
  }

  /** This month (or the `month` attribute's), focused on today, before the visitor moves. */
  private openFirstMonth(): void {
    const today = this.today;
    const fromAttribute = parseMonth(this.month);
    this.autoMonth = !fromAttribute;
    this.visible = fromAttribute ?? { year: today.year, month: today.month };
    this.activeDay = this.visible.year === today.year && this.visible.month === today.month ? today.day : 1;
    this.openDay = null;
    this.navigated = false;
    this.movedFrom = null;
    this.gaveUp = false;
  }

  /**
   * A month opened on its own with nothing left to book (no performance, or every one left sold
   * out) looks like a sold-out show: step on to the next month, up to `NEXT_MONTHS`, where the
   * first performance with tickets is named (the visible note and the live region). With none
   * there, back to the month it opened on, empty as it is.
   */
  private stepPastEmptyMonth(): void {
    const month = this.visible;
    if (!month) return;
    const from = this.movedFrom ?? month;
    if (compareMonths(month, from) < NEXT_MONTHS) {
      this.movedFrom = from;
      this.visible = addMonths({ ...month, day: 1 }, 1);
      this.activeDay = 1;
    } else {
      this.openFirstMonth();
      this.gaveUp = true;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (!this.navigated) this.lookAheadOffered();
    if (this.focusDates && this.choicesByDay()) {
      // The grid's focus day (the first with a performance), or in the list view its first performance.
      this.focusDates = false;
      const targets = this.renderRoot.querySelectorAll<HTMLElement>(`[part~="day-button"][data-day="${this.activeDay}"], .list-view [part~="performance-button"]:not([disabled])`);
      [...targets].find((el) => el.getClientRects().length)?.focus();
    }
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
    return this.data.choicesByDay(this.currentEventId, this.visible, this.tickets, this.fewLeftRatio, () => this.today);
  }

  protected override render(): TemplateResult {
    const eventId = this.currentEventId;
    const month = this.visible;
    if (eventId === null || !month) {
      return html`<div part="base"><p part="empty" class="empty">${msg('Choose a show to see its dates.')}</p></div>`;
    }
    const days = this.choicesByDay();
    const status = this.data.performances.status;
    const view = this.view();
    const moved = this.movedOnText(month, days);
    return html`<div part="base">
      <p part="status" class="visually-hidden" role="status">${this.statusText(days)}</p>
      <div class="toolbar">
        ${this.renderHeader(month)}
        ${this.renderCount()}
      </div>
      ${status === TaskStatus.ERROR
        ? renderFailure(loadFailure(this.data.performances.error).message, () => void this.data.performances.run())
        : nothing}
      ${moved ? html`<p class="next-performance" part="next-performance">${moved}</p>` : nothing}
      ${days && days.size === 0
        ? html`<p part="empty" class="empty">
            ${emptyText(monthTitle(month, this.booking.config), this.tickets)}
          </p>`
        : nothing}
      <div class="grid-view">
        ${renderGrid(month, days, view)}
        ${renderDayPanel(month, days, view)}
      </div>
      <div class="list-view">${renderList(month, days, view)}</div>
    </div>`;
  }

  /** What the grid, the open day and the list need of this element. */
  private view(): GridView {
    return {
      config: this.booking.config,
      tickets: this.tickets,
      selected: this.bookingController.selection.performanceId,
      today: this.today,
      firstWeekday: this.firstWeekday(),
      activeDay: this.activeDay,
      openDay: this.openDay,
      busy: this.data.performances.status === TaskStatus.PENDING,
      onKeydown: this.handleGridKeydown,
      onDay: (day) => this.openDayPanel(day, false),
      onPanelKeydown: this.handlePanelKeydown,
      choose: (choice, byKeyboard) => this.choose(choice, byKeyboard),
      lookAhead: (choice) => this.lookAhead(choice),
    };
  }

  private statusText(days: Map<number, PerformanceChoice[]> | null): string {
    const month = this.visible;
    if (!month) return '';
    if (this.data.performances.status === TaskStatus.PENDING) return msg('Loading performances…');
    if (!days) return '';
    const count = monthCountText(monthTitle(month, this.booking.config), days);
    const moved = this.movedOnText(month, days);
    return moved ? `${moved} ${count}` : count;
  }

  /** "Nothing left to book in November 2026: the next performance is on Friday, 4 December 2026.", on the month it moved to. */
  private movedOnText(month: Month, days: Map<number, PerformanceChoice[]> | null): string {
    const from = this.movedFrom;
    const day = days && firstBookableDay(days);
    if (!from || this.navigated || !day) return '';
    const config = this.booking.config;
    return movedOnText(monthTitle(from, config), dayLabel({ ...month, day }, config, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));
  }



  private renderHeader(month: Month): TemplateResult {
    const today = this.today;
    const atFirst = compareMonths(month, today) <= 0;
    return html`
      <div part="header" class="header">
        <button part="nav-button previous" class="nav" data-variant="secondary" ?disabled=${atFirst}
          aria-label=${msg('Previous month')} @click=${() => this.showMonth(-1)}>‹</button>
        <h2 part="month-heading" id="month-title" class="month">${monthTitle(month, this.booking.config)}</h2>
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
    const target = keyTarget(e, { ...month, day: this.activeDay }, this.firstWeekday());
    if (target === null) return;
    e.preventDefault();
    if (target === 'open') this.openDayPanel(this.activeDay, true);
    else this.moveTo(target, true);
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
    const choices = this.choicesByDay()?.get(day) ?? [];
    if (choices.length === 0) return;
    this.openDay = day;
    if (byKeyboard) this.focusAfterUpdate = 'panel';
    const eventId = this.currentEventId;
    if (eventId !== null) void this.emit('booking-selection', { kind: 'dates', eventId, performanceId: null });
    // A day with one performance to book: it is the only next step, so its seats are asked for now
    // (a visitor on a touch screen points at nothing before tapping it).
    const bookable = choices.filter((choice) => !choice.soldOut);
    if (bookable.length === 1 && bookable[0]) this.lookAhead(bookable[0]);
  }

  private handleCountChange(e: Event): void {
    const raw = (e.target as HTMLSelectElement).value;
    const value = Number(raw);
    this.count = raw !== '' && Number.isInteger(value) && value >= 1 ? value : 'any';
  }

  /** Pointed at (hover, focus; a touch is a pointer entering too), or the one bookable performance of the day just opened: its seats are asked for now, for the picker to take on the click (state/lookahead.ts, through state/lookahead-slot.ts: with no picker on the page, nothing). */
  private lookAhead(choice: PerformanceChoice, again?: () => void): boolean {
    if (choice.soldOut) return false;
    return lookAheadIfHere(this.booking.api, choice.performance.PerformanceId, this.currentEventId ?? choice.performance.EventId, again);
  }

  /** The offer tried again once a picker or the look-ahead arrives (lookahead-slot.ts). */
  private readonly offerAgain = (): void => this.requestUpdate();

  /** The event and performance last looked ahead as the one offered first (each once). */
  private offeredAhead = '';

  /**
   * Before the visitor moves, with no performance chosen yet: the day the calendar opens on (its
   * focus day: the first with tickets left, unless today has performances) holds one performance
   * to book. That is the likely next step, so its seats are asked for now, while the visitor reads
   * the dates: on a slow network they arrive with the choice, not a round trip after it. A day of
   * several performances predicts none. Asked once per event and performance; not marked asked
   * while nothing could ask (the seat picker's chunk not here yet): the calendar updates again
   * when it comes, and tries then.
   */
  private lookAheadOffered(): void {
    if (this.bookingController.selection.performanceId !== null) return;
    const bookable = this.choicesByDay()?.get(this.activeDay)?.filter((choice) => !choice.soldOut) ?? [];
    const offered = bookable.length === 1 ? bookable[0] : undefined;
    const key = offered ? `${this.currentEventId}|${offered.performance.PerformanceId}` : '';
    if (!offered || key === this.offeredAhead) return;
    if (this.lookAhead(offered, this.offerAgain)) this.offeredAhead = key;
  }

  private choose(choice: PerformanceChoice, byKeyboard = false): void {
    if (choice.soldOut) return;
    const performanceId = choice.performance.PerformanceId;
    const eventId = this.currentEventId ?? choice.performance.EventId;
    const selection = this.booking.selection;
    selection.selectPerformance(performanceId, eventId);
    selection.setTicketCount(this.tickets);
    void this.emit('booking-selection', { kind: 'performance', eventId, performanceId });
    // By keyboard, the next step is the seats: their picker takes the focus (the mouse goes there itself).
    if (byKeyboard) void give<SelectionStep>(selection, { step: 'seats', performanceId });
  }
}
