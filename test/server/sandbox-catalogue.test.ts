/**
 * The generated catalogue (deterministic from the seed, realistic) and the
 * inventory and System operations over it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCatalogue, createSandbox, generateCatalogue, loadCatalogue, ManualClock } from '../../src/server/sandbox/index.ts';
import { serviceTimeToInstant } from '../../src/api/time.ts';
import type { EventInfo, PerformanceInfo, Review, TicketAreaInfo, VenueInfo } from '../../src/api/types.ts';
import { BASE, rec, setup, START, tiny, TINY } from './sandbox-harness.ts';

const DAY = 86_400_000;

test('same seed and clock: the same catalogue; another seed: other sales and reviews', () => {
  const a = generateCatalogue(7, START);
  assert.deepEqual(generateCatalogue(7, START), a);
  const b = generateCatalogue(8, START);
  assert.notDeepEqual(b.Performances.map((p) => p.SoldFraction), a.Performances.map((p) => p.SoldFraction));
  assert.deepEqual(b.Venues, a.Venues, 'the venues do not depend on the seed');
});

test('same seed: the same seats are already sold, through the handler', async () => {
  const first = setup({ seed: 3 });
  const second = setup({ seed: 3 });
  const other = setup({ seed: 4 });
  const perf = first.sandbox.catalogue.Performances[0]?.PerformanceId ?? 0;
  const ids = async (h: typeof first) => (await h.available(perf)).map((t) => t.TicketId);
  assert.deepEqual(await ids(first), await ids(second));
  assert.notDeepEqual(await ids(first), await ids(other));
});

test('venues: at least three, named areas, rows and numbered seats, one of 2,000+ seats, restricted views described', () => {
  const c = generateCatalogue(1, START);
  assert.ok(c.Venues.length >= 3);
  const seats = (v: (typeof c.Venues)[number]) => v.Areas.reduce((n, a) => n + a.Rows.reduce((m, r) => m + r.Seats, 0), 0);
  assert.ok(c.Venues.some((v) => seats(v) >= 2000));
  const areaNames = new Set(c.Venues.flatMap((v) => v.Areas.map((a) => a.AreaName)));
  for (const name of ['Stalls', 'Dress Circle', 'Upper Circle', 'Balcony']) assert.ok(areaNames.has(name), name);
  const restricted = c.Venues.flatMap((v) => v.Areas.flatMap((a) => a.Rows.flatMap((r) => r.Restricted ?? [])));
  assert.ok(restricted.length > 0 && restricted.every((r) => r.Description.length > 5));
});

test('events: 8+ across several types, with realistic fields; performances for three months at 19:30 and 14:30', () => {
  const c = generateCatalogue(1, START);
  assert.ok(c.Events.length >= 8);
  assert.ok(new Set(c.Events.map((e) => e.EventType)).size >= 5);
  for (const e of c.Events) {
    assert.match(e.Description, /<p>/, e.Name);
    assert.ok(e.Images.length >= 2 && e.Images.every((i) => i.Width > 0 && i.Height > 0), e.Name);
    assert.ok(e.RunningTime && e.Reviews.length >= 10, e.Name);
    assert.ok(e.Accessibility, e.Name);
    // Two or more price bands in every area the event sells.
    const bands = new Map<number, Set<number>>();
    for (const p of e.Prices) bands.set(p.AreaId, (bands.get(p.AreaId) ?? new Set()).add(p.FaceValue));
    for (const [area, set] of bands) assert.ok(set.size >= 2, `${e.Name} area ${area}`);
  }
  assert.ok(c.Events.some((e) => e.Cast.some((m) => m.ExternalLinks.length > 0)));
  assert.ok(c.Events.some((e) => /<strong>/.test(e.LongOfferText)));
  assert.ok(c.Events.some((e) => e.ContentWarnings));
  assert.ok(c.Events.some((e) => e.GeneralAdmission));
  const times = new Set(c.Performances.map((p) => p.PerformanceDate.slice(11)));
  assert.deepEqual([...times].sort(), ['14:30:00', '19:30:00']);
  const instants = c.Performances.map((p) => serviceTimeToInstant(p.PerformanceDate));
  assert.ok(Math.min(...instants) > START);
  assert.ok(Math.max(...instants) > START + 85 * DAY && Math.max(...instants) < START + 93 * DAY);
  assert.ok(c.Performances.some((p) => p.SoldFraction >= 1), 'some sold out');
  assert.ok(c.Performances.some((p) => p.SoldFraction >= 0.9 && p.SoldFraction < 1), 'some nearly');
  const partTwo = c.Performances.filter((p) => p.DirectlyBookable === false);
  assert.ok(partTwo.length > 0);
  for (const p of partTwo) {
    const partOne = c.Performances.find((q) => q.PerformanceId === p.PairedPerformances?.[0]);
    assert.deepEqual(partOne?.PairedPerformances, [p.PerformanceId]);
    assert.equal(partOne?.PerformanceDate.slice(0, 10), p.PerformanceDate.slice(0, 10));
  }
});

test('a catalogue loads from a JSON file; a broken one is refused with a reason', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-'));
  try {
    const file = join(dir, 'catalogue.json');
    const c = generateCatalogue(5, START);
    writeFileSync(file, JSON.stringify(c));
    assert.deepEqual(loadCatalogue(file), c);
    writeFileSync(file, '{ nope');
    assert.throws(() => loadCatalogue(file), /Cannot read the catalogue/);
    assert.throws(() => checkCatalogue({ ...c, Performances: [{ ...c.Performances[0], EventId: 1 }] }), /unknown event 1/);
    assert.throws(() => checkCatalogue({ ...c, Version: 2 }), /Version/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('System lists: countries with ISO codes (UK and US first), 50 states and DC, event types, delivery types, ticket plan price, heartbeat', async () => {
  const h = setup();
  const countries = rec((await h.get('/rest/v2/System/Countries')).body).Countries as { CountryId: number; ISO3166: string; Ordering: number; CountryName: string }[];
  assert.ok(countries.length >= 249);
  assert.deepEqual(countries.slice(0, 2).map((c) => c.ISO3166), ['GB', 'US']);
  assert.equal(new Set(countries.map((c) => c.ISO3166)).size, countries.length);
  assert.ok(countries.every((c) => /^[A-Z]{2}$/.test(c.ISO3166) && c.CountryName.length > 1));
  assert.equal(countries.find((c) => c.ISO3166 === 'FR')?.CountryName, 'France');
  const states = rec((await h.get('/rest/v2/System/USStates')).body).USStates as { StateCode: string }[];
  assert.equal(states.length, 51);
  assert.ok(states.some((s) => s.StateCode === 'DC'));
  const types = rec((await h.get('/rest/v2/System/EventTypes')).body).EventTypes as { EventTypeId: number; EventTypeName: string }[];
  assert.deepEqual(types.map((t) => t.EventTypeId), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.equal(types[0]?.EventTypeName, 'Musical');
  assert.equal(types[11]?.EventTypeName, 'Concerts');
  const deliveries = rec((await h.get('/rest/v2/System/DeliveryTypes')).body).DeliveryTypes as { DeliveryTypeId: number; DeliveryTypePrice: number }[];
  assert.deepEqual(deliveries.map((d) => d.DeliveryTypeId), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(deliveries[0]?.DeliveryTypePrice, 1);
  assert.equal(rec((await h.get('/rest/v2/TicketPlanPrice')).body).Price, 3.5);
  assert.equal((await h.get('/rest/v2/System/HeartBeat')).body, true);
});

test('events: all, by type, detail (with cast) and 404; venue events omit the detail-only fields', async () => {
  const h = setup({ publicUrl: 'https://demo.example' });
  const all = rec((await h.get('/rest/v2/Events')).body).Events as EventInfo[];
  assert.ok(all.length >= 8);
  assert.ok(all.every((e) => 'AgeRating' in e && 'Accessibility' in e && !('Cast' in e)));
  assert.ok(all.every((e) => e.MainImageUrl.startsWith('https://demo.example/sandbox/images/')));
  const musicals = rec((await h.get('/rest/v2/Events?type=1')).body).Events as EventInfo[];
  assert.ok(musicals.length >= 1 && musicals.every((e) => e.EventType === 1));
  assert.deepEqual(rec((await h.get('/rest/v2/Events?type=11')).body).Events, []);
  const id = all[0]?.EventId ?? 0;
  const detail = rec(rec((await h.get(`/rest/v2/Events/${id}`)).body).Event) as unknown as EventInfo;
  assert.ok(Array.isArray(detail.Cast) && detail.Cast.length > 0);
  assert.ok(detail.Cast[0]?.Image.Url.startsWith('https://demo.example/'));
  assert.equal(typeof detail.SeatingPlanSupported, 'boolean');
  assert.deepEqual(detail.EventSeriesIds, []);
  const missing = await h.get('/rest/v2/Events/999999');
  assert.equal(missing.status, 404);
  assert.match(String(rec(missing.body).Message), /not available/);
  const venueEvents = rec((await h.get(`/rest/v2/Venues/${detail.VenueId}/Events`)).body).Events as EventInfo[];
  assert.ok(venueEvents.some((e) => e.EventId === id));
  for (const e of venueEvents) for (const field of ['AgeRating', 'DetailImageUrl', 'Accessibility', 'ContentWarnings']) assert.ok(!(field in e), field);
});

test('venues: list, detail, 404', async () => {
  const h = setup();
  const venues = rec((await h.get('/rest/v2/Venues')).body).Venues as VenueInfo[];
  assert.ok(venues.length >= 3);
  assert.ok(venues.every((v) => !('Areas' in v) && v.PlanLink.startsWith(`${BASE}/sandbox/images/`)));
  const one = rec((await h.get(`/rest/v2/Venues/${venues[0]?.VenueId ?? 0}`)).body).Venue as VenueInfo;
  assert.equal(one.Name, venues[0]?.Name);
  assert.equal((await h.get('/rest/v2/Venues/1')).status, 404);
  assert.equal((await h.get('/rest/v2/Venues/1/Events')).status, 404);
});

test('event performances: date filters (a date-only dateTo includes its day), minimumTicketsCount, sold out and nearly', async () => {
  const h = setup();
  const all = rec((await h.get('/rest/v2/Events/1001/Performances')).body).Performances as PerformanceInfo[];
  assert.ok(all.length > 50);
  assert.ok(all.some((p) => p.TotalAvailableTickesCount === 0), 'a sold-out performance');
  assert.ok(all.some((p) => p.TotalAvailableTickesCount > 0 && p.TotalAvailableTickesCount < p.TotalSeatsCount * 0.1), 'a nearly sold-out one');
  const first = all[0];
  assert.ok(first);
  const day = first.PerformanceDate.slice(0, 10);
  const oneDay = rec((await h.get(`/rest/v2/Events/1001/Performances?dateFrom=${day}&dateTo=${day}`)).body).Performances as PerformanceInfo[];
  assert.ok(oneDay.length >= 1 && oneDay.every((p) => p.PerformanceDate.startsWith(day)));
  const many = rec((await h.get('/rest/v2/Events/1001/Performances?minimumTicketsCount=500')).body).Performances as PerformanceInfo[];
  assert.ok(many.length < all.length && many.every((p) => p.TotalAvailableTickesCount >= 500));
  assert.equal((await h.get('/rest/v2/Events/1001/Performances?dateFrom=2026-02-01&dateTo=2026-01-20')).status, 400);
  assert.equal((await h.get('/rest/v2/Events/999999/Performances')).status, 404);
  const one = rec(rec((await h.get(`/rest/v2/Performances/${first.PerformanceId}`)).body).Performance);
  assert.deepEqual(one, first as unknown as Record<string, unknown>);
  assert.equal((await h.get('/rest/v2/Performances/1')).status, 404);
});

test('performances by date: both dates required, range under two months', async () => {
  const h = setup();
  const r = await h.get('/rest/v2/Performances?dateFrom=2026-01-16&dateTo=2026-01-17');
  const perfs = rec(r.body).Performances as PerformanceInfo[];
  assert.ok(perfs.length > 3);
  assert.ok(perfs.every((p) => p.PerformanceDate >= '2026-01-16' && p.PerformanceDate < '2026-01-18'));
  assert.ok(new Set(perfs.map((p) => p.EventId)).size > 2);
  // Two calendar months from 16 January is 16 March: the range must end before it.
  const tooLong = await h.get('/rest/v2/Performances?dateFrom=2026-01-16&dateTo=2026-03-16');
  assert.equal(tooLong.status, 400);
  assert.match(String(rec(tooLong.body).Message), /two months/);
  assert.equal((await h.get('/rest/v2/Performances?dateFrom=2026-01-16&dateTo=2026-03-15')).status, 200);
  assert.equal((await h.get('/rest/v2/Performances?dateFrom=2026-01-16T19:00:00&dateTo=2026-03-16T18:59:59')).status, 200);
  assert.equal((await h.get('/rest/v2/Performances?dateFrom=2026-01-20&dateTo=2026-01-16')).status, 400);
});

test('available tickets: grouped by area and price, only groups with the required count', async () => {
  const h = tiny();
  const r = await h.get(`/rest/v2/Performances/${TINY.perf}/AvailableTickets?requiredTicketsCount=3`);
  const areas = rec(r.body).TicketAreas as TicketAreaInfo[];
  assert.deepEqual(areas.map((a) => [a.AreaName, a.SellingPrice, a.Tickets.length]), [['Stalls', 50, 10], ['Stalls', 30, 8], ['Circle', 40, 6]]);
  assert.ok(areas.every((a) => a.SingleItemBookLink.startsWith(`${BASE}/sandbox/book/`)));
  const two = rec((await h.get(`/rest/v2/Performances/${TINY.perf}/AvailableTickets?requiredTicketsCount=2`)).body).TicketAreas as TicketAreaInfo[];
  const restricted = two.find((a) => a.SellingPrice === 20);
  assert.ok(restricted && restricted.Tickets.every((t) => t.IsRestrictedView));
  const full = await h.available(TINY.perf);
  assert.equal(full.length, 26);
  assert.equal(full.find((t) => t.RestrictedView)?.Description, 'Pillar');
  assert.equal((await h.get(`/rest/v2/Performances/${TINY.perf}/AvailableTickets?requiredTicketsCount=0`)).status, 400);
  // Area prices answer for a seated performance too (the interface lists no error for it): the same house.
  const prices = await h.get(`/rest/v2/Performances/${TINY.perf}/AreasPrices`);
  assert.equal(prices.status, 200);
  const groups = rec(prices.body).AreasPrices as { AreaName: string; Prices: { AvailableSeatsCount: number }[] }[];
  assert.deepEqual(groups.map((g) => g.AreaName), ['Stalls', 'Circle']);
  assert.equal(groups.flatMap((g) => g.Prices).reduce((n, p) => n + p.AvailableSeatsCount, 0), full.length);
});

test('preliminary booking information: price range per performance for N tickets, consecutive or not', async () => {
  const h = tiny();
  const url = (n: number, consecutive: boolean) => `/rest/v2/Events/${TINY.seated}/PreliminaryBookingInfo?dateFrom=2026-01-15&dateTo=2026-01-31&nbOfTickets=${n}&consecutiveSeatsOnly=${consecutive}`;
  const two = rec((await h.get(url(2, true))).body).Performances as { PerformanceId: number; MinimalTicketPrice: number; MaximalTicketPrice: number }[];
  assert.deepEqual(two.map((p) => [p.PerformanceId, p.MinimalTicketPrice, p.MaximalTicketPrice]), [[TINY.perf, 30, 50], [TINY.perf2, 30, 50]], 'the two restricted seats are not adjacent');
  const loose = rec((await h.get(url(2, false))).body).Performances as { MinimalTicketPrice: number }[];
  assert.equal(loose[0]?.MinimalTicketPrice, 20);
  assert.deepEqual(rec((await h.get(url(11, false))).body).Performances, []);
  assert.equal((await h.get(url(0, false))).status, 400);
});

test('reviews: 10 newest by default, ordering, paging, counts and average', async () => {
  const h = setup();
  const body = rec((await h.get('/rest/v2/Events/1001/Reviews')).body);
  const reviews = body.Reviews as Review[];
  assert.equal(reviews.length, 10);
  assert.deepEqual(reviews.map((r) => r.CreatedAt), [...reviews.map((r) => r.CreatedAt)].sort().reverse());
  assert.equal(body.CurrentReviewsCount, 10);
  assert.equal(body.CurrentReviewsFrom, 0);
  assert.equal(body.HighestPossibleRating, 5);
  const total = Number(body.ReviewsCount);
  assert.ok(total > 10);
  const stars = rec((await h.get(`/rest/v2/Events/1001/Reviews?order=2&count=${total}`)).body).Reviews as Review[];
  assert.deepEqual(stars.map((r) => r.Stars), [...stars.map((r) => r.Stars)].sort((a, b) => b - a));
  const average = stars.reduce((s, r) => s + r.Stars, 0) / total;
  assert.ok(Math.abs(Number(body.AverageRating) - average) < 0.06);
  const page = rec((await h.get('/rest/v2/Events/1001/Reviews?order=1&count=3&from=2')).body);
  const ascending = rec((await h.get(`/rest/v2/Events/1001/Reviews?order=1&count=${total}`)).body).Reviews as Review[];
  assert.deepEqual(page.Reviews, ascending.slice(2, 5));
  assert.equal(page.CurrentReviewsFrom, 2);
  assert.equal((await h.get('/rest/v2/Events/1001/Reviews?order=9')).status, 400);
  assert.equal((await h.get('/rest/v2/Events/999999/Reviews')).status, 404);
});

test('the catalogue follows the clock it was made with: no performance in the past', async () => {
  const later = START + 40 * DAY;
  const sandbox = createSandbox({ clock: new ManualClock(later), seed: 1 });
  assert.ok(sandbox.catalogue.Performances.every((p) => serviceTimeToInstant(p.PerformanceDate) > later));
});
