/**
 * Orders over the real handler: checkout options, deliveries, Submit Order
 * validation, the payment page (GET and form POST), booking, the summary and
 * e-tickets (204 before, content after), decline, payment timeout, on account.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceTimeToInstant } from '../../src/api/time.ts';
import type { ETicketsResult, SubmittedBasketSummary } from '../../src/api/types.ts';
import { BASE, MINUTE, rec, seatId, START, tiny, TINY, type Harness } from './sandbox-harness.ts';
import { isValidPhone } from '../../src/server/sandbox/index.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const OK_URL = 'https://shop.example/booking/done';
const FAILED_URL = 'https://shop.example/booking/failed';

function order(basketId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    BasketId: basketId,
    Email: 'ada@example.com',
    Name: 'Ada',
    LastName: 'Lovelace',
    AddressLine1: '12 St James Square',
    City: 'London',
    Zip: 'SW1Y 4JH',
    Country: 77,
    Phone: '+44 20 7946 0018',
    DeliveryType: 2,
    SuccessReturnUrl: OK_URL,
    FailureReturnUrl: FAILED_URL,
    ...extra,
  };
}

/** A basket holding Stalls A1 and A2 of the tiny seated performance. */
async function filled(h: Harness): Promise<{ id: string; ticketIds: number[] }> {
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  const ticketIds = [seatId(seats, 'Stalls', 'A1'), seatId(seats, 'Stalls', 'A2')];
  const { status } = await h.add(id, { Tickets: ticketIds });
  assert.equal(status, 200);
  return { id, ticketIds };
}

async function pay(h: Harness, id: string, outcome: string): Promise<Response> {
  return h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
  }));
}

test('Checkout options: notices to confirm, e-ticket notices, e-mail mandatory; unknown basket 404', async () => {
  const h = tiny();
  const { id } = await filled(h);
  const r = await h.get(`/rest/v2/Baskets/${id}/CheckoutOptions`);
  assert.equal(r.status, 200);
  const body = rec(r.body);
  const notices = body.CheckoutNotices as { Message: string; RequiresCustomerConfirmation: boolean }[];
  assert.ok(notices.length >= 1);
  assert.ok(notices.some((n) => n.RequiresCustomerConfirmation));
  assert.deepEqual((body.ETicketNotices as { EventId: number }[]).map((n) => n.EventId), [TINY.seated]);
  assert.equal(body.CustomerEmailIsMandatory, true);
  assert.equal((await h.get(`/rest/v2/Baskets/${UNKNOWN}/CheckoutOptions`)).status, 404);
});

test('Available deliveries (and Delivery types) of a basket; empty or unknown basket is 403', async () => {
  const h = tiny();
  const { id } = await filled(h);
  for (const op of ['AvailableDeliveries', 'DeliveryTypes']) {
    const r = await h.get(`/rest/v2/Baskets/${id}/${op}`);
    assert.equal(r.status, 200);
    const types = rec(r.body).DeliveryTypes as { DeliveryTypeId: number; DeliveryTypeName: string; DeliveryTypePrice: number }[];
    assert.ok(types.some((t) => t.DeliveryTypeId === 1 && t.DeliveryTypeName === 'Box Office Collection' && t.DeliveryTypePrice === 1));
    assert.equal((await h.get(`/rest/v2/Baskets/${UNKNOWN}/${op}`)).status, 403);
    assert.equal((await h.get(`/rest/v2/Baskets/${await h.newBasket()}/${op}`)).status, 403);
  }
});

