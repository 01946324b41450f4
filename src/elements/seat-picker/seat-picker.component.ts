import { localized, msg, str } from '../../i18n/msg.ts';
import { Task } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ApiClient } from '../../api/client.ts';
import type { RoomRef } from '../../api/room.ts';
import { roomOf } from '../../api/room-refusal.ts';
import { endpointKey } from '../../api/endpoint.ts';
import { formatDateTime } from '../../format.ts';
import type { BasketFailure } from '../../state/basket-store.ts';
import { leavesSingleSeat, type MapSeat, type SeatMap } from '../../state/seat-map.ts';
import { SeatSelection, seatsOf, toggle, totalOf } from '../../state/seat-selection.ts';
import { take, type SelectionStep } from '../../state/step-handoff.ts';
import { keepChosenShow } from '../../state/chosen-show.ts';
import { pickerFollows } from '../../state/lookahead-slot.ts';
import { BookingElement } from '../booking-element.ts';
import { renderFailure } from '../failure-view.ts';
import type { Notice } from './add-to-basket.ts';
import { loadAvailability, loadPerformanceFacts, loadSeatingPlan, seatsFailure, type Availability } from './availability.ts';
import type { BestAvailable, BestAvailableOptions } from './best-available.ts';
import { nextFrame } from './frames.ts';
import type { GeneralAdmission } from './general-admission.ts';
import { SeatAdding, type LaterPart } from './seat-adding.ts';
import { SeatListPath } from './seat-list-path.ts';
import { SeatMapController } from './seat-map-controller.ts';
import { needsChoiceByCount, renderByMode, renderModeSwitch, showsBest, type Chooser, type SeatPickerMode } from './seat-picker-mode.ts';
import { seatPickerStyles } from './seat-picker.styles.ts';
import type { SelectionCheck } from './seat-summary.ts';
import { cachedMoney, lostSeatsNotice, mapLabel, seatName, toggleSentence } from './seat-words.ts';
import type { ChoiceView } from './ticket-count.ts';
import type { WaitingView } from './waiting-view.ts';

export type { SeatPickerMode } from './seat-picker-mode.ts';

