import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { Task, TaskStatus, initialState } from '@lit/task';
import { localized, msg, str } from '../../i18n/msg.ts';
import { isAbortError } from '../../api/client.ts';
import type { EventInfo, ReviewsResult } from '../../api/types.ts';
import { plural } from '../../i18n/plural.ts';
import { safeUrl } from '../../safe-url.ts';
import { readEvent } from '../../state/event-details.ts';
import { pageList } from '../../state/first-list.ts';
import type { Shown } from '../../markup/event-markup.ts';
import { give, hasTaker, showsKey, take, type SelectionStep } from '../../state/step-handoff.ts';
import { keepFlowInHistory } from '../../state/flow-history-start.ts';
import { keepChosenShow } from '../../state/chosen-show.ts';
import { toFailure, type Failure, type FailureWords } from '../../state/failure.ts';
import { BookingElement } from '../booking-element.ts';
import { renderFailure } from '../failure-view.ts';
import { eventListStyles } from './event-list.styles.ts';
import { renderFacts, responsiveImages, srcsetOf } from './event-facts.ts';

export { responsiveImages };

/** How many skeleton cards stand in for the list while it loads. */
const SKELETON_CARDS = 6;

type DetailView = typeof import('./event-detail.ts');
/** The detail's renderings (event-detail.ts): fetched once, beside the first Get Event; again after a failed fetch. */
let detailFetch: Promise<DetailView> | undefined;
/** They are here (reading this does not fetch them). */
let detailView: DetailView | undefined;
function fetchDetailView(): Promise<DetailView> {
  return (detailFetch ??= import('./event-detail.ts').then((view) => (detailView = view)).catch((error: unknown) => {
    detailFetch = undefined;
    throw error;
  }));
}

/** How long a list rests before its first schema.org markup is fetched (see markUp). */
export const MARKUP_QUIET_MS = 3000;
/** The markup's chunk has been asked for on this page: later changes are marked sooner. */
let markupAsked = false;

type LoadKind = 'types' | 'list' | 'detail' | 'venue' | 'reviews';

/** What could not be loaded, in the visitor's words; no answer at all adds "Check your connection." */
function loadWords(what: () => string, more: Omit<FailureWords, 'otherwise'> = {}): FailureWords {
  return { otherwise: what, network: () => `${what()} ${msg('Check your connection.')}`, ...more };
}
const LOAD_WORDS: Record<LoadKind, FailureWords> = {
  types: loadWords(() => msg('The types of show could not be loaded.')),
  list: loadWords(() => msg('The shows could not be loaded.')),
  detail: loadWords(() => msg('The show could not be loaded.'), { 'not-found': () => msg('Sorry, this show is no longer available.') }),
  venue: loadWords(() => msg('The venue could not be loaded.')),
  reviews: loadWords(() => msg('The reviews could not be loaded.')),
};