test('Submit Order validates its body: a 400 naming the field, an invalid phone number, an unknown delivery type', async () => {
  const h = tiny();
  const { id } = await filled(h);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ Email: undefined }, /'Email' is required/],
    [{ Email: 'not-an-address' }, /'Email' is not a valid e-mail/],
    [{ Name: '' }, /'Name' is required/],
    [{ LastName: undefined }, /'LastName' is required/],
    [{ DeliveryType: undefined }, /'DeliveryType' is required/],
    [{ DeliveryType: 99 }, /'DeliveryType'/],
    [{ SuccessReturnUrl: undefined }, /'SuccessReturnUrl' is required/],
    [{ FailureReturnUrl: 'javascript:alert(1)' }, /'FailureReturnUrl' must be an absolute/],
    [{ BasketId: UNKNOWN }, /'BasketId'/],
    [{ Country: 100000 }, /'Country'/],
    [{ Country: 233, StateCode: 'ZZ' }, /'StateCode'/],
    [{ PaymentGateLanguage: 42 }, /'PaymentGateLanguage'/],
    [{ RequireTicketPlan: 'yes' }, /'RequireTicketPlan'/],
  ];
  for (const [change, message] of cases) {
    const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id, change));
    assert.equal(r.status, 400, JSON.stringify(change));
    assert.match(String(rec(r.body).Message), message, JSON.stringify(change));
  }
  for (const phone of ['12345', 'call me', '+44 20 7946 0018 0018 0018']) {
    const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id, { Phone: phone }));
    assert.equal(r.status, 400, phone);
    assert.equal(rec(r.body).Message, 'Invalid phone number');
  }
  assert.equal((await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, 'nope')).status, 400);
  assert.equal((await h.basket(id)).DeliveryInformation, null, 'a refused order changes nothing');
});

test('the phone rule: 7–15 digits, optional leading +, spaces, dashes and parentheses', () => {
  for (const ok of ['+44 20 7946 0018', '(020) 7946-0018', '2025550143', '+1 (202) 555-0143']) assert.ok(isValidPhone(ok), ok);
  for (const bad of ['123456', '1234567890123456', '+44 20 79x6', '44+20', '']) assert.ok(!isValidPhone(bad), bad);
});

test('Submit Order on an empty or unknown basket is 403', async () => {
  const h = tiny();
  const empty = await h.newBasket();
  assert.equal((await h.post(`/rest/v2/Baskets/${empty}/SubmitOrder`, order(empty))).status, 403);
  assert.equal((await h.post(`/rest/v2/Baskets/${UNKNOWN}/SubmitOrder`, order(UNKNOWN))).status, 403);
});

