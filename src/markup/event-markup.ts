/**
 * schema.org JSON-LD for the shows an `<event-list>` shows, so that search
 * engines find them: a `TheaterEvent` per upcoming performance of the event in
 * the detail (at most `MAX_PERFORMANCES`), or one per event of the list (at
 * most `MAX_EVENTS`), each with its `Offer` and the venue as its `Place`.
 *
 * A lazy chunk of its own: `<event-list>` imports it after its content has
 * rendered (half a second later, handed what it shows), so the first card's download does not carry it. The JSON-LD is a
 * `<script type="application/ld+json" data-stagedoor-markup>` in the element's
 * light DOM (not shown: the element has no slot), replaced when what is shown
 * changes and gone with the element. The service's HTML fields go through the
 * one sanitizer, then become plain text; `<` is written `\u003c`, so no field
 * can close the script.
 */
import type { Event as SchemaEvent, ItemAvailability, Place, TheaterEvent, WithContext } from 'schema-dts';
import type { ApiClient } from '../api/client.ts';
import type { EventInfo, PerformanceInfo, VenueInfo } from '../api/types.ts';
import { parseServiceDateTime, serviceTimeToInstant, zoneOffsetAt } from '../api/time.ts';
import { safeUrl } from '../safe-url.ts';

/** Performances of the detail's event given as events: search engines list the next few. */
export const MAX_PERFORMANCES = 10;
/** Events of the list given as events. */
export const MAX_EVENTS = 20;

const ATTRIBUTE = 'data-stagedoor-markup';

export interface MarkupContext {
  api: ApiClient;
  currency: string;
  timeZone: string;
  /** The page's address for the show (the Offer's url). */
  url: string;
}

