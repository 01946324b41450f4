import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import sinon from 'sinon';
import type { SubmitOrderBody, SubmitOrderOnAccountBody, SubmitOrderResult } from '../../src/api/types.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings, type BookingContextValue } from '../../src/state/booking.ts';
import type { BookingConfig } from '../../src/state/config.ts';
import { ORDER_RETRY_DELAYS_MS } from '../../src/state/order-retry.ts';
import { listen } from './helpers/live-regions.ts';
import { apiError, networkError, testBooking, withBooking, type FakeApi } from './helpers/fake-api.ts';
import { BASKET_ID, basketContent, basketItems, checkoutApi, checkoutOptions } from './helpers/checkout-data.ts';

interface Mounted {
  el: CheckoutForm;
  booking: BookingContextValue;
  navigated: string[];
}

async function mount(api: FakeApi, config: Partial<BookingConfig> = {}): Promise<Mounted> {
  const booking = testBooking(api, config);
  await booking.basket.add({ Tickets: [1001, 1002] });
  const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
  const navigated: string[] = [];
  el.navigate = (url) => navigated.push(url);
  await waitUntil(() => el.shadowRoot?.querySelector('form [part~="submit-button"]'), 'the checkout form renders');
  return { el, booking, navigated };
}

function $<T extends Element = HTMLElement>(el: Element, selector: string): T {
  const found = el.shadowRoot?.querySelector<T>(selector);
  if (!found) throw new Error(`not found: ${selector}`);
  return found;
}
const $$ = (el: Element, selector: string) => [...(el.shadowRoot?.querySelectorAll<HTMLElement>(selector) ?? [])];
const text = (el: Element, selector: string) => $(el, selector).textContent?.replace(/\s+/g, ' ').trim() ?? '';

function fill(el: Element, name: string, value: string): void {
  const control = $<HTMLInputElement | HTMLSelectElement>(el, `[name="${name}"]`);
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true, composed: true }));
}

async function fillValid(el: CheckoutForm): Promise<void> {
  fill(el, 'firstName', 'Ada');
  fill(el, 'lastName', 'Lovelace');
  fill(el, 'email', 'ada@example.com');
  fill(el, 'phone', '+44 20 7946 0000');
  const confirm = $<HTMLInputElement>(el, '[name="notice-1"]');
  if (!confirm.checked) confirm.click();
  await el.updateComplete;
}

async function submit(el: CheckoutForm): Promise<void> {
  $<HTMLButtonElement>(el, '[part~="submit-button"]').click();
  await el.updateComplete;
}

const bodyOf = (api: FakeApi, index = 0): SubmitOrderBody => (api.callsTo('submitOrder')[index] as { body: SubmitOrderBody }).body;