test('payment success: redirect to the sandbox payment page, 303 to SuccessReturnUrl, tickets booked, summary and e-tickets after 204s', async () => {
  const h = tiny({ publicUrl: 'https://sandbox.example:8443/' });
  const { id, ticketIds } = await filled(h);

  assert.equal((await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`)).status, 204);
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/ETickets`)).status, 204);

  const submitted = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id, { RequireTicketPlan: true, PaymentGateLanguage: 1 }));
  assert.equal(submitted.status, 200);
  assert.deepEqual(submitted.body, { Success: true, PaymentRedirectUrl: `https://sandbox.example:8443/sandbox/pay/${id}` });
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`)).status, 204, 'still 204 while payment is awaited');
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/ETickets`)).status, 204);
  assert.equal((await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id))).status, 403, 'a second submit is refused');

  const page = await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`));
  assert.equal(page.status, 200);
  assert.match(page.headers.get('Content-Type') ?? '', /text\/html/);
  const html = await page.text();
  // 2 × £50 + Delivery UK £3.50 + refund protection 2 × £3.50 = £110.50
  assert.match(html, /£110\.50/);
  assert.match(html, /<button[^>]*value="success"[^>]*>Pay £110\.50<\/button>/);
  assert.match(html, /<button[^>]*value="failure"[^>]*>Decline<\/button>/);
  assert.match(html, /<html lang="en-GB">/);

  const paid = await pay(h, id, 'success');
  assert.equal(paid.status, 303);
  assert.equal(paid.headers.get('Location'), OK_URL);

  const summary = await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`);
  assert.equal(summary.status, 200);
  const s = summary.body as SubmittedBasketSummary;
  assert.match(s.BookingReference, /^SD-[A-Z0-9]{8}$/);
  assert.equal(s.BasketId, id);
  assert.equal(typeof s.TransactionReference, 'number');
  assert.deepEqual(s.ProtectionInformation, { ProtectedTicketsCount: 2, TotalProtectionPrice: 7 });
  assert.equal(s.DeliveryInformation?.CustomerEmail, 'ada@example.com');
  assert.equal(s.DeliveryInformation?.DeliveryType, 2);
  assert.equal(s.DeliveryInformation?.DeliveryPrice, 3.5);
  assert.equal(s.DeliveryInformation?.BillingCountry, 'GB');
  assert.equal(s.DeliveryInformation?.BillingPhoneNumber, '+44 20 7946 0018');
  const tickets = s.BasketItems.flatMap((i) => i.Tickets);
  assert.deepEqual(tickets.map((t) => t.TicketId), ticketIds);
  for (const t of tickets) {
    assert.equal(typeof t.ScheduledOn, 'string');
    assert.ok(t.Barcode.length > 0);
  }
  assert.equal((await h.basket(id)).DeliveryInformation?.BillingFirstName, 'Ada');

  const eTickets = await h.get(`/rest/v2/Baskets/${id}/ETickets`);
  assert.equal(eTickets.status, 200);
  const items = (eTickets.body as ETicketsResult).Items;
  assert.deepEqual(items.map((i) => i.TicketId), ticketIds);
  assert.deepEqual(items[0]?.ETickets.map((e) => e.Type), ['PDF', 'AppleWallet', 'GoogleWallet']);
  for (const link of items[0]?.ETickets ?? []) {
    assert.ok(link.DownloadUrl.startsWith('https://sandbox.example:8443/sandbox/etickets/'), link.DownloadUrl);
    const file = await h.sandbox.fetch(new Request(BASE + new URL(link.DownloadUrl).pathname));
    assert.equal(file.status, 200, link.DownloadUrl);
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (link.Type === 'PDF') {
      assert.equal(file.headers.get('Content-Type'), 'application/pdf');
      const text = new TextDecoder().decode(bytes);
      assert.ok(text.startsWith('%PDF-1.4') && text.trimEnd().endsWith('%%EOF'));
      assert.match(text, new RegExp(s.BookingReference));
    } else {
      assert.equal(rec(JSON.parse(new TextDecoder().decode(bytes))).platform, link.Type);
    }
  }

  // Booked seats are never available again, whatever the time.
  h.clock.advance(60 * MINUTE);
  const free = await h.available(TINY.perf);
  assert.ok(!free.some((t) => ticketIds.includes(t.TicketId)));
  assert.equal((await h.basket(id)).Items.length, 1, 'a booked basket keeps its items');
  assert.equal((await pay(h, id, 'success')).headers.get('Location'), OK_URL, 'paying again just returns');
});

test('payment declined: 303 to FailureReturnUrl, the basket is reserved again and can be resubmitted', async () => {
  const h = tiny();
  const { id, ticketIds } = await filled(h);
  await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id));
  const declined = await pay(h, id, 'failure');
  assert.equal(declined.status, 303);
  assert.equal(declined.headers.get('Location'), FAILED_URL);
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`)).status, 204);
  const content = await h.basket(id);
  assert.deepEqual(content.Items.flatMap((i) => i.Tickets.map((t) => t.TicketId)), ticketIds, 'the customer keeps the seats');
  assert.equal(serviceTimeToInstant(content.Items[0]?.ExpirationDate ?? ''), START + 10 * MINUTE, 'with their own expiry again');
  const again = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id));
  assert.equal(again.status, 200);
  assert.equal((await pay(h, id, 'success')).headers.get('Location'), OK_URL);
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`)).status, 200);
});

