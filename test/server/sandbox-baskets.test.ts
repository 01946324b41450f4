/**
 * Baskets over the real handler: adding, holding, expiry at the exact instant,
 * removing, BestSeats, the limits, the single-seat rule, paired performances.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureReason } from '../../src/api/types.ts';
import { MIN_SERVICE_DATE_TIME, serviceTimeToInstant } from '../../src/api/time.ts';
import { MINUTE, rec, seatId, setup, tiny, tinyCatalogue, TINY, START } from './sandbox-harness.ts';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

test('Create Basket answers 201 Created with a GUID; an empty basket has no items and the minimum MinExpirationDate', async () => {
  const h = tiny();
  const r = await h.post('/rest/v2/Baskets');
  assert.equal(r.status, 201);
  assert.equal(rec(r.body).Success, true);
  const id = String(rec(r.body).BasketId);
  assert.match(id, GUID);
  const content = await h.basket(id);
  assert.deepEqual(content, { BasketId: id, MinExpirationDate: MIN_SERVICE_DATE_TIME, DeliveryInformation: null, Items: [], DiscountInformation: null });
  assert.notEqual(await h.newBasket(), id, 'every basket gets its own id');
});

test('Get Basket detail of an unknown basket is a 404 JSON error', async () => {
  const h = tiny();
  const r = await h.get(`/rest/v2/Baskets/${UNKNOWN}`);
  assert.equal(r.status, 404);
  assert.match(String(rec(r.body).Message), /does not exist/);
});

test('adding seats holds them: the item carries seats, prices, venue, and its own expiry', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  const a1 = seatId(seats, 'Stalls', 'A1');
  const a2 = seatId(seats, 'Stalls', 'A2');
  const { status, result } = await h.add(id, { Tickets: [a1, a2] });
  assert.equal(status, 200);
  assert.equal(result.Success, true);
  assert.equal(result.FailureReason, 0);
  assert.equal(result.FailureReasonText, 'None');
  assert.equal(result.BookableTicketsCount, null);
  const [item] = result.GetBasketContentResult.Items;
  assert.ok(item);
  assert.deepEqual(item.Seats, ['A1', 'A2']);
  assert.deepEqual(item.Tickets.map((t) => t.TicketId), [a1, a2]);
  assert.equal(item.AreaName, 'Stalls');
  assert.equal(item.PriceSubTotal, 100);
  assert.equal(item.VenueName, 'Tiny Theatre');
  assert.equal(item.EventName, 'Tiny Seated Show');
  assert.equal(serviceTimeToInstant(item.ExpirationDate), START + 10 * MINUTE);
  assert.equal(result.GetBasketContentResult.MinExpirationDate, item.ExpirationDate);
  const after = await h.available(TINY.perf);
  assert.ok(!after.some((t) => t.TicketId === a1 || t.TicketId === a2), 'held seats are no longer available');
  assert.deepEqual((await h.basket(id)).Items.map((i) => i.BasketItemId), [item.BasketItemId]);
});

test('a seat held by one basket gets 409 TicketNotAvailable with the add-result body for another', async () => {
  const h = tiny();
  const [first, second] = [await h.newBasket(), await h.newBasket()];
  const a5 = seatId(await h.available(TINY.perf), 'Stalls', 'A5');
  assert.equal((await h.add(first, { Tickets: [a5] })).status, 200);
  const { status, result } = await h.add(second, { Tickets: [a5] });
  assert.equal(status, 409);
  assert.equal(result.Success, false);
  assert.equal(result.FailureReason, FailureReason.TicketNotAvailable);
  assert.equal(result.FailureReasonText, 'TicketNotAvailable');
  assert.equal(result.BookableTicketsCount, null);
  assert.equal(result.GetBasketContentResult.BasketId, second);
  assert.deepEqual(result.GetBasketContentResult.Items, []);
});

test('each item expires at its own ExpirationDate: held one ms before, released exactly at it', async () => {
  const h = tiny({ reservationMinutes: 10 });
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  const a1 = seatId(seats, 'Stalls', 'A1');
  const c1 = seatId(seats, 'Circle', 'A1');
  await h.add(id, { Tickets: [a1] });
  h.clock.advance(4 * MINUTE);
  await h.add(id, { Tickets: [c1] });
  let content = await h.basket(id);
  assert.deepEqual(content.Items.map((i) => serviceTimeToInstant(i.ExpirationDate)), [START + 10 * MINUTE, START + 14 * MINUTE]);
  assert.equal(serviceTimeToInstant(content.MinExpirationDate), START + 10 * MINUTE);

  h.clock.set(START + 10 * MINUTE - 1);
  content = await h.basket(id);
  assert.equal(content.Items.length, 2, 'one ms before expiry the first item is still held');
  const other = await h.newBasket();
  assert.equal((await h.add(other, { Tickets: [a1] })).status, 409);

  h.clock.set(START + 10 * MINUTE);
  content = await h.basket(id);
  assert.deepEqual(content.Items.map((i) => i.AreaName), ['Circle'], 'at expiry the first item is gone');
  assert.equal(serviceTimeToInstant(content.MinExpirationDate), START + 14 * MINUTE);
  assert.ok((await h.available(TINY.perf)).some((t) => t.TicketId === a1), 'its seat is available again');
  assert.equal((await h.add(other, { Tickets: [a1] })).status, 200, 'and another basket can take it');

  h.clock.set(START + 14 * MINUTE);
  assert.deepEqual((await h.basket(id)).Items, []);
  assert.equal((await h.basket(id)).MinExpirationDate, MIN_SERVICE_DATE_TIME);
});

test('Delete from Basket removes one item and releases its seats; unknown items and baskets are 404', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  const a1 = seatId(seats, 'Stalls', 'A1');
  const c3 = seatId(seats, 'Circle', 'A3');
  await h.add(id, { Tickets: [a1] });
  const { result } = await h.add(id, { Tickets: [c3] });
  const [first, second] = result.GetBasketContentResult.Items;
  assert.ok(first && second);
  const r = await h.del(`/rest/v2/Baskets/${id}/BasketItem/${first.BasketItemId}`);
  assert.equal(r.status, 200);
  assert.equal(rec(r.body).Success, true);
  const after = rec(rec(r.body).GetBasketContentResult);
  assert.deepEqual((after.Items as { BasketItemId: number }[]).map((i) => i.BasketItemId), [second.BasketItemId]);
  assert.ok((await h.available(TINY.perf)).some((t) => t.TicketId === a1));
  assert.equal((await h.del(`/rest/v2/Baskets/${id}/BasketItem/${first.BasketItemId}`)).status, 404);
  assert.equal((await h.del(`/rest/v2/Baskets/${UNKNOWN}/BasketItem/1`)).status, 404);
  assert.equal((await h.del(`/rest/v2/Baskets/${id}/BasketItem/abc`)).status, 400);
});

test('Delete all releases every ticket and returns empty content; an empty or unknown basket is 403', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  await h.add(id, { Tickets: [seatId(seats, 'Stalls', 'A1'), seatId(seats, 'Stalls', 'A2')] });
  await h.add(id, { Tickets: [seatId(seats, 'Circle', 'A1')] });
  const before = (await h.available(TINY.perf)).length;
  const r = await h.del(`/rest/v2/Baskets/${id}/Tickets`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    Success: true,
    GetBasketContentResult: { BasketId: id, MinExpirationDate: MIN_SERVICE_DATE_TIME, DeliveryInformation: null, Items: [], DiscountInformation: null },
  });
  assert.equal((await h.available(TINY.perf)).length, before + 3);
  const again = await h.del(`/rest/v2/Baskets/${id}/Tickets`);
  assert.equal(again.status, 403);
  assert.match(String(rec(again.body).Message), /empty/);
  assert.equal((await h.del(`/rest/v2/Baskets/${UNKNOWN}/Tickets`)).status, 403);
});

test('Tickets and BestSeats together, or neither, or malformed, is a 400 with a message', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const a1 = seatId(await h.available(TINY.perf), 'Stalls', 'A1');
  const best = { PerformanceId: TINY.perf, AreaId: TINY.stalls, SeatsCount: 1, Price: 50 };
  const cases: [unknown, RegExp][] = [
    [{ Tickets: [a1], BestSeats: best }, /not both/],
    [{}, /required/],
    [{ Tickets: [] }, /non-empty/],
    [{ Tickets: ['x'] }, /'Tickets\[0\]' must be a whole number/],
    [{ Tickets: [a1, a1] }, /more than once/],
    [{ Tickets: [42] }, /does not exist/],
    [{ BestSeats: { ...best, SeatsCount: 0 } }, /SeatsCount/],
    [{ BestSeats: { ...best, Price: 'cheap' } }, /Price/],
    [{ BestSeats: { ...best, AreaId: 1 } }, /not an area/],
    [{ BestSeats: { ...best, Price: 51 } }, /no tickets at the price/],
    [{ BestSeats: { ...best, PerformanceId: 1 } }, /does not exist/],
    ['not json', /not valid JSON/],
  ];
  for (const [body, message] of cases) {
    const r = await h.call('POST', `/rest/v2/Baskets/${id}/Tickets`, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(String(rec(r.body).Message), message, JSON.stringify(body));
  }
  const seats = await h.available(TINY.perf);
  const mixed = [seatId(seats, 'Stalls', 'A1'), seatId(await h.available(TINY.perf2), 'Stalls', 'A1')];
  assert.equal((await h.add(id, { Tickets: mixed })).status, 400, 'tickets of two performances in one request');
  assert.equal((await h.add(UNKNOWN, { Tickets: [a1] })).status, 404, 'unknown basket');
  assert.deepEqual((await h.basket(id)).Items, [], 'nothing was added by any refused request');
});

test('BestSeats picks adjacent seats in one row of the area at that price, centred', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const { status, result } = await h.add(id, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.stalls, SeatsCount: 4, Price: 50 } });
  assert.equal(status, 200);
  const [item] = result.GetBasketContentResult.Items;
  assert.deepEqual(item?.Seats, ['A4', 'A5', 'A6', 'A7']);
  // Price 30 is row B without its restricted end seats: the block stays inside seats 2–9.
  const second = await h.add(id, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.stalls, SeatsCount: 3, Price: 30 } });
  const seats = second.result.GetBasketContentResult.Items[1]?.Seats ?? [];
  assert.equal(seats.length, 3);
  assert.ok(seats.every((s) => /^B[2-9]$/.test(s)), seats.join());
  const numbers = seats.map((s) => Number(s.slice(1)));
  assert.deepEqual(numbers, [numbers[0] ?? 0, (numbers[0] ?? 0) + 1, (numbers[0] ?? 0) + 2], 'adjacent');
});

test('BestSeats without AreaId, where two areas sell at that price: one area when one can, the best block, across areas only when none can', async () => {
  const catalogue = tinyCatalogue();
  const seated = catalogue.Events.find((e) => e.EventId === TINY.seated);
  assert.ok(seated);
  // The Circle at the Stalls' row-A price: £50 in both areas (Stalls A1–A10, Circle A1–A6).
  seated.Prices = seated.Prices.map((p) => (p.AreaId === TINY.circle ? { ...p, FaceValue: 50 } : p));
  const h = setup({ catalogue });
  const best = (basketId: string, SeatsCount: number) => h.add(basketId, { BestSeats: { PerformanceId: TINY.perf, SeatsCount, Price: 50 } });
  const seatsOf = async (basketId: string) => (await h.basket(basketId)).Items.map((i) => `${i.AreaName} ${i.Seats.join(' ')}`);

  // Both areas can: the first area of the house, its best block.
  const first = await h.newBasket();
  assert.equal((await best(first, 2)).status, 200);
  assert.deepEqual(await seatsOf(first), ['Stalls A5 A6']);
  // Stalls row A now has A1–A4 and A7–A10 free, enough for 5 but in no block of 5: the Circle has one.
  const second = await h.newBasket();
  assert.equal((await best(second, 5)).status, 200);
  assert.deepEqual(await seatsOf(second), ['Circle A1 A2 A3 A4 A5']);
  // 9 free at £50 (Stalls A1–A4 and A7–A10, Circle A6): 10 is more than remain; 9 takes them across both areas.
  const third = await h.newBasket();
  const tooMany = await best(third, 10);
  assert.equal(tooMany.status, 409);
  assert.equal(tooMany.result.FailureReasonText, 'BookableTicketsExceeded');
  assert.equal(tooMany.result.BookableTicketsCount, 9);
  assert.deepEqual(await seatsOf(third), [], 'the refused add holds nothing');
  assert.equal((await best(third, 9)).status, 200);
  assert.deepEqual(await seatsOf(third), ['Stalls A1 A2 A3 A4 A7 A8 A9 A10', 'Circle A6']);
});

test('BestSeats for more seats than remain at that area and price: 409 BookableTicketsExceeded with what remains', async () => {
  const h = tiny();
  const [a, b] = [await h.newBasket(), await h.newBasket()];
  assert.equal((await h.add(a, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.circle, SeatsCount: 4, Price: 40 } })).status, 200);
  const { status, result } = await h.add(b, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.circle, SeatsCount: 3, Price: 40 } });
  assert.equal(status, 409);
  assert.equal(result.FailureReason, FailureReason.BookableTicketsExceeded);
  assert.equal(result.FailureReasonText, 'BookableTicketsExceeded');
  assert.equal(result.BookableTicketsCount, 2);
  assert.equal((await h.add(b, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.circle, SeatsCount: 2, Price: 40 } })).status, 200, 'the offered count works');
});

test('a basket may hold 10 tickets per performance: beyond, 409 BookableTicketsExceeded with the remaining allowance', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  const rowA = Array.from({ length: 8 }, (_, i) => seatId(seats, 'Stalls', `A${i + 1}`));
  assert.equal((await h.add(id, { Tickets: rowA })).status, 200);
  const circle = Array.from({ length: 3 }, (_, i) => seatId(seats, 'Circle', `A${i + 1}`));
  const { status, result } = await h.add(id, { Tickets: circle });
  assert.equal(status, 409);
  assert.equal(result.FailureReasonText, 'BookableTicketsExceeded');
  assert.equal(result.BookableTicketsCount, 2);
  assert.equal(result.GetBasketContentResult.Items.length, 1, 'the basket keeps what it had');
  assert.equal((await h.add(id, { Tickets: circle.slice(0, 2) })).status, 200);
  // The limit is per performance: another performance is fine.
  assert.equal((await h.add(id, { Tickets: [seatId(await h.available(TINY.perf2), 'Stalls', 'A1')] })).status, 200);
});

test('single-seat rule: SeatsSelectionValidation refuses a selection that leaves one empty seat, and Add Tickets gives 409', async () => {
  const h = tiny();
  const [a, b] = [await h.newBasket(), await h.newBasket()];
  const seats = await h.available(TINY.perf);
  const id = (label: string) => seatId(seats, 'Stalls', label);
  await h.add(a, { Tickets: [id('A1'), id('A2')] });
  const validate = (ids: number[]) => h.post(`/rest/v2/Performances/${TINY.perf}/SeatsSelectionValidation`, { TicketIds: ids });

  const refused = await validate([id('A4'), id('A5')]);
  assert.equal(refused.status, 200);
  const body = rec(refused.body);
  assert.equal(body.SelectionValid, false);
  assert.equal(body.DisableBooking, true);
  assert.equal(body.InvalidSeatID, String(id('A4')));
  assert.match(String(body.ErrorMessagePlan), /single/);
  assert.match(String(body.ErrorMessageBasket), /single/);

  // A gap of one between two selected seats counts too.
  assert.equal(rec((await validate([id('A6'), id('A8')])).body).SelectionValid, false);
  const fine = rec((await validate([id('A3'), id('A4')])).body);
  assert.deepEqual(fine, { SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' });
  // A seat left at the end of a row is allowed.
  assert.equal(rec((await validate([id('A9')])).body).SelectionValid, true);

  const { status, result } = await h.add(b, { Tickets: [id('A4'), id('A5')] });
  assert.equal(status, 409);
  assert.equal(result.FailureReason, FailureReason.TicketLeavesSingleSeat);
  assert.equal(result.FailureReasonText, 'TicketLeavesSingleSeat');
  assert.equal((await h.add(b, { Tickets: [id('A3'), id('A4')] })).status, 200);

  const held = rec((await validate([id('A1')])).body);
  assert.equal(held.SelectionValid, false);
  assert.match(String(held.ErrorMessagePlan), /no longer available/);
  assert.equal((await validate([])).status, 400);
  assert.equal((await h.post(`/rest/v2/Performances/${TINY.perf}/SeatsSelectionValidation`, {})).status, 400);
  assert.equal((await validate([seatId(await h.available(TINY.perf2), 'Stalls', 'A1')])).status, 400, 'a seat of another performance');
  assert.equal((await h.post('/rest/v2/Performances/1/SeatsSelectionValidation', { TicketIds: [id('A9')] })).status, 404);
});

test('v3 add: TicketIds or AreaId/SeatsCount/Price, same response as v2; both or neither is 400', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const a1 = seatId(await h.available(TINY.perf), 'Stalls', 'A1');
  const url = `/v3/baskets/${id}/performances/${TINY.perf}/tickets`;
  const r1 = await h.post(url, { TicketIds: [a1] });
  assert.equal(r1.status, 200);
  assert.equal(rec(r1.body).Success, true);
  assert.equal((rec(rec(r1.body).GetBasketContentResult).Items as unknown[]).length, 1);
  const r2 = await h.post(`/v3/Baskets/${id}/performances/${TINY.perf}/tickets`, { AreaId: TINY.circle, SeatsCount: 2, Price: 40 });
  assert.equal(r2.status, 200);
  assert.equal((rec(rec(r2.body).GetBasketContentResult).Items as unknown[]).length, 2);
  assert.equal((await h.post(url, { TicketIds: [a1], AreaId: TINY.circle, SeatsCount: 1, Price: 40 })).status, 400);
  assert.equal((await h.post(url, {})).status, 400);
  const other = seatId(await h.available(TINY.perf2), 'Stalls', 'A1');
  assert.equal((await h.post(url, { TicketIds: [other] })).status, 400, 'a ticket of another performance');
  assert.equal((await h.post(`/v3/baskets/${id}/performances/1/tickets`, { TicketIds: [a1] })).status, 404);
  const conflict = await h.post(url, { TicketIds: [a1] });
  assert.equal(conflict.status, 409);
  assert.equal(rec(conflict.body).FailureReasonText, 'TicketNotAvailable');
});

test('paired performances: Part One tickets add the same seats of Part Two as a second item; Part Two alone is refused', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const partOne = await h.available(TINY.partOne);
  const partTwo = await h.available(TINY.partTwo);
  const { status, result } = await h.add(id, { Tickets: [seatId(partOne, 'Stalls', 'A3'), seatId(partOne, 'Stalls', 'A4')] });
  assert.equal(status, 200);
  const items = result.GetBasketContentResult.Items;
  assert.equal(items.length, 2);
  assert.deepEqual(items.map((i) => i.Seats), [['A3', 'A4'], ['A3', 'A4']]);
  assert.notEqual(items[0]?.PerformanceDate, items[1]?.PerformanceDate);
  assert.deepEqual(items[1]?.Tickets.map((t) => t.TicketId), [seatId(partTwo, 'Stalls', 'A3'), seatId(partTwo, 'Stalls', 'A4')]);
  assert.ok(!(await h.available(TINY.partTwo)).some((t) => t.AreaName === 'Stalls' && t.TicketName1 === 'A' && t.TicketName2 === '3'), 'Part Two seats are held too');

  const perf = rec((await h.get(`/rest/v2/Performances/${TINY.partTwo}`)).body).Performance;
  assert.equal(rec(perf).DirectlyBookablePerformance, false);
  assert.deepEqual(rec(perf).PairedPerformances, [TINY.partOne]);

  const other = await h.newBasket();
  const direct = await h.add(other, { Tickets: [seatId(partTwo, 'Stalls', 'A8')] });
  assert.equal(direct.status, 200);
  assert.equal(direct.result.Success, false);
  assert.equal(direct.result.FailureReason, FailureReason.TicketForNonBookablePerformance);
  assert.equal(direct.result.FailureReasonText, 'TicketForNonBookablePerformance');

  // Removing either item removes both, and releases both performances' seats.
  const removed = await h.del(`/rest/v2/Baskets/${id}/BasketItem/${items[1]?.BasketItemId ?? 0}`);
  assert.deepEqual(rec(rec(removed.body).GetBasketContentResult).Items, []);
  assert.equal((await h.available(TINY.partTwo)).length, partTwo.length);
  assert.equal((await h.available(TINY.partOne)).length, partOne.length);
});

test('a general-admission show: BestSeats by area and price, no seat map', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const prices = rec((await h.get(`/rest/v2/Performances/${TINY.gaPerf}/AreasPrices`)).body);
  assert.deepEqual(prices.AreasPrices, [{ AreaId: TINY.standing, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 10 }, { Price: 15, FaceValue: 15, AvailableSeatsCount: 10 }] }]);
  const { status, result } = await h.add(id, { BestSeats: { PerformanceId: TINY.gaPerf, AreaId: TINY.standing, SeatsCount: 3, Price: 15 } });
  assert.equal(status, 200);
  assert.equal(result.GetBasketContentResult.Items[0]?.Tickets.length, 3);
  assert.equal(result.GetBasketContentResult.Items[0]?.PriceSubTotal, 45);
  const after = rec((await h.get(`/rest/v2/Performances/${TINY.gaPerf}/AreasPrices`)).body);
  assert.equal(rec(rec(after.AreasPrices as unknown[])[0] as object).AreaId, TINY.standing);
  const groups = after.AreasPrices as { Prices: { Price: number; AvailableSeatsCount: number }[] }[];
  assert.equal(groups[0]?.Prices.find((p) => p.Price === 15)?.AvailableSeatsCount, 7);
  for (const path of [`/rest/v2/Performances/${TINY.gaPerf}/FullAvailability`, `/rest/v2/Performances/${TINY.gaPerf}/AvailableTickets?requiredTicketsCount=1`]) {
    const r = await h.get(path);
    assert.equal(r.status, 400, path);
    assert.match(String(rec(r.body).Message), /general admission/);
  }
});

test('a submitted basket refuses adds with BasketIsLocked (HTTP 200, Success false)', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.perf);
  await h.add(id, { Tickets: [seatId(seats, 'Stalls', 'A1')] });
  const submit = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
    BasketId: id, Email: 'a@example.com', Name: 'Ada', LastName: 'Lovelace', DeliveryType: 1,
    SuccessReturnUrl: 'https://shop.example/ok', FailureReturnUrl: 'https://shop.example/failed',
  });
  assert.equal(submit.status, 200);
  const { status, result } = await h.add(id, { Tickets: [seatId(seats, 'Stalls', 'A2')] });
  assert.equal(status, 200);
  assert.equal(result.Success, false);
  assert.equal(result.FailureReason, FailureReason.BasketIsLocked);
  assert.equal(result.FailureReasonText, 'BasketIsLocked');
  assert.equal((await h.del(`/rest/v2/Baskets/${id}/Tickets`)).status, 403, 'nor can it be emptied');
  const item = (await h.basket(id)).Items[0]?.BasketItemId ?? 0;
  assert.equal((await h.del(`/rest/v2/Baskets/${id}/BasketItem/${item}`)).status, 403, 'nor an item removed');
  assert.equal((await h.basket(id)).Items.length, 1);
});

test('a performance that has already taken place cannot be added', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const seats = await h.available(TINY.pastPerf);
  const { status, result } = await h.add(id, { Tickets: [seatId(seats, 'Stalls', 'A1')] });
  assert.equal(status, 409);
  assert.equal(result.FailureReasonText, 'TicketNotAvailable');
});

test('a supplier failure is a 502 with the add-result shape; nothing is held and a retry succeeds', async () => {
  const h = tiny();
  const id = await h.newBasket();
  const a1 = seatId(await h.available(TINY.perf), 'Stalls', 'A1');
  h.sandbox.failNextAdds(1);
  const failed = await h.add(id, { Tickets: [a1] });
  assert.equal(failed.status, 502);
  assert.equal(failed.result.Success, false);
  assert.equal(failed.result.FailureReason, FailureReason.BoxOfficeApiUnavailable);
  assert.equal(failed.result.FailureReasonText, 'BoxOfficeApiUnavailable');
  assert.match(String(rec(failed.result).Message), /try again/);
  assert.deepEqual(failed.result.GetBasketContentResult.Items, []);
  assert.ok((await h.available(TINY.perf)).some((t) => t.TicketId === a1), 'nothing was reserved');
  assert.equal((await h.add(id, { Tickets: [a1] })).status, 200, 'the retry goes through');

  // Only the named performance fails; one marked SupplierUnavailable in the catalogue always does.
  h.sandbox.failNextAdds(1, TINY.perf2);
  assert.equal((await h.add(id, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.circle, SeatsCount: 1, Price: 40 } })).status, 200);
  assert.equal((await h.add(id, { BestSeats: { PerformanceId: TINY.perf2, AreaId: TINY.circle, SeatsCount: 1, Price: 40 } })).status, 502);
  const catalogue = tinyCatalogue();
  catalogue.Performances = catalogue.Performances.map((p) => (p.PerformanceId === TINY.perf ? { ...p, SupplierUnavailable: true } : p));
  const down = setup({ catalogue });
  const basket = await down.newBasket();
  for (let i = 0; i < 2; i++) assert.equal((await down.add(basket, { BestSeats: { PerformanceId: TINY.perf, AreaId: TINY.circle, SeatsCount: 1, Price: 40 } })).status, 502);
});
