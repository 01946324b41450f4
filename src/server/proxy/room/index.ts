/**
 * The waiting room in the proxy (docs/waiting-room.md, "Proxy side"; the contract between the
 * proxy and the widget is the protocol there):
 *
 * - `POST {prefix}/stagedoor/room/{id}`: join and poll, one idempotent call (`join`);
 * - the gate: Create Basket (a site room), Add Tickets and the availability lookups of a
 *   performance in a room's scope are refused with 428 without a valid pass (`gate`);
 * - the operator's endpoint `/stagedoor/rooms[/{id}]` behind its own secret (admin.ts).
 *
 * The queue lives in a RoomStore (store.ts: memory; redis.ts: shared by every proxy). With the store
 * down the room fails closed: joins and polls get 503 and nobody is admitted, while the passes
 * already given keep working (they are checked by signature alone, pass.ts). Edge-safe.
 */
import type { OperationName } from '../../../api/operations.ts';
import { JSON_TYPE, message, type Reply } from '../reply.ts';
import type { RoomConfig } from './config.ts';
import { RoomSigner } from './pass.ts';
import type { RoomStore, VisitResult } from './store.ts';

export { MemoryRoomStore, type RoomStats, type RoomStore, type VisitInput, type VisitResult } from './store.ts';
export { parseRoomConfig, patchRoomConfig, ROOM_ID, RoomConfigError, type RoomConfig, type RoomScope } from './config.ts';

export const PASS_HEADER = 'Stagedoor-Pass';

export interface RoomOptions {
  /** HMAC secret of passes and challenges, shared by every proxy (≥ 32 bytes; STAGEDOOR_ROOM_SECRET). */
  secret: string;
  /** The operator's bearer secret for /stagedoor/rooms (STAGEDOOR_ROOM_ADMIN_SECRET). Without it: no admin endpoint. */
  adminSecret?: string;
  /** Rooms opened when the proxy starts, unless the store already has them (a restart changes nothing). */
  initial?: RoomConfig[];
}

/** The room's Prometheus metrics (metrics.ts). Labels: room ids of the operator's, and fixed reasons. */
export interface RoomMetrics {
  waiting(room: string, count: number): void;
  admitted(room: string, waitsMs: readonly number[]): void;
  refused(room: string, reason: PassRefusal): void;
  polled(room: string): void;
}

export type PassRefusal = 'missing' | 'expired' | 'invalid' | 'other-visitor';

export interface RoomsDeps {
  store: RoomStore;
  now: () => number;
  /** The proxy's prefix: the join path the browser reaches is `${prefix}/stagedoor/room/{id}`. */
  prefix: string;
  /** A cached lookup of the service (the proxy's own, lookup.ts). */
  lookup(pathAndQuery: string): Promise<Reply>;
  metrics?: RoomMetrics | null;
}

/** How long a proxy uses the rooms' configurations it read before reading them again (ms). */
const CONFIG_REFRESH_MS = 1000;

const STORE_DOWN = 'The waiting room is catching up; your place is kept.';

type Json = Record<string, unknown>;

function json(status: number, body: unknown, extra: Partial<Reply> = {}): Reply {
  return { status, body: JSON.stringify(body), contentType: JSON_TYPE, date: null, ...extra };
}

/** The operations gated, and how each names what it touches. */
const GATED: ReadonlySet<string> = new Set<OperationName>([
  'createBasket', 'addTickets', 'addTicketsV3', 'getAvailableTickets', 'getFullAvailability', 'validateSeatsSelection',
  'getEventAvailableTickets', 'getEventsAvailableTickets',
]);

/** The outcome of the gate: a refusal, or whether the answer is a gated one (never shared by HTTP caches). */
export type GateOutcome = { refusal: Reply; room: string; reason: PassRefusal } | { gated: boolean };