test('payment declined after the items expired: the seats are released', async () => {
  const h = tiny();
  const { id, ticketIds } = await filled(h);
  h.clock.advance(9 * MINUTE);
  await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id));
  h.clock.advance(5 * MINUTE); // past the item's 10 minutes, within the 20 of payment
  assert.equal((await h.basket(id)).Items.length, 1, 'held while payment is awaited');
  assert.equal((await pay(h, id, 'failure')).headers.get('Location'), FAILED_URL);
  assert.deepEqual((await h.basket(id)).Items, []);
  const free = await h.available(TINY.perf);
  assert.ok(ticketIds.every((t) => free.some((f) => f.TicketId === t)));
});

test('payment timeout cancels the basket and releases its seats; paying afterwards returns to FailureReturnUrl', async () => {
  const h = tiny({ paymentMinutes: 20 });
  const { id, ticketIds } = await filled(h);
  h.clock.advance(MINUTE);
  await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id));
  const deadline = START + 21 * MINUTE;
  assert.equal(serviceTimeToInstant((await h.basket(id)).MinExpirationDate), deadline, 'the payment deadline is the expiry while paying');

  h.clock.set(deadline - 1);
  assert.equal((await h.basket(id)).Items.length, 1);
  assert.ok(!(await h.available(TINY.perf)).some((t) => ticketIds.includes(t.TicketId)));

  h.clock.set(deadline);
  assert.deepEqual((await h.basket(id)).Items, []);
  const free = await h.available(TINY.perf);
  assert.ok(ticketIds.every((t) => free.some((f) => f.TicketId === t)), 'released at the deadline');
  const page = await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`));
  assert.equal(page.status, 410);
  assert.match(await page.text(), /run out/);
  const late = await pay(h, id, 'success');
  assert.equal(late.status, 303);
  assert.equal(late.headers.get('Location'), FAILED_URL);
  assert.equal((await h.get(`/rest/v2/Baskets/${id}/SubmittedBasketSummary`)).status, 204);
  const { result } = await h.add(id, { Tickets: [ticketIds[0] ?? 0] });
  assert.equal(result.FailureReasonText, 'BasketIsLocked', 'a cancelled basket takes no more tickets');
});

test('the payment page speaks the PaymentGateLanguage of the order, in each of the nine languages; English without one', async () => {
  // Language → the page's lang, its Pay button (with the amount in that locale) and its Decline button.
  const expected: [number | undefined, string, RegExp, string][] = [
    [undefined, 'en-GB', /Pay £110\.50/, 'Decline'],
    [1, 'en-GB', /Pay £110\.50/, 'Decline'],
    [2, 'de', /110,50\s£ bezahlen/, 'Ablehnen'],
    [3, 'es', /Pagar 110,50\sGBP/, 'Rechazar'],
    [4, 'it', /Paga 110,50\s£/, 'Rifiuta'],
    [5, 'sv', /Betala 110,50\sGBP/, 'Avvisa'],
    [6, 'fr', /Payer 110,50\s£GB/, 'Refuser'],
    [7, 'nl', /£\s110,50 betalen/, 'Weigeren'],
    [8, 'nb', /Betal 110,50\s£/, 'Avslå'],
    [9, 'da', /Betal 110,50\s£/, 'Afvis'],
  ];
  const titles = new Set<string>();
  for (const [language, lang, pay, decline] of expected) {
    const h = tiny();
    const { id } = await filled(h);
    const extra = language === undefined ? { RequireTicketPlan: true } : { RequireTicketPlan: true, PaymentGateLanguage: language };
    assert.equal((await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id, extra))).status, 200);
    const html = await (await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`))).text();
    assert.match(html, new RegExp(`<html lang="${lang}">`), `language ${language}`);
    assert.match(html, new RegExp(`<button[^>]*value="success"[^>]*>${pay.source}</button>`), `language ${language}: the Pay button`);
    assert.match(html, new RegExp(`<button[^>]*value="failure"[^>]*>${decline}</button>`), `language ${language}: the Decline button`);
    titles.add(/<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? '');
  }
  assert.equal(titles.size, 8, 'a title of its own per language (Norwegian and Danish share "Testbetaling (sandkasse)")');
});