/** A service DateTime as ISO 8601 with the venue's UTC offset at that instant (`2026-12-01T19:30:00+00:00`). */
export function isoWithOffset(value: string, timeZone: string): string | undefined {
  if (!parseServiceDateTime(value)) return undefined;
  const offset = Math.round(zoneOffsetAt(serviceTimeToInstant(value, timeZone), timeZone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${value.slice(0, 19)}${sign}${hh}:${mm}`;
}

function place(venue: VenueInfo): Place {
  return {
    '@type': 'Place',
    name: venue.Name,
    address: {
      '@type': 'PostalAddress',
      streetAddress: venue.Address,
      addressLocality: venue.City,
      ...(venue.Postcode ? { postalCode: venue.Postcode } : {}),
    },
  };
}

const availability = (left: number): ItemAvailability => (left > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut');

/** One show (at one date, or over its run) as a TheaterEvent. */
function theaterEvent(
  event: EventInfo,
  venue: VenueInfo,
  description: string,
  context: MarkupContext,
  when: { start: string; end?: string; price: number; left: number },
): WithContext<TheaterEvent> | null {
  const startDate = isoWithOffset(when.start, context.timeZone);
  if (!startDate) return null;
  const endDate = when.end ? isoWithOffset(when.end, context.timeZone) : undefined;
  const image = safeUrl(event.MainImageUrl);
  const performers = (event.Cast ?? []).map((member) => ({ '@type': 'Person' as const, name: member.Name }));
  return {
    '@context': 'https://schema.org',
    '@type': 'TheaterEvent',
    name: event.Name,
    startDate,
    ...(endDate ? { endDate } : {}),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: place(venue),
    ...(description ? { description } : {}),
    ...(image ? { image: [image] } : {}),
    ...(performers.length ? { performer: performers } : {}),
    organizer: { '@type': 'Organization', name: venue.Name, url: context.url },
    offers: {
      '@type': 'Offer',
      price: when.price,
      priceCurrency: context.currency,
      availability: availability(when.left),
      url: context.url,
    },
  };
}

/**
 * The text of a part the element shows: for a field of the service's HTML, what the one sanitizer
 * made of it (src/sanitize.ts renders it), as plain text.
 */
function shownText(host: HTMLElement, part: string): string {
  return (host.shadowRoot?.querySelector(`[part~="${part}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The JSON-LD of one event's next performances (`description`: its sanitized text). */
export async function detailMarkup(event: EventInfo, venue: VenueInfo, description: string, context: MarkupContext): Promise<SchemaEvent[]> {
  const { Performances } = await context.api.getEventPerformances({ eventId: event.EventId });
  return [...Performances]
    .sort((a: PerformanceInfo, b: PerformanceInfo) => a.PerformanceDate.localeCompare(b.PerformanceDate))
    .slice(0, MAX_PERFORMANCES)
    .map((p) => theaterEvent(event, venue, description, context, { start: p.PerformanceDate, price: p.MinimumTicketPrice, left: p.TotalAvailableTickesCount }))
    .filter((e): e is WithContext<TheaterEvent> => e !== null);
}

/** The JSON-LD of the list: each event over its run, with its venue. */
export async function listMarkup(events: readonly EventInfo[], context: MarkupContext): Promise<SchemaEvent[]> {
  const shown = events.slice(0, MAX_EVENTS);
  const venues = new Map<number, Promise<VenueInfo>>();
  for (const e of shown) {
    if (!venues.has(e.VenueId)) venues.set(e.VenueId, context.api.getVenue({ venueId: e.VenueId }).then((r) => r.Venue));
  }
  const out = await Promise.all(
    shown.map(async (e) =>
      // The list shows no description, so gives none: a description is the sanitizer's output, read where the detail shows it.
      theaterEvent(e, await venues.get(e.VenueId)!, '', context, {
        start: e.StartDate,
        end: e.EndDate,
        price: e.EventMinimumPrice,
        left: 1,
      }),
    ),
  );
  return out.filter((e): e is WithContext<TheaterEvent> => e !== null);
}

/** JSON for inside a `<script>`: `<` as `\u003c`, so nothing in it can end the script or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Put (or replace) the host's JSON-LD in its light DOM; an empty list removes it. */
export function placeMarkup(host: HTMLElement, items: readonly SchemaEvent[]): void {
  const old = host.querySelector<HTMLScriptElement>(`:scope > script[${ATTRIBUTE}]`);
  if (!items.length) {
    old?.remove();
    return;
  }
  const script = old ?? document.createElement('script');
  script.type = 'application/ld+json';
  script.setAttribute(ATTRIBUTE, '');
  script.textContent = scriptJson(items.length === 1 ? items[0] : items);
  if (!old) host.append(script);
}

/**
 * What an `<event-list>` shows, as it hands it over: the detail's event with its venue once both
 * are read (`null` while they are read), or, with no detail, the list's events once they are in.
 */
export interface Shown {
  detail?: { event: EventInfo; venue: VenueInfo } | null;
  events?: readonly EventInfo[];
  api: ApiClient;
  currency: string;
  timeZone: string;
}

/** What each list last marked (the detail's event, or the list's events), and the latest turn. */
const marked = new WeakMap<HTMLElement, unknown>();
let turns = new WeakMap<HTMLElement, number>();

/**
 * What `<event-list>` calls after an update once something is shown: the
 * JSON-LD of the detail's event (once its venue is read) or of the list,
 * placed once per change. A later change for the same element wins.
 */
export async function markShows(host: HTMLElement, shown: Shown): Promise<void> {
  const { detail, events } = shown;
  const key = detail === undefined ? events : detail?.event;
  if (!key || marked.get(host) === key) return;
  marked.set(host, key);
  const turn = (turns.get(host) ?? 0) + 1;
  turns.set(host, turn);
  const context: MarkupContext = { api: shown.api, currency: shown.currency, timeZone: shown.timeZone, url: location.href.replace(/#.*/, '') };
  let items: SchemaEvent[] = [];
  try {
    items = detail ? await detailMarkup(detail.event, detail.venue, shownText(host, 'description'), context) : await listMarkup(events ?? [], context);
  } catch {
    items = []; // markup is a bonus: a failed read leaves none rather than a wrong one
  }
  if (turns.get(host) === turn && host.isConnected) placeMarkup(host, items);
}