describe('<checkout-form>', () => {
  afterEach(() => resetSharedBookings());

  it('shows every basket item with venue wall-clock time, prices, restricted view and its e-ticket notice; accessible', async () => {
    const { el } = await mount(checkoutApi());
    const items = $$(el, '[part~="item"]');
    expect(items).to.have.length(2);
    const first = items[0]?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(first).to.contain('The Lantern Keeper');
    expect(first).to.contain('19:30'); // venue wall clock, whatever the browser's zone
    expect(first).to.contain('Aldwych Playhouse');
    expect(first).to.contain('Stalls');
    expect(first).to.contain('A12, A13');
    expect(first).to.contain('£45.00'); // face value
    expect(first).to.contain('£49.50'); // selling price
    expect(first).to.contain('Restricted view: Pillar on the left');
    expect(first).to.contain('E-tickets for this show arrive 48 hours');
    expect(items[1]?.textContent).not.to.contain('E-tickets for this show');
    expect(items[1]?.textContent).to.contain('14:00');
    expect(text(el, '[part~="notices"]')).to.contain('Latecomers are admitted');
    await expect(el).to.be.accessible();
  });

  it('blocks submit until every required confirmation is ticked, and says why', async () => {
    const api = checkoutApi();
    const { el } = await mount(api);
    fill(el, 'firstName', 'Ada');
    fill(el, 'lastName', 'Lovelace');
    fill(el, 'email', 'ada@example.com');
    await submit(el);
    await el.updateComplete;
    expect(api.callsTo('submitOrder')).to.have.length(0);
    const confirm = $<HTMLInputElement>(el, '[name="notice-1"]');
    expect(el.shadowRoot?.activeElement).to.equal(confirm);
    expect(confirm.getAttribute('aria-invalid')).to.equal('true');
    expect(text(el, '[part~="error-summary"]')).to.contain('tick to confirm');
    expect($(el, '[part~="error-summary"]').getAttribute('role')).to.equal('alert');
    await expect(el).to.be.accessible();

    confirm.click();
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[part~="error-summary"]')).to.equal(null);
    await submit(el);
    await waitUntil(() => api.callsTo('submitOrder').length === 1);
  });

  it('uses native validation: empty required fields are listed and the first invalid one gets focus', async () => {
    const api = checkoutApi({ getCheckoutOptions: () => checkoutOptions({ CheckoutNotices: [] }) });
    const { el } = await mount(api);
    fill(el, 'email', 'not-an-address');
    await submit(el);
    await el.updateComplete;
    expect(api.callsTo('submitOrder')).to.have.length(0);
    const firstName = $<HTMLInputElement>(el, '#field-firstName');
    expect(el.shadowRoot?.activeElement).to.equal(firstName);
    expect(firstName.getAttribute('aria-describedby')).to.contain('field-firstName-error');
    expect(text(el, '#field-firstName-error')).to.equal('Enter your first name.');
    expect(text(el, '#field-email-error')).to.contain('name@example.com');
    expect($$(el, '[part~="error-summary"] li')).to.have.length(3);
    await expect(el).to.be.accessible();
    // The phone is optional, but what is given must look like one.
    fill(el, 'phone', 'call me');
    await submit(el);
    expect(text(el, '#field-phone-error')).to.contain('digits');
    fill(el, 'phone', '+44 (20) 7946-0000');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('#field-phone-error')).to.equal(null);
    // Fixing a field clears its message at once.
    fill(el, 'firstName', 'Ada');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('#field-firstName-error')).to.equal(null);
    expect($$(el, '[part~="error-summary"] li')).to.have.length(2);
    expect(api.callsTo('submitOrder')).to.have.length(0);
  });

  it('announces the problems once on submit; a fix is told politely as the count left, the summary not read again', async () => {
    const api = checkoutApi({ getCheckoutOptions: () => checkoutOptions({ CheckoutNotices: [] }) });
    const { el } = await mount(api);
    fill(el, 'email', 'not-an-address');
    await el.updateComplete;
    const ear = listen(el.shadowRoot);
    await submit(el);
    await el.updateComplete;
    // Once, loud, the whole summary; focus goes to the first field to fix, as before.
    expect(ear.heard).to.have.length(1);
    expect(ear.heard[0]?.politeness).to.equal('assertive');
    expect(ear.heard[0]?.text).to.match(/^There are 3 problems First name: Enter your first name\. Last name: .* E-mail address: /);
    expect(el.shadowRoot?.activeElement).to.equal($(el, '#field-firstName'));

    fill(el, 'firstName', 'Ada');
    await el.updateComplete;
    expect(ear.heard.slice(1), 'one fix: the count left, politely; the summary is not read again').to.deep.equal([{ politeness: 'polite', text: '2 problems left' }]);
    expect(text(el, '[part~="error-summary"] h3')).to.equal('There are 2 problems');
    expect($$(el, '[part~="error-summary"] li')).to.have.length(2);
    await expect(el).to.be.accessible();
    fill(el, 'firstName', 'Ada L'); // typing on in a field already fixed: nothing new to say
    await el.updateComplete;
    expect(ear.heard).to.have.length(2);

    fill(el, 'lastName', 'Lovelace');
    await el.updateComplete;
    fill(el, 'email', 'ada@example.com');
    await el.updateComplete;
    expect(ear.heard.slice(2)).to.deep.equal([
      { politeness: 'polite', text: '1 problem left' },
      { politeness: 'polite', text: 'No problems left.' },
    ]);
    expect(el.shadowRoot?.querySelector('[part~="error-summary"]')).to.equal(null);

    // A new submit with a problem again: the summary is announced again, once.
    fill(el, 'email', 'ada');
    await el.updateComplete;
    await submit(el);
    await el.updateComplete;
    expect(ear.heard.slice(4)).to.have.length(1);
    expect(ear.heard[4]).to.deep.include({ politeness: 'assertive' });
    expect(ear.heard[4]?.text).to.match(/^There is a problem E-mail address: /);
    ear.stop();
    expect(api.callsTo('submitOrder')).to.have.length(0);
  });

  it('updates the total when the delivery changes, and sends the chosen one', async () => {
    const api = checkoutApi();
    const { el } = await mount(api);
    // 99 + 25 tickets; print at home (free) by default, not the box office's £1 listed first
    expect(text(el, '[part~="total"]')).to.equal('£124.00');
    const uk = $$(el, 'input[name="delivery"]').find((r) => (r as HTMLInputElement).value === '2') as HTMLInputElement;
    uk.click();
    await el.updateComplete;
    expect(text(el, '[part~="total"]')).to.equal('£128.50');
    expect(text(el, '[part~="totals"]')).to.contain('Delivery (Delivery UK)');
    expect($(el, '[part~="delivery-option"][class~="selected"]').textContent).to.contain('Delivery UK');
    // refund protection: £2.50 a ticket, three tickets
    $<HTMLInputElement>(el, '[name="ticketPlan"]').click();
    await el.updateComplete;
    expect(text(el, '[part~="total"]')).to.equal('£136.00');
    await fillValid(el);
    await submit(el);
    await waitUntil(() => api.callsTo('submitOrder').length === 1);
    expect(bodyOf(api).DeliveryType).to.equal(2);
    expect(bodyOf(api).RequireTicketPlan).to.equal(true);
  });

  it('preselects the cheapest delivery, the service\'s first of equally cheap ones, and sends it', async () => {
    const deliveries = [
      { DeliveryTypeId: 1, DeliveryTypeName: 'Box Office Collection', DeliveryTypePrice: 1 },
      { DeliveryTypeId: 2, DeliveryTypeName: 'Delivery UK', DeliveryTypePrice: 4.5 },
      { DeliveryTypeId: 5, DeliveryTypeName: 'Print at home tickets', DeliveryTypePrice: 0 },
      { DeliveryTypeId: 6, DeliveryTypeName: 'Venue dispatch', DeliveryTypePrice: 0 },
    ];
    const api = checkoutApi({ getAvailableDeliveries: () => ({ DeliveryTypes: deliveries }) });
    const { el } = await mount(api);
    const checked = $$(el, 'input[name="delivery"]').filter((r) => (r as HTMLInputElement).checked) as HTMLInputElement[];
    expect(checked.map((r) => r.value)).to.deep.equal(['5']);
    expect($(el, '[part~="delivery-option"][part~="selected"]').textContent).to.contain('Print at home tickets');
    expect(text(el, '[part~="totals"]')).to.contain('Delivery (Print at home tickets)');
    expect(text(el, '[part~="total"]')).to.equal('£124.00');
    await fillValid(el);
    await submit(el);
    await waitUntil(() => api.callsTo('submitOrder').length === 1);
    expect(bodyOf(api).DeliveryType).to.equal(5);
  });

  it('asks for a US state only when the United States is chosen, from the System list', async () => {
    const api = checkoutApi();
    const { el } = await mount(api);
    const country = $<HTMLSelectElement>(el, '#field-country');
    expect([...country.options].map((o) => o.textContent?.trim())).to.deep.equal(['Austria', 'United Kingdom', 'United States']);
    expect(country.value).to.equal('GB'); // from the locale en-GB
    expect(el.shadowRoot?.querySelector('#field-state')).to.equal(null);
    fill(el, 'country', 'US');
    await el.updateComplete;
    const states = $<HTMLSelectElement>(el, '#field-state');
    expect([...states.options].map((o) => o.value)).to.deep.equal(['', 'CA', 'NY']);
    expect(states.getAttribute('autocomplete')).to.equal('address-level1');
    await expect(el).to.be.accessible();
    fill(el, 'country', 'AT');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('#field-state')).to.equal(null);
    fill(el, 'country', 'US');
    await el.updateComplete;
    await fillValid(el);
    await submit(el);
    expect(api.callsTo('submitOrder')).to.have.length(0); // a US address needs its state
    const stateSelect = $<HTMLSelectElement>(el, '#field-state');
    expect(el.shadowRoot?.activeElement).to.equal(stateSelect);
    fill(el, 'state', 'NY');
    await submit(el);
    await waitUntil(() => api.callsTo('submitOrder').length === 1);
    expect(bodyOf(api).Country).to.equal(840);
    expect(bodyOf(api).StateCode).to.equal('NY');
  });

  it('maps a 400 invalid phone onto the phone field, and clears it when the phone is edited', async () => {
    let calls = 0;
    const api = checkoutApi({
      submitOrder: () => {
        calls += 1;
        if (calls === 1) throw apiError('submitOrder', 400, { Message: 'Invalid phone number', MessageDetail: "The field 'Phone' must have 7 to 15 digits." });
        return { Success: true, PaymentRedirectUrl: 'https://pay.example/p' };
      },
    });
    const { el } = await mount(api);
    await fillValid(el);
    const errorEvent = oneEvent(el, 'booking-error');
    await submit(el);
    await waitUntil(() => el.shadowRoot?.querySelector('#field-phone-error'), 'the phone field says so');
    const phone = $<HTMLInputElement>(el, '#field-phone');
    expect(phone.validity.customError).to.equal(true);
    expect(phone.getAttribute('aria-invalid')).to.equal('true');
    expect(phone.getAttribute('aria-describedby')).to.contain('field-phone-error');
    expect(text(el, '#field-phone-error')).to.contain('phone number');
    expect(el.shadowRoot?.activeElement).to.equal(phone);
    expect(text(el, '[part~="error-summary"]')).to.contain('Phone');
    expect((await errorEvent).detail.status).to.equal(400);
    await expect(el).to.be.accessible();
    fill(el, 'phone', '+44 20 7946 0001');
    await el.updateComplete;
    expect(phone.validity.customError).to.equal(false);
    expect(el.shadowRoot?.querySelector('#field-phone-error')).to.equal(null);
    await submit(el);
    await waitUntil(() => calls === 2);
  });

  it('on 403 says the basket is no longer valid and refreshes it', async () => {
    const api = checkoutApi({ submitOrder: () => { throw apiError('submitOrder', 403); } });
    const { el } = await mount(api);
    const refreshesBefore = api.callsTo('getBasket').length;
    await fillValid(el);
    await submit(el);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="message"][part~="error"]'), 'an error is shown');
    expect(api.callsTo('submitOrder')).to.have.length(1, 'a refusal is an answer: the order is not sent again');
    expect(text(el, '[part~="message"][part~="error"]')).to.contain('no longer valid');
    expect($(el, '[part~="message"][part~="error"]').getAttribute('role')).to.equal('alert');
    await waitUntil(() => api.callsTo('getBasket').length > refreshesBefore, 'the basket is refreshed');
    await expect(el).to.be.accessible();
  });

  for (const [locale, sentence] of [
    ['en-GB', 'This site cannot take orders right now; nothing was charged.'],
    ['de-DE', 'Diese Website kann gerade keine Bestellungen annehmen; es wurde nichts abgebucht.'],
  ] as const) {
    it(`when the site's own setup refuses the order (the proxy behind its front), says so in the customer's words (${locale}); basket and details kept`, async () => {
      // What the proxy answers (src/server/proxy/return-addresses.ts): the operator's reason is in its log only.
      const api = checkoutApi({ submitOrder: () => { throw apiError('submitOrder', 500, { Message: 'This site cannot take orders right now; nothing was charged.', Refusal: 'site-origin' }); } });
      const { el, booking, navigated } = await mount(api, { locale });
      await fillValid(el);
      await submit(el);
      await waitUntil(() => el.shadowRoot?.querySelector('[part~="message"][part~="error"]'), 'an error is shown');
      expect(text(el, '[part~="message"][part~="error"]')).to.equal(sentence);
      expect($(el, '[part~="message"][part~="error"]').getAttribute('role')).to.equal('alert');
      expect(api.callsTo('submitOrder')).to.have.length(1, 'trying again cannot help: not sent again');
      expect(navigated).to.deep.equal([]);
      expect(booking.basket.value.basketId).to.equal(BASKET_ID);
      expect($<HTMLInputElement>(el, '[name="email"]').value).to.equal('ada@example.com');
      await expect(el).to.be.accessible();
    });
  }

  it('sends an order whose answer was lost again, and the customer goes to the payment page', async () => {
    let calls = 0;
    const api = checkoutApi({
      submitOrder: () => {
        calls += 1;
        // The connection dropped on the way back: the service may have taken the order.
        if (calls === 1) throw networkError('submitOrder');
        return { Success: true, PaymentRedirectUrl: 'https://pay.example/sandbox/pay/' + BASKET_ID };
      },
    });
    const { el, navigated } = await mount(api);
    await fillValid(el);
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      await submit(el);
      await clock.tickAsync(0);
      expect(calls).to.equal(1);
      expect(el.shadowRoot?.querySelector('[part~="message"][part~="error"]')).to.equal(null, 'no error while it is sent again');
      await clock.tickAsync(ORDER_RETRY_DELAYS_MS[0] ?? 0);
    } finally {
      clock.restore();
    }
    await waitUntil(() => navigated.length === 1, 'the customer goes to the payment page');
    expect(calls).to.equal(2);
    expect(navigated[0]).to.equal('https://pay.example/sandbox/pay/' + BASKET_ID);
    expect(bodyOf(api, 1)).to.deep.equal(bodyOf(api, 0), 'the same order, sent again');
  });

  it('when every attempt loses its answer, says the box office could not be reached and keeps the details', async () => {
    const api = checkoutApi({ submitOrder: () => { throw apiError('submitOrder', 504); } });
    const { el, booking } = await mount(api);
    await fillValid(el);
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
    try {
      await submit(el);
      await clock.tickAsync(ORDER_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    } finally {
      clock.restore();
    }
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="message"][part~="error"]'), 'an error is shown');
    expect(api.callsTo('submitOrder')).to.have.length(ORDER_RETRY_DELAYS_MS.length + 1);
    expect(text(el, '[part~="message"][part~="error"]')).to.contain('try again');
    expect($<HTMLInputElement>(el, '[name="email"]').value).to.equal('ada@example.com');
    expect(booking.basket.value.basketId).to.equal(BASKET_ID);
    await expect(el).to.be.accessible();
  });

  it('sends one order however often it is submitted', async () => {
    let release: (value: SubmitOrderResult) => void = () => undefined;
    const api = checkoutApi({ submitOrder: () => new Promise<SubmitOrderResult>((resolve) => { release = resolve; }) });
    const { el, navigated } = await mount(api);
    await fillValid(el);
    const button = $<HTMLButtonElement>(el, '[part~="submit-button"]');
    button.click();
    button.click();
    $<HTMLFormElement>(el, 'form').requestSubmit();
    await el.updateComplete;
    button.click();
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(api.callsTo('submitOrder')).to.have.length(1);
    await expect(el).to.be.accessible(); // while sending
    release({ Success: true, PaymentRedirectUrl: 'https://pay.example/p' });
    await waitUntil(() => navigated.length === 1);
    expect(api.callsTo('submitOrder')).to.have.length(1);
  });

  it('goes to PaymentRedirectUrl with return URLs to this page, the locale language, the reference; fires the event', async () => {
    const api = checkoutApi();
    const { el, booking, navigated } = await mount(api, { locale: 'de-DE', transactionReference: 'host-42', currency: 'EUR' });
    await fillValid(el);
    fill(el, 'addressLine1', '12 Example Street');
    fill(el, 'company', '');
    const submitted = oneEvent(el, 'booking-checkout-submitted');
    await submit(el);
    const event = await submitted;
    expect(event.detail).to.deep.equal({ basketId: BASKET_ID, paymentRedirectUrl: 'https://pay.example/sandbox/pay/' + BASKET_ID, total: 124, currency: 'EUR' });
    await waitUntil(() => navigated.length === 1);
    expect(navigated[0]).to.equal('https://pay.example/sandbox/pay/' + BASKET_ID);
    const body = bodyOf(api);
    const success = new URL(body.SuccessReturnUrl);
    const page = new URL(location.href);
    expect(success.origin + success.pathname).to.equal(page.origin + page.pathname);
    expect(success.searchParams.get('stagedoor')).to.equal('success');
    for (const [key, value] of page.searchParams) if (key !== 'stagedoor') expect(success.searchParams.get(key)).to.equal(value);
    expect(new URL(body.FailureReturnUrl).searchParams.get('stagedoor')).to.equal('failure');
    expect(body.PaymentGateLanguage).to.equal(2); // German
    expect(body.TransactionReference).to.equal('host-42');
    expect(body).to.include({ BasketId: BASKET_ID, Email: 'ada@example.com', Name: 'Ada', LastName: 'Lovelace', Phone: '+44 20 7946 0000', AddressLine1: '12 Example Street', Country: 826, SendConfirmationEmail: true, RequireTicketPlan: false, DeliveryType: 5 });
    expect(body).not.to.have.property('CompanyName');
    expect(body.StateCode).to.equal(undefined);
    // The basket went to payment: the store starts afresh and keeps the id for the return page.
    expect(booking.basket.value.basketId).to.equal(null);
    expect(booking.basket.awaitingPayment).to.equal(BASKET_ID);
    expect(text(el, '[part~="message"]')).to.contain('Zahlungsseite'); // the locale is German: so is the widget
    await expect(el).to.be.accessible();
  });

  it('never navigates to a payment address that is not http(s)', async () => {
    const api = checkoutApi({ submitOrder: () => ({ Success: true, PaymentRedirectUrl: 'javascript:alert(1)' }) });
    const { el, booking, navigated } = await mount(api);
    await fillValid(el);
    await submit(el);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="message"][part~="error"]'), 'an error is shown');
    expect(navigated).to.have.length(0);
    expect(booking.basket.value.basketId).to.equal(BASKET_ID); // the basket is kept
  });

  it('sends the configured return URLs instead', async () => {
    const api = checkoutApi();
    const { el } = await mount(api, { successUrl: '/thanks?x=1', failureUrl: 'https://theatre.example/sorry' });
    await fillValid(el);
    $<HTMLInputElement>(el, '[name="confirmationEmail"]').click();
    await submit(el);
    await waitUntil(() => api.callsTo('submitOrder').length === 1);
    expect(bodyOf(api).SuccessReturnUrl).to.equal(new URL('/thanks?x=1', location.href).href);
    expect(bodyOf(api).FailureReturnUrl).to.equal('https://theatre.example/sorry');
    expect(bodyOf(api).SendConfirmationEmail).to.equal(false);
  });

  it('books on account when configured and allowed, and shows the booking reference', async () => {
    const api = checkoutApi({
      submitOrderOnAccount: () => ({ Success: true, BookingReference: 'ACC-991' }),
      getSubmittedBasketSummary: () => ({ ...submittedSummaryRef('ACC-991') }),
      getETickets: () => ({ Items: [] }),
    });
    const { el, navigated } = await mount(api, { onAccount: true });
    expect(text(el, '[part~="submit-button"]')).to.equal('Book now');
    await fillValid(el);
    const submitted = oneEvent(el, 'booking-checkout-submitted');
    await submit(el);
    expect((await submitted).detail.paymentRedirectUrl).to.equal(null);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="on-account-reference"]'));
    expect(text(el, '[part~="on-account-reference"]')).to.equal('ACC-991');
    const body = (api.callsTo('submitOrderOnAccount')[0] as { body: SubmitOrderOnAccountBody }).body;
    expect(new URL(body.ReturnUrl).searchParams.get('stagedoor')).to.equal('success');
    expect(body).not.to.have.property('SuccessReturnUrl');
    expect(api.callsTo('submitOrder')).to.have.length(0);
    expect(navigated).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('falls back to payment, and says so, when the proxy refuses booking on account (403)', async () => {
    const api = checkoutApi({ submitOrderOnAccount: () => { throw apiError('submitOrderOnAccount', 403); } });
    const { el, navigated } = await mount(api, { onAccount: true });
    await fillValid(el);
    await submit(el);
    await waitUntil(() => navigated.length === 1);
    expect(api.callsTo('submitOrder')).to.have.length(1);
    expect(text(el, '[part~="message"][part~="info"]')).to.contain('not available');
  });

  it('removes one item, and empties the basket only after a confirmation; focus is never dropped', async () => {
    // The service answers the removal when the test says so: the busy state can be seen.
    let answer: (() => void) | undefined;
    const plain = checkoutApi();
    const api = checkoutApi({
      deleteBasketItem: (args) => new Promise((resolve) => (answer = () => resolve(plain.deleteBasketItem(args)))),
    });
    const { el, booking } = await mount(api);
    const removed = oneEvent(el, 'booking-basket-change');
    const remove = $<HTMLButtonElement>(el, '[part~="item"]:nth-child(2) [part~="remove-button"]');
    remove.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(remove.getAttribute('aria-disabled'), 'busy').to.equal('true');
    expect(el.shadowRoot?.activeElement === remove, 'and keeps the focus').to.equal(true);
    await waitUntil(() => answer !== undefined);
    answer?.();
    expect((await removed).detail.action).to.equal('remove');
    expect(api.callsTo('deleteBasketItem')).to.deep.equal([{ basketId: BASKET_ID, basketItemId: 12 }]);
    await waitUntil(() => $$(el, '[part~="item"]').length === 1);
    // The removed item was the last: focus goes to the one before it.
    expect(el.shadowRoot?.activeElement === $(el, '[part~="item"]'), 'focus on the remaining item').to.equal(true);
    expect(document.activeElement === el).to.equal(true);

    $<HTMLButtonElement>(el, '[part~="empty-button"]').click();
    await el.updateComplete;
    expect(el.shadowRoot?.activeElement).to.equal($(el, '[part~="cancel-empty-button"]'));
    await expect(el).to.be.accessible();
    $<HTMLButtonElement>(el, '[part~="cancel-empty-button"]').click();
    await el.updateComplete;
    expect(api.callsTo('deleteAllFromBasket')).to.have.length(0);
    expect(el.shadowRoot?.activeElement).to.equal($(el, '[part~="empty-button"]'));

    $<HTMLButtonElement>(el, '[part~="empty-button"]').click();
    await el.updateComplete;
    const cleared = oneEvent(el, 'booking-basket-change');
    $<HTMLButtonElement>(el, '[part~="confirm-empty-button"]').focus();
    await sendKeys({ press: 'Enter' });
    expect((await cleared).detail.action).to.equal('clear');
    expect(api.callsTo('deleteAllFromBasket')).to.have.length(1);
    expect(booking.basket.value.basketId).to.equal(null);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="empty"]'));
    // The status that says what happened has the focus.
    await waitUntil(() => el.shadowRoot?.activeElement === $(el, '[part~="empty"]'), 'focus on the empty-basket status');
    expect(document.activeElement === el).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('when expiry releases the item whose control had the focus, focus goes to the next item, then to the status that says what happened', async () => {
    let held = basketItems();
    const api = checkoutApi({ getBasket: () => basketContent(held) });
    const { el, booking } = await mount(api);
    // The service's clock is past both holds (ExpirationDate 2026-12-01T10:10 London).
    api.clock.offset = Date.parse('2026-12-01T10:11:00Z') - Date.now();
    $<HTMLButtonElement>(el, '[part~="item"]:nth-child(1) [part~="remove-button"]').focus();
    held = held.slice(1); // the first hold ran out
    await booking.basket.refresh();
    await waitUntil(() => $$(el, '[part~="item"]').length === 1);
    await el.updateComplete;
    expect(el.shadowRoot?.activeElement === $(el, '[part~="item"]'), 'the item after it (never another item\'s Remove button)').to.equal(true);
    held = [];
    await booking.basket.refresh();
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="empty"]'));
    await el.updateComplete;
    const status = $(el, '[part~="empty"]');
    expect(status.textContent).to.contain('Time is up').and.contain('Your basket is empty.');
    expect(el.shadowRoot?.activeElement === status, 'the status').to.equal(true);
    expect(document.activeElement === el, 'never the page body').to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('can be completed with the keyboard alone', async () => {
    const api = checkoutApi();
    const { el, navigated } = await mount(api);
    // From the first notice checkbox onwards, every step by keys.
    $<HTMLInputElement>(el, '[name="notice-1"]').focus();
    await sendKeys({ press: ' ' }); // the space bar ("Space" is a name only Chromium's driver knows)
    await sendKeys({ press: 'Tab' }); // the delivery group (its checked radio)
    await sendKeys({ press: 'ArrowDown' }); // from print at home (the free one, preselected) to delivery UK
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: 'Ada' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: 'Lovelace' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: 'ada@example.com' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: '020 7946 0000' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => navigated.length === 1, 'Enter submits the form');
    expect(bodyOf(api)).to.include({ Name: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '020 7946 0000', DeliveryType: 2 });
  });

  it('shows an error with a retry when the checkout cannot load; accessible', async () => {
    let fail = true;
    const api = checkoutApi({
      getCheckoutOptions: () => {
        if (fail) throw apiError('getCheckoutOptions', 500);
        return checkoutOptions();
      },
    });
    const booking = testBooking(api);
    await booking.basket.add({ Tickets: [1001] });
    const reported = oneEvent(document, 'booking-error');
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    expect((await reported).detail).to.deep.equal({ source: 'checkout-form', message: 'The checkout could not be loaded.', status: 500 });
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="retry-button"]'), 'an error with a retry');
    expect($(el, '[role="alert"]').textContent).to.contain('could not be loaded');
    await expect(el).to.be.accessible();
    fail = false;
    $<HTMLButtonElement>(el, '[part~="retry-button"]').click();
    await waitUntil(() => el.shadowRoot?.querySelector('form'), 'the retry loads it');
  });

  it('says it is loading, accessibly, while the checkout options are on their way', async () => {
    const api = checkoutApi({ getCheckoutOptions: () => new Promise<never>(() => undefined) });
    const booking = testBooking(api);
    await booking.basket.add({ Tickets: [1001] });
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="status"]'));
    expect(text(el, '[part~="status"]')).to.equal('Loading checkout…');
    expect($$(el, '[part~="item"]')).to.have.length(2); // the basket shows meanwhile
    await expect(el).to.be.accessible();
  });

  it('says the basket is empty, accessibly, when there is none', async () => {
    const booking = testBooking(checkoutApi());
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    expect(text(el, '[part~="empty"]')).to.equal('Your basket is empty.');
    await expect(el).to.be.accessible();
  });

  it('reads the country, state and refund-protection lists only once there is a basket to check out', async () => {
    const api = checkoutApi();
    const booking = testBooking(api);
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    await el.updateComplete;
    expect(text(el, '[part~="empty"]')).to.equal('Your basket is empty.');
    expect(api.callsTo('getCountries').length + api.callsTo('getUSStates').length + api.callsTo('getTicketPlanPrice').length).to.equal(0);
    await booking.basket.add({ Tickets: [1001, 1002] });
    await waitUntil(() => el.shadowRoot?.querySelector('form [part~="submit-button"]'), 'the checkout form renders');
    expect(api.callsTo('getCountries').length).to.equal(1);
    expect(api.callsTo('getUSStates').length).to.equal(1);
  });

  it('a first add that failed (409) leaves no endless "loading": the basket is empty', async () => {
    const api = checkoutApi({
      getBasket: () => basketContent([]),
      addTickets: () => { throw apiError('addTickets', 409, { Success: false, FailureReason: 1, FailureReasonText: 'TicketNotAvailable', BookableTicketsCount: null, GetBasketContentResult: null }); },
    });
    const booking = testBooking(api);
    const el = await withBooking<CheckoutForm>(booking, html`<checkout-form></checkout-form>`);
    const outcome = await booking.basket.add({ Tickets: [1001] });
    expect(outcome.ok).to.equal(false);
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="empty"]'), 'the empty basket is said');
    expect(el.shadowRoot?.querySelector('[part~="status"]')).to.equal(null);
  });

  it('keeps what was typed across disconnect and reconnect', async () => {
    const api = checkoutApi();
    const { el } = await mount(api);
    fill(el, 'firstName', 'Ada');
    const parent = el.parentElement;
    if (!parent) throw new Error('no parent');
    el.remove();
    parent.append(el);
    await el.updateComplete;
    await waitUntil(() => el.shadowRoot?.querySelector('form'));
    expect($<HTMLInputElement>(el, '#field-firstName').value).to.equal('Ada');
    expect($$(el, '[part~="item"]')).to.have.length(2);
  });

  it('once disconnected, a late re-render fetches nothing from the default endpoint', async () => {
    const { el } = await mount(checkoutApi());
    el.remove();
    const fetchSpy = sinon.spy(window, 'fetch');
    try {
      el.requestUpdate();
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(fetchSpy.called).to.equal(false);
    } finally {
      fetchSpy.restore();
    }
  });

  it('works on its own, with the page configuration, without a provider', async () => {
    const api = checkoutApi();
    const booking = testBooking(api, { endpoint: '/standalone-checkout' });
    await booking.basket.add({ Tickets: [1001] });
    const el = await fixture<CheckoutForm>(html`<checkout-form endpoint="/standalone-checkout"></checkout-form>`);
    await waitUntil(() => el.shadowRoot?.querySelector('form'), 'the form renders from the shared booking');
    expect($$(el, '[part~="item"]')).to.have.length(2);
  });
});

function submittedSummaryRef(reference: string) {
  return {
    TransactionReference: 1, BasketId: BASKET_ID, DeliveryInformation: null, BasketItems: [], BookingReference: reference,
    ProtectionInformation: null, DiscountInformation: null,
  };
}