/**
 * @summary What is on: the live events as cards, a type filter, and one event's detail.
 *
 * Shows every live event (Get Events), one type's (`event-type`), or one
 * venue's (`venue-id`). Choosing a card sets the shared selection (which drives
 * `<performance-calendar>`) and shows the event's detail: sanitized description
 * and offer, notices, cast, reviews (paged) and the venue. With `event-id` it
 * shows only that event's detail.
 *
 * @fires booking-selection - `{ kind: 'event', eventId, performanceId: null }` when the visitor chooses
 *   an event (`eventId` is null when they go back to all shows); `kind: 'dates'` when they skip to its dates.
 * @fires booking-navigate - Cancelable, before the page's address names the step just chosen: `{ step, eventId, performanceId, url }`;
 *   `preventDefault()` leaves the address and history to the host (unless the configuration's `history` is `off`).
 * @fires booking-list-shown - `{ events: [{ eventId, name }] }` each time the list of shows is shown, once.
 * @fires booking-error - `{ source: 'event-list', message, status }` when something failed to load and the
 *   visitor was told (status 404: the show is no longer available; null: no answer).
 * @fires booking-remote-change - The basket changed in another tab or window of the site and this page now shows it: `{ change, basketId }`; once per change, fired by one element of the page (whichever shows the basket first).
 *
 * @csspart base - The element's outer box.
 * @csspart heading - The detail's headings: the show's name, the cast, the reviews, the venue.
 * @csspart status - The visually hidden live region announcing what is shown.
 * @csspart filter - The type filter's wrapper.
 * @csspart filter-label - The type filter's label.
 * @csspart filter-select - The type filter's select.
 * @csspart list - The list of cards; `list loading` while skeletons show.
 * @csspart card - One event card; `card skeleton` while loading.
 * @csspart card-media - A card's image frame (keeps its size while the image loads).
 * @csspart card-image - A card's image.
 * @csspart card-heading - A card's heading.
 * @csspart card-button - The link on a card's name (it keeps its old name): opens the detail here, or follows `event-href`.
 * @csspart tag-line - An event's tag line.
 * @csspart running-time - An event's running time.
 * @csspart price - The "from" price.
 * @csspart offer - The offer price with its label.
 * @csspart age-rating - The age rating.
 * @csspart empty - The empty state.
 * @csspart detail - The event's detail; `detail loading` while it loads, `detail unavailable` after a 404.
 * @csspart back-button - The "back to all shows" button.
 * @csspart dates-button - In the detail, when a `<performance-calendar>` on the page shows the show's dates: moves the focus to them.
 * @csspart detail-image - The detail's main image.
 * @csspart description - The sanitized description.
 * @csspart short-offer - The short offer text.
 * @csspart long-offer - The sanitized long offer text.
 * @csspart notice - The important notice.
 * @csspart facts - Minimum age, accessibility and content warnings.
 * @csspart cast - The cast list.
 * @csspart cast-member - One cast member.
 * @csspart cast-image - A cast member's photo.
 * @csspart cast-link - A cast member's external link.
 * @csspart reviews - The reviews section.
 * @csspart rating - The average rating and count.
 * @csspart reviews-list - The page of reviews.
 * @csspart review - One review.
 * @csspart review-stars - A review's stars.
 * @csspart reviews-pager - The newer/older controls.
 * @csspart pager-button - A newer/older button.
 * @csspart venue - The venue section.
 * @csspart venue-info - The venue's sanitized information.
 * @csspart plan-link - The seating plan link.
 * @csspart error - A failure (role="alert"): its sentence and, when trying again may help, the retry button.
 * @csspart error-message - The failure's sentence.
 * @csspart retry-button - Tries again: the step that failed, or a check still waiting for its answer.
 *
 * @cssprop --booking-card-min-width - Narrowest card before the grid drops a column.
 * @cssprop --booking-card-image-ratio - Aspect ratio of card images.
 * @cssprop --booking-card-body-height - Minimum height of a card's text, the same for skeletons.
 * @cssprop --booking-skeleton - Colour of loading skeletons.
 * @cssprop --booking-accent - Buttons, links and names.
 * @cssprop --booking-warning - The important notice's edge and review stars.
 * @cssprop --booking-success - Offer prices.
 */
@localized()
export class EventList extends BookingElement {
  static override styles = [...BookingElement.styles, eventListStyles];

  /** Show only events of this type (an EventType id from Get Event Types). */
  @property({ type: Number, attribute: 'event-type' }) eventType: number | null = null;

  /** Show only this venue's events (Get Venue Events). */
  @property({ type: Number, attribute: 'venue-id' }) venueId: number | null = null;

  /** Show only this event's detail (no list, no "back" control). */
  @property({ type: Number, attribute: 'event-id' }) eventId: number | null = null;

  /** Offer a filter by event type, built from the service's event types. */
  @property({ type: Boolean, attribute: 'show-type-filter' }) showTypeFilter = false;

  /**
   * Where a card links: the host's own show page, `{EventId}` standing for the event's id
   * (`/shows/{EventId}`); relative or http(s), else the default. Without it, this page with
   * `?stagedoor-event=<id>` (`event-param`), which opens that event's detail here.
   * Default: the page configuration's `eventHref`.
   */
  @property({ attribute: 'event-href' }) eventHref: string | null = null;

  /**
   * The query parameter naming the event shown in this page's links and read at start. Default: the
   * configuration's `eventParam` (`stagedoor-event`), which the page's history also writes.
   */
  @property({ attribute: 'event-param' }) eventParam: string | null = null;

  /** Reviews shown per page in the detail. Default 5. */
  @property({ type: Number, attribute: 'reviews-per-page' }) reviewsPerPage = 5;

