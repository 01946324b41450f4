/**
 * Analytics (src/analytics/analytics.ts): with `"analytics": "ga4"` the widget's public
 * events reach the host's `dataLayer` as GA4's e-commerce events, and the same facts as one
 * `booking-analytics` event; `purchase` once per booking reference across reloads; no
 * personal data; and a page without the setting fetches no analytics code at all.
 */
import { expect, fixtureCleanup, html } from '@open-wc/testing';
import '../../src/elements/event-list/event-list.ts';
import sinon from 'sinon';
import { startAnalytics, stopAnalytics } from '../../src/analytics/analytics.ts';
import type { BasketContent } from '../../src/api/types.ts';
import { bookingEvent, type BookingEventDetails } from '../../src/events.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import { fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { eventFixture } from './helpers/catalogue-fixtures.ts';
import { waitUntil } from './helpers/wait.ts';
import { fakeBasketService } from './helpers/fake-basket.ts';

type Layer = Record<string, unknown>[];
const page = window as unknown as { dataLayer?: Layer };
const PERSONAL = ['Ada', 'Lovelace', 'ada@example.org', '07700 900123', '12 Analytical Row', 'N1 9GU'];

function setup(analytics: string | undefined = 'ga4', endpoint = '/analytics-test-api'): { booking: BookingContextValue; source: HTMLElement } {
  const service = fakeBasketService();
  const booking = testBooking(fakeApi(service.handlers), { analytics, endpoint });
  startAnalytics(booking);
  const source = document.createElement('div');
  document.body.append(source);
  return { booking, source };
}

function fire<K extends keyof BookingEventDetails>(from: Element, type: K, detail: BookingEventDetails[K]): void {
  from.dispatchEvent(bookingEvent(type, detail));
}

/** The e-commerce events pushed, by name, in order. */
const names = (): unknown[] => (page.dataLayer ?? []).filter((e) => 'event' in e).map((e) => e.event);
const pushed = (name: string): Record<string, unknown>[] =>
  (page.dataLayer ?? []).filter((e) => e.event === name).map((e) => e.ecommerce as Record<string, unknown>);

