import { expect, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import sinon from 'sinon';
import { NetworkError, NOT_AVAILABLE_YET } from '../../src/api/client.ts';
import '../../src/elements/booking-confirmation/booking-confirmation.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { BookingConfirmation } from '../../src/elements/booking-confirmation/booking-confirmation.component.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { lastCompletedBooking } from '../../src/state/payment-return.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { apiError, testBooking, withBooking, type FakeApi } from './helpers/fake-api.ts';
import { BASKET_ID, checkoutApi, eTickets, submittedSummary } from './helpers/checkout-data.ts';

const $$ = (el: Element, selector: string) => [...(el.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? [])];
const textOf = (el: Element) => el.shadowRoot?.textContent?.replace(/\s+/g, ' ') ?? '';

/** A booking whose basket went to payment from this tab. */
async function paidBooking(api: FakeApi): Promise<BookingContextValue> {
  const booking = testBooking(api);
  await booking.basket.add({ Tickets: [1001, 1002] });
  booking.basket.submitted();
  return booking;
}

async function settle(el: { updateComplete: Promise<unknown> }, clock?: sinon.SinonFakeTimers): Promise<void> {
  for (let i = 0; i < 6; i += 1) {
    if (clock) await clock.tickAsync(0);
    else await Promise.resolve();
    await el.updateComplete;
  }
}

describe('<booking-confirmation>', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  const originalUrl = location.href;

  afterEach(() => {
    clock?.restore();
    clock = undefined;
    history.replaceState(null, '', originalUrl);
    resetSharedBookings();
  });

  it('shows the booking: reference, items with tickets and ScheduledOn, delivery, refund protection, e-ticket links by type', async () => {
    const api = checkoutApi({ getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => eTickets() });
    const booking = await paidBooking(api);
    const completed = oneEvent(document, 'booking-order-completed');
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    const event = await completed;
    expect(event.detail).to.deep.equal({ basketId: BASKET_ID, bookingReference: 'SD-7Q4K2M', total: 131.5, currency: 'GBP', ticketCount: 3 });
    await waitUntil(() => $$(el, '[part~="eticket-link"]').length > 0, 'the e-tickets are linked');
    const text = textOf(el);
    expect(el.shadowRoot?.querySelector('[part~="reference"] strong')?.textContent).to.equal('SD-7Q4K2M');
    expect(text).to.contain('The Lantern Keeper');
    expect(text).to.contain('Row A Seat 12');
    // The ticket's ScheduledOn (another day than its item's 5 Dec), worded and written like the item's date.
    expect(text).to.contain('Performance: Thu, 3 Dec 2026, 09:00');
    expect(text).to.contain('Sat, 5 Dec 2026, 19:30');
    expect(text).to.contain('Print at home tickets'); // the delivery type named from the System list
    expect(text).to.contain('ada@example.com');
    expect(text).to.contain('12 Example Street');
    expect(text).to.contain('3 tickets, £7.50'); // refund protection
    expect(text).to.contain('Total: £131.50');
    const links = $$(el, '[part~="eticket-link"]').map((a) => ({ name: a.textContent?.replace(/\s+/g, ' ').trim(), href: a.getAttribute('href') }));
    expect(links).to.deep.include({ name: 'PDF ticket, Row A Seat 12', href: 'https://tickets.example/1001.pdf' });
    expect(links).to.deep.include({ name: 'Apple Wallet, Row A Seat 12', href: 'https://tickets.example/1001.pkpass' });
    expect(links).to.deep.include({ name: 'Google Wallet, Row A Seat 12', href: 'https://tickets.example/1001.json' });
    expect(links).to.deep.include({ name: 'HolographicPass, Row A Seat 13', href: 'https://tickets.example/1002.holo' });
    expect(links.some((l) => l.href?.startsWith('javascript'))).to.equal(false);
    expect(links).to.have.length(6);
    // The stored id is forgotten once the summary is shown.
    expect(booking.basket.awaitingPayment).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('names an e-ticket link only with the documented tokens: a Type from the service never becomes a part of its own', async () => {
    const hostile = ['PDF', 'Apple Wallet', 'google_wallet', 'Heading', 'heading base', 'retry-button', 'ERROR', '"><img src=x onerror=alert(1)>'];
    const api = checkoutApi({
      getSubmittedBasketSummary: () => submittedSummary(),
      getETickets: () => ({ Items: [{ TicketId: 1001, ETickets: hostile.map((Type, i) => ({ Type, DownloadUrl: `https://tickets.example/${i}` })) }] }),
    });
    const el = await withBooking<BookingConfirmation>(await paidBooking(api), html`<booking-confirmation outcome="success"></booking-confirmation>`);
    await waitUntil(() => $$(el, '[part~="eticket-link"]').length === hostile.length, 'every e-ticket is linked');
    const links = $$(el, '[part~="eticket-link"]').map((a) => ({
      type: a.dataset.eticketType,
      part: a.getAttribute('part')!.split(/\s+/).filter(Boolean),
      name: a.textContent?.replace(/\s+/g, ' ').trim(),
    }));
    expect(links).to.deep.equal([
      { type: 'PDF', part: ['eticket-link', 'pdf'], name: 'PDF ticket, Row A Seat 12' },
      { type: 'Apple Wallet', part: ['eticket-link', 'apple-wallet'], name: 'Apple Wallet, Row A Seat 12' },
      { type: 'google_wallet', part: ['eticket-link', 'google-wallet'], name: 'Google Wallet, Row A Seat 12' },
      // Unknown Types: no token, the raw value in data-eticket-type, the words as text.
      { type: 'Heading', part: ['eticket-link'], name: 'Heading, Row A Seat 12' },
      { type: 'heading base', part: ['eticket-link'], name: 'heading base, Row A Seat 12' },
      { type: 'retry-button', part: ['eticket-link'], name: 'retry-button, Row A Seat 12' },
      { type: 'ERROR', part: ['eticket-link'], name: 'ERROR, Row A Seat 12' },
      { type: '"><img src=x onerror=alert(1)>', part: ['eticket-link'], name: '"><img src=x onerror=alert(1)>, Row A Seat 12' },
    ]);
    // What a host's ::part() rules reach is still only what they name.
    expect($$(el, '[part~="heading"]').every((h) => /^H[1-6]$/.test(h.tagName)), 'part heading is only on headings').to.equal(true);
    expect($$(el, '[part~="base"]')).to.have.length(1);
    expect($$(el, '[part~="retry-button"], [part~="error"]')).to.have.length(0);
    expect($$(el, 'img')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it("in the visitor's language: the country by its code, the performance's date and time in the confirmation's own format; no repeat of the item's date", async () => {
    const shown = async (locale: string, change: (summary: ReturnType<typeof submittedSummary>) => void = () => undefined) => {
      await setLocale(locale.slice(0, 2));
      const summary = submittedSummary();
      change(summary);
      const api = checkoutApi({ getSubmittedBasketSummary: () => summary, getETickets: () => eTickets() });
      const booking = testBooking(api, { locale });
      await booking.basket.add({ Tickets: [1001, 1002] });
      booking.basket.submitted();
      const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await waitUntil(() => el.shadowRoot?.querySelector('[part~="reference"]'), 'the summary is shown');
      await el.updateComplete;
      const text = textOf(el);
      el.remove();
      resetSharedBookings();
      return text;
    };
    try {
      const german = await shown('de');
      expect(german).to.contain('N1 1AA, Vereinigtes Königreich');
      expect(german).not.to.contain('United Kingdom');
      expect(german).to.contain('Sa., 5. Dez. 2026, 19:30');
      expect(german).to.contain('Vorstellung: Do., 3. Dez. 2026, 09:00');
      expect(german).not.to.contain('Geplant');
      const french = await shown('fr');
      expect(french).to.contain('N1 1AA, Royaume-Uni');
      expect(french).to.contain('Représentation : jeu. 3 déc. 2026, 09:00');
      // A code Intl does not know: the service's own name.
      const unknown = await shown('de', (s) => {
        if (s.DeliveryInformation) s.DeliveryInformation = { ...s.DeliveryInformation, DeliveryCountry: 'AA', DeliveryCountryName: 'Freedonia' };
      });
      expect(unknown).to.contain('N1 1AA, Freedonia');
      // ScheduledOn the item's own date: said once, in the item's line, not again on every ticket.
      const same = await shown('en-GB', (s) => {
        s.BasketItems = (s.BasketItems ?? []).map((item) => ({ ...item, Tickets: item.Tickets.map((t) => ({ ...t, ScheduledOn: item.PerformanceDate })) }));
      });
      expect(same).to.contain('Sat, 5 Dec 2026, 19:30');
      expect(same).not.to.contain('Performance:');
    } finally {
      await setLocale('en');
    }
  });

  it('says "not available yet" on 204 and asks again with backoff', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answers = 0;
    const api = checkoutApi({
      getSubmittedBasketSummary: () => (++answers <= 2 ? NOT_AVAILABLE_YET : submittedSummary()),
      getETickets: () => eTickets(),
    });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    await settle(el, clock);
    expect(answers).to.equal(1);
    expect(textOf(el)).to.contain('not available yet. Checking again in 2 seconds');
    await clock.tickAsync(1999);
    expect(answers).to.equal(1);
    await clock.tickAsync(1);
    await settle(el, clock);
    expect(answers).to.equal(2);
    expect(textOf(el)).to.contain('Checking again in 4 seconds');
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID); // not forgotten before the summary is shown
    await clock.tickAsync(4000);
    await settle(el, clock);
    expect(answers).to.equal(3);
    expect(el.shadowRoot?.querySelector('[part~="reference"] strong')?.textContent).to.equal('SD-7Q4K2M');
    expect(booking.basket.awaitingPayment).to.equal(null);
  });

  it('stops after a bounded number of tries and offers to check again; accessible', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let available = false;
    let answers = 0;
    const api = checkoutApi({
      getSubmittedBasketSummary: () => (++answers, available ? submittedSummary() : NOT_AVAILABLE_YET),
      getETickets: () => eTickets(),
    });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success" retry-limit="2" retry-delay="1000"></booking-confirmation>`);
    await settle(el, clock);
    await clock.tickAsync(1000);
    await settle(el, clock);
    await clock.tickAsync(2000);
    await settle(el, clock);
    expect(answers).to.equal(3); // the first ask and two more
    await clock.tickAsync(60_000);
    expect(answers).to.equal(3);
    const retry = el.shadowRoot?.querySelector<HTMLButtonElement>('[part~="retry-button"]');
    expect(retry?.textContent).to.contain('Check again');
    clock.restore();
    clock = undefined;
    await expect(el).to.be.accessible();
    available = true;
    retry?.click();
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="reference"]'), 'checking again shows the booking');
  });

  it('taken off the page while waiting, it leaves no timer, and asks again when put back', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answers = 0;
    let available = false;
    const api = checkoutApi({
      getSubmittedBasketSummary: () => (++answers, available ? submittedSummary() : NOT_AVAILABLE_YET),
      getETickets: () => eTickets(),
    });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    await settle(el, clock);
    expect(textOf(el)).to.contain('Checking again in 2 seconds');
    expect(clock.countTimers()).to.equal(1);
    const parent = el.parentElement;
    if (!parent) throw new Error('no parent');
    el.remove();
    await settle(el, clock);
    expect(clock.countTimers()).to.equal(0);
    await clock.tickAsync(60_000);
    expect(answers).to.equal(1);
    clock.restore();
    clock = undefined;
    available = true;
    parent.append(el);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="reference"]'), 'back on the page, it asks again');
    expect(answers).to.equal(2);
  });

  it('the waiting state is accessible', async () => {
    const api = checkoutApi({ getSubmittedBasketSummary: () => NOT_AVAILABLE_YET, getETickets: () => eTickets() });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success" retry-delay="60000"></booking-confirmation>`);
    await waitUntil(() => textOf(el).includes('Checking again in 30 seconds')); // the wait is capped at 30 s
    await expect(el).to.be.accessible();
    el.remove(); // ends the wait
  });

  it('e-tickets not available yet: the summary shows, the e-tickets are asked for again', async () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let asks = 0;
    const api = checkoutApi({ getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => (++asks === 1 ? NOT_AVAILABLE_YET : eTickets()) });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    await settle(el, clock);
    expect(el.shadowRoot?.querySelector('[part~="reference"]')).not.to.equal(null);
    expect(textOf(el)).to.contain('e-tickets are not available yet');
    expect($$(el, '[part~="eticket-link"]')).to.have.length(0);
    await clock.tickAsync(2000);
    await settle(el, clock);
    expect(asks).to.equal(2);
    expect($$(el, '[part~="eticket-link"]')).to.have.length(6);
  });

  it('after a failed payment says so, brings the basket back, and fires booking-payment-failed', async () => {
    const api = checkoutApi();
    const booking = await paidBooking(api);
    expect(booking.basket.value.content).to.equal(null);
    const failed = oneEvent(document, 'booking-payment-failed');
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="failure"></booking-confirmation>`);
    expect((await failed).detail).to.deep.equal({ basketId: BASKET_ID });
    await waitUntil(() => textOf(el).includes('still in your basket'));
    expect(textOf(el)).to.contain('Your payment did not go through');
    expect(booking.basket.value.content?.Items).to.have.length(2);
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    await expect(el).to.be.accessible();
  });

  it('after a failed payment with a basket no longer held, says the tickets were released', async () => {
    const api = checkoutApi({ getBasket: () => { throw apiError('getBasket', 403); } });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="failure"></booking-confirmation>`);
    await waitUntil(() => textOf(el).includes('no longer held'));
    expect(booking.basket.value.basketId).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('after a failed payment whose basket cannot be checked, never says the seats were released, and checks again on request', async () => {
    let offline = true;
    const fallback = checkoutApi();
    const api = checkoutApi({
      getBasket: (args) => {
        if (offline) throw new NetworkError('getBasket');
        return fallback.getBasket(args);
      },
    });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="failure"></booking-confirmation>`);
    await waitUntil(() => textOf(el).includes('could not check your basket'));
    expect(textOf(el)).not.to.contain('released');
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    await expect(el).to.be.accessible();
    offline = false;
    (el.shadowRoot?.querySelector('[part~="retry-button"]') as HTMLButtonElement).click();
    await waitUntil(() => textOf(el).includes('still in your basket'));
    expect(booking.basket.value.content?.Items).to.have.length(2);
  });

  it('reads the outcome from the page URL; <checkout-form> embeds it and shows the basket again after a failure', async () => {
    history.replaceState(null, '', `${location.pathname}${location.search}${location.search ? '&' : '?'}stagedoor=failure`);
    const api = checkoutApi();
    const booking = await paidBooking(api);
    const form = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    const embedded = await waitUntil(() => form.shadowRoot?.querySelector('booking-confirmation'), 'the form embeds a confirmation').then(
      () => form.shadowRoot?.querySelector('booking-confirmation') as BookingConfirmation,
    );
    await waitUntil(() => textOf(embedded).includes('still in your basket'));
    await waitUntil(() => form.shadowRoot?.querySelector('form'), 'the basket and form are back');
    expect($$(form, '[part~="item"]')).to.have.length(2);
    await expect(form).to.be.accessible();
  });

  it('with a confirmation of its own on the page, <checkout-form> embeds none, and the order is announced once', async () => {
    history.replaceState(null, '', `${location.pathname}?stagedoor=success`);
    const api = checkoutApi({ getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => eTickets() });
    const booking = await paidBooking(api);
    let announced = 0;
    const count = () => (announced += 1);
    document.addEventListener('booking-order-completed', count);
    try {
      const first = await withBooking<BookingConfirmation>(
        booking,
        html`<booking-confirmation></booking-confirmation><checkout-form></checkout-form><booking-confirmation></booking-confirmation>`,
      );
      const provider = first.parentElement;
      if (!provider) throw new Error('no provider');
      const [, form, second] = [...provider.children] as [BookingConfirmation, CheckoutForm, BookingConfirmation];
      await waitUntil(() => first.shadowRoot?.querySelector('[part~="reference"]') && second.shadowRoot?.querySelector('[part~="reference"]'));
      await form.updateComplete;
      expect(form.shadowRoot?.querySelector('booking-confirmation')).to.equal(null);
      expect(form.shadowRoot?.querySelector('[part~="empty"]')).to.equal(null); // no "basket is empty" on the thank-you page
      expect(announced).to.equal(1);
      // Disconnect and reconnect: still shown, still announced once.
      first.remove();
      provider.prepend(first);
      await first.updateComplete;
      await waitUntil(() => first.shadowRoot?.querySelector('[part~="reference"]'));
      expect(announced).to.equal(1);
    } finally {
      document.removeEventListener('booking-order-completed', count);
    }
  });

  it('survives a reload: the last completed booking is shown again (summary and e-tickets), booking-order-completed does not fire again', async () => {
    const api = checkoutApi({ getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => eTickets() });
    const booking = await paidBooking(api);
    const endpoint = booking.config.endpoint;
    let announced = 0;
    const count = () => (announced += 1);
    document.addEventListener('booking-order-completed', count);
    try {
      const first = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await waitUntil(() => $$(first, '[part~="eticket-link"]').length > 0);
      expect(announced).to.equal(1);
      expect(lastCompletedBooking(booking.basket)).to.deep.equal({ basketId: BASKET_ID, bookingReference: 'SD-7Q4K2M' });

      // The reload: a new page (new stores) on the same endpoint, in the same tab (sessionStorage).
      first.remove();
      resetSharedBookings();
      const again = testBooking(api, { endpoint });
      expect(again.basket.awaitingPayment).to.equal(null);
      const second = await withBooking<BookingConfirmation>(again, html`<booking-confirmation outcome="success"></booking-confirmation>`);
      await waitUntil(() => $$(second, '[part~="eticket-link"]').length > 0, 'the e-tickets are linked again');
      expect(second.shadowRoot?.querySelector('[part~="reference"] strong')?.textContent).to.equal('SD-7Q4K2M');
      expect(textOf(second)).to.contain('Total: £131.50');
      expect($$(second, '[part~="eticket-link"]')).to.have.length(6);
      await second.updateComplete;
      expect(announced, 'announced once, not again on the reload').to.equal(1);
      await expect(second).to.be.accessible();

      // A failure page in the same session does not take the completed booking for a failed one.
      resetSharedBookings();
      const failed = testBooking(api, { endpoint });
      const third = await withBooking<BookingConfirmation>(failed, html`<booking-confirmation outcome="failure"></booking-confirmation>`);
      await waitUntil(() => textOf(third).includes('Please try again'));
      expect(textOf(third)).not.to.contain('released');
    } finally {
      document.removeEventListener('booking-order-completed', count);
    }
  });

  it('a completed booking on another endpoint is not shown', async () => {
    const api = checkoutApi({ getSubmittedBasketSummary: () => submittedSummary(), getETickets: () => eTickets() });
    const booking = await paidBooking(api);
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="reference"]'));
    const other = testBooking(api);
    const elsewhere = await withBooking<BookingConfirmation>(other, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    expect(textOf(elsewhere)).to.contain('no booking from this browser tab');
  });

  it('with no basket sent from this tab, says there is nothing to show; accessible', async () => {
    const booking = testBooking(checkoutApi());
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    expect(textOf(el)).to.contain('no booking from this browser tab');
    await expect(el).to.be.accessible();
  });

  it('shows an error with a retry when the summary cannot be read', async () => {
    let fail = true;
    const api = checkoutApi({
      getSubmittedBasketSummary: () => {
        if (fail) throw apiError('getSubmittedBasketSummary', 500);
        return submittedSummary();
      },
      getETickets: () => eTickets(),
    });
    const booking = await paidBooking(api);
    const errorEvent = oneEvent(document, 'booking-error');
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation outcome="success"></booking-confirmation>`);
    expect((await errorEvent).detail.status).to.equal(500);
    await waitUntil(() => el.shadowRoot?.querySelector('[role="alert"] [part~="retry-button"]'));
    await expect(el).to.be.accessible();
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
    fail = false;
    el.shadowRoot?.querySelector<HTMLButtonElement>('[part~="retry-button"]')?.click();
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="reference"]'));
  });

  it('renders nothing without an outcome', async () => {
    const booking = testBooking(checkoutApi());
    const el = await withBooking<BookingConfirmation>(booking, html`<booking-confirmation></booking-confirmation>`);
    expect(textOf(el).trim()).to.equal('');
  });
});
