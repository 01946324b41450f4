/**
 * `npm run bench -- room`: the waiting room (docs/waiting-room.md) at an on-sale, as a theatre
 * runs it: three proxies (`stagedoor proxy --redis URL`, each its own process, compiled as the
 * package ships it) sharing one redis-server started here on a loopback port (stopped by its
 * pid), in front of the sandbox (`stagedoor sandbox`, its own process).
 *
 * ROOM_VISITORS (100,000) light clients (an undici Pool per proxy, keep-alive; no browser) join
 * the room over ROOM_JOIN_SECONDS (10 s), each from an address of its own (X-Forwarded-For, as
 * behind a balancer), each call going to the next proxy in turn. The on-sale falls
 * ROOM_ON_SALE_SECONDS (2 s) into the joining: those before it wait in the pre-queue, the rest
 * join at the back. Each visitor then asks again when the answer's `pollSeconds` says, until it is
 * admitted; ROOM_ADMIT_SECONDS (60 s: one real minute) after the on-sale the run stops. The rate
 * is ROOM_RATE (30,000 a minute): high enough that one minute admits the whole pre-queue and
 * reaches visitors who came after the on-sale, so the order after it is measured too.
 *
 * What is measured (from the answers' own `now`, the proxies' clock, and the admin endpoint's
 * stats sampled every second): admitted per minute against the rate; visitors who came after the
 * on-sale and were admitted while one who joined at least 100 ms before them was still told to
 * wait; the rank correlation of the pre-queue's order with arrival order; positions that moved
 * back; the room call's latency; the proxies' CPU time per call (/proc); Redis memory per 10,000
 * waiting visitors (INFO memory, against the figure before the room's first visitor).
 *
 * Then the hoarding probe, on a performance outside the room: one visitor (one queue id, many
 * baskets), then one address (a new queue id per basket), adding two seats at a time as fast as
 * they can over the three proxies: the most seats either ever holds, against the seat caps
 * (seat-caps.ts, the defaults 10 per visitor and 20 per address).
 *
 * Nothing here asserts a time: it measures and prints.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';
import { compiledCli, cpuMs, deployed, percentile, started, type Deployed } from './processes.ts';
import { run as runProcess } from '../test/server/cli-helpers.ts';
import { startRedis, type RunningRedis } from '../test/server/servers.ts';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const VISITORS = setting('ROOM_VISITORS', 100_000);
const JOIN_SECONDS = setting('ROOM_JOIN_SECONDS', 10);
const ON_SALE_SECONDS = setting('ROOM_ON_SALE_SECONDS', 2);
const RATE = setting('ROOM_RATE', 30_000);
const ADMIT_SECONDS = setting('ROOM_ADMIT_SECONDS', 60);
const PROXIES = 3;
/** Keep-alive connections per proxy, and the calls in flight at once (more wait their turn here, counted as lateness). */
const CONNECTIONS = 32;
const MAX_IN_FLIGHT = PROXIES * CONNECTIONS;
const KEEP_SECONDS = 120;
const ROOM = 'bench';
const KEY = 'bench-key';
const ROOM_SECRET = randomBytes(32).toString('base64url');
const ADMIN_SECRET = randomBytes(32).toString('base64url');
/** A visitor served before one who joined at least this much earlier is out of order. */
const ORDER_SLACK_MS = 100;
/** The room stays paused after the on-sale until every pre-queue visitor has been told its drawn place, or this long. */
const DRAW_SECONDS = 30;
const PROBE_SECONDS = 5;
const PROBE_WORKERS = 8;
const CAPS = { perVisitor: 10, perAddress: 20 };

interface RoomAnswer {
  status: 'before' | 'waiting' | 'admitted' | 'paused' | 'proof';
  now: string;
  position: number | null;
  pollSeconds: number;
}

interface RoomStats {
  waiting: number;
  admitted: number;
  active: number;
  admittedLastMinute: number;
}

interface Sample {
  at: number;
  stats: RoomStats | null;
  usedMemory: number;
}