/**
 * @summary Choose seats for one performance: on a seat map, as best available, or by area for general admission.
 *
 * Which mode applies is decided from the data: general admission (AreasPrices
 * only) when the event says it has no seating plan (SeatingPlanSupported false);
 * else a seat map when FullAvailability lists seats; general admission when
 * FullAvailability is refused (4xx) or empty and AreasPrices has seats; sold out
 * otherwise. `mode="best-available"` forces
 * best available. The performance comes from `performance-id`, else from the
 * shared selection (what <performance-calendar> chose).
 *
 * The map paints every seat on one canvas and keeps real, focusable buttons
 * only for the seats in view: one tab stop with roving focus (arrows, Home/End,
 * Ctrl+Home/End, PageDown/PageUp or Ctrl+arrows to the next or previous block of free seats side
 * by side, Enter/Space), each seat named "Dress Circle, row C, seat 14,
 * £62.50, restricted view (pillar)". A "choose from a list" path (area → row →
 * seat checkboxes) comes first in tab order. The map opens fitted to its box
 * (the whole venue in view, centred in it) and keeps that fit as the box is
 * resized until the visitor zooms; "Fit" fits it again. Drag or one finger pans;
 * two fingers pinch to zoom and pan together; Ctrl+wheel and the zoom buttons
 * zoom. On a touch screen, a tap on seats drawn smaller than 24 px zooms in
 * about the tap first; the next tap chooses. Until the visitor engages the map
 * (a tap on it, two fingers, the zoom buttons), a one-finger vertical pan over
 * it scrolls the page; engaged, it pans the map, until they touch elsewhere.
 * A performance chosen by keyboard in `<performance-calendar>` hands the focus
 * to the map's seat.
 *
 * While the proxy's waiting room holds the performance (docs/waiting-room.md), a waiting view
 * shows instead of the seats (a chunk fetched only then): a countdown to the on-sale, then the
 * visitor's place, the people ahead, the estimated wait and the progress; the page's title shows
 * the place. Once admitted, the seats show and say so.
 *
 * @fires booking-basket-change - After seats were added: `{ action: 'add', basketId, basket }`.
 * @fires booking-error - When adding failed and the visitor was told why: `{ source: 'seat-picker', message, status }`.
 * @fires booking-queue-change - Where the visitor stands in the proxy's waiting room changed (the waiting view shows): `{ room, status, position, ahead, waitSeconds }`; not on a poll that changed nothing.
 * @fires booking-queue-admitted - The visitor was admitted from the waiting room and the seats show: `{ room, expiresAt }` (the pass's expiry).
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The whole picker.
 * @csspart heading - The picker's heading, and the summary's ("Your choice").
 * @csspart list - The "choose from a list" disclosure.
 * @csspart mode-switch - Map / best available choice (seated shows).
 * @csspart legend - The legend: price bands (colour, pattern and letter), selected, in basket, restricted view.
 * @csspart zoom - The zoom buttons.
 * @csspart zoom-button - One zoom button: `zoom-button out`, `zoom-button in`, `zoom-button fit`.
 * @csspart map - The frame around the map.
 * @csspart map-viewport - The scrolling, pannable map area.
 * @csspart seat-button - Each focusable seat (state tokens: `selected`, `in-basket`, `restricted`, `invalid`: the seat the service named when it refused the selection); transparent, over the painted seat.
 * @csspart list-seat - A seat's checkbox and words in the list (state token `invalid`, with the service's message).
 * @csspart seat-details - The line describing the seat under focus.
 * @csspart plan - The venue's seating plan image (PlanLink).
 * @csspart summary - Selected seats, total, validation message and the add button.
 * @csspart total - The running total.
 * @csspart validation - The service's message about the selection (ErrorMessagePlan).
 * @csspart clear-button - Clears the choice of seats.
 * @csspart action-button - In a notice: what to do next (continue with fewer tickets).
 * @csspart dismiss-button - In a notice: closes it.
 * @csspart add-button - The "add to basket" buttons. The seat map's is enabled only once the service has checked the selection (SeatsSelectionValidation); until then, and when it refuses, it is `aria-disabled` (still focusable).
 * @csspart notice - Messages (tokens: `paired`, `result`, `payment`: beside Add while a payment from this tab is open, Add waits for it).
 * @csspart continue-button - In the `payment` notice: continues to the same payment page.
 * @csspart best - The best-available section.
 * @csspart general - The general-admission section.
 * @csspart option - One choice of area and price (best available, general admission).
 * @csspart loading - The loading message.
 * @csspart empty - Shown when no performance is chosen, or nothing is left.
 * @csspart queue - The waiting view (its `data-status`: `joining`, `before`, `waiting`, `paused`, `catching-up`, `offline`).
 * @csspart queue-heading - The waiting view's heading.
 * @csspart queue-message - What the waiting view says of the visitor's status.
 * @csspart queue-countdown - The time left until the on-sale.
 * @csspart queue-position - The visitor's place in the queue.
 * @csspart queue-ahead - How many people are ahead.
 * @csspart queue-wait - The estimated wait, a range in words.
 * @csspart queue-progress - The progress through the queue since the first place seen.
 * @csspart queue-note - The note that the view updates itself and that a reload keeps the place.
 * @csspart status - The polite live region that announces selection changes and totals (visually hidden).
 * @csspart error - A failure (role="alert"): its sentence and, when trying again may help, the retry button.
 * @csspart error-message - The failure's sentence.
 * @csspart retry-button - Tries again: the step that failed, or a check still waiting for its answer.
 *
 * @cssprop --booking-seat-band-1 - Colour of the cheapest price band (band A); bands also differ by mark and letter, never by colour alone.
 * @cssprop --booking-seat-band-2 - Band B.
 * @cssprop --booking-seat-band-3 - Band C.
 * @cssprop --booking-seat-band-4 - Band D.
 * @cssprop --booking-seat-band-5 - Band E.
 * @cssprop --booking-seat-band-6 - Band F (from the seventh band on, colours repeat and each seat shows its band's letter).
 * @cssprop --booking-seat-mark - Colour of the band marks drawn on seats.
 * @cssprop --booking-seat-selected - Fill of selected seats.
 * @cssprop --booking-seat-held - Fill of seats already in the basket.
 * @cssprop --booking-seat-restricted - The corner mark of restricted-view seats.
 * @cssprop --booking-seat-map-height - Height of the map viewport.
 */
@localized()
export class SeatPicker extends BookingElement {
  static override styles = [...BookingElement.styles, seatPickerStyles];

  /** The performance to show. When absent, the shared selection's performance is used. */
  @property({ attribute: 'performance-id', type: Number }) performanceId: number | null = null;

  /** `auto` (default): decided from the data. `best-available`: only "best available for N tickets". */
  @property({ reflect: true }) mode: SeatPickerMode = 'auto';