test('the payment page after a German order ran out of time says so in German', async () => {
  const h = tiny({ paymentMinutes: 20 });
  const { id } = await filled(h);
  await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id, { PaymentGateLanguage: 2 }));
  const page = await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`));
  assert.match(await page.text(), /Bitte bezahlen Sie bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(Ortszeit der Spielstätte\)/);
  h.clock.advance(21 * MINUTE);
  const late = await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${id}`));
  assert.equal(late.status, 410);
  const html = await late.text();
  assert.match(html, /<html lang="de">/);
  assert.match(html, /Die Zahlungsfrist ist abgelaufen; die Karten wurden wieder freigegeben\./);
  assert.match(html, /Zurück zum Shop/);
});

test('the payment page refuses a bad outcome and unknown baskets', async () => {
  const h = tiny();
  const { id } = await filled(h);
  await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, order(id));
  assert.equal((await pay(h, id, 'maybe')).status, 400);
  assert.equal((await pay(h, UNKNOWN, 'success')).status, 404);
  assert.equal((await h.sandbox.fetch(new Request(`${BASE}/sandbox/pay/${UNKNOWN}`))).status, 404);
  const notSubmitted = await h.newBasket();
  assert.equal((await pay(h, notSubmitted, 'success')).status, 404);
  assert.equal((await h.sandbox.fetch(new Request(`${BASE}/sandbox/etickets/${id}/1.pdf`))).status, 404, 'no e-tickets before booking');
});

test('Submit Order on Account: 403 unless enabled; enabled, it books at once and returns a BookingReference', async () => {
  const off = tiny();
  const a = await filled(off);
  const body = (id: string) => {
    const { SuccessReturnUrl: _s, FailureReturnUrl: _f, ...rest } = order(id);
    return { ...rest, ReturnUrl: OK_URL };
  };
  const refused = await off.post(`/rest/v2/Baskets/${a.id}/SubmitOrderOnAccount`, body(a.id));
  assert.equal(refused.status, 403);
  assert.match(String(rec(refused.body).Message), /not enabled/);

  const on = tiny({ onAccountEnabled: true });
  const b = await filled(on);
  assert.equal((await on.post(`/rest/v2/Baskets/${b.id}/SubmitOrderOnAccount`, { ...body(b.id), ReturnUrl: undefined })).status, 400);
  assert.equal(rec((await on.post(`/rest/v2/Baskets/${b.id}/SubmitOrderOnAccount`, { ...body(b.id), Phone: '12' })).body).Message, 'Invalid phone number');
  const booked = await on.post(`/rest/v2/Baskets/${b.id}/SubmitOrderOnAccount`, body(b.id));
  assert.equal(booked.status, 200);
  assert.equal(rec(booked.body).Success, true);
  const reference = String(rec(booked.body).BookingReference);
  assert.match(reference, /^SD-[A-Z0-9]{8}$/);
  const summary = await on.get(`/rest/v2/Baskets/${b.id}/SubmittedBasketSummary`);
  assert.equal(rec(summary.body).BookingReference, reference);
  on.clock.advance(60 * MINUTE);
  assert.ok(!(await on.available(TINY.perf)).some((t) => b.ticketIds.includes(t.TicketId)), 'booked for good');
  assert.equal((await on.post(`/rest/v2/Baskets/${b.id}/SubmitOrderOnAccount`, body(b.id))).status, 403, 'an already booked basket');
  const empty = await on.newBasket();
  assert.equal((await on.post(`/rest/v2/Baskets/${empty}/SubmitOrderOnAccount`, body(empty))).status, 403);
});

test('Summary and e-tickets of an unknown basket are 404', async () => {
  const h = tiny();
  assert.equal((await h.get(`/rest/v2/Baskets/${UNKNOWN}/SubmittedBasketSummary`)).status, 404);
  assert.equal((await h.get(`/rest/v2/Baskets/${UNKNOWN}/ETickets`)).status, 404);
});
