/**
 * Compatibility: every operation of the table answered with the shapes of the
 * service's published DTO library (LondonTheatreDirect/api-v2-dto-classes,
 * field names exactly as there), against the sandbox directly and through
 * the proxy. The five operations the interface document leaves out are here
 * in full; so are the smaller mismatches, each as decided (see the comments
 * in src/server/sandbox/handlers.ts and src/api/types.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApiClient } from '../../src/api/client.ts';
import { fillPath } from '../../src/api/match.ts';
import { operationList, operations } from '../../src/api/operations.ts';
import { createProxy } from '../../src/server/proxy/index.ts';
import type {
  AvailableTicketsResult,
  EventAvailableTicketsResult,
  EventsAvailableTicketsResult,
  EventPerformancesResult,
  EventsPerformancesResult,
  FullTicketInfo,
  PerformanceInfo,
  PrintAtHomeTicketsResult,
} from '../../src/api/types.ts';
import { harness, rec, ROUTES, sandboxPage, type Harness } from './compat-harness.ts';
import { seatId, tinyCatalogue, TINY } from './sandbox-harness.ts';

const tiny = (route: (typeof ROUTES)[number]) => harness(route, { catalogue: tinyCatalogue() });
const keys = (value: unknown) => Object.keys(rec(value)).sort();

/** The DTO classes' property names, as published. */
const DTO = {
  GetPerformanceSeatingPlan: ['SeatingPlanUrl'],
  CheckTicketAvailabilityResult: ['IsAvailable', 'TicketId'],
  GetEventsPerformancesResult: ['Events'],
  EventPerformances: ['EventId', 'Performances'],
  Performance: ['IsUnreserved', 'PerformanceDate', 'PerformanceId'],
  GetEventAvailableTicketsResult: ['AvailableEvent'],
  GetEventsAvailableTicketsResult: ['AvailableEvents'],
  AvailableEventInfo: ['AvailablePerformanceInfos', 'EventId', 'EventName'],
  AvailablePerformanceInfo: ['AvailableTicketInfos', 'AvailableTicketsBlockInfos', 'MinimumTicketPrice', 'PerformanceDate', 'PerformanceId'],
  AvailableTicketInfo: [
    'AdjacencyIndex', 'DirectBookingUrl', 'FaceValue', 'IsRestrictedView', 'RestrictionDescription', 'SellingPrice', 'TicketArea',
    'TicketId', 'TicketName1', 'TicketName2', 'VenueAddress', 'VenueCity', 'VenueId', 'VenueName',
  ],
  AvailableTicketsBlockInfo: ['AreaName', 'AvailableTicketsInfos', 'FacePrice', 'SellingPrice'],
  GetPrintAtHomeTicketsResult: ['AllTicketsGenerated', 'GeneratedTickets', 'GeneratedTicketsCount', 'RequestedTicketsCount'],
  GeneratedPrintAtHomeTicket: ['DownloadUrl', 'FileSize', 'Ticket'],
  PrintAtHomeTicketInfo: ['TicketId', 'TicketName1', 'TicketName2'],
  TicketInfo: ['IsRestrictedView', 'RestrictionDescription', 'TicketId', 'TicketName1', 'TicketName2'],
  CreateBasketResult: ['BasketId', 'Success'],
} as const;

const sorted = (list: readonly string[]) => [...list].sort();

