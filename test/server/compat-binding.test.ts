/**
 * Compatibility: request bodies as real clients of the service send them,
 * bound by the service's rules (ASP.NET Web API v2 / Json.NET: names in any
 * case, numbers and booleans from strings, missing properties at their
 * defaults), against the sandbox directly and through the proxy. Bad values
 * are still a 400 that names the field, both ways.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AddTicketsResult, BasketContent } from '../../src/api/types.ts';
import { harness, rec, ROUTES, sandboxPage, type Harness } from './compat-harness.ts';
import { seatId, tinyCatalogue, TINY } from './sandbox-harness.ts';

const tiny = (route: (typeof ROUTES)[number]) => harness(route, { catalogue: tinyCatalogue() });

/** A basket holding Stalls A1 and A2 of the tiny seated performance. */
async function basketWithSeats(h: Harness): Promise<string> {
  const id = await h.newBasket();
  const free = await h.available(TINY.perf);
  const added = await h.add(id, { Tickets: [seatId(free, 'Stalls', 'A1'), seatId(free, 'Stalls', 'A2')] });
  assert.equal(added.status, 200, JSON.stringify(added.result));
  return id;
}

const urls = { successReturnUrl: 'https://theatre.example/ok', failureReturnUrl: 'https://theatre.example/ko' };

