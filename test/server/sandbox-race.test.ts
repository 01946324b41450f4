/**
 * 500 concurrent add attempts from 500 baskets on overlapping seats of one
 * performance: no seat may end up in two baskets, and the winners plus what
 * remains available add up to the seats that were available.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../src/server/sandbox/catalogue.ts';
import type { AddTicketsResult } from '../../src/api/types.ts';
import { setup } from './sandbox-harness.ts';

export async function race(attempts = 500, seed = 11): Promise<{ winners: number; ticketsWon: number; soldTwice: number; remaining: number; before: number; statuses: Map<number, number> }> {
  const h = setup();
  // A performance with plenty left: the first with at least 200 free seats.
  const perf = h.sandbox.catalogue.Performances.find((p) => p.SoldFraction < 0.5 && p.DirectlyBookable !== false);
  assert.ok(perf);
  const free = await h.available(perf.PerformanceId);
  const before = free.length;
  // Everyone fights over the first 60 free seats: windows of 1–4 adjacent ids in that range.
  const pool = free.slice(0, 60).map((t) => t.TicketId);
  const rnd = seededRandom(seed);
  const baskets = await Promise.all(Array.from({ length: attempts }, () => h.newBasket()));
  const responses = await Promise.all(
    baskets.map((basketId) => {
      const start = Math.floor(rnd() * pool.length);
      const count = 1 + Math.floor(rnd() * 4);
      const tickets = pool.slice(start, start + count);
      return h.call('POST', `/rest/v2/Baskets/${basketId}/Tickets`, { Tickets: tickets });
    }),
  );
  const statuses = new Map<number, number>();
  for (const r of responses) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const owner = new Map<number, string>();
  let soldTwice = 0;
  let winners = 0;
  let ticketsWon = 0;
  for (const basketId of baskets) {
    const content = await h.basket(basketId);
    if (content.Items.length) winners++;
    for (const ticket of content.Items.flatMap((i) => i.Tickets)) {
      if (owner.has(ticket.TicketId)) soldTwice++;
      owner.set(ticket.TicketId, basketId);
      ticketsWon++;
    }
  }
  for (const r of responses) {
    const body = r.body as AddTicketsResult;
    assert.equal(body.Success, r.status === 200, 'Success matches the status');
  }
  const remaining = (await h.available(perf.PerformanceId)).length;
  return { winners, ticketsWon, soldTwice, remaining, before, statuses };
}

test('race: 500 concurrent adds on overlapping seats never sell a seat twice', async () => {
  const result = await race(500);
  assert.equal(result.soldTwice, 0);
  assert.ok(result.winners > 0, 'some baskets won');
  assert.ok((result.statuses.get(409) ?? 0) > 0, 'and many lost with 409');
  assert.equal(result.ticketsWon + result.remaining, result.before, 'winners plus remaining availability = the seats that existed');
  assert.deepEqual([...result.statuses.keys()].sort(), [200, 409]);
});
