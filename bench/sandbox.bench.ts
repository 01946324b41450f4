/**
 * Sandbox benchmarks (in process, through the real handler):
 * - add-to-basket throughput, by TicketIds and by BestSeats, over a bounded count;
 * - the 500-basket race: winners, seats sold twice (must be 0), remaining, total.
 */
import type { BenchTable } from './index.ts';
import { createSandbox, ManualClock } from '../src/server/sandbox/index.ts';
import { raceOnOnePerformance } from '../src/server/sandbox/race.ts';
import type { FullTicketInfo, PerformanceInfo } from '../src/api/types.ts';

const HEADERS = { 'Api-Key': 'bench', 'Content-Type': 'application/json' };
const ADDS = 2000;

async function call<T>(sandbox: ReturnType<typeof createSandbox>, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await sandbox.fetch(new Request(`http://bench.local${path}`, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as T };
}

async function throughput(mode: 'tickets' | 'best'): Promise<(string | number)[]> {
  const sandbox = createSandbox({ seed: 1, clock: new ManualClock(Date.UTC(2026, 0, 15, 10)) });
  const perfs = (await call<{ Performances: PerformanceInfo[] }>(sandbox, 'GET', '/rest/v2/Events/1001/Performances')).body.Performances.filter(
    (p) => p.TotalAvailableTickesCount > 400,
  );
  const areaIds = new Map(sandbox.catalogue.Venues.flatMap((v) => v.Areas.map((a) => [`${v.VenueId}:${a.AreaName}`, a.AreaId] as const)));
  const venueId = sandbox.catalogue.Events.find((e) => e.EventId === 1001)?.VenueId ?? 0;
  // Requests prepared before timing: adjacent pairs of free seats, across performances.
  const requests: unknown[] = [];
  for (const perf of perfs) {
    if (requests.length >= ADDS) break;
    const free = (await call<{ AvailableTickets: FullTicketInfo[] }>(sandbox, 'GET', `/rest/v2/Performances/${perf.PerformanceId}/FullAvailability`)).body.AvailableTickets;
    for (let i = 0; i + 1 < free.length && requests.length < ADDS; i += 2) {
      const [a, b] = [free[i], free[i + 1]];
      if (!a || !b) continue;
      requests.push(
        mode === 'tickets'
          ? { Tickets: [a.TicketId, b.TicketId] }
          : { BestSeats: { PerformanceId: perf.PerformanceId, AreaId: areaIds.get(`${venueId}:${a.AreaName}`) ?? 0, SeatsCount: 2, Price: a.SellingPrice } },
      );
    }
  }
  const baskets: string[] = [];
  for (let i = 0; i < requests.length; i++) baskets.push((await call<{ BasketId: string }>(sandbox, 'POST', '/rest/v2/Baskets')).body.BasketId);
  let ok = 0;
  const started = performance.now();
  for (let i = 0; i < requests.length; i++) {
    const r = await call(sandbox, 'POST', `/rest/v2/Baskets/${baskets[i] ?? ''}/Tickets`, requests[i]);
    if (r.status === 200) ok++;
  }
  const seconds = (performance.now() - started) / 1000;
  return [mode === 'tickets' ? 'Add Tickets by TicketIds (2 seats)' : 'Add Tickets by BestSeats (2 seats)', requests.length, ok, Math.round(requests.length / seconds), ((seconds * 1000) / requests.length).toFixed(3)];
}

export default async function sandboxBench(): Promise<BenchTable[]> {
  const rows = [await throughput('tickets'), await throughput('best')];
  const race = await raceOnOnePerformance(createSandbox({ seed: 1 }), 500);
  return [
    {
      title: 'Sandbox: add-to-basket throughput (in process, sequential, through the handler)',
      columns: ['operation', 'requests', 'succeeded', 'adds/s', 'ms/add'],
      rows,
      notes: ['Refused adds (409: a pair that would leave a single seat, or fewer seats left at that area and price) count as requests, not successes.'],
    },
    {
      title: 'Sandbox: 500 baskets racing for 60 seats of one performance',
      columns: ['attempts', 'winners (200)', 'lost (409)', 'tickets won', 'seats sold twice', 'remaining', 'won + remaining', 'available before', 'ms'],
      rows: [[
        race.attempts,
        race.statuses[200] ?? 0,
        race.statuses[409] ?? 0,
        race.ticketsWon,
        race.soldTwice,
        race.remaining,
        race.ticketsWon + race.remaining,
        race.before,
        Math.round(race.elapsedMs),
      ]],
    },
  ];
}