describe('analytics', () => {
  beforeEach(() => {
    delete page.dataLayer;
    localStorage.clear();
  });
  afterEach(() => {
    stopAnalytics();
    resetSharedBookings();
    document.querySelectorAll('body > div').forEach((d) => d.remove());
  });

  it('starts from the configuration alone, and not at all without it', async () => {
    const settle = async () => { for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0)); };
    const source = document.createElement('div');
    document.body.append(source);
    testBooking(fakeApi(fakeBasketService().handlers));
    await settle();
    fire(source, 'booking-selection', { kind: 'event', eventId: 7, performanceId: null });
    expect(page.dataLayer).to.equal(undefined);

    testBooking(fakeApi(fakeBasketService().handlers), { analytics: 'ga4' });
    await settle();
    fire(source, 'booking-selection', { kind: 'event', eventId: 7, performanceId: null });
    expect(page.dataLayer).to.deep.equal([
      { ecommerce: null },
      { event: 'select_item', ecommerce: { item_list_id: 'events', item_list_name: 'events', items: [{ item_id: '7' }] } },
    ]);
  });

  it('sends view_item_list in GA4\'s shape for the list an <event-list> shows (its first, before any chunk was waited for, included); a day opened sends nothing', async () => {
    const list = fakeApi({ getEvents: () => ({ Events: [eventFixture(1042, { Name: 'Wicked' }), eventFixture(7, { Name: 'Hamlet' })] }) });
    const el = await withBooking<HTMLElement>(testBooking(list, { analytics: 'ga4' }), html`<event-list></event-list>`);
    try {
      await waitUntil(() => pushed('view_item_list').length, 'the list shown was not sent');
      expect(pushed('view_item_list')).to.deep.equal([
        { item_list_id: 'events', item_list_name: 'events', items: [{ item_id: '1042', item_name: 'Wicked', index: 0 }, { item_id: '7', item_name: 'Hamlet', index: 1 }] },
      ]);
      fire(el, 'booking-selection', { kind: 'dates', eventId: 7, performanceId: null });
      expect(names()).to.deep.equal(['view_item_list']);
    } finally {
      fixtureCleanup();
    }
  });

  it('refuses an analytics value it does not know, with a console warning, and sends nothing', () => {
    const warn = sinon.stub(console, 'warn');
    try {
      const { source } = setup('gtm');
      fire(source, 'booking-selection', { kind: 'event', eventId: 7, performanceId: null });
      expect(page.dataLayer).to.equal(undefined);
      expect(warn.calledWithMatch(/analytics "gtm" is not "ga4" or "events"/)).to.equal(true);
    } finally {
      warn.restore();
    }
  });

  it('pushes add_to_cart and remove_from_cart in GA4 shapes, each after { ecommerce: null }', async () => {
    const { booking, source } = setup();
    await booking.basket.add({ Tickets: [11, 12] });
    fire(source, 'booking-basket-change', { action: 'add', basketId: booking.basket.value.basketId, basket: booking.basket.value.content });
    const first = booking.basket.value.content!.Items[0]!;
    await booking.basket.remove(first.BasketItemId);
    fire(source, 'booking-basket-change', { action: 'remove', basketId: booking.basket.value.basketId, basket: booking.basket.value.content });

    expect(names()).to.deep.equal(['add_to_cart', 'remove_from_cart']);
    const layer = page.dataLayer!;
    expect(layer[0]).to.deep.equal({ ecommerce: null });
    expect(layer[2]).to.deep.equal({ ecommerce: null });
    expect(pushed('add_to_cart')[0]).to.deep.equal({
      currency: 'GBP',
      value: 90,
      // One item per performance and price: two seats at 45 are a quantity of 2.
      items: [{ item_id: '7', item_name: 'Show 11', item_variant: '2026-12-19T19:30:00', item_category: 'The Playhouse', price: 45, quantity: 2 }],
    });
    expect(pushed('remove_from_cart')[0]).to.deep.equal({
      currency: 'GBP',
      value: 45,
      items: [{ item_id: '7', item_name: 'Show 11', item_variant: '2026-12-19T19:30:00', item_category: 'The Playhouse', price: 45, quantity: 1 }],
    });
  });

  it('sends purchase once per booking reference, across a reload and a second tab, with the items that went to payment', async () => {
    const { booking, source } = setup();
    await booking.basket.add({ Tickets: [21] });
    const basketId = booking.basket.value.basketId!;
    fire(source, 'booking-checkout-submitted', { basketId, paymentRedirectUrl: 'https://pay.example/1', total: 45, currency: 'GBP' });
    expect(names()).to.deep.equal(['begin_checkout', 'add_shipping_info', 'add_payment_info']);
    expect(pushed('add_payment_info')[0]).to.include({ payment_type: 'card', value: 45, currency: 'GBP' });

    const completed = { basketId, bookingReference: 'SD-1042', total: 45, currency: 'GBP', ticketCount: 1 };
    // Back from payment on a fresh page: the basket is gone; the items kept at payment are used.
    stopAnalytics();
    const back = setup();
    fire(back.source, 'booking-order-completed', completed);
    // The confirmation reloaded, and the same booking shown in a second tab: nothing more.
    stopAnalytics();
    const again = setup();
    fire(again.source, 'booking-order-completed', completed);
    fire(again.source, 'booking-order-completed', completed);

    const purchases = pushed('purchase');
    expect(purchases).to.have.length(1);
    expect(purchases[0]).to.deep.equal({
      currency: 'GBP',
      value: 45,
      transaction_id: 'SD-1042',
      items: [{ item_id: '7', item_name: 'Show 21', item_variant: '2026-12-19T19:30:00', item_category: 'The Playhouse', price: 45, quantity: 1 }],
    });
  });

  it('fires the same facts as one booking-analytics event, and with "events" leaves dataLayer alone', async () => {
    const { source } = setup('events');
    const heard: BookingEventDetails['booking-analytics'][] = [];
    document.addEventListener('booking-analytics', (e) => heard.push((e as CustomEvent<BookingEventDetails['booking-analytics']>).detail), { once: true });
    fire(source, 'booking-selection', { kind: 'performance', eventId: 7, performanceId: 1042 });
    expect(heard).to.deep.equal([{ name: 'view_item', ecommerce: { items: [{ item_id: '7', performance_id: '1042' }] } }]);
    expect(page.dataLayer).to.equal(undefined);
  });

  it('never sends the customer\'s name, e-mail, phone or address', async () => {
    const { booking, source } = setup();
    await booking.basket.add({ Tickets: [31] });
    const content: BasketContent = {
      ...booking.basket.value.content!,
      DeliveryInformation: {
        DeliveryType: 5, DeliveryPrice: 0, CustomerEmail: 'ada@example.org', BillingFirstName: 'Ada', BillingSurname: 'Lovelace',
        BillingAddressLine1: '12 Analytical Row', BillingAddressLine2: '', BillingPostCode: 'N1 9GU', BillingPhoneNumber: '07700 900123', BillingCity: 'London',
      } as BasketContent['DeliveryInformation'],
    };
    const heard: unknown[] = [];
    document.addEventListener('booking-analytics', (e) => heard.push((e as CustomEvent).detail));
    fire(source, 'booking-basket-change', { action: 'add', basketId: content.BasketId, basket: content });
    fire(source, 'booking-checkout-submitted', { basketId: content.BasketId, paymentRedirectUrl: null, total: 45, currency: 'GBP' });
    fire(source, 'booking-order-completed', { basketId: content.BasketId, bookingReference: 'SD-7', total: 45, currency: 'GBP', ticketCount: 1 });
    const sent = JSON.stringify([page.dataLayer, heard]);
    expect(names()).to.include('purchase');
    for (const word of PERSONAL) expect(sent).not.to.contain(word);
  });
});