export class Rooms {
  readonly signer: RoomSigner;
  readonly adminSecret: string | null;
  readonly store: RoomStore;
  readonly #deps: RoomsDeps;
  readonly #initial: RoomConfig[];
  #configs: RoomConfig[] = [];
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | null = null;
  #seeded: Promise<void> | null = null;
  /** Whether the store answered the last time it was asked. */
  storeOk = true;

  constructor(options: RoomOptions, deps: RoomsDeps) {
    this.signer = new RoomSigner(options.secret);
    this.adminSecret = options.adminSecret || null;
    this.store = deps.store;
    this.#deps = deps;
    this.#initial = options.initial ?? [];
  }

  #ok<T>(value: T): T {
    this.storeOk = true;
    return value;
  }

  #failed(error: unknown): never {
    this.storeOk = false;
    throw error;
  }

  /** The configured initial rooms, written once unless already there (then the store's are kept). */
  #seed(): Promise<void> {
    this.#seeded ??= Promise.all(this.#initial.map((config) => this.store.put(config, true))).then(
      () => undefined,
      (error: unknown) => {
        this.#seeded = null;
        throw error;
      },
    );
    return this.#seeded;
  }

  /** The rooms' configurations, read again from the store at most once a second; the last known while it is down. */
  async configs(): Promise<RoomConfig[]> {
    if (this.#deps.now() - this.#readAt < CONFIG_REFRESH_MS) return this.#configs;
    this.#reading ??= (async () => {
      try {
        await this.#seed();
        this.#configs = this.#ok(await this.store.list());
        this.#readAt = this.#deps.now();
      } catch {
        this.storeOk = false;
        // Fail closed: until the store answers, the rooms known (or the initial ones) still gate.
        if (!this.#configs.length) this.#configs = this.#initial.filter((c) => c.state !== 'closed');
      } finally {
        this.#reading = null;
      }
    })();
    await this.#reading;
    return this.#configs;
  }

  /** For /readyz: whether the rooms' store answers. */
  async readiness(): Promise<'ok' | 'unavailable'> {
    try {
      await this.store.list();
      return this.#ok('ok');
    } catch {
      this.storeOk = false;
      return 'unavailable';
    }
  }

  /** Forget the configurations read (after the operator changed one here). */
  invalidate(): void {
    this.#readAt = Number.NEGATIVE_INFINITY;
  }

  joinPath(id: string): string {
    return `${this.#deps.prefix}/stagedoor/room/${id}`;
  }

  /** `POST {prefix}/stagedoor/room/{id}`: join or poll. `body` is the parsed JSON body ({} when empty). */
  async join(id: string, queueId: string, body: Json): Promise<Reply> {
    const now = this.#deps.now();
    const proofGiven = body.proof;
    let result: VisitResult;
    try {
      // Whether a visitor with no place may join: the proof is hashed only when the room wants one.
      const bits = (await this.configs()).find((c) => c.id === id)?.proofBits ?? 0;
      const proved = (need: number) => proofGiven !== undefined && this.signer.checkProof(proofGiven, id, queueId, need, now);
      const random = randomScore();
      const visit = (mayJoin: boolean) => this.store.visit(id, { queueId, now, random, mayJoin });
      result = this.#ok(await visit(bits <= 0 || (await proved(bits))));
      // The room's setting changed since this proxy read it: the store's decides.
      if (result.kind === 'proof' && (result.config.proofBits <= 0 || (bits <= 0 && (await proved(result.config.proofBits))))) result = this.#ok(await visit(true));
    } catch {
      this.storeOk = false;
      return json(503, { Message: STORE_DOWN, Room: { id }, retrySeconds: 5 }, { retryAfter: '5' });
    }
    if (result.kind === 'none') return message(404, `There is no waiting room '${id}'.`);
    const { config } = result;
    const metrics = this.#deps.metrics;
    metrics?.polled(id);
    const base = { room: id, opensAt: new Date(config.opensAt).toISOString(), now: new Date(now).toISOString(), ratePerMinute: config.ratePerMinute };
    if (result.kind === 'proof') {
      const challenge = await this.signer.challenge(id, queueId, now);
      return json(200, { ...base, status: 'proof', position: null, ahead: null, waitSeconds: null, pollSeconds: 1, proof: { challenge, bits: config.proofBits } });
    }
    metrics?.waiting(id, result.waiting);
    if (result.admittedWaits.length) metrics?.admitted(id, result.admittedWaits);
    const maxPoll = Math.max(2, Math.min(60, Math.floor(config.keepSeconds / 3)));
    if (result.kind === 'admitted') {
      const token = await this.signer.pass(id, queueId, result.passExpiresAt);
      const pass = { token, expiresAt: new Date(result.passExpiresAt).toISOString() };
      return json(200, { ...base, status: 'admitted', position: null, ahead: null, waitSeconds: null, pollSeconds: maxPoll, pass });
    }
    if (now < config.opensAt) {
      const poll = jittered(clamp((config.opensAt - now) / 2000, 2, maxPoll));
      return json(200, { ...base, status: 'before', position: null, ahead: null, waitSeconds: null, pollSeconds: poll });
    }
    const { position } = result;
    const paused = config.state === 'paused';
    // Honest: the time the people ahead take at the rate, and at the slowest the room may go (maxActive
    // passes per pass lifetime, when that is slower) with a margin.
    const seconds = (position / config.ratePerMinute) * 60;
    const slowest = config.maxActive === null ? config.ratePerMinute : Math.min(config.ratePerMinute, (config.maxActive * 60) / config.passSeconds);
    const waitSeconds = paused ? null : { low: Math.floor(seconds), high: Math.ceil((position / slowest) * 60 * 1.25 + 10) };
    // Rarer far back, more often near the front, jittered so pollers spread out.
    const poll = jittered(paused ? maxPoll / 2 : clamp(seconds / 5, 2, maxPoll));
    return json(200, { ...base, status: paused ? 'paused' : 'waiting', position, ahead: position - 1, waitSeconds, pollSeconds: poll });
  }

  /** Whether `op` touches a room now, and if so whether the request's pass lets it through. */
  async gate(op: OperationName, path: Json, body: unknown, queueHeader: string | null | false, passHeader: string | null): Promise<GateOutcome> {
    if (!GATED.has(op)) return { gated: false };
    const rooms = await this.configs();
    if (!rooms.length) return { gated: false };
    const applying = await this.#applying(op, path, body, rooms);
    if (!applying.length) return { gated: false };
    const now = this.#deps.now();
    let refusal: { room: RoomConfig; reason: PassRefusal } | null = null;
    for (const room of applying) {
      const reason = await this.#check(room, queueHeader, passHeader, now);
      if (reason === null) return { gated: true };
      // The refusal names the room the pass was meant for, else the first.
      if (!refusal || (refusal.reason === 'missing' && reason !== 'missing')) refusal = { room, reason };
    }
    const { room, reason } = refusal!;
    this.#deps.metrics?.refused(room.id, reason);
    return {
      room: room.id,
      reason,
      refusal: json(428, { Message: 'This performance is behind a waiting room: join it to get a pass.', Room: { id: room.id, join: this.joinPath(room.id) }, Pass: reason }),
    };
  }

  async #check(room: RoomConfig, queueId: string | null | false, token: string | null, now: number): Promise<PassRefusal | null> {
    if (!token) return 'missing';
    const visitor = typeof queueId === 'string' ? queueId : '';
    const check = await this.signer.checkPass(token, room.id, visitor, now);
    if (check.ok) return null;
    if (check.reason === 'other-room') return 'missing';
    if (check.reason === 'expired') return 'expired';
    // Forged, or another visitor's? Those holding a pass of that very expiry are the only candidates.
    if (check.expiresAt !== undefined && check.expiresAt > now) {
      try {
        for (const holder of await this.store.holders(room.id, check.expiresAt)) {
          if (holder !== visitor && (await this.signer.signedFor(token, room.id, holder))) return 'other-visitor';
        }
      } catch {
        // The store is down: it is refused all the same.
      }
    }
    return 'invalid';
  }

  /** The rooms whose scope the request touches. */
  async #applying(op: OperationName, path: Json, body: unknown, rooms: RoomConfig[]): Promise<RoomConfig[]> {
    const sites = rooms.filter((r) => r.scope.kind === 'site');
    if (op === 'createBasket') return sites;
    const scoped = rooms.filter((r) => r.scope.kind !== 'site');
    if (op === 'getEventAvailableTickets' || op === 'getEventsAvailableTickets') {
      const events = (op === 'getEventAvailableTickets' ? [path.eventId] : (path.eventIds as unknown[])).map(Number);
      return [...sites, ...scoped.filter((r) => r.scope.kind === 'event' && events.includes(r.scope.eventId))];
    }
    let performance: number | null = null;
    if (op === 'addTickets') {
      const b = (body ?? {}) as Json;
      const best = b.BestSeats as Json | undefined;
      if (best) performance = Number(best.PerformanceId);
      else {
        if (!scoped.length) return sites;
        const tickets = new Set((Array.isArray(b.Tickets) ? b.Tickets : []).map(Number));
        return [...sites, ...(await this.#holdingTickets(scoped, tickets))];
      }
    } else performance = Number(path.performanceId);
    if (!scoped.length) return sites;
    const found: RoomConfig[] = [...sites];
    for (const room of scoped) if (await this.#covers(room, performance)) found.push(room);
    return found;
  }

  /** A service answer's JSON, or null when it failed. */
  async #json(pathAndQuery: string): Promise<unknown> {
    const reply = await this.#deps.lookup(pathAndQuery);
    if (reply.status !== 200 || reply.body === null) return null;
    try {
      return JSON.parse(typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body)) as unknown;
    } catch {
      return null;
    }
  }

  async #covers(room: RoomConfig, performanceId: number): Promise<boolean> {
    if (room.scope.kind === 'performance') return room.scope.performanceId === performanceId;
    if (room.scope.kind !== 'event') return true;
    const info = (await this.#json(`/rest/v2/Performances/${performanceId}`)) as { Performance?: { EventId?: unknown } } | null;
    // Unknown (the service did not say): gated all the same, as its event may be the room's.
    return !info?.Performance || Number(info.Performance.EventId) === room.scope.eventId;
  }

  /** v2 chosen seats name no performance: the rooms among whose performances' availability the tickets are. */
  async #holdingTickets(rooms: RoomConfig[], tickets: Set<number>): Promise<RoomConfig[]> {
    const found: RoomConfig[] = [];
    for (const room of rooms) {
      let performances: number[] = [];
      if (room.scope.kind === 'performance') performances = [room.scope.performanceId];
      else if (room.scope.kind === 'event') {
        const list = (await this.#json(`/rest/v2/Events/${room.scope.eventId}/Performances`)) as { Performances?: { PerformanceId?: unknown }[] } | null;
        performances = (list?.Performances ?? []).map((p) => Number(p.PerformanceId));
      }
      for (const id of performances) {
        const map = (await this.#json(`/rest/v2/Performances/${id}/FullAvailability`)) as { AvailableTickets?: { TicketId?: unknown }[] } | null;
        if ((map?.AvailableTickets ?? []).some((t) => tickets.has(Number(t.TicketId)))) {
          found.push(room);
          break;
        }
      }
    }
    return found;
  }
}

/** A uniformly random score in (0,1), from crypto. */
function randomScore(): number {
  const [value = 0] = crypto.getRandomValues(new Uint32Array(1));
  return (value + 1) / 4_294_967_298;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** ±20 %, whole seconds, at least one. */
function jittered(seconds: number): number {
  return Math.max(1, Math.round(seconds * (0.8 + Math.random() * 0.4)));
}