  /** The most seats one visitor may choose at once (default 10). */
  @property({ attribute: 'max-seats', type: Number }) maxSeats = 10;

  @state() private selected: readonly number[] = [];
  @state() private chooser: Chooser = 'map';
  @state() private notice: Notice | null = null;
  @state() private announcement = '';
  @state() private zoom = 1;
  @state() private activeSeat = -1;
  @state() private reloadCount = 0;
  /**
   * Until the map's first frame is painted, only the map itself is rendered (with the heading,
   * the live region and the seat that is the tab stop); the list path, mode switch, legend, zoom,
   * plan and summary are rendered in the frame after it (from its animation frame callback).
   * They cost a third of the first frame. The rows above the map are there, empty, from the
   * first frame (fixed heights in the styles), so the map does not move when they fill.
   */
  @state() private mapFirst = true;
  private rest: Promise<void> | null = null;

  /** The "choose from a list" path's disclosure (seat-list-path.ts). */
  private readonly list = new SeatListPath(this);
  /** The map and the choice's sets of seats, kept in step with the data and the basket (src/state/seat-selection.ts). */
  private readonly seats = new SeatSelection();
  private lastPerformance: number | null = null;
  /** Set when a 409 asked for a fresh map: the message to show once it arrives. */
  private pendingLoss: string | null = null;

  private readonly view = new SeatMapController(this, {
    toggle: (index) => this.toggleSeat(index),
    activate: (index) => {
      this.activeSeat = index;
    },
    announce: (text) => this.announce(text),
    label: (seat, held, invalid) => {
      const name = seatName(seat, this.money, held);
      const check = this.selectionCheck;
      return invalid && check.state === 'refused' ? `${name}. ${msg(str`Cannot be chosen: ${check.message}`)}` : name;
    },
    zoomed: (zoom) => {
      this.zoom = zoom;
      this.requestUpdate(); // the Fit button says whether the view is fitted
    },
    painted: () => {
      this.takeFocus();
      // For the host's real-user monitoring (and our benches): when the seat map first painted.
      if (this.mapFirst && typeof performance.mark === 'function') performance.mark('booking-seat-map-paint');
      // Called while the map's first frame is being produced: the rest (below the map, the later
      // part, asked for with the lookup) renders in the frame after it: never before the map.
      if (this.mapFirst && !this.rest) this.rest = new Promise((resolve) => nextFrame(() => {
        this.mapFirst = false;
        resolve();
      }));
    },
  });

  /** Handed the focus (a performance chosen by keyboard): the map's seat takes it once painted. */
  private focusSeats = false;
  /** Where the focus was when it was handed over: moved elsewhere before the map painted, it stays there. */
  private focusWas: Element | null = null;
  /** Registered (while connected) as the taker of the selection's seats, under this store. */
  private takerStore: object | null = null;
  private takerOff: (() => void) | undefined;
  private readonly takeSeats = async (step: SelectionStep): Promise<boolean> => {
    if (step.step !== 'seats' || step.performanceId !== this.currentPerformanceId || !this.getClientRects().length) return false;
    this.focusSeats = true;
    this.focusWas = focusedElement();
    this.requestUpdate();
    return true;
  };

  /** The focus handed over, to the map's seat once it is painted (a picker offering best available: its heading). */
  private takeFocus(): void {
    if (!this.focusSeats) return;
    // Meanwhile the visitor, or an element saying something more pressing (an unfinished payment
    // after a reload), put the focus somewhere: it is not taken from there.
    const now = focusedElement();
    if (now !== this.focusWas && now !== null && !this.contains(now) && !this.renderRoot.contains(now)) {
      this.focusSeats = false;
      return;
    }
    if (this.map && !this.showingBest) {
      if (this.view.focusActive()) this.focusSeats = false;
    } else if (this.availability) {
      this.focusSeats = false;
      this.renderRoot.querySelector<HTMLElement>('#title')?.focus();
    }
  }

