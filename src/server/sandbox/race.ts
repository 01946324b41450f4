/**
 * The race the sandbox must win: many baskets adding overlapping seats of one
 * performance at once, through the real handler. Used by the race test and by
 * the benchmark, which both check that no seat ends up in two baskets and that
 * the winners plus what remains available add up to the seats that were available.
 */
import type { AddTicketsResult, BasketContent, FullTicketInfo } from '../../api/types.ts';
import { seededRandom } from './catalogue.ts';
import type { Sandbox } from './index.ts';

export interface RaceResult {
  attempts: number;
  performanceId: number;
  /** Free seats before the race. */
  before: number;
  /** Baskets that won at least one seat. */
  winners: number;
  ticketsWon: number;
  /** Seats found in more than one basket: must be 0. */
  soldTwice: number;
  /** Free seats after the race. */
  remaining: number;
  /** Add responses by HTTP status. */
  statuses: Record<number, number>;
  /** Responses whose Success disagrees with their status (200 ⇔ Success). */
  inconsistent: number;
  elapsedMs: number;
}

export async function raceOnOnePerformance(sandbox: Sandbox, attempts = 500, seed = 11, apiKey = 'race'): Promise<RaceResult> {
  const headers = { 'Api-Key': apiKey, 'Content-Type': 'application/json' };
  const base = 'http://race.local';
  const json = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await sandbox.fetch(new Request(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: response.status, body: (await response.json()) as T };
  };
  const perf = sandbox.catalogue.Performances.find((p) => p.SoldFraction < 0.5 && p.DirectlyBookable !== false);
  if (!perf) throw new Error('race: no performance with seats to fight over');
  const available = async () => (await json<{ AvailableTickets: FullTicketInfo[] }>('GET', `/rest/v2/Performances/${perf.PerformanceId}/FullAvailability`)).body.AvailableTickets;
  const free = await available();
  // Everyone fights over the first 60 free seats, asking for 1–4 adjacent ids in that range.
  const pool = free.slice(0, 60).map((t) => t.TicketId);
  const rnd = seededRandom(seed);
  const baskets = await Promise.all(
    Array.from({ length: attempts }, async () => (await json<{ BasketId: string }>('POST', '/rest/v2/Baskets')).body.BasketId),
  );
  const started = performance.now();
  const responses = await Promise.all(
    baskets.map((basketId) => {
      const start = Math.floor(rnd() * pool.length);
      const tickets = pool.slice(start, start + 1 + Math.floor(rnd() * 4));
      return json<AddTicketsResult>('POST', `/rest/v2/Baskets/${basketId}/Tickets`, { Tickets: tickets });
    }),
  );
  const elapsedMs = performance.now() - started;
  const statuses: Record<number, number> = {};
  let inconsistent = 0;
  for (const r of responses) {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.body.Success !== (r.status === 200)) inconsistent++;
  }
  const owners = new Set<number>();
  let soldTwice = 0;
  let winners = 0;
  let ticketsWon = 0;
  for (const basketId of baskets) {
    const content = (await json<BasketContent>('GET', `/rest/v2/Baskets/${basketId}`)).body;
    if (content.Items.length) winners++;
    for (const ticket of content.Items.flatMap((i) => i.Tickets)) {
      if (owners.has(ticket.TicketId)) soldTwice++;
      owners.add(ticket.TicketId);
      ticketsWon++;
    }
  }
  const remaining = (await available()).length;
  return { attempts, performanceId: perf.PerformanceId, before: free.length, winners, ticketsWon, soldTwice, remaining, statuses, inconsistent, elapsedMs };
}