for (const route of ROUTES) {
  describe(`binding, ${route}`, () => {
    test('Add Tickets: ticket ids as strings, the property name in camelCase', async () => {
      const h = tiny(route);
      const id = await h.newBasket();
      const free = await h.available(TINY.perf);
      const a1 = seatId(free, 'Stalls', 'A1');
      const a2 = seatId(free, 'Stalls', 'A2');
      const r = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { tickets: [String(a1), ` ${a2} `] });
      assert.equal(r.status, 200, r.text);
      assert.equal((r.body as AddTicketsResult).Success, true);
      const basket = await h.basket(id);
      assert.deepEqual(basket.Items.flatMap((i) => i.Tickets.map((t) => t.TicketId)).sort(), [a1, a2].sort());
    });

    test('Add Tickets: BestSeats with every number a string, names in any case', async () => {
      const h = tiny(route);
      const id = await h.newBasket();
      const r = await h.post(`/rest/v2/Baskets/${id}/Tickets`, {
        bestseats: { performanceId: String(TINY.gaPerf), AREAID: String(TINY.standing), SeatsCount: '2', price: '25.00' },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal((await h.basket(id)).Items[0]?.Tickets.length, 2);
    });

    test('Add Tickets: BestSeats without AreaId on a performance with one area on sale takes that area', async () => {
      const h = tiny(route);
      const id = await h.newBasket();
      const r = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: TINY.gaPerf, SeatsCount: 2, Price: 25 } });
      assert.equal(r.status, 200, r.text);
      assert.equal((await h.basket(id)).Items[0]?.AreaName, 'Standing');
    });

    test('Add Tickets: BestSeats without AreaId on a seated show with several areas: the best seats at that price over all of them', async () => {
      const h = tiny(route);
      const id = await h.newBasket();
      // As a published client sends it: PerformanceId, SeatsCount and Price, no AreaId.
      const circle = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: TINY.perf, SeatsCount: 2, Price: 40 } });
      assert.equal(circle.status, 200, circle.text);
      const stalls = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: TINY.perf, SeatsCount: 4, Price: 50 } });
      assert.equal(stalls.status, 200, stalls.text);
      const items = (await h.basket(id)).Items.map((i) => ({ area: i.AreaName, seats: i.Seats }));
      assert.deepEqual(items, [{ area: 'Circle', seats: ['A3', 'A4'] }, { area: 'Stalls', seats: ['A4', 'A5', 'A6', 'A7'] }]);
      // A price no area sells: a 400 that says so, and the basket as it was.
      const none = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: TINY.perf, SeatsCount: 1, Price: 41 } });
      assert.equal(none.status, 400);
      assert.deepEqual(rec(none.body), { Message: `Performance ${TINY.perf} has no tickets at the price 41.`, MessageDetail: 'Take the prices from Get Area prices.' });
      assert.equal((await h.basket(id)).Items.length, 2);
    });

    test('Add Tickets: BestSeats without AreaId on a general-admission show with two areas takes places at that price', async () => {
      const h = harness(route);
      const ga = h.sandbox.catalogue.Events.find((e) => e.GeneralAdmission && new Set(e.Prices.map((p) => p.AreaId)).size > 1);
      assert.ok(ga, 'the generated catalogue has a general-admission show with two areas');
      const perf = h.sandbox.catalogue.Performances.find((p) => p.EventId === ga.EventId && p.PerformanceDate > '2026-01-16');
      assert.ok(perf);
      const prices = rec((await h.get(`/rest/v2/Performances/${perf.PerformanceId}/AreasPrices`)).body).AreasPrices as { AreaName: string; Prices: { Price: number }[] }[];
      const [group] = prices;
      const price = group?.Prices[0]?.Price;
      assert.ok(group && price !== undefined && prices.length > 1, JSON.stringify(prices));
      const id = await h.newBasket();
      const r = await h.post(`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: perf.PerformanceId, SeatsCount: 1, Price: price } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual((await h.basket(id)).Items.map((i) => [i.AreaName, i.Tickets.length]), [[group.AreaName, 1]]);
    });

    test('SubmitOrder: camelCase fields, numbers, booleans and the language as strings, no BasketId', async () => {
      const h = tiny(route);
      const id = await basketWithSeats(h);
      const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
        email: 'ada@example.com',
        name: 'Ada',
        lastName: 'Lovelace',
        phone: '+44 20 7946 0000',
        deliveryType: '1',
        country: String(h.sandbox.catalogue.System.Countries.find((c) => c.ISO3166 === 'DE')?.CountryId),
        requireTicketPlan: 'false',
        sendConfirmationEmail: 'TRUE',
        paymentGateLanguage: 'German',
        ...urls,
      });
      assert.equal(r.status, 200, r.text);
      const { PaymentRedirectUrl } = rec(r.body) as { PaymentRedirectUrl: string };
      // The order was read as meant: the payment page speaks German, the billing country is Germany.
      const page = await (await sandboxPage(h, PaymentRedirectUrl)).text();
      assert.match(page, /<html lang="de"/);
      const basket = h.sandbox.store.basket(id);
      assert.equal(basket?.order?.delivery.BillingCountry, 'DE');
    });

    test('SubmitOrder: the language as a numeric string; Country and DeliveryType as numbers in strings with spaces', async () => {
      const h = tiny(route);
      const id = await basketWithSeats(h);
      const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
        BasketId: id.toUpperCase(),
        Email: 'ada@example.com',
        Name: 'Ada',
        LastName: 'Lovelace',
        DeliveryType: ' 1 ',
        PaymentGateLanguage: '6',
        SuccessReturnUrl: urls.successReturnUrl,
        FailureReturnUrl: urls.failureReturnUrl,
      });
      assert.equal(r.status, 200, r.text);
      const page = await (await sandboxPage(h, (rec(r.body) as { PaymentRedirectUrl: string }).PaymentRedirectUrl)).text();
      assert.match(page, /<html lang="fr"/);
    });

    test('SubmitOrder naming another basket than the path is still refused, naming BasketId', async () => {
      const h = tiny(route);
      const id = await basketWithSeats(h);
      const other = await h.newBasket();
      const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
        basketId: other, email: 'ada@example.com', name: 'Ada', lastName: 'L', deliveryType: 1, ...urls,
      });
      assert.equal(r.status, 400);
      assert.match(String(rec(r.body).Message), /'BasketId'/);
      assert.equal(h.sandbox.store.basket(id)?.state, 'open', 'the basket is as it was');
    });

    test('bad values are a 400 naming the field', async () => {
      const h = tiny(route);
      const id = await basketWithSeats(h);
      const order = { Email: 'ada@example.com', Name: 'Ada', LastName: 'L', DeliveryType: 1, ...urls };
      const cases: [string, unknown, RegExp][] = [
        [`/rest/v2/Baskets/${id}/Tickets`, { Tickets: ['A1'] }, /'Tickets\[0\]'/],
        [`/rest/v2/Baskets/${id}/Tickets`, { Tickets: 7 }, /'Tickets'/],
        [`/rest/v2/Baskets/${id}/Tickets`, { BestSeats: { PerformanceId: TINY.gaPerf, SeatsCount: 'two', Price: 25 } }, /'BestSeats\.SeatsCount'/],
        [`/rest/v2/Baskets/${id}/Tickets`, { Tickets: [99999999999] }, /'Tickets\[0\]'/],
        [`/rest/v2/Baskets/${id}/SubmitOrder`, { ...order, SendConfirmationEmail: 'yes' }, /'SendConfirmationEmail'/],
        [`/rest/v2/Baskets/${id}/SubmitOrder`, { ...order, DeliveryType: 'post' }, /'DeliveryType'/],
        [`/rest/v2/Baskets/${id}/SubmitOrder`, { ...order, Country: '4.5' }, /'Country'/],
        [`/rest/v2/Baskets/${id}/SubmitOrder`, { ...order, PaymentGateLanguage: 'Klingon' }, /'PaymentGateLanguage'/],
        [`/rest/v2/Baskets/${id}/SubmitOrder`, { ...order, Email: { address: 'x' } }, /'Email'/],
        [`/rest/v2/Performances/${TINY.perf}/SeatsSelectionValidation`, { TicketIds: [true] }, /'TicketIds\[0\]'/],
      ];
      for (const [path, body, field] of cases) {
        const r = await h.post(path, body);
        assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
        assert.match(String(rec(r.body).Message), field, JSON.stringify(body));
      }
      const basket = h.sandbox.store.basket(id);
      assert.equal(basket?.state, 'open', 'no refused order changed the basket');
      assert.equal(basket?.items.length, 1);
    });

    test('missing optional properties stay at their defaults: no confirmation flag, no ticket plan, no country', async () => {
      const h = tiny(route);
      const id = await basketWithSeats(h);
      const r = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, { Email: 'ada@example.com', Name: 'Ada', LastName: 'L', DeliveryType: 1, ...urls });
      assert.equal(r.status, 200, r.text);
      const order = h.sandbox.store.basket(id)?.order;
      assert.equal(order?.requireTicketPlan, false);
      assert.equal(order?.delivery.BillingCountry, '');
    });

    test('Validate seat selection: ticketIds in camelCase, as strings', async () => {
      const h = tiny(route);
      const free = await h.available(TINY.perf);
      const r = await h.post(`/rest/v2/Performances/${TINY.perf}/SeatsSelectionValidation`, {
        ticketIds: [String(seatId(free, 'Stalls', 'A1')), String(seatId(free, 'Stalls', 'A2'))],
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(rec(r.body).SelectionValid, true);
    });

    test('v3 add: ticketIds as strings, or areaId/seatsCount/price as strings', async () => {
      const h = tiny(route);
      const id = await h.newBasket();
      const free = await h.available(TINY.perf);
      const seats = await h.post(`/v3/baskets/${id}/performances/${TINY.perf}/tickets`, { ticketIds: [String(seatId(free, 'Circle', 'A1'))] });
      assert.equal(seats.status, 200, seats.text);
      const best = await h.post(`/v3/Baskets/${id}/performances/${TINY.gaPerf}/tickets`, { areaId: String(TINY.standing), seatsCount: '1', price: '15' });
      assert.equal(best.status, 200, best.text);
      assert.equal(((best.body as AddTicketsResult).GetBasketContentResult as BasketContent).Items.length, 2);
    });
  });
}

test('through the proxy, one order however it is spelled: a repeat in other case gets the kept answer', async () => {
  const h = tiny('proxy');
  const id = await basketWithSeats(h);
  const first = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, { email: 'ada@example.com', name: 'Ada', lastName: 'L', deliveryType: '1', ...urls });
  assert.equal(first.status, 200, first.text);
  const again = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
    BasketId: id, Email: 'ada@example.com', Name: 'Ada', LastName: 'L', DeliveryType: 1,
    SuccessReturnUrl: urls.successReturnUrl, FailureReturnUrl: urls.failureReturnUrl,
  });
  assert.equal(again.status, 200, again.text);
  assert.equal(rec(again.body).PaymentRedirectUrl, rec(first.body).PaymentRedirectUrl);
});
