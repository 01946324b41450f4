/**
 * The flow in the page's address (issue 33): a show chosen is a history entry naming it, the host's
 * own parameters and hash kept; Back and Forward move between the list and the detail inside the
 * page with the focus where the visitor was; a cancelled `booking-navigate` leaves the address to
 * the host; an address naming a step opens it; the list of shows is told once each time it shows.
 * (The whole walk to the seat map in three engines is test/e2e/flow-history.test.ts.)
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import '../../src/elements/event-list/event-list.ts';
import type { EventList } from '../../src/elements/event-list/event-list.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import sinon from 'sinon';
import { flowParam, placeHref, readPlace, startHistory, stopHistory } from '../../src/state/flow-history.ts';
import { keepChosenShow } from '../../src/state/chosen-show.ts';
import type { BookingEvent } from '../../src/events.ts';
import { testBooking, withBooking } from './helpers/fake-api.ts';
import { twoShowsApi } from './helpers/two-shows.ts';

const api = twoShowsApi;

const root = (el: EventList) => el.shadowRoot as ShadowRoot;
const card = (el: EventList, id: number) => root(el).querySelector<HTMLAnchorElement>(`[part~="card-button"][data-event-id="${id}"]`);
const heading = (el: EventList) => root(el).querySelector('[data-focus="detail"]');

describe('the flow in the page address', () => {
  const page = location.href.replace(/[?#].*/, '');
  afterEach(() => {
    stopHistory();
    history.replaceState(null, '', page);
    resetSharedBookings();
  });

  async function listWithHistory(config = {}) {
    const booking = testBooking(api(), config);
    startHistory(booking);
    const el = await withBooking<EventList>(booking, html`<event-list></event-list>`);
    await waitUntil(() => card(el, 1042), 'list did not load');
    return { booking, el };
  }

  it('makes a show chosen a history entry naming it, the host\'s parameters and hash as written; Back to the list, Forward to the detail, focus following, basket untouched', async () => {
    history.replaceState({ host: 'kept' }, '', `${page}?q=a%20b&flag#top`);
    const { booking, el } = await listWithHistory();
    const basket = booking.basket.value;
    const entries = history.length;
    card(el, 1042)!.click();
    await waitUntil(() => location.search.includes('stagedoor-event'), 'the address did not name the show');
    expect(location.href).to.equal(`${page}?q=a%20b&flag&stagedoor-event=1042#top`);
    expect(history.length).to.equal(entries + 1);
    await waitUntil(() => heading(el), 'detail did not open');

    history.back();
    await waitUntil(() => card(el, 1042) && root(el).activeElement === card(el, 1042), 'Back did not show the list with the focus on the card left');
    expect(location.href).to.equal(`${page}?q=a%20b&flag#top`);
    expect(history.state).to.deep.equal({ host: 'kept', stagedoor: 1 });
    expect(booking.selection.value.eventId).to.equal(null);

    history.forward();
    await waitUntil(() => heading(el) && root(el).activeElement === heading(el), 'Forward did not show the detail with the focus on its name');
    expect(heading(el)!.textContent).to.equal('Wicked');
    expect(booking.selection.value.eventId).to.equal(1042);
    expect(booking.basket.value).to.equal(basket);
  });

  it('leaves the address and the history to the host when booking-navigate is cancelled, and still opens the show', async () => {
    const { el } = await listWithHistory();
    const heard: BookingEvent<'booking-navigate'>['detail'][] = [];
    const route = (e: Event) => {
      heard.push((e as BookingEvent<'booking-navigate'>).detail);
      e.preventDefault();
    };
    el.parentElement!.addEventListener('booking-navigate', route);
    const [href, entries] = [location.href, history.length];
    card(el, 7)!.click();
    await waitUntil(() => heading(el), 'detail did not open');
    await waitUntil(() => heard.length, 'no booking-navigate reached the provider');
    expect(heard).to.deep.equal([{ step: 'detail', eventId: 7, performanceId: null, url: `${page}?stagedoor-event=7` }]);
    expect(location.href).to.equal(href);
    expect(history.length).to.equal(entries);
  });

  it('opens the step an address names (a reload, a shared link): the show, its dates, a performance; on a payment return, the show this tab kept', () => {
    const opened = (query: string, endpoint?: string) => {
      history.replaceState(null, '', `${page}${query}`);
      const booking = testBooking(api(), endpoint ? { endpoint } : {});
      // As the list starts them: the show kept for the payment return (at once), then the history.
      keepChosenShow(booking);
      startHistory(booking);
      stopHistory();
      return [booking.selection.value.eventId, booking.selection.value.performanceId];
    };
    expect(opened('?stagedoor-event=7')).to.deep.equal([7, null]);
    expect(opened('?stagedoor-event=7-dates')).to.deep.equal([7, null]);
    expect(opened('?x=1&stagedoor-event=7-77001')).to.deep.equal([7, 77001]);
    expect(opened('?stagedoor-event=7-x')).to.deep.equal([null, null]);
    // The payment return: the show this tab kept (src/state/chosen-show.ts) wins; with none kept (another tab), the address.
    const endpoint = `/flow-return-${Date.now()}`;
    const before = testBooking(api(), { endpoint });
    keepChosenShow(before);
    before.selection.selectPerformance(42, 9);
    expect(opened('?stagedoor=success&stagedoor-event=7-77001', endpoint)).to.deep.equal([9, 42]);
    expect(opened('?stagedoor=success&stagedoor-event=7-77001')).to.deep.equal([7, 77001]);
    sessionStorage.clear();
  });

  it('reads and writes one parameter of a configurable name, never the payment return\'s marker', () => {
    const at = 'https://theatre.example/whats-on?show=1&a=b+c#cast';
    expect(readPlace(at.replace('#', '&stagedoor-event=1042-77001#'), 'stagedoor-event')).to.deep.equal({ step: 'seats', eventId: 1042, performanceId: 77001 });
    expect(placeHref(at, 'show', { step: 'dates', eventId: 9, performanceId: null })).to.equal('https://theatre.example/whats-on?a=b+c&show=9-dates#cast');
    expect(placeHref(at, 'show', { step: 'list', eventId: null, performanceId: null })).to.equal('https://theatre.example/whats-on?a=b+c#cast');
    expect(flowParam('show')).to.equal('show');
    const warn = sinon.stub(console, 'warn');
    try {
      expect(flowParam('stagedoor')).to.equal('stagedoor-event');
      expect(warn.calledWithMatch(/"stagedoor" is the payment return's marker/)).to.equal(true);
    } finally {
      warn.restore();
    }
  });

  it('tells the list of shows once each time it shows (booking-list-shown), with the shows in order', async () => {
    const shown: unknown[] = [];
    const hear = (e: Event) => shown.push((e as BookingEvent<'booking-list-shown'>).detail);
    document.addEventListener('booking-list-shown', hear);
    try {
      const { el } = await listWithHistory();
      await waitUntil(() => shown.length, 'the list was not told');
      await el.updateComplete;
      expect(shown).to.deep.equal([{ events: [{ eventId: 1042, name: 'Wicked' }, { eventId: 7, name: 'Hamlet' }] }]);
      card(el, 7)!.click();
      await waitUntil(() => heading(el), 'detail did not open');
      history.back();
      await waitUntil(() => shown.length === 2, 'the list shown again was not told');
      await el.updateComplete;
      expect(shown).to.have.length(2);
    } finally {
      document.removeEventListener('booking-list-shown', hear);
    }
  });

});
