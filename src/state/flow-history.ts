/**
 * The booking flow in the page's address and history. Where the visitor is, is one query parameter
 * (the configuration's `eventParam`, `stagedoor-event` by default): `1042` a show's detail,
 * `1042-dates` its dates, `1042-77001` the seat map of its performance 77001; absent, the list.
 * Each step the visitor takes becomes a history entry naming it, so Back and Forward move through
 * the flow inside the page, a reload keeps the step and the address opens the same step for anyone.
 *
 * A chunk of its own (src/state/booking.ts fetches it unless `history` is `off`): with the
 * visitor's first step, or at once when the address names a step or the entry is ours. One per page.
 * - A step is a `booking-selection` an element fires: that element then fires the cancelable
 *   `booking-navigate`; cancelled, the address and the history are left to the host.
 * - Back or Forward to one of our entries puts the selection back as its address says and hands the
 *   focus to the element showing that step (src/state/step-handoff.ts), which brings it into view.
 *   The basket is never touched.
 * - The host's other parameters (as written), its hash and its history state (an object) are kept.
 *
 * No rendering; the DOM only through `location`, `history` and the document's events.
 */
import { bookingEvent, type BookingEvent, type BookingEventDetails } from '../events.ts';
import type { BookingContextValue } from './booking.ts';
import { give, showsKey, type SelectionStep } from './step-handoff.ts';

/** A step of the flow, and what it shows. */
export interface FlowPlace {
  step: 'list' | 'detail' | 'dates' | 'seats';
  eventId: number | null;
  performanceId: number | null;
}

const LIST: FlowPlace = { step: 'list', eventId: null, performanceId: null };
const ID = /^[1-9]\d{0,14}$/;
let running: AbortController | null = null;

/** An entry made (or marked) here. */
const ours = (state: unknown): boolean => typeof state === 'object' && state !== null && 'stagedoor' in state;
const same = (a: FlowPlace, b: FlowPlace): boolean => a.step === b.step && a.eventId === b.eventId && a.performanceId === b.performanceId;

/** The parameter: the configuration's, never the payment return's marker (`stagedoor`). */
export function flowParam(name = 'stagedoor-event'): string {
  if (name !== 'stagedoor') return name;
  console.warn('stagedoor: eventParam "stagedoor" is the payment return\'s marker; using stagedoor-event');
  return 'stagedoor-event';
}

/** The place an address names in `param` (the list when it names none). */
export function readPlace(href: string, param: string): FlowPlace {
  const [event, more, extra] = (new URL(href).searchParams.get(param) ?? '').split('-');
  if (!event || !ID.test(event) || extra !== undefined) return LIST;
  const eventId = Number(event);
  if (more === undefined) return { step: 'detail', eventId, performanceId: null };
  if (more === 'dates') return { step: 'dates', eventId, performanceId: null };
  return ID.test(more) ? { step: 'seats', eventId, performanceId: Number(more) } : LIST;
}

/** `href` naming `place` in `param`; every other parameter (as the host wrote it) and the hash kept. */
export function placeHref(href: string, param: string, place: FlowPlace): string {
  const url = new URL(href);
  const others = url.search.slice(1).split('&').filter((pair) => pair && new URLSearchParams(pair).keys().next().value !== param);
  if (place.eventId !== null) {
    others.push(`${encodeURIComponent(param)}=${place.eventId}${place.step === 'dates' ? '-dates' : place.performanceId !== null ? `-${place.performanceId}` : ''}`);
  }
  url.search = others.join('&');
  return url.href;
}

/** Where a choice leads. */
function placeOf({ kind, eventId, performanceId }: BookingEventDetails['booking-selection']): FlowPlace {
  if (eventId === null) return LIST;
  if (kind === 'performance' && performanceId !== null) return { step: 'seats', eventId, performanceId };
  return { step: kind === 'dates' ? 'dates' : 'detail', eventId, performanceId: null };
}

/** Give the focus to whichever element shows `place` (coming from `from`). */
function focusOn({ selection }: BookingContextValue, { step, eventId, performanceId }: FlowPlace, from: FlowPlace): Promise<boolean> {
  if (step === 'list') return give<SelectionStep>(showsKey(selection), { step, eventId: from.eventId });
  if (step === 'detail') return give<SelectionStep>(showsKey(selection), { step, eventId: eventId! });
  return give<SelectionStep>(selection, step === 'seats' ? { step, performanceId: performanceId! } : { step, eventId: eventId! });
}

/** Keep the flow in the history from now on; `first`: the step whose `booking-selection` fetched this chunk. */
export function startHistory(booking: BookingContextValue, first?: Event): void {
  if (running || typeof history === 'undefined') return;
  const { signal } = (running = new AbortController());
  const { selection } = booking;
  const param = flowParam(booking.config.eventParam);
  let here = readPlace(location.href, param);
  // The step the address names (a reload, a shared link), unless this tab shows another show (a payment return puts back the one it kept).
  const shown = selection.value;
  if (here.eventId !== null && (shown.eventId ?? here.eventId) === here.eventId && shown.performanceId === null) {
    selection.selectPerformance(here.performanceId, here.eventId);
  }
  // The entry the page opened on is ours to come back to (a host's state object kept in it).
  const state: unknown = history.state;
  if (state === null || (typeof state === 'object' && !ours(state))) history.replaceState({ ...(state as object | null), stagedoor: 1 }, '');

  const step = (event: Event): void => {
    const { detail, target } = event as BookingEvent<'booking-selection'>;
    const place = placeOf(detail);
    // Another day opened beside the seat map it shows is not a step back.
    if (same(place, here) || (place.step === 'dates' && here.step === 'seats' && here.eventId === place.eventId)) return;
    const url = placeHref(location.href, param, place);
    const navigate = bookingEvent('booking-navigate', { ...place, url });
    (target ?? document).dispatchEvent(navigate);
    here = place;
    if (!navigate.defaultPrevented) history.pushState({ stagedoor: 1 }, '', url);
  };
  document.addEventListener('booking-selection', step, { signal });
  addEventListener('popstate', ({ state: entry }) => {
    if (!ours(entry)) return;
    const from = here;
    here = readPlace(location.href, param);
    selection.selectPerformance(here.performanceId, here.eventId);
    void focusOn(booking, here, from);
  }, { signal });
  if (first) return step(first);

  // A reload, or an address shared, on a later step: its element takes the focus once it shows it
  // (and brings it into view), unless the visitor has put the focus somewhere first; tried for 3 s.
  let tries = here.step === 'list' ? 0 : 30;
  const opened = here;
  const attempt = async (): Promise<void> => {
    if (!signal.aborted && document.activeElement === document.body && tries-- > 0 && !(await focusOn(booking, opened, LIST))) setTimeout(attempt, 100);
  };
  setTimeout(attempt, 100);
}

/** For tests: stop; the next booking made starts again. */
export function stopHistory(): void {
  running?.abort();
  running = null;
}