/** Book a basket on the tiny seated performance: add, submit, pay on the sandbox's page. */
async function bookedBasket(h: Harness, seats: string[], performanceId: number = TINY.perf): Promise<string> {
  const id = await h.newBasket();
  const free = await h.available(performanceId);
  const added = await h.add(id, { Tickets: seats.map((s) => seatId(free, 'Stalls', s)) });
  assert.equal(added.status, 200);
  const submitted = await h.post(`/rest/v2/Baskets/${id}/SubmitOrder`, {
    Email: 'ada@example.com', Name: 'Ada', LastName: 'L', DeliveryType: 1,
    SuccessReturnUrl: 'https://theatre.example/ok', FailureReturnUrl: 'https://theatre.example/ko',
  });
  assert.equal(submitted.status, 200, submitted.text);
  const paid = await sandboxPage(h, String(rec(submitted.body).PaymentRedirectUrl), { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
  assert.equal(paid.status, 303);
  return id;
}

describe('the table', () => {
  test('the six DTO-library operations are rows, named by their source', () => {
    const fromDto = operationList.filter((op) => op.source === 'dto-library').map((op) => `${op.method} ${op.path}`);
    assert.deepEqual(fromDto.sort(), [
      'GET /rest/v2/Baskets/{basketId}/PrintAtHomeTickets',
      'GET /rest/v2/Events/{eventIds}/AvailableTickets',
      'GET /rest/v2/Events/{eventIds}/Performances',
      'GET /rest/v2/Events/{eventId}/AvailableTickets',
      'GET /rest/v2/Performances/{performanceId}/SeatingPlan',
      'GET /rest/v2/TicketAvailability/{ticketId}',
    ]);
    assert.equal(fillPath(operations.getEventsPerformances.path, { eventIds: '1,2' }), '/rest/v2/Events/1,2/Performances', 'commas stay commas');
  });
});

for (const route of ROUTES) {
  describe(`operations from the DTO library, ${route}`, () => {
    test('Events/{id1},{id2}/AvailableTickets: a list, each event as its own AvailableTickets answers it (GetEventsAvailableTicketsResult)', async () => {
      const h = tiny(route);
      const held = await h.newBasket();
      await h.add(held, { Tickets: [seatId(await h.available(TINY.perf), 'Stalls', 'A5')] });
      const days = `dateFrom=${h.sandbox.catalogue.Performances.find((p) => p.PerformanceId === TINY.perf)?.PerformanceDate.slice(0, 10)}`;
      const one = async (id: number) => (rec((await h.get(`/rest/v2/Events/${id}/AvailableTickets?${days}`)).body) as unknown as EventAvailableTicketsResult).AvailableEvent;
      // As a client of the DTO library asks: ids joined by commas, one of them twice and one unknown.
      const r = await h.get(`/rest/v2/Events/${TINY.twoPart},${TINY.seated},424242,${TINY.seated}/AvailableTickets?${days}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(keys(r.body), sorted(DTO.GetEventsAvailableTicketsResult));
      const { AvailableEvents } = r.body as EventsAvailableTicketsResult;
      assert.deepEqual(AvailableEvents.map((e) => e.EventId), [TINY.twoPart, TINY.seated], 'each once, in the order asked, the unknown left out');
      for (const event of AvailableEvents) assert.deepEqual(keys(event), sorted(DTO.AvailableEventInfo));
      assert.deepEqual(AvailableEvents, [await one(TINY.twoPart), await one(TINY.seated)]);
      const seated = AvailableEvents[1]?.AvailablePerformanceInfos.find((p) => p.PerformanceId === TINY.perf);
      assert.ok(seated && !seated.AvailableTicketInfos.some((t) => t.TicketArea === 'Stalls' && `${t.TicketName1}${t.TicketName2}` === 'A5'), 'a held seat is not available');
      // Our own client asks it with a list of ids.
      const api = createApiClient({ endpoint: h.endpoint, fetch: (input, init) => h.handle(new Request(input, init)) });
      assert.deepEqual(await api.getEventsAvailableTickets({ eventIds: [TINY.twoPart, TINY.seated], dateFrom: days.slice('dateFrom='.length) }), { AvailableEvents });
      // Bad input: a clear JSON error.
      const reversed = await h.get(`/rest/v2/Events/${TINY.seated},${TINY.ga}/AvailableTickets?dateFrom=2027-01-02&dateTo=2027-01-01`);
      assert.equal(reversed.status, 400);
      assert.match(String(rec(reversed.body).Message), /dateFrom must not be after dateTo/);
      assert.equal((await h.get(`/rest/v2/Events/${TINY.seated},x/AvailableTickets`)).status, 400);
    });

    test('SeatingPlan: an address of a plan of the same house FullAvailability describes', async () => {
      const h = tiny(route);
      const free = await h.available(TINY.perf);
      const sold = await h.newBasket();
      await h.add(sold, { Tickets: [seatId(free, 'Stalls', 'A5')] });
      const r = await h.get(`/rest/v2/Performances/${TINY.perf}/SeatingPlan`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(keys(r.body), sorted(DTO.GetPerformanceSeatingPlan));
      const image = await sandboxPage(h, String(rec(r.body).SeatingPlanUrl));
      assert.equal(image.status, 200);
      assert.match(image.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      const svg = await image.text();
      const seats = [...svg.matchAll(/data-ticket-id="(\d+)" data-free="(true|false)"/g)].map((m) => ({ id: Number(m[1]), free: m[2] === 'true' }));
      const nowFree = (await h.available(TINY.perf)).map((t) => t.TicketId).sort();
      assert.deepEqual(seats.filter((s) => s.free).map((s) => s.id).sort(), nowFree, 'the free seats drawn are FullAvailability\'s');
      const performance = rec(rec((await h.get(`/rest/v2/Performances/${TINY.perf}`)).body).Performance) as unknown as PerformanceInfo;
      assert.equal(seats.length, performance.TotalSeatsCount, 'every seat on sale is drawn, taken ones too');
      assert.ok(svg.includes('Stalls A 5') && /data-ticket-id="\d+" data-free="false"/.test(svg), 'the held seat is drawn taken');
      assert.equal((await h.get('/rest/v2/Performances/424242/SeatingPlan')).status, 404);
    });

    test("Events/{id}/AvailableTickets: every free ticket per performance, with its venue, by area and price too", async () => {
      const h = tiny(route);
      const day = h.sandbox.catalogue.Performances.find((p) => p.PerformanceId === TINY.perf)?.PerformanceDate.slice(0, 10) ?? '';
      const r = await h.get(`/rest/v2/Events/${TINY.seated}/AvailableTickets?dateFrom=${day}&dateTo=${day}`);
      assert.equal(r.status, 200, r.text);
      const { AvailableEvent } = r.body as EventAvailableTicketsResult;
      assert.deepEqual(keys(r.body), sorted(DTO.GetEventAvailableTicketsResult));
      assert.deepEqual(keys(AvailableEvent), sorted(DTO.AvailableEventInfo));
      assert.equal(AvailableEvent.EventId, TINY.seated);
      assert.deepEqual(AvailableEvent.AvailablePerformanceInfos.map((p) => p.PerformanceId), [TINY.perf]);
      const [performance] = AvailableEvent.AvailablePerformanceInfos;
      assert.ok(performance);
      assert.deepEqual(keys(performance), sorted(DTO.AvailablePerformanceInfo));
      const full: FullTicketInfo[] = await h.available(TINY.perf);
      assert.deepEqual(performance.AvailableTicketInfos.map((t) => t.TicketId).sort(), full.map((t) => t.TicketId).sort());
      for (const ticket of performance.AvailableTicketInfos) assert.deepEqual(keys(ticket), sorted(DTO.AvailableTicketInfo));
      const restricted = performance.AvailableTicketInfos.filter((t) => t.IsRestrictedView);
      assert.ok(restricted.length > 0 && restricted.every((t) => t.RestrictionDescription === 'Pillar'), 'restricted tickets say why');
      assert.ok(performance.AvailableTicketInfos.every((t) => t.VenueId === TINY.venue && t.VenueName === 'Tiny Theatre'));
      assert.deepEqual(
        performance.AvailableTicketsBlockInfos.flatMap((b) => b.AvailableTicketsInfos.map((t) => t.TicketId)).sort(),
        performance.AvailableTicketInfos.map((t) => t.TicketId).sort(),
      );
      for (const block of performance.AvailableTicketsBlockInfos) {
        assert.deepEqual(keys(block), sorted(DTO.AvailableTicketsBlockInfo));
        assert.ok(block.AvailableTicketsInfos.every((t) => t.TicketArea === block.AreaName && t.SellingPrice === block.SellingPrice && t.FaceValue === block.FacePrice));
      }
      // Neighbours in a row share an index: Stalls A1..A10, all free, are one run.
      const rowA = performance.AvailableTicketInfos.filter((t) => t.TicketArea === 'Stalls' && t.TicketName1 === 'A');
      assert.equal(new Set(rowA.map((t) => t.AdjacencyIndex)).size, 1);
      assert.equal(performance.MinimumTicketPrice, Math.min(...full.map((t) => t.SellingPrice)));
      assert.equal((await h.get('/rest/v2/Events/424242/AvailableTickets')).status, 404);
    });

    test('Events/{id1},{id2}/Performances: each event with its performances, as one event\'s Performances lists them', async () => {
      const h = tiny(route);
      const r = await h.get(`/rest/v2/Events/${TINY.seated},${TINY.ga}/Performances`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(keys(r.body), sorted(DTO.GetEventsPerformancesResult));
      const { Events } = r.body as EventsPerformancesResult;
      assert.deepEqual(Events.map((e) => e.EventId), [TINY.seated, TINY.ga]);
      for (const event of Events) {
        assert.deepEqual(keys(event), sorted(DTO.EventPerformances));
        const single = (await h.get(`/rest/v2/Events/${event.EventId}/Performances`)).body as EventPerformancesResult;
        assert.deepEqual(
          event.Performances.map((p) => [p.PerformanceId, p.PerformanceDate]),
          single.Performances.map((p) => [p.PerformanceId, p.PerformanceDate]),
        );
        for (const p of event.Performances) {
          assert.deepEqual(keys(p), sorted(DTO.Performance));
          assert.equal(p.IsUnreserved, event.EventId === TINY.ga, 'general admission is unreserved');
        }
      }
      // Spaces around the ids, a date range, and the single-event operation still answering one id.
      const ranged = (await h.get(`/rest/v2/Events/${TINY.seated}, ${TINY.ga}/Performances?dateFrom=2026-01-16&dateTo=2026-01-16`)).body as EventsPerformancesResult;
      assert.deepEqual(ranged.Events.map((e) => e.Performances.map((p) => p.PerformanceId)), [[TINY.perf], [TINY.gaPerf]]);
      assert.equal(rec((await h.get(`/rest/v2/Events/${TINY.seated}/Performances`)).body).EventId, TINY.seated);
      const bad = await h.get(`/rest/v2/Events/${TINY.seated},x/Performances`);
      assert.equal(bad.status, 400);
      assert.match(String(rec(bad.body).Message), /eventIds/);
    });

    test('TicketAvailability: true while free, false once held or unknown', async () => {
      const h = tiny(route);
      const free = await h.available(TINY.perf);
      const a1 = seatId(free, 'Stalls', 'A1');
      const before = await h.get(`/rest/v2/TicketAvailability/${a1}`);
      assert.equal(before.status, 200, before.text);
      assert.deepEqual(keys(before.body), sorted(DTO.CheckTicketAvailabilityResult));
      assert.deepEqual(before.body, { TicketId: a1, IsAvailable: true });
      await h.add(await h.newBasket(), { Tickets: [a1] });
      assert.deepEqual((await h.get(`/rest/v2/TicketAvailability/${a1}`)).body, { TicketId: a1, IsAvailable: false });
      assert.deepEqual((await h.get('/rest/v2/TicketAvailability/12345')).body, { TicketId: 12345, IsAvailable: false });
    });

    test('PrintAtHomeTickets: 204 until booked, then a download per ticket of a print-at-home event', async () => {
      const h = tiny(route);
      const open = await h.newBasket();
      assert.equal((await h.get(`/rest/v2/Baskets/${open}/PrintAtHomeTickets`)).status, 204);
      // The tiny events copy the first generated event's PrintAtHomeTicketsEnabled.
      const enabled = h.sandbox.catalogue.Events.find((e) => e.EventId === TINY.seated)?.PrintAtHomeTicketsEnabled;
      const id = await bookedBasket(h, ['A1', 'A2']);
      const r = await h.get(`/rest/v2/Baskets/${id}/PrintAtHomeTickets`);
      assert.equal(r.status, 200, r.text);
      const result = r.body as PrintAtHomeTicketsResult;
      assert.deepEqual(keys(result), sorted(DTO.GetPrintAtHomeTicketsResult));
      assert.equal(result.RequestedTicketsCount, 2);
      assert.equal(result.GeneratedTicketsCount, enabled ? 2 : 0);
      assert.equal(result.AllTicketsGenerated, Boolean(enabled));
      for (const generated of result.GeneratedTickets) {
        assert.deepEqual(keys(generated), sorted(DTO.GeneratedPrintAtHomeTicket));
        assert.deepEqual(keys(generated.Ticket), sorted(DTO.PrintAtHomeTicketInfo));
        const pdf = await sandboxPage(h, generated.DownloadUrl);
        assert.equal(pdf.headers.get('content-type'), 'application/pdf');
        assert.equal((await pdf.arrayBuffer()).byteLength, generated.FileSize);
      }
      assert.equal((await h.get('/rest/v2/Baskets/3f2504e0-4f89-41d3-9a0c-0305e82c3301/PrintAtHomeTickets')).status, 404);
    });

    test('PrintAtHomeTickets on an event with print-at-home tickets: every ticket generated', async () => {
      const catalogue = tinyCatalogue();
      for (const event of catalogue.Events) event.PrintAtHomeTicketsEnabled = true;
      const h = harness(route, { catalogue });
      const id = await bookedBasket(h, ['B4', 'B5']);
      const result = (await h.get(`/rest/v2/Baskets/${id}/PrintAtHomeTickets`)).body as PrintAtHomeTicketsResult;
      assert.deepEqual([result.AllTicketsGenerated, result.RequestedTicketsCount, result.GeneratedTicketsCount], [true, 2, 2]);
      assert.deepEqual(result.GeneratedTickets.map((g) => `${g.Ticket.TicketName1}${g.Ticket.TicketName2}`).sort(), ['B4', 'B5']);
    });
  });

  describe(`every read operation, as clients spell it, ${route}`, () => {
    test('literal segments and query names in any case, booleans in any case, dates with or without a time: the same answer', async () => {
      const h = tiny(route);
      const basketId = await bookedBasket(h, ['A3', 'A4']);
      const free = await h.available(TINY.perf);
      const path: Record<string, string | number> = {
        basketId, basketItemId: 1, eventId: TINY.seated, eventIds: `${TINY.seated},${TINY.ga}`, venueId: TINY.venue,
        performanceId: TINY.perf, ticketId: seatId(free, 'Circle', 'A1'),
      };
      const canonical: Record<string, string> = {
        type: '1', dateFrom: '2026-01-15', dateTo: '2026-01-31', minimumTicketsCount: '1', nbOfTickets: '2', consecutiveSeatsOnly: 'true',
        order: '0', count: '5', from: '0', requiredTicketsCount: '1',
      };
      const variant: Record<string, string> = { ...canonical, dateFrom: '2026-01-15T00:00:00', consecutiveSeatsOnly: 'True' };
      const query = (op: (typeof operationList)[number], values: Record<string, string>, upper: boolean) =>
        Object.keys(op.query).map((name) => `${upper ? name.toUpperCase() : name}=${encodeURIComponent(values[name] ?? '')}`).join('&');
      let compared = 0;
      for (const op of operationList.filter((o) => o.method === 'GET')) {
        const filled = fillPath(op.path, path);
        const a = await h.get(`${filled}${Object.keys(op.query).length ? `?${query(op, canonical, false)}` : ''}`);
        const spelled = filled.replace(/\/([A-Za-z]+)(?=\/|$)/g, (_, word: string) => `/${word.toLowerCase()}`);
        const b = await h.get(`${spelled}${Object.keys(op.query).length ? `?${query(op, variant, true)}` : ''}`);
        assert.ok(a.status < 400, `${op.name}: ${a.status} ${a.text}`);
        assert.equal(b.status, a.status, `${op.name}: ${b.text}`);
        assert.deepEqual(b.body, a.body, op.name);
        compared++;
      }
      assert.equal(compared, operationList.filter((o) => o.method === 'GET').length);
    });

    test('the writes with their paths in lower case: create, add, delete one item, delete all', async () => {
      const h = tiny(route);
      const created = await h.post('/rest/v2/baskets');
      assert.equal(created.status, 201, created.text);
      const id = String(rec(created.body).BasketId).toUpperCase();
      const free = await h.available(TINY.perf);
      for (const seat of ['A1', 'C1']) {
        const added = await h.post(`/rest/v2/baskets/${id}/tickets`, { tickets: [seatId(free, seat === 'C1' ? 'Circle' : 'Stalls', seat === 'C1' ? 'A1' : seat)] });
        assert.equal(added.status, 200, added.text);
      }
      const items = (await h.basket(id.toLowerCase())).Items;
      assert.equal(items.length, 2);
      const one = await h.del(`/rest/v2/baskets/${id}/basketitem/${items[0]?.BasketItemId}`);
      assert.equal(one.status, 200, one.text);
      const all = await h.del(`/rest/v2/baskets/${id}/tickets`);
      assert.equal(all.status, 200, all.text);
      assert.equal((await h.basket(id)).Items.length, 0);
    });
  });

  describe(`the smaller mismatches, ${route}`, () => {
    test("AvailableTickets' restricted-view tickets carry RestrictionDescription, as the DTO's TicketInfo does", async () => {
      const h = tiny(route);
      const r = await h.get(`/rest/v2/Performances/${TINY.perf}/AvailableTickets?requiredTicketsCount=1`);
      const areas = (r.body as AvailableTicketsResult).TicketAreas;
      const tickets = areas.flatMap((a) => a.Tickets);
      for (const t of tickets) assert.deepEqual(keys(t), sorted(DTO.TicketInfo));
      const restricted = tickets.filter((t) => t.IsRestrictedView);
      assert.equal(restricted.length, 2);
      assert.ok(restricted.every((t) => t.RestrictionDescription === 'Pillar'));
      assert.ok(tickets.filter((t) => !t.IsRestrictedView).every((t) => t.RestrictionDescription === null));
    });

    test('AreasPrices answers a seated performance too: its areas, with the seats FullAvailability lists', async () => {
      const h = tiny(route);
      const r = await h.get(`/rest/v2/Performances/${TINY.perf}/AreasPrices`);
      assert.equal(r.status, 200, r.text);
      const groups = rec(r.body).AreasPrices as { AreaId: number; AreaName: string; Prices: { Price: number; AvailableSeatsCount: number }[] }[];
      assert.deepEqual(groups.map((g) => [g.AreaId, g.AreaName]), [[TINY.stalls, 'Stalls'], [TINY.circle, 'Circle']]);
      const full = await h.available(TINY.perf);
      for (const group of groups) {
        for (const price of group.Prices) {
          const count = full.filter((t) => t.AreaName === group.AreaName && t.SellingPrice === price.Price).length;
          assert.equal(price.AvailableSeatsCount, count, `${group.AreaName} at ${price.Price}`);
        }
      }
    });

    test('error bodies are the service\'s { Message, MessageDetail? }: no ErrorCode, as no DTO has one', async () => {
      const h = tiny(route);
      for (const [path, status] of [['/rest/v2/Events/424242', 404], ['/rest/v2/Performances/424242/FullAvailability', 404], ['/rest/v2/Events/x', 400]] as const) {
        const r = await h.get(path);
        assert.equal(r.status, status, path);
        assert.ok(keys(r.body).every((k) => k === 'Message' || k === 'MessageDetail'), `${path}: ${r.text}`);
      }
      // The one coded failure of the DTO library is Add Tickets' FailureReason, on its 409.
      const free = await h.available(TINY.perf);
      const a1 = seatId(free, 'Stalls', 'A1');
      await h.add(await h.newBasket(), { Tickets: [a1] });
      const conflict = await h.add(await h.newBasket(), { Tickets: [a1] });
      assert.equal(conflict.status, 409);
      assert.equal(conflict.result.FailureReasonText, 'TicketNotAvailable');
      assert.equal(typeof conflict.result.FailureReason, 'number');
    });

    test('Create Basket answers 201 Created with CreateBasketResult, as a published client checks (200 on every other operation)', async () => {
      const h = tiny(route);
      const r = await h.post('/rest/v2/Baskets');
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(keys(r.body), sorted(DTO.CreateBasketResult));
      assert.match(String(rec(r.body).BasketId), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal((await h.get(`/rest/v2/Baskets/${String(rec(r.body).BasketId)}`)).status, 200, 'the basket it created is there');
      // Our own client, through this route, reads it as created.
      const api = createApiClient({ endpoint: h.endpoint, fetch: (input, init) => h.handle(new Request(input, init)) });
      const made = await api.createBasket();
      assert.equal(made.Success, true);
      assert.equal((await api.getBasket({ basketId: made.BasketId })).BasketId, made.BasketId);
    });
  });
}

test('TicketAvailability through a caching proxy is never an answer from before the ticket was taken', async () => {
  const h = harness('direct', { catalogue: tinyCatalogue() });
  const proxy = createProxy({ upstream: (request) => h.sandbox.fetch(request), apiKey: 'compat-proxy-key', log: false, rateLimit: false, now: () => h.clock.now() });
  const a1 = seatId(await h.available(TINY.perf), 'Stalls', 'A1');
  const check = async () => (await (await proxy.fetch(new Request(`http://proxy.test/api/rest/v2/TicketAvailability/${a1}`))).json()) as { IsAvailable: boolean };
  assert.equal((await check()).IsAvailable, true);
  await h.add(await h.newBasket(), { Tickets: [a1] });
  assert.equal((await check()).IsAvailable, false);
});

test('our client reads a 201 Create Basket as well as a 200 (a client must not depend on either)', async () => {
  const basketId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  for (const status of [200, 201]) {
    const api = createApiClient({ endpoint: 'http://proxy.test/api', fetch: async () => Response.json({ Success: true, BasketId: basketId }, { status }) });
    assert.deepEqual(await api.createBasket(), { Success: true, BasketId: basketId });
  }
});