/** What the visitors saw, one slot per visitor (typed arrays: 100,000 of them). */
class Visitors {
  readonly calls = new Uint16Array(VISITORS);
  /** The proxies' clock (the answer's `now`) at the first answer: when the room saw the visitor join. */
  readonly joined = new Float64Array(VISITORS).fill(Number.NaN);
  readonly preQueue = new Uint8Array(VISITORS);
  /** The position a pre-queue visitor was told after the on-sale, while the room was paused: its place in the draw. */
  readonly drawn = new Int32Array(VISITORS).fill(-1);
  readonly lastPosition = new Int32Array(VISITORS);
  readonly lastAnswer = new Float64Array(VISITORS).fill(Number.NaN);
  /**
   * This process's clock (no proxy's stamp, which is read before the call waits its turn at Redis):
   * when the join was first sent, when its first 200 answer came, when the first "admitted" answer came, and when
   * the last poll answered "waiting" (or "paused") was sent.
   */
  readonly joinSent = new Float64Array(VISITORS).fill(Number.NaN);
  readonly joinAnswered = new Float64Array(VISITORS).fill(Number.NaN);
  readonly admitted = new Float64Array(VISITORS).fill(Number.NaN);
  readonly lastWaiting = new Float64Array(VISITORS).fill(Number.NaN);
  readonly dueAt = new Float64Array(VISITORS);
  readonly released = new Uint8Array(VISITORS);
  movedBack = 0;
  /** A place released because this bench asked later than keepSeconds (the load generator fell behind). */
  releasedLate = 0;
  readonly joinMs: number[] = [];
  readonly pollMs: number[] = [];
  /** How late polls and joins were sent, against when they were due. */
  readonly lateMs: number[] = [];
  readonly joinLateMs: number[] = [];
  readonly refusals = new Map<string, number>();
  /** The first refusal's body, to say why when nobody could join. */
  firstRefusal = '';

  refused(what: string, body: unknown = null): void {
    this.refusals.set(what, (this.refusals.get(what) ?? 0) + 1);
    this.firstRefusal ||= `${what} ${JSON.stringify(body)}`;
  }

  /** Take in one answer; returns when to ask again (ms from now), or null when admitted. */
  answer(i: number, a: RoomAnswer, ms: number, sentAt: number): number | null {
    const answeredAt = sentAt + ms;
    const now = Date.parse(a.now);
    (this.calls[i] === 1 ? this.joinMs : this.pollMs).push(ms);
    // Asked later than keepSeconds after its last answer (the load generator fell behind): its place was
    // released and this call joined it again at the back, now. (Within ten seconds of it counts too: another
    // visit whose call reached Redis first, with a later stamp, may have released it.)
    const late = this.lastAnswer[i]! + (KEEP_SECONDS - 10) * 1000 < now;
    this.lastAnswer[i] = now;
    if (late) {
      this.releasedLate++;
      this.released[i] = 1;
      this.joinSent[i] = sentAt;
      this.joinAnswered[i] = answeredAt;
    }
    if (Number.isNaN(this.joined[i]!)) {
      this.joined[i] = now;
      this.joinAnswered[i] = answeredAt;
      this.preQueue[i] = a.status === 'before' ? 1 : 0;
    }
    if (a.status === 'admitted') {
      if (Number.isNaN(this.admitted[i]!)) this.admitted[i] = answeredAt;
      return null;
    }
    if (a.status === 'waiting' || a.status === 'paused') this.lastWaiting[i] = sentAt;
    if ((a.status === 'waiting' || a.status === 'paused') && a.position !== null) {
      const previous = this.lastPosition[i]!;
      if (previous > 0 && a.position > previous && !late) this.movedBack++;
      this.lastPosition[i] = a.position;
      if (this.preQueue[i] && a.status === 'paused' && this.drawn[i]! < 0) this.drawn[i] = a.position;
    }
    return Math.max(0.2, a.pollSeconds) * 1000;
  }
}

/** Average ranks (ties share the mean of their places). */
function ranks(values: Float64Array): Float64Array {
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
  const out = new Float64Array(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]!] === values[order[start]!]) end++;
    for (let k = start; k <= end; k++) out[order[k]!] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return out;
}