  /** The notice about the last add (where focus goes after one: see add-to-basket.ts). */
  private async focusNotice(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="notice"][part~="result"]')?.focus();
  }

  private get api(): ApiClient {
    return this.bookingController.booking.api;
  }

  /** The performance shown: the attribute, else the shared selection. */
  get currentPerformanceId(): number | null {
    const own = this.performanceId;
    if (typeof own === 'number' && Number.isInteger(own) && own > 0) return own;
    return this.bookingController.selection.performanceId;
  }

  /** The event of the performance shown, when the shared selection already says it (else it is read from the performance). */
  private get knownEventId(): number | null {
    const selection = this.bookingController.selection;
    return selection.performanceId !== null && selection.performanceId === this.currentPerformanceId ? selection.eventId : null;
  }

  private readonly availabilityTask = new Task(this, {
    args: () => [this.currentPerformanceId, this.mode, this.reloadCount] as const,
    task: async ([id, mode], { signal }): Promise<Availability | null> => {
      if (id === null) return null;
      if (mode === 'best-available') {
        void this.laterModule().catch(() => undefined);
        return { kind: 'best-only', performanceId: id };
      }
      // What shows below the map (the choice and its "Add") is fetched beside a lookup that goes
      // over the network: its round trip then runs during the lookup's, not after the first paint.
      // An answer already at hand (looked ahead, cached) is not kept waiting behind that code's
      // arrival and compiling: the map paints first, and the part is asked for after that paint.
      const answer = loadAvailability(this.api, id, signal, this.knownEventId);
      let answered = false;
      const settle = () => (answered = true);
      answer.then(settle, settle);
      setTimeout(() => answered || void this.laterModule().catch(() => undefined), 0);
      return answer;
    },
  });

  private readonly performanceTask = new Task(this, {
    args: () => [this.currentPerformanceId] as const,
    task: async ([id], { signal }) => (id === null ? null : loadPerformanceFacts(this.api, id, signal)),
  });

  /** The venue's seating plan image: the event (read to decide the mode) → Venue PlanLink. Skipped quietly when any step fails. */
  private readonly planTask = new Task(this, {
    args: () => [this.availabilityTask.value?.kind === 'seated' ? (this.availabilityTask.value.event?.VenueId ?? null) : null] as const,
    task: async ([venueId], { signal }) => (typeof venueId !== 'number' ? null : loadSeatingPlan(this.api, venueId, signal)),
  });

  /** What is needed after the map's first paint, or only for some performances (seat-picker.later.ts). */
  private readonly later = this.lazy(() => this.laterModule().then((later) => this.withLaterPart(later)));
  /** seat-picker.later.ts fetched, once (again after a failed fetch); not yet put to use. */
  private laterFetch: Promise<typeof import('./seat-picker.later.ts')> | undefined;
  private laterModule(): Promise<typeof import('./seat-picker.later.ts')> {
    return (this.laterFetch ??= import('./seat-picker.later.ts').catch((error: unknown) => {
      this.laterFetch = undefined;
      throw error;
    }));
  }
  /** The later part once it is here (reading it does not fetch it). */
  private laterPart: LaterPart | undefined;

  /** The later part has arrived: make the payment in progress for this element. */
  private withLaterPart(later: typeof import('./seat-picker.later.ts')): LaterPart {
    this.addStyles(later.seatPickerLaterStyles);
    this.addStyles(later.continueButtonStyles);
    this.laterPart = {
      ...later,
      payment: new later.PaymentInProgress(this, { basket: () => this.bookingController.booking.basket, config: () => this.bookingController.booking.config }),
    };
    // Focus is never dropped: a render that removes the focused control (an offer list refreshed
    // after an add) puts focus on the notice that says what happened, or the heading.
    new later.FocusRecovery(this, () => this.renderRoot.querySelector<HTMLElement>('[part~="notice"][part~="result"]') ?? this.renderRoot.querySelector<HTMLElement>('#title'));
    return this.laterPart;
  }
  /** Best available and general admission (seat-picker.by-count.ts), made for this element once fetched (willUpdate: a performance offering only those; renderBest: the visitor switched to it). */
  private readonly byCount = this.lazy(() => import('./seat-picker.by-count.ts').then((m) => this.withByCount(m)));
  /** They are here (reading this does not fetch them). */
  private byCountPart: { best: BestAvailable; general: GeneralAdmission } | undefined;
  private withByCount(m: typeof import('./seat-picker.by-count.ts')): { best: BestAvailable; general: GeneralAdmission } {
    const add: BestAvailableOptions['add'] = (body, count, then) => this.adder.add(body, count, then);
    const best = new m.BestAvailable(this, { performanceId: () => this.currentPerformanceId, showing: () => this.showingBest, api: () => this.api, add });
    const general = new m.GeneralAdmission(this, {
      performanceId: () => this.currentPerformanceId,
      reload: () => {
        this.reloadCount += 1;
      },
      add,
    });
    best.count = general.count = this.wantedCount;
    return (this.byCountPart = { best, general });
  }

  /** The waiting view (waiting-view.ts): a chunk of its own, fetched only when a room answered. */
  private readonly waitingPart = this.lazy(() => import('./waiting-view.ts').then((m) => this.withWaitingView(m)));
  private waiting: WaitingView | undefined;
  /** The waiting view was rendered in this update (else it stops waiting: `updated`). */
  private inRoom = false;

  private withWaitingView(m: typeof import('./waiting-view.ts')): WaitingView {
    this.addStyles(m.waitingViewStyles);
    const booking = () => this.bookingController.booking;
    return (this.waiting = new m.WaitingView(this, {
      get api() {
        return booking().api;
      },
      get endpointKey() {
        return endpointKey(booking().config.endpoint);
      },
      get config() {
        return booking().config;
      },
      announce: (text) => this.announce(text),
      queueChanged: (detail) => void this.emit('booking-queue-change', detail),
      roomLeft: (admitted) => {
        // The pass is kept: the seats are asked for again, with it. Focus in the view goes on to the map.
        if (this.matches(':focus-within')) this.focusSeats = true;
        this.reloadCount += 1;
        if (!admitted) return;
        this.announce(msg('It is your turn: choose your seats.'));
        void this.emit('booking-queue-admitted', admitted);
      },
    }));
  }

  /** The ticket count best available and general admission start from (the shared selection's). */
  private wantedCount = 2;

  /**
   * SeatsSelectionValidation, once the selection has been still for a moment; a newer selection aborts it
   * (selection-check.ts): fetched with the first seat chosen, beside the basket's chunk, so the walk to a
   * seat map ready for a tap pays for none of it; until it is here, the choice is being checked.
   */
  private readonly validation = this.lazy(() =>
    new Promise<void>((resolve) => nextFrame(resolve)).then(() => import('./selection-check.ts')).then(({ SelectionValidation }) => new SelectionValidation(this, {
      performanceId: () => this.currentPerformanceId,
      selected: () => this.selected,
      api: () => this.api,
      leavesSingleSeat: () => this.map !== null && leavesSingleSeat(this.map, this.selected),
    })),
  );

  /** Adding to the basket: the map's choice, best available and general admission (seat-adding.ts). */
  private readonly adder = new SeatAdding({
    host: this,
    basket: () => this.bookingController.booking.basket,
    later: () => this.later(),
    laterPart: () => this.laterPart,
    selected: () => this.selected,
    select: (ticketIds) => {
      this.selected = ticketIds;
    },
    check: () => this.selectionCheck,
    validation: () => this.updateComplete.then(() => this.validation()?.complete ?? null),
    notBookable: () => this.notBookable,
    announce: (text) => this.announce(text),
    setNotice: (notice) => {
      this.notice = notice;
    },
    emit: (type, detail) => void this.emit(type, detail),
    seatsTaken: (failure: BasketFailure) => {
      this.pendingLoss = failure.message;
      this.reloadCount += 1;
    },
    focusNotice: () => void this.focusNotice(),
    waitInRoom: () => {
      this.reloadCount += 1;
    },
  });

  private get map(): SeatMap | null {
    return this.seats.map;
  }

  private get availability(): Availability | null {
    const value = this.availabilityTask.value;
    return value && value.performanceId === this.currentPerformanceId ? value : null;
  }

  private get showingBest(): boolean {
    return showsBest(this.availability, this.chooser);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.takerOff?.();
    this.takerStore = null;
    pickerFollows(this, null);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.requestUpdate(); // re-attach the map view after a reconnect
  }

  // ------------------------------------------------------------------ derived state

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Showing the shared selection's performance: the calendar may ask its seats ahead for this picker.
    pickerFollows(this, this.performanceId === null ? this.api : null);
    const selection = this.bookingController.booking.selection;
    if (this.takerStore !== selection) {
      this.takerOff?.();
      this.takerStore = selection;
      this.takerOff = take(selection, this.takeSeats);
      keepChosenShow(this.bookingController.booking);
    }
    // "2 tickets added to your basket" no longer holds once the basket is emptied or its hold ran out.
    const basket = this.bookingController.basket;
    if (this.notice?.tone === 'success' && (!basket.content || basket.released.length)) this.notice = null;
    const id = this.currentPerformanceId;
    if (id !== this.lastPerformance) {
      this.lastPerformance = id;
      this.selected = [];
      this.notice = null;
      this.activeSeat = -1;
      this.chooser = 'map';
      this.list.reset();
      const wanted = this.bookingController.selection.ticketCount;
      if (wanted && wanted > 0) {
        this.wantedCount = Math.min(wanted, this.maxSeats);
        const choices = this.byCountPart;
        if (choices) choices.best.count = choices.general.count = this.wantedCount;
      }
    }
    // Best available only, or general admission: their part is needed now, and so are the basket's
    // requests (one chunk, which a seat map fetches with its first seat chosen): here "Add" is the first tap.
    if (needsChoiceByCount(this.availability, this.chooser)) {
      this.later();
      this.byCount();
      void import('../../state/basket-engine.ts').catch(() => undefined);
    }
    // An event chosen, its dates on their way to the calendar: a performance is the next tap.
    // Fetch what shows below the map now (it is put to use only after the map's first paint), so
    // it does not share the seat lookup's round trip and bandwidth.
    if (id === null && !this.lookedAhead && this.bookingController.selection.eventId !== null) {
      this.lookedAhead = true;
      void this.laterModule().catch(() => undefined);
    }
    if (this.selected.length) this.validation();
    this.deriveMap();
  }

  /** The later part was asked for ahead of a performance (willUpdate). */
  private lookedAhead = false;

  /** Rebuild the map when the data (or the held seats it must show) changed; keep derived sets stable otherwise. */
  private deriveMap(): void {
    const availability = this.availability;
    const perf = this.performanceTask.value?.performance;
    const derived = this.seats.derive({
      tickets: availability?.kind === 'seated' ? availability.tickets : null,
      content: this.bookingController.basket.content,
      performance: perf && perf.PerformanceId === this.currentPerformanceId ? perf : null,
      selected: this.selected,
    });
    if (derived.rebuilt) {
      // Its ticket index is made on first use; make it while the page is idle, not in the first click.
      const fresh = this.map;
      if (fresh && typeof requestIdleCallback === 'function') requestIdleCallback(() => void fresh.byTicket.size);
      if (derived.previous && fresh) this.reconciled(derived.previous, derived.selected, derived.lost);
      if (this.activeSeat >= (fresh?.seats.length ?? 0)) this.activeSeat = -1;
    }
    // The seat the service named as the reason for refusing the selection (InvalidSeatID).
    const check = this.selectionCheck;
    this.seats.markInvalid(check.state === 'refused' && check.seat !== null ? check.seat : -1);
  }

  /** After a fresh map: the choice without the seats that are gone, and (after a 409) which they were. */
  private reconciled(previous: SeatMap, kept: readonly number[], lost: readonly number[]): void {
    if (lost.length) this.selected = kept;
    if (this.pendingLoss === null) return;
    this.notice = { tone: 'error', ...lostSeatsNotice(seatsOf(previous, lost), this.selected.length, this.bookingController.booking.config, this.pendingLoss) };
    this.announce(this.notice.detail ? `${this.notice.message} ${this.notice.detail}` : this.notice.message);
    this.pendingLoss = null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (!this.inRoom) this.waiting?.leave();
    // The map's own elements, as rendered (renderSeated): the controller attaches to them.
    const root = this.renderRoot;
    const viewport = root.querySelector<HTMLElement>('.viewport');
    const sizer = root.querySelector<HTMLElement>('.sizer');
    const canvas = root.querySelector<HTMLCanvasElement>('.frame > canvas');
    this.view.attach(viewport && sizer && canvas && this.map && !this.showingBest ? { viewport, sizer, canvas } : null);
    this.laterPart?.paintSwatches(root);
    const { seats } = this;
    this.view.update({ map: seats.map, selected: seats.selectedIdx, held: seats.heldIdx, invalid: seats.invalidIdx, zoom: this.zoom, active: this.activeSeat });
    this.takeFocus();
  }

  /** Also waits for the parts rendered after the map's first frame. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let result = await super.getUpdateComplete();
    if (this.mapFirst && this.rest) {
      await this.rest;
      result = await super.getUpdateComplete();
    }
    return result;
  }

  // ------------------------------------------------------------------ words

  /** Money in the configured currency (cached per amount: hundreds of seat names share a few prices). */
  private readonly money = cachedMoney(() => this.bookingController.booking.config);

  private date(value: string): string {
    return formatDateTime(value, this.bookingController.booking.config, { dateStyle: 'full', timeStyle: 'short' });
  }

  private announce(text: string): void {
    // The same sentence twice must still be read: vary it invisibly.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  /** What the service said of the current selection (selection-check.ts). */
  private get selectionCheck(): SelectionCheck {
    if (!this.selected.length) return { state: 'none' };
    return this.validation()?.check(this.map) ?? { state: 'checking' };
  }

  private get selectedSeats(): MapSeat[] {
    return seatsOf(this.map, this.selected);
  }

  private get total(): number {
    return totalOf(this.map, this.selected);
  }

  // ------------------------------------------------------------------ render

  protected override render(): TemplateResult {
    this.inRoom = false;
    return html`
      <section class="stack" part="base" aria-labelledby="title">
        <h2 id="title" part="heading" tabindex="-1">${msg('Choose your seats')}</h2>
        ${this.availabilityTask.render({
          initial: () => this.renderNoPerformance(),
          pending: () => {
            const kept = this.availability;
            return kept ? this.renderAvailability(kept) : html`<p part="loading" role="status">${msg('Loading the seats…')}</p>`;
          },
          complete: (value) => (value ? this.renderAvailability(value) : this.renderNoPerformance()),
          error: (error) => {
            const room = roomOf(error);
            return room ? this.renderRoom(room) : renderFailure(seatsFailure(error).message, () => void this.availabilityTask.run());
          },
        })}
        <div class="visually-hidden" role="status" aria-live="polite" part="status">${this.announcement}</div>
      </section>
    `;
  }

  /** The proxy's waiting room holds this performance: the waiting view (fetched now), until admitted. */
  private renderRoom(room: RoomRef): TemplateResult {
    this.inRoom = true;
    const view = this.waitingPart();
    if (!view) return html`<p part="loading" role="status">${msg('Loading the seats…')}</p>`;
    view.show(room);
    return view.render();
  }

  private renderNoPerformance(): TemplateResult {
    return html`<p part="empty">${msg('Choose a performance to see its seats.')}</p>`;
  }

  private renderAvailability(a: Availability): TemplateResult {
    return renderByMode(a, {
      chooser: this.chooser,
      choose: this.choose,
      seated: () => this.renderSeated(),
      best: () => this.renderBest(),
      general: (areas) => this.renderGeneral(areas),
      notices: () => this.renderNotices(),
    });
  }

  private readonly choose = (chooser: Chooser): void => {
    this.chooser = chooser;
  };

  /** While the part that offers best available or general admission is on its way (it follows the seats' data). */
  private renderLoadingChoice(): TemplateResult {
    return html`<p part="loading" role="status">${msg('Loading the seats…')}</p>`;
  }

  private renderSeated(): TemplateResult {
    const map = this.map;
    if (!map) return html``;
    const active = map.seats[this.activeSeat];
    const rest = !this.mapFirst;
    // Above the map: a region of fixed rows (list path, mode switch, zoom; see the styles). In the
    // map's first frame its rows are empty, so the map is already where it stays when they arrive.
    return html`
      <div class="above">
        ${rest
          ? html`${this.renderList(map)} ${renderModeSwitch({ chooser: this.chooser, choose: this.choose })} ${this.renderZoom()}`
          : html`<div></div>
              <div></div>
              <div></div>`}
      </div>
      <div class="frame" part="map">
        <div class="stage" aria-hidden="true">${msg('Stage')}</div>
        <canvas aria-hidden="true"></canvas>
        <div class="viewport" part="map-viewport">
          <div
            class="sizer"
            role="group"
            aria-label=${mapLabel(map.seats.length, this.bookingController.booking.config)}
          ></div>
        </div>
      </div>
      ${rest ? this.renderBelowMap(map, active) : nothing}
    `;
  }

  /**
   * Below the map, a frame after its first paint: the seat under focus, the legend, the visitor's
   * choice with "Add" (the next tab stop after the map), and the plan, all from the later part (asked for here, so fetched in the
   * frame after the map's first paint; they appear when it arrives).
   */
  private renderBelowMap(map: SeatMap, active: MapSeat | undefined): TemplateResult | typeof nothing {
    const later = this.later();
    if (!later) return nothing;
    const { heldIdx, invalidSeat } = this.seats;
    return html`${later.renderSeatDetails(active, active ? heldIdx.has(active.index) : false, this.money)}
      ${later.renderLegend(map, { held: heldIdx.size > 0, invalid: invalidSeat >= 0 }, this.money)}
      ${later.renderSummary.call({
        ...this.choiceView(later),
        seats: this.selectedSeats,
        check: this.selectionCheck,
        total: this.total,
        onAdd: this.adder.handleAddClick,
        onClear: this.clearSelection,
      })}
      ${later.renderPlan(this.planTask.value)}`;
  }

  /** Best available (the later part and its own), or word that it is on its way. */
  private renderBest(): TemplateResult {
    const later = this.later(), choices = this.byCount();
    return later && choices ? choices.best.render(this.choiceView(later)) : this.renderLoadingChoice();
  }

  /** General admission (the later part and its own), or word that it is on its way. */
  private renderGeneral(areas: Parameters<GeneralAdmission['render']>[0]): TemplateResult {
    const later = this.later(), choices = this.byCount();
    return later && choices ? choices.general.render(areas, this.choiceView(later)) : this.renderLoadingChoice();
  }

  private renderZoom(): TemplateResult {
    return html`<div class="zoom" part="zoom" role="group" aria-label=${msg('Zoom')}>
      <button type="button" part="zoom-button out" data-variant="secondary" aria-label=${msg('Zoom out')} @click=${() => this.view.zoomTo(this.zoom / 1.25)}>−</button>
      <span aria-live="polite">${Math.round(this.zoom * 100)}%</span>
      <button type="button" part="zoom-button in" data-variant="secondary" aria-label=${msg('Zoom in')} @click=${() => this.view.zoomTo(this.zoom * 1.25)}>+</button>
      <button type="button" part="zoom-button fit" data-variant="secondary" aria-pressed=${this.view.fitted ? 'true' : 'false'} @click=${() => this.view.fit()}>${msg('Fit')}</button>
    </div>`;
  }

  private renderList(map: SeatMap): TemplateResult {
    const check = this.selectionCheck;
    const { selectedIdx, heldIdx, invalidSeat } = this.seats;
    return this.list.render(
      map,
      {
        selected: selectedIdx,
        held: heldIdx,
        invalid: check.state === 'refused' && invalidSeat >= 0 ? { seat: invalidSeat, message: check.message } : null,
        money: this.money,
        onToggle: (i) => this.toggleSeat(i, 'list'),
      },
      this.laterPart,
      () => this.later(),
    );
  }

  private get pairedNoteId(): string | typeof nothing {
    return this.performanceTask.value?.paired.length ? 'paired-note' : nothing;
  }

  private get notBookable(): boolean {
    return this.performanceTask.value?.performance.DirectlyBookablePerformance === false;
  }

  /** Before adding: the paired part (its date) is booked too; or this part is not bookable on its own (the later part renders it). */
  private renderPaired(later: LaterPart): TemplateResult | typeof nothing {
    const facts = this.performanceTask.value;
    if (!facts || facts.performance.PerformanceId !== this.currentPerformanceId || !facts.paired.length) return nothing;
    return later.renderPaired(facts, (value) => this.date(value));
  }

  private renderNotices(): TemplateResult | typeof nothing {
    // A notice comes from an add, which loaded the part that renders it.
    return this.notice ? (this.later()?.renderNotice(this.notice, () => (this.notice = null)) ?? nothing) : nothing;
  }

  /** What best available and general admission render with (once the later part is here). */
  private choiceView(later: LaterPart): ChoiceView {
    return {
      maxSeats: this.maxSeats,
      adding: this.adder.adding,
      notBookable: this.notBookable,
      paymentOpen: later.payment.open,
      paymentNoteId: later.PAYMENT_NOTE_ID,
      payment: later.payment.render(),
      paired: this.renderPaired(later),
      pairedNoteId: this.pairedNoteId,
      money: this.money,
    };
  }

  // ------------------------------------------------------------------ selection

  private toggleSeat(index: number, source: 'map' | 'list' = 'map'): void {
    const map = this.map;
    const seat = map?.seats[index];
    if (!map || !seat) return;
    const outcome = toggle(this.selected, seat.ticketId, { held: this.seats.heldIdx.has(index), max: this.maxSeats });
    if (outcome.kind !== 'held' && this.notice?.tone === 'success') this.notice = null;
    if (outcome.kind === 'added' || outcome.kind === 'removed') this.selected = outcome.selected;
    else if (source === 'list') this.requestUpdate(); // put the checkbox back
    const choice = { count: this.selected.length, total: totalOf(map, this.selected) };
    this.announce(toggleSentence(outcome, seat, this.money, choice, this.maxSeats));
  }

  private clearSelection = (): void => {
    this.selected = [];
    this.announce(msg('Choice cleared.'));
  };
}

/**
 * The element with the focus, inside shadow roots; null when nothing has it (the page's body).
 * focus-recovery.ts's `focusedIn` and `focusDropped` say the same, but they are in the flow chunk:
 * imported here, that chunk came with the picker's first part on a page of the picker alone (the
 * bundle test's later-part check), and in the shared chunk they cost every event-list page 85 gzip bytes.
 */
function focusedElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active === document.body ? null : active;
}