  /** The type chosen in the filter (null: the `event-type` attribute, or all). */
  @state() private chosenType: number | null | undefined = undefined;
  @state() private reviewsFrom = 0;
  /** After "back", focus returns to this event's card. */
  private returnFocusTo: number | null = null;
  private focusDetail = false;

  private get api() {
    return this.bookingController.booking.api;
  }

  private get config() {
    return this.bookingController.booking.config;
  }

  /** The type the list is filtered by. */
  private get activeType(): number | null {
    return this.chosenType === undefined ? this.eventType : this.chosenType;
  }

  /** The event whose detail is shown, if any. */
  get detailEventId(): number | null {
    return this.eventId ?? this.bookingController.selection.eventId;
  }

  private readonly typesTask = new Task(this, {
    onError: (error) => this.reportError('types', error),
    task: async ([show], { signal }) => {
      if (!show) return initialState;
      return (await this.api.getEventTypes({}, { signal })).EventTypes;
    },
    args: () => [this.showTypeFilter && this.eventId === null] as const,
  });

  /** The list again, when the first was the page's own copy past its cache life (state/first-list.ts): shown in its place. */
  @state() private newerList: readonly EventInfo[] | undefined = undefined;

  private readonly listTask = new Task(this, {
    onError: (error) => this.reportError('list', error),
    task: async ([venueId, type, standalone], { signal }) => {
      this.newerList = undefined;
      if (standalone) return initialState;
      if (venueId !== null) {
        const { Events } = await this.api.getVenueEvents({ venueId }, { signal });
        return type === null ? Events : Events.filter((e) => e.EventType === type);
      }
      const ask = () => (type === null ? this.api.getEvents({}, { signal }) : this.api.getEvents({ type }, { signal }));
      // The list the page itself carries (state/first-list.ts): shown at once; past its cache life, asked for again.
      const inPage = pageList(this.api.endpoint, type);
      if (inPage?.stale) void ask().then(({ Events }) => void (this.newerList = Events), () => undefined);
      return inPage ? inPage.events : (await ask()).Events;
    },
    args: () => [this.venueId, this.activeType, this.eventId !== null] as const,
  });

  /** The list shown: its newer answer, else the task's. */
  private get listed(): readonly EventInfo[] | undefined {
    return this.newerList ?? this.listTask.value;
  }

  private readonly detailTask = new Task(this, {
    onError: (error) => this.reportError('detail', error),
    task: async ([eventId], { signal }) => {
      if (eventId === null) return initialState;
      // Remembered for the seat picker, which needs this event's detail next (state/event-details.ts).
      return (await Promise.all([readEvent(this.api, eventId, signal), fetchDetailView()]))[0];
    },
    args: () => [this.detailEventId] as const,
  });

  private readonly venueTask = new Task(this, {
    onError: (error) => this.reportError('venue', error),
    task: async ([venueId], { signal }) => {
      if (venueId === null) return initialState;
      return (await this.api.getVenue({ venueId }, { signal })).Venue;
    },
    args: () => [this.detailVenueId] as const,
  });

  /**
   * The shown event's venue: as its detail names it, or before that as its card in the list does,
   * so the venue is asked for with the detail at the card's click, not a round trip after it.
   */
  private get detailVenueId(): number | null {
    const id = this.detailEventId;
    if (id === null) return null;
    const detail = this.detailTask.value;
    if (detail?.EventId === id) return detail.VenueId;
    const list = this.listTask.value;
    const card = (Array.isArray(list) && list.find((e) => e.EventId === id)?.VenueId) || 0;
    return card > 0 ? card : null;
  }

  private readonly reviewsTask = new Task(this, {
    onError: (error) => this.reportError('reviews', error),
    task: async ([eventId, from, count], { signal }) => {
      if (eventId === null) return initialState;
      return this.api.getEventReviews({ eventId, from, count }, { signal });
    },
    args: () => [this.detailEventId, this.reviewsFrom, Math.max(1, Math.floor(this.reviewsPerPage) || 5)] as const,
  });

  private shownDetail: number | null = null;

  /** Registered (while connected) as the taker of the list's and detail's steps (Back and Forward). */
  private takerStore: object | null = null;
  private takerOff: (() => void) | undefined;
  private readonly takeStep = async (step: SelectionStep): Promise<boolean> => {
    if (this.eventId !== null || !this.getClientRects().length) return false;
    if (step.step === 'detail' && step.eventId === this.detailEventId) this.focusDetail = true;
    else if (step.step === 'list' && this.detailEventId === null) this.returnFocusTo = step.eventId;
    else return false;
    this.requestUpdate();
    return true;
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.takerOff?.();
    this.takerStore = null;
  }