/** Spearman's rank correlation: Pearson's on the ranks. */
function spearman(x: Float64Array, y: Float64Array): number {
  const rx = ranks(x);
  const ry = ranks(y);
  const n = rx.length;
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * Visitors who joined after the on-sale and were admitted while one who had joined at least
 * ORDER_SLACK_MS before them (also after the on-sale) was still told to wait, all on this
 * process's clock, with no room for doubt: A's join had been answered at least 100 ms before B's
 * was sent, and a poll A sent after B had been told it was admitted still answered "waiting".
 * Also the widest such gap (ms from A's answer to B's join, for the first 1,000 of them).
 */
function servedOutOfOrder(v: Pick<Visitors, 'joined' | 'preQueue' | 'joinSent' | 'joinAnswered' | 'lastWaiting' | 'admitted'>, opensAt: number, slackMs = ORDER_SLACK_MS): { compared: number; outOfOrder: number; widestMs: number } {
  const after = Array.from(v.joined.keys()).filter((i) => !v.preQueue[i] && v.joined[i]! >= opensAt);
  const byAnswer = [...after].sort((a, b) => v.joinAnswered[a]! - v.joinAnswered[b]!);
  const bySent = [...after].sort((a, b) => v.joinSent[a]! - v.joinSent[b]!);
  let outOfOrder = 0;
  let compared = 0;
  let widestMs = 0;
  let latestWait = Number.NEGATIVE_INFINITY;
  let k = 0;
  for (const b of bySent) {
    while (k < byAnswer.length && v.joinAnswered[byAnswer[k]!]! <= v.joinSent[b]! - slackMs) {
      const w = v.lastWaiting[byAnswer[k]!]!;
      if (!Number.isNaN(w)) latestWait = Math.max(latestWait, w);
      k++;
    }
    if (Number.isNaN(v.admitted[b]!)) continue;
    compared++;
    if (v.admitted[b]! < latestWait && ++outOfOrder <= 1000) {
      // The earliest joiner it overtook.
      for (let j = 0; j < k; j++) {
        const a = byAnswer[j]!;
        if (v.lastWaiting[a]! > v.admitted[b]!) {
          widestMs = Math.max(widestMs, v.joinSent[b]! - v.joinAnswered[a]!);
          break;
        }
      }
    }
  }
  return { compared, outOfOrder, widestMs };
}

async function json<T>(pool: Pool, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await pool.request({ method: method as 'GET', path, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.body.text();
  return { status: r.statusCode, body: (text ? JSON.parse(text) : null) as T };
}

const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * The room run: every visitor joins, then asks again when told, until admitted or the run's end.
 * The room opens paused: once every pre-queue visitor has been told its drawn place (at most
 * DRAW_SECONDS after the on-sale), `resume` opens it, and the run ends ADMIT_SECONDS later.
 */
async function onSale(pools: Pool[], opensAt: number, start: number, sample: () => Promise<void>, resume: () => Promise<void>): Promise<{ v: Visitors; resumedAt: number; end: number }> {
  const v = new Visitors();
  let end = Number.POSITIVE_INFINITY;
  let resumedAt = Number.NaN;
  let resuming = false;
  let failure: unknown;
  const drawSeen = () => {
    for (let i = 0; i < nextJoin; i++) if (v.preQueue[i] && v.drawn[i]! < 0 && !v.released[i]) return false;
    return true;
  };
  const path = `/api/stagedoor/room/${ROOM}`;
  const slots = new Map<number, number[]>();
  const ready: number[] = [];
  let head = 0;
  let nextJoin = 0;
  let lastSlot = Math.floor(start / 10);
  let inFlight = 0;
  const later = (i: number, ms: number) => {
    const at = Date.now() + ms;
    if (at >= end) return;
    v.dueAt[i] = at;
    const slot = Math.floor(at / 10);
    const list = slots.get(slot);
    if (list) list.push(i);
    else slots.set(slot, [i]);
  };
  const call = async (i: number) => {
    inFlight++;
    const pool = pools[(i + v.calls[i]!) % pools.length]!;
    (v.calls[i] === 0 ? v.joinLateMs : v.lateMs).push(Date.now() - v.dueAt[i]!);
    v.calls[i]!++;
    const sentAt = Date.now();
    // The first attempt's: one that timed out (503) may still have joined in Redis.
    if (Number.isNaN(v.joinSent[i]!)) v.joinSent[i] = sentAt;
    const t0 = performance.now();
    try {
      const r = await json<RoomAnswer & { retrySeconds?: number }>(pool, 'POST', path, { 'stagedoor-queue-id': `bench-${i}`, 'x-forwarded-for': addressOf(i) }, {});
      const ms = performance.now() - t0;
      if (r.status === 200) {
        const next = v.answer(i, r.body, ms, sentAt);
        if (next !== null) later(i, next);
      } else {
        v.refused(String(r.status), r.body);
        later(i, (r.body?.retrySeconds ?? 5) * 1000);
      }
    } catch (error) {
      v.refused(error instanceof Error ? error.message : String(error));
      later(i, 1000);
    } finally {
      inFlight--;
    }
  };
  let sampling = Promise.resolve();
  let nextSample = start;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = Date.now();
      if (!resuming && now >= opensAt + 1000 && (now >= opensAt + DRAW_SECONDS * 1000 || drawSeen())) {
        resuming = true;
        void resume().then(
          () => {
            resumedAt = Date.now();
            end = resumedAt + ADMIT_SECONDS * 1000;
          },
          (error: unknown) => {
            failure = error;
            end = Date.now();
          },
        );
      }
      if (now >= nextSample) {
        nextSample += 1000;
        sampling = sampling.then(sample).catch(() => undefined);
      }
      for (const slot = Math.floor(now / 10); lastSlot <= slot; lastSlot++) {
        const list = slots.get(lastSlot);
        if (list) ready.push(...list);
        slots.delete(lastSlot);
      }
      // Polls first: a visitor in the room asks on its own schedule, whatever the crowd still arriving
      // (a generator that fell behind delays newcomers, not the places of those already waiting).
      while (inFlight < MAX_IN_FLIGHT && head < ready.length) void call(ready[head++]!);
      while (inFlight < MAX_IN_FLIGHT && nextJoin < VISITORS && start + (nextJoin * JOIN_SECONDS * 1000) / VISITORS <= now) {
        v.dueAt[nextJoin] = start + (nextJoin * JOIN_SECONDS * 1000) / VISITORS;
        void call(nextJoin++);
      }
      if (head > 50_000) {
        ready.splice(0, head);
        head = 0;
      }
      if (now >= end && inFlight === 0) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  await sampling;
  if (failure) throw failure;
  return { v, resumedAt, end };
}

interface Probe {
  adds: number;
  added: number;
  capped: number;
  limited: number;
  /** Seats the adds that succeeded hold together (nothing is removed during the probe): the most ever held. */
  mostHeld: number;
  /** The same, from the service's baskets at the end. */
  heldAtEnd: number;
  baskets: number;
}

/** One visitor (`per: 'visitor'`: one queue id) or one address (a new queue id per basket) hoarding as fast as it can. */
async function hoard(pools: Pool[], performanceTickets: number[], per: 'visitor' | 'address', address: string): Promise<Probe> {
  const probe: Probe = { adds: 0, added: 0, capped: 0, limited: 0, mostHeld: 0, heldAtEnd: 0, baskets: 0 };
  const baskets: { id: string; visitor: string }[] = [];
  let turn = 0;
  let nextTicket = 0;
  let visitors = 0;
  const pool = () => pools[turn++ % pools.length]!;
  const newBasket = async (): Promise<{ id: string; visitor: string } | undefined> => {
    const visitor = per === 'visitor' ? 'hoarder' : `hoarder-${visitors++}`;
    const r = await json<{ BasketId?: string }>(pool(), 'POST', '/api/rest/v2/Baskets', { 'x-forwarded-for': address, 'stagedoor-queue-id': visitor });
    if (r.status !== 201 || !r.body.BasketId) return baskets[baskets.length - 1];
    const basket = { id: r.body.BasketId, visitor };
    baskets.push(basket);
    return basket;
  };
  const deadline = Date.now() + PROBE_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: PROBE_WORKERS }, async () => {
      let basket: { id: string; visitor: string } | undefined;
      for (let n = 0; Date.now() < deadline && nextTicket + 2 <= performanceTickets.length; n++) {
        if (n % 3 === 0 || !basket) basket = (await newBasket()) ?? basket;
        if (!basket) continue;
        const tickets = performanceTickets.slice(nextTicket, nextTicket + 2);
        nextTicket += 2;
        probe.adds++;
        const r = await json<{ Success?: boolean }>(pool(), 'POST', `/api/rest/v2/Baskets/${basket.id}/Tickets`, { 'x-forwarded-for': address, 'stagedoor-queue-id': basket.visitor }, { Tickets: tickets });
        if (r.status === 200 && r.body.Success) {
          probe.added++;
          probe.mostHeld += tickets.length;
        } else if (r.status === 409) probe.capped++;
        else if (r.status === 429) probe.limited++;
      }
    }),
  );
  probe.baskets = baskets.length;
  // Only the performance's own seats (an event in two parts adds the second part's too).
  const own = new Set(performanceTickets);
  for (const basket of baskets) {
    const r = await json<{ Items?: { Tickets: { TicketId: number }[] }[] }>(pools[0]!, 'GET', `/api/rest/v2/Baskets/${basket.id}`, {});
    for (const item of r.body.Items ?? []) probe.heldAtEnd += item.Tickets.filter((t) => own.has(t.TicketId)).length;
  }
  return probe;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const sorted = (values: number[]) => Float64Array.from(values).sort();

export default async function roomBench(): Promise<BenchTable[]> {
  const loadBefore = loadNote('at the start of the run');
  const cliJs = await compiledCli('stagedoor-bench-room');
  const logs = mkdtempSync(join(tmpdir(), 'stagedoor-bench-room-'));
  const sandboxCli = runProcess(process.execPath, [cliJs, 'sandbox', '--port', '0']);
  const proxies: Deployed[] = [];
  const pools: Pool[] = [];
  let redis: RunningRedis | undefined;
  let redisClient: Redis | undefined;
  try {
    redis = await startRedis();
    redisClient = new Redis(redis.url);
    const sandbox = await started(sandboxCli, /^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//);
    for (let n = 0; n < PROXIES; n++) {
      const proxy = await deployed(
        cliJs,
        ['--upstream', sandbox, '--port', '0', '--redis', redis.url, '--client-address-header', 'X-Forwarded-For'],
        join(logs, `proxy-${n}.out`),
        { STAGEDOOR_API_KEY: KEY, STAGEDOOR_ROOM_SECRET: ROOM_SECRET, STAGEDOOR_ROOM_ADMIN_SECRET: ADMIN_SECRET },
      );
      proxies.push(proxy);
      pools.push(new Pool(new URL(proxy.url).origin, { connections: CONNECTIONS }));
    }
    const admin = { authorization: `Bearer ${ADMIN_SECRET}` };

    // The room's show, the first event; the hoarding probe's, the third (the second is in two parts).
    const events = (await json<{ Events: { EventId: number }[] }>(pools[0]!, 'GET', '/api/rest/v2/Events', {})).body.Events;
    const performancesOf = async (eventId: number) =>
      (await json<{ Performances?: { PerformanceId: number; TotalAvailableTickesCount?: number }[] }>(pools[0]!, 'GET', `/api/rest/v2/Events/${eventId}/Performances`, {})).body.Performances ?? [];
    const roomEvent = events[0]!.EventId;
    const probeEvent = events[2]!.EventId;
    // The performance with the most seats left, not today's (it may be in its last hours).
    const probePerformance = (await performancesOf(probeEvent))
      .slice(1)
      .reduce((best, p) => ((p.TotalAvailableTickesCount ?? 0) > (best.TotalAvailableTickesCount ?? 0) ? p : best)).PerformanceId;
    const available = await json<{ AvailableTickets: { TicketId: number }[] }>(pools[0]!, 'GET', `/api/rest/v2/Performances/${probePerformance}/FullAvailability`, {});
    const tickets = available.body.AvailableTickets.map((t) => t.TicketId);

    // The hoarding probe first, on a quiet machine, outside the room's scope.
    const byVisitor = await hoard(pools, tickets.slice(0, tickets.length / 2), 'visitor', '198.51.100.7');
    const byAddress = await hoard(pools, tickets.slice(tickets.length / 2), 'address', '198.51.100.8');

    // The room: opened on one proxy through the admin endpoint, shared by all three through Redis.
    const start = Date.now() + 1000;
    const opensAt = start + ON_SALE_SECONDS * 1000;
    const room = {
      id: ROOM,
      scope: { kind: 'event', eventId: roomEvent },
      opensAt: new Date(opensAt).toISOString(),
      ratePerMinute: RATE,
      maxActive: null,
      passSeconds: 900,
      keepSeconds: KEEP_SECONDS,
      proofBits: 0,
      // Paused at first: the draw is read, exactly, from the places the pre-queue is told before anyone is admitted.
      state: 'paused',
    };
    const opened = await json<unknown>(pools[0]!, 'PUT', `/stagedoor/rooms/${ROOM}`, admin, room);
    if (opened.status !== 200 && opened.status !== 201) throw new Error(`the admin endpoint refused to open the room: ${opened.status} ${JSON.stringify(opened.body)}`);
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redisClient!.info('memory'))?.[1] ?? Number.NaN);
    const memoryBefore = await usedMemory();
    const samples: Sample[] = [];
    const sample = async () => {
      const r = await json<{ rooms?: { id: string; stats?: RoomStats }[] }>(pools[1]!, 'GET', '/stagedoor/rooms', admin).catch(() => null);
      const stats = r?.body?.rooms?.find((x) => x.id === ROOM)?.stats ?? null;
      samples.push({ at: Date.now(), stats, usedMemory: await usedMemory() });
    };
    const pids = proxies.map((p) => p.child.pid ?? 0);
    const cpuBefore = cpuMs(pids);
    const resume = async () => {
      const r = await json<unknown>(pools[2]!, 'PATCH', `/stagedoor/rooms/${ROOM}`, admin, { state: 'open' });
      if (r.status !== 200) throw new Error(`the admin endpoint refused to resume the room: ${r.status} ${JSON.stringify(r.body)}`);
    };
    const { v, resumedAt, end } = await onSale(pools, opensAt, start, sample, resume);
    const cpu = cpuMs(pids) - cpuBefore;
    await sample();

    // Admitted per minute: the room's own count across the measured minute (a visitor learns it at its next poll,
    // so what the visitors were told lags it by their poll intervals, and is not a rate).
    const during = samples.filter((s) => s.stats && s.at >= resumedAt && s.at <= end + 1500);
    const first = during[0];
    const last = during[during.length - 1];
    const serverRate = first && last && last.at > first.at ? (((last.stats?.admitted ?? 0) - (first.stats?.admitted ?? 0)) * 60_000) / (last.at - first.at) : Number.NaN;
    const lastMinute = Math.max(...during.map((s) => s.stats?.admittedLastMinute ?? 0));
    const off = (rate: number) => `${rate >= RATE ? '+' : '−'}${fixed((Math.abs(rate - RATE) / RATE) * 100)} %`;

    // Fair order after the on-sale.
    const order = servedOutOfOrder(v, opensAt);

    // The pre-queue's draw against arrival: each pre-queue visitor's place while paused after the on-sale, against when it joined.
    const drawnIds = Array.from(v.drawn.keys()).filter((i) => v.preQueue[i] && v.drawn[i]! > 0);
    const rho = spearman(Float64Array.from(drawnIds, (i) => v.joined[i]!), Float64Array.from(drawnIds, (i) => v.drawn[i]!));
    let preQueue = 0;
    for (let i = 0; i < VISITORS; i++) preQueue += v.preQueue[i]!;

    // Redis memory per 10,000 waiting: at the moment most were waiting with no pass given yet (the pause), and
    // per 10,000 held in the room (waiting or with a pass) at the moment most were.
    const most = (count: (s: Sample) => number, list: Sample[]) => list.reduce<Sample | undefined>((best, s) => (count(s) > (best ? count(best) : 0) ? s : best), undefined);
    const held = (s: Sample) => (s.stats?.waiting ?? 0) + (s.stats?.active ?? 0);
    const waitingOnly = most((s) => s.stats?.waiting ?? 0, samples.filter((s) => s.stats?.active === 0));
    const peak = most(held, samples);
    const per10k = (s: Sample | undefined, count: number) => (s && count ? ((s.usedMemory - memoryBefore) / count) * 10_000 : Number.NaN);

    const calls = v.joinMs.length + v.pollMs.length;
    const joinMs = sorted(v.joinMs);
    const pollMs = sorted(v.pollMs);
    const lateMs = sorted(v.lateMs);
    const joinLateMs = sorted(v.joinLateMs);
    const refusals = [...v.refusals].map(([what, n]) => `${what}: ${n}`).join(', ') || 'none';
    let joinedCount = 0;
    for (let i = 0; i < VISITORS; i++) if (!Number.isNaN(v.joined[i]!)) joinedCount++;
    if (joinedCount === 0) throw new Error(`no visitor could join the room: ${v.firstRefusal}`);
    const lastJoin = Math.max(...Array.from(v.joined).filter((x) => !Number.isNaN(x)));

    return [
      {
        title: `Waiting room at an on-sale: ${VISITORS.toLocaleString('en')} visitors joining over ${JOIN_SECONDS} s through ${PROXIES} proxies on one Redis, the on-sale ${ON_SALE_SECONDS} s in, ${RATE.toLocaleString('en')} admitted a minute`,
        columns: ['measure', 'figure', 'goal'],
        rows: [
          ['visitors who joined (pre-queue / after the on-sale)', `${joinedCount} (${preQueue} / ${joinedCount - preQueue})`, String(VISITORS)],
          ['last join answered, s after the first', fixed((lastJoin - start) / 1000), `${JOIN_SECONDS}`],
          ['the room paused after the on-sale while the pre-queue was told its draw, s', fixed((resumedAt - opensAt) / 1000), ''],
          [`admitted a minute, the room's count over the ${ADMIT_SECONDS} s after it was resumed`, `${fixed(serverRate, 0)} (${off(serverRate)})`, `${RATE} ±5 %`],
          ['admitted a minute, the room’s admittedLastMinute at its highest', `${lastMinute} (${off(lastMinute)})`, `${RATE} ±5 %`],
          [`visitors after the on-sale admitted while one who joined ≥ ${ORDER_SLACK_MS} ms earlier waited (of those admitted)`, `${order.outOfOrder} (of ${order.compared})${order.outOfOrder ? `, joined at most ${fixed(order.widestMs, 0)} ms apart` : ''}`, '0'],
          [`pre-queue order against arrival order, Spearman |ρ| (${drawnIds.length} visitors)`, fixed(Math.abs(rho), 4), '≤ 0.05'],
          ['positions that moved back', String(v.movedBack), '0'],
          [`places released because this bench asked later than keepSeconds (${KEEP_SECONDS} s, less 10 s), then joined again`, String(v.releasedLate), '0'],
          ['join latency p50 / p99, ms', `${fixed(percentile(joinMs, 50), 2)} / ${fixed(percentile(joinMs, 99), 2)}`, ''],
          [`poll latency p50 / p99, ms (${pollMs.length} polls)`, `${fixed(percentile(pollMs, 50), 2)} / ${fixed(percentile(pollMs, 99), 2)}`, ''],
          ['polls sent late by the load generator p50 / p99, ms', `${fixed(percentile(lateMs, 50), 0)} / ${fixed(percentile(lateMs, 99), 0)}`, ''],
          ['joins sent late by the load generator (polls go first) p50 / p99, ms', `${fixed(percentile(joinLateMs, 50), 0)} / ${fixed(percentile(joinLateMs, 99), 0)}`, ''],
          [`proxy CPU per room call (${PROXIES} processes, ${calls} calls), µs`, fixed((cpu * 1000) / calls, 0), ''],
          [`Redis memory per 10,000 waiting (at ${waitingOnly?.stats?.waiting ?? 0} waiting, no pass given yet), KB`, fixed(per10k(waitingOnly, waitingOnly?.stats?.waiting ?? 0) / 1024), ''],
          [`Redis memory per 10,000 in the room (at ${peak?.stats?.waiting ?? 0} waiting and ${peak?.stats?.active ?? 0} passes), KB`, fixed(per10k(peak, peak ? held(peak) : 0) / 1024), ''],
          ['answers other than 200', refusals, 'none'],
        ],
        notes: [
          `The room is opened paused (admin PUT, state "paused"), so each pre-queue visitor's first answer after the on-sale gives its exact place in the draw before anyone is admitted; once every one has had it (at most ${DRAW_SECONDS} s), an admin PATCH resumes it and the admission minute starts. That minute is a real minute: the rate is set high (ROOM_RATE) so that it admits the whole pre-queue and then visitors who came after the on-sale, whose order is measured. ROOM_RATE, ROOM_VISITORS, ROOM_JOIN_SECONDS, ROOM_ON_SALE_SECONDS and ROOM_ADMIT_SECONDS change the run.`,
          '"Admitted while one who joined earlier waited", on this process’s clock: A’s join was answered at least 100 ms before B’s was sent, and a poll A sent after B had been told it was admitted still answered "waiting": an overtaking that no polling schedule or delay in flight can explain. (The answers’ own `now` is read by a proxy as a call reaches it, before it waits its turn at Redis, whose order the queue follows: under load those stamps can be hundreds of ms from it.)',
          `ρ: each pre-queue visitor’s place while the room was paused after the on-sale (its place in the draw), ranked against the time it joined (the answer's \`now\`). Pre-queue visitors who did not ask during the pause are left out (${preQueue - drawnIds.length}).`,
          `Proxy CPU: user + system time of the ${PROXIES} proxy processes (/proc) over the run, divided by the room calls (joins and polls). Their access logs are on, into files, as deployed. The load generator, Redis and the sandbox share the same 2 cores: "sent late" says how far behind the generator fell. It sends the polls that are due first, then the joins: a generator that falls behind spreads the arrivals out (see "last join answered"), never the polls of those already waiting.`,
          `Redis memory: INFO memory's used_memory, less its value just after the room was opened, per 10,000 visitors: at the sample with the most waiting before any pass was given (the pause), and at the one with the most in the room, waiting or holding a pass (the last minute's admissions the room keeps for its stats are in it too).`,
          `${loadBefore} ${loadNote('at the end of the run')}`,
        ],
      },
      {
        title: `The hoarding probe: adds of two seats as fast as possible for ${PROBE_SECONDS} s (${PROBE_WORKERS} at once), round robin over the ${PROXIES} proxies, against the sandbox`,
        columns: ['who', 'adds', 'added', 'refused by a cap (409)', 'rate-limited (429)', 'baskets', 'most seats held', 'held at the end (service)', 'cap'],
        rows: [
          ['one visitor (one queue id), one address', byVisitor.adds, byVisitor.added, byVisitor.capped, byVisitor.limited, byVisitor.baskets, byVisitor.mostHeld, byVisitor.heldAtEnd, `${CAPS.perVisitor} per visitor`],
          ['one address (a new queue id per basket)', byAddress.adds, byAddress.added, byAddress.capped, byAddress.limited, byAddress.baskets, byAddress.mostHeld, byAddress.heldAtEnd, `${CAPS.perAddress} per address`],
        ],
        notes: [
          'The seat caps are the defaults of `stagedoor proxy` (10 per visitor, 20 per address, per performance; seat-caps.ts), the rate limits too (10 baskets and 30 adds a minute per address). The adds name chosen seats (v2 `Tickets`), as the widget does, on a performance outside the room. Nothing is removed during the probe, so the most ever held is what the successful adds hold together.',
        ],
      },
    ];
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await Promise.all(proxies.map((p) => p.stop()));
    await sandboxCli.stop();
    redisClient?.disconnect();
    await redis?.stop();
    rmSync(logs, { recursive: true, force: true });
  }
}
