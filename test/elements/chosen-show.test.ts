/**
 * The chosen show survives the payment round trip (issue 22): the shared
 * selection is put back on the page the payment returns to, so the list, the
 * calendar and the seat map show the performance being booked; a page that is
 * not a payment return starts with no choice, as before.
 */
import { expect } from '@open-wc/testing';
import { ServerClock } from '../../src/api/time.ts';
import { createBooking, type BookingContextValue } from '../../src/state/booking.ts';
import { keepChosenShow } from '../../src/state/chosen-show.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { fakeApi } from './helpers/fake-api.ts';
import { fakeBasketService } from './helpers/fake-basket.ts';

describe('the chosen show over the payment round trip', () => {
  const home = location.href;
  const made: BookingContextValue[] = [];
  const config = resolveConfig({ endpoint: `/chosen-show-${Date.now()}` });
  const booking = () => {
    const clock = new ServerClock();
    const b = createBooking(config, { api: fakeApi(fakeBasketService({ clock }).handlers, { clock }) });
    // As the list, the calendar and the seat picker start it, before their first render.
    keepChosenShow(b);
    made.push(b);
    return b;
  };
  afterEach(() => {
    history.replaceState(null, '', home);
    for (const b of made.splice(0)) b.basket.dispose();
    sessionStorage.clear();
  });

  for (const outcome of ['success', 'failure']) {
    it(`puts the event, performance and ticket count back on the ${outcome} return page`, () => {
      const before = booking();
      before.selection.selectEvent(7);
      before.selection.selectPerformance(42, 7);
      before.selection.setTicketCount(3);
      // The payment page sends the visitor back to this page with the marker.
      const back = new URL(home);
      back.searchParams.set('stagedoor', outcome);
      history.replaceState(null, '', back.href);
      expect(booking().selection.value).to.deep.equal({ eventId: 7, performanceId: 42, ticketCount: 3 });
    });
  }

  it('starts with no choice on a page that is not a payment return', () => {
    const before = booking();
    before.selection.selectPerformance(42, 7);
    expect(booking().selection.value).to.deep.equal({ eventId: null, performanceId: null, ticketCount: null });
  });
});