  private get param(): string {
    return this.eventParam ?? this.config.eventParam ?? 'stagedoor-event';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const selection = this.bookingController.booking.selection;
    if (this.takerStore !== selection) {
      this.takerOff?.();
      this.takerStore = selection;
      this.takerOff = take(showsKey(selection), this.takeStep);
      keepFlowInHistory(this.bookingController.booking);
      keepChosenShow(this.bookingController.booking);
    }
    if (!this.hasUpdated && this.eventId === null && selection.value.eventId === null) {
      // A page opened at one of our links (?stagedoor-event=1042, or a later step: 1042-77001) shows that event's detail.
      const linked = parseInt(new URLSearchParams(location.search).get(this.param) ?? '', 10);
      if (linked > 0) selection.selectEvent(linked);
    }
    const detail = this.detailEventId;
    if (detail !== this.shownDetail) {
      this.reviewsFrom = 0;
      this.shownDetail = detail;
    }
  }

  /**
   * The first cards a server printed inside the element (declarative shadow DOM,
   * src/server/first-cards.ts), shown from the HTML before any script: kept until the element's
   * own list (or a detail, or a failure) replaces them, so nothing blinks in between.
   */
  private serverView: ChildNode[] | undefined;

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // Taken before Lit's styles could be added to the root (where constructed stylesheets are not supported).
    const printed = [...(this.shadowRoot?.childNodes ?? [])];
    const root = super.createRenderRoot();
    if (printed.length) {
      this.serverView = printed;
      // Lit renders before the root's first node; ours go after the printed ones, which then leave.
      this.renderOptions.renderBefore = undefined;
    }
    return root;
  }

  /** The printed cards leave once the element shows its own; a card the visitor was on passes the focus to its own. */
  private dropServerView(): void {
    const printed = this.serverView;
    if (!printed || (this.detailEventId === null && !(this.listTask.status === TaskStatus.COMPLETE || this.listTask.status === TaskStatus.ERROR))) return;
    this.serverView = undefined;
    const focused = (this.renderRoot as ShadowRoot).activeElement?.getAttribute('data-event-id');
    for (const node of printed) node.remove();
    if (focused) this.renderRoot.querySelector<HTMLElement>(`[data-event-id="${focused}"]`)?.focus();
  }

  /** The pending hand-over to the schema.org markup (src/markup/). */
  private markupSoon = 0;

  /**
   * schema.org JSON-LD of what is shown, for search engines: its own chunk, fetched once the list has
   * been at rest for a while (MARKUP_QUIET_MS: no update, which each step of the visitor's makes, the
   * calendar's and the seat picker's too, through the selection), at an idle moment. A crawler that
   * renders waits for a page at rest; a visitor walking to a seat map pays nothing for it before the
   * first tap. Once fetched, a change is marked half a second after it shows, handed what is shown then.
   */
  private markUp(): void {
    if (!(this.listTask.value ?? this.venueTask.value)) return;
    clearTimeout(this.markupSoon);
    this.markupSoon = window.setTimeout(() => (window.requestIdleCallback ?? setTimeout)(() => {
      this.markupSoon = 0;
      const id = this.detailEventId, event = this.detailTask.value, venue = this.venueTask.value;
      const { api, config } = this.bookingController.booking;
      const shown: Shown = {
        detail: id === null ? undefined : this.venueTask.status === TaskStatus.COMPLETE && event?.EventId === id && venue?.VenueId === event.VenueId ? { event, venue } : null,
        events: this.listTask.status === TaskStatus.COMPLETE ? this.listed : undefined,
        api,
        currency: config.currency,
        timeZone: config.timeZone,
      };
      markupAsked = true;
      void import('../../markup/event-markup.ts').then((m) => m.markShows(this, shown)).catch(() => undefined);
    }), markupAsked ? 500 : MARKUP_QUIET_MS);
  }

  /** The list last told as shown (`booking-list-shown`); cleared while a detail shows. */
  private toldList: readonly EventInfo[] | undefined;

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.dropServerView();
    this.markUp();
    // Told once per list shown: a refresh of a list the page carried (newerList) is the same list view.
    const list = this.detailEventId === null && this.listTask.status === TaskStatus.COMPLETE ? this.listTask.value : undefined;
    if (list !== this.toldList && (this.toldList = list) && list.length) void this.tellList(list);
    if (this.focusDetail) {
      // While the detail loads, focus rests on its loading heading; then on the show's name.
      const heading = this.renderRoot.querySelector<HTMLElement>('[data-focus="detail"]');
      if (heading) {
        heading.focus();
        this.focusDetail = false;
      } else {
        this.renderRoot.querySelector<HTMLElement>('[data-focus="detail-pending"]')?.focus();
      }
    } else if (this.returnFocusTo !== null && this.detailEventId === null && this.listTask.status === TaskStatus.COMPLETE) {
      // Back at the list: focus the card the visitor came from (if the list still holds it).
      this.renderRoot.querySelector<HTMLElement>(`[data-event-id="${this.returnFocusTo}"]`)?.focus();
      this.returnFocusTo = null;
    }
  }

  protected override render(): TemplateResult {
    const detail = this.detailEventId;
    return html`<div part="base">
      <p part="status" class="visually-hidden" role="status">${this.statusText()}</p>
      ${detail === null ? this.renderBrowse() : this.renderDetail()}
    </div>`;
  }

  // ------------------------------------------------------------------ list

  private statusText(): string {
    if (this.detailEventId !== null) {
      const event = this.detailTask.value;
      if (this.detailTask.status === TaskStatus.ERROR) return ''; // the alert says it
      return this.detailTask.status === TaskStatus.COMPLETE && event ? event.Name : msg('Loading the show…');
    }
    const events = this.listed;
    if (this.listTask.status === TaskStatus.PENDING || this.listTask.status === TaskStatus.INITIAL) return msg('Loading shows…');
    if (this.listTask.status === TaskStatus.COMPLETE && events) {
      const count = events.length;
      return plural(count, { one: () => msg(str`${count} show`), other: () => msg(str`${count} shows`) });
    }
    return '';
  }

  private renderBrowse(): TemplateResult {
    return html`
      ${this.renderTypeFilter()}
      ${this.listTask.render({
        initial: () => this.renderSkeletons(),
        pending: () => this.renderSkeletons(),
        complete: (events) => this.renderCards(this.newerList ?? events),
        error: (error) => this.renderError('list', error, () => void this.listTask.run()),
      })}
    `;
  }

  private renderTypeFilter(): TemplateResult | typeof nothing {
    if (!this.showTypeFilter) return nothing;
    const types = this.typesTask.value ?? [];
    const active = this.activeType;
    return html`
      <div part="filter" class="filter">
        <label part="filter-label" for="type-filter">${msg('Type of show')}</label>
        <select
          id="type-filter"
          part="filter-select"
          ?disabled=${this.typesTask.status !== TaskStatus.COMPLETE}
          @change=${this.handleTypeChange}
        >
          <option value="" ?selected=${active === null}>${msg('All shows')}</option>
          ${types.map(
            (t) => html`<option value=${String(t.EventTypeId)} ?selected=${active === t.EventTypeId}>${t.EventTypeName}</option>`,
          )}
        </select>
        ${this.typesTask.status === TaskStatus.ERROR
          ? renderFailure(this.failure('types', this.typesTask.error).message, () => void this.typesTask.run())
          : nothing}
      </div>
    `;
  }

  private renderSkeletons(): TemplateResult | typeof nothing {
    // The printed cards stand in for the skeletons while they are shown.
    if (this.serverView) return nothing;
    return html`
      <ul part="list loading" class="cards" aria-busy="true" aria-label=${msg('Shows')}>
        ${Array.from(
          { length: SKELETON_CARDS },
          () => html`
            <li part="card skeleton" class="card skeleton" aria-hidden="true">
              <div part="card-media" class="media"></div>
              <div class="body">
                <span class="bone title"></span>
                <span class="bone line"></span>
                <span class="bone line"></span>
                <span class="bone line short"></span>
                <span class="bone line short"></span>
              </div>
            </li>
          `,
        )}
      </ul>
    `;
  }

  private renderCards(events: readonly EventInfo[]): TemplateResult {
    if (!events.length) {
      return html`<p part="empty" class="empty">
        ${this.activeType !== null || this.venueId !== null
          ? msg('No shows match. Try another type of show.')
          : msg('There are no shows on sale just now.')}
      </p>`;
    }
    return html`
      <ul part="list" class="cards" aria-label=${msg('Shows')}>
        ${events.map((event) => this.renderCard(event))}
      </ul>
    `;
  }

  private renderCard(event: EventInfo): TemplateResult {
    const name = event.Name ?? '';
    return html`
      <li part="card" class="card">
        <div part="card-media" class="media">${this.renderImage(event, name)}</div>
        <div class="body">
          <h3 part="card-heading" class="name">
            <a
              part="card-button"
              class="card-button"
              href=${this.cardHref(event.EventId)}
              data-event-id=${String(event.EventId)}
              @click=${(e: MouseEvent) => this.handleCardClick(e, event.EventId)}
            >${name}</a>
          </h3>
          ${event.TagLine ? html`<p part="tag-line" class="tag-line">${event.TagLine}</p>` : nothing}
          ${renderFacts(event, this.config)}
        </div>
      </li>
    `;
  }

  private renderImage(event: EventInfo, name: string): TemplateResult | typeof nothing {
    const images = responsiveImages(event.Images);
    const fallback = safeUrl(event.SmallImageUrl) ?? safeUrl(event.MainImageUrl) ?? images[0]?.url ?? null;
    if (!fallback) return nothing;
    const srcset = srcsetOf(images);
    const first = images[0];
    return html`<img
      part="card-image"
      src=${fallback}
      srcset=${srcset || nothing}
      sizes=${srcset ? '(max-width: 40rem) 100vw, 22rem' : nothing}
      width=${first ? String(first.width) : nothing}
      height=${first ? String(first.height) : nothing}
      loading="lazy"
      decoding="async"
      alt=${name}
    />`;
  }

  // ------------------------------------------------------------------ detail

  private renderDetail(): TemplateResult {
    return this.detailTask.render({
      initial: () => this.renderDetailSkeleton(),
      pending: () => this.renderDetailSkeleton(),
      complete: (event) =>
        detailView!.renderEvent(event, {
          facts: renderFacts(event, this.config),
          srcset: srcsetOf(responsiveImages(event.Images)),
          back: this.renderBack(),
          dates: this.renderDatesSkip(event),
          reviews: this.renderReviews(),
          venue: this.renderVenue(),
        }),
      error: (error) =>
        this.failure('detail', error).kind === 'not-found'
          ? html`<section part="detail unavailable" class="detail">
              ${this.renderBack()}
              ${renderFailure(this.failure('detail', error).message)}
            </section>`
          : html`<section part="detail" class="detail">
              ${this.renderBack()}
              ${this.renderError('detail', error, () => void this.detailTask.run())}
            </section>`,
    });
  }

  /** `booking-list-shown`; with analytics on, once its listener is there (its chunk may still be on its way). */
  private async tellList(list: readonly EventInfo[]): Promise<void> {
    const { booking } = this.bookingController;
    if (booking.config.analytics) await import('../../analytics/analytics.ts').then((m) => m.startAnalytics(booking)).catch(() => undefined);
    void this.emit('booking-list-shown', { events: list.map((e) => ({ eventId: e.EventId, name: e.Name ?? '' })) });
  }

  private renderBack(): TemplateResult | typeof nothing {
    if (this.eventId !== null) return nothing;
    return html`<button part="back-button" class="back" data-variant="secondary" @click=${this.handleBack}>
      ${msg('Back to all shows')}
    </button>`;
  }

  /**
   * A skip past the detail (its description, cast links, reviews) to the show's dates, when a
   * <performance-calendar> on the page shows them: the keyboard's next step is one key away.
   */
  private renderDatesSkip(event: EventInfo): TemplateResult | typeof nothing {
    const selection = this.bookingController.booking.selection;
    if (!hasTaker(selection)) return nothing;
    return html`<button part="dates-button" class="dates" @click=${() => this.toDates(event.EventId)}>
      ${msg('Choose a date')}
    </button>`;
  }

  private renderReviews(): TemplateResult {
    return html`
      <section part="reviews" class="section" aria-labelledby="reviews-title" aria-busy=${this.reviewsTask.status === TaskStatus.PENDING ? 'true' : 'false'}>
        <h3 id="reviews-title" part="heading">${msg('Reviews')}</h3>
        ${this.reviewsTask.render({
          pending: () =>
            this.reviewsTask.value ? this.renderReviewPage(this.reviewsTask.value) : html`<p class="meta">${msg('Loading reviews…')}</p>`,
          complete: (result) => this.renderReviewPage(result),
          error: (error) => this.renderError('reviews', error, () => void this.reviewsTask.run()),
        })}
      </section>
    `;
  }

  private renderDetailSkeleton(): TemplateResult {
    return html`<section part="detail loading" class="detail" aria-busy="true">
      ${this.renderBack()}
      <h2 part="heading" class="visually-hidden" tabindex="-1" data-focus="detail-pending">${msg('Loading the show…')}</h2>
      <div class="detail-media bone" aria-hidden="true"></div>
      <span class="bone title" aria-hidden="true"></span>
      <span class="bone line" aria-hidden="true"></span>
      <span class="bone line" aria-hidden="true"></span>
    </section>`;
  }

  private renderReviewPage(result: ReviewsResult): TemplateResult {
    return detailView!.renderReviewPage(result, this.config, Math.max(1, Math.floor(this.reviewsPerPage) || 5), (from) => this.pageReviews(from));
  }

  private renderVenue(): TemplateResult {
    return html`${this.venueTask.render({
      pending: () => html`<p class="meta">${msg('Loading the venue…')}</p>`,
      complete: (venue) => detailView!.renderVenueInfo(venue),
      error: (error) => this.renderError('venue', error, () => void this.venueTask.run()),
    })}`;
  }

  private renderError(what: LoadKind, error: unknown, retry: () => void): TemplateResult {
    return renderFailure(this.failure(what, error).message, retry);
  }

  // ------------------------------------------------------------------ handlers

  /** What the visitor is told when a load fails (state/failure.ts; also the `booking-error` message). */
  private failure(what: LoadKind, error: unknown): Failure {
    return toFailure(error, LOAD_WORDS[what]);
  }

  private reportError(what: LoadKind, error: unknown): void {
    if (isAbortError(error)) return;
    const failure = this.failure(what, error);
    void this.emit('booking-error', { source: 'event-list', message: failure.message, status: failure.status });
  }

  private handleTypeChange(e: Event): void {
    const value = (e.target as HTMLSelectElement).value;
    const type = value === '' ? null : Number(value);
    this.chosenType = Number.isInteger(type) ? type : null;
  }

  private toDates(eventId: number): void {
    void give<SelectionStep>(this.bookingController.booking.selection, { step: 'dates', eventId });
    void this.emit('booking-selection', { kind: 'dates', eventId, performanceId: null });
  }

  private choose(eventId: number): void {
    this.focusDetail = true;
    this.bookingController.booking.selection.selectEvent(eventId);
    void this.emit('booking-selection', { kind: 'event', eventId, performanceId: null });
  }

  /** The host's show page for this event, when `event-href` (else the page's `eventHref`) is a safe pattern. */
  private hostHref(eventId: number): string | null {
    const pattern = this.eventHref ?? this.config.eventHref;
    if (!pattern?.includes('{EventId}')) return null;
    try {
      return safeUrl(new URL(pattern.replaceAll('{EventId}', encodeURIComponent(eventId)), document.baseURI).href);
    } catch {
      return null;
    }
  }

  /** The card's link: the host's show page, else this page naming the event (`?stagedoor-event=1042`). */
  private cardHref(eventId: number): string {
    const here = new URL(location.href);
    here.hash = '';
    here.searchParams.set(this.param, String(eventId));
    return this.hostHref(eventId) ?? here.href;
  }

  /**
   * A plain click on a link to this page opens the detail here, as before (focus, announcement); with a
   * modifier key or another button the browser follows the link (a new tab or window). The host's show page is followed.
   */
  private handleCardClick(e: MouseEvent, eventId: number): void {
    if (this.hostHref(eventId) !== null || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    this.choose(eventId);
  }

  private handleBack(): void {
    this.returnFocusTo = this.bookingController.selection.eventId;
    this.bookingController.booking.selection.selectEvent(null);
    void this.emit('booking-selection', { kind: 'event', eventId: null, performanceId: null });
  }

  private pageReviews(from: number): void {
    this.reviewsFrom = from;
  }
}

