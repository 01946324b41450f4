/**
 * Where waiting rooms live: their configuration and their queue, behind one interface
 * (`RoomStore`) with an in-memory implementation (one proxy) and a Redis one (redis.ts: every
 * proxy on that Redis shares one order and one admission rate).
 *
 * One call, `visit`, does everything a visitor's join or poll needs, atomically (a Lua script in
 * Redis, one synchronous step here):
 * 1. places not asked for in `keepSeconds` are released (and admitted places never collected),
 *    expired passes leave the count of active ones;
 * 2. a visitor with no place joins: before the room first opens with a random score in (0,1)
 *    (drawn by the caller with crypto), after it with 1 + a counter of the store, so the
 *    pre-queue comes first in a random order and later arrivals in the order the store saw them;
 * 3. while the room is open and past opensAt, the front of the queue is admitted at the rate: an
 *    allowance accrues at ratePerMinute (capped at ten seconds' worth, at least one), never above
 *    maxActive unexpired passes;
 * 4. the visitor's own place: admitted (with its pass's expiry) or its 1-based position.
 * A position never moves back: nobody is ever placed ahead of a waiting visitor once the room
 * has opened (before, positions are not shown), and places only leave the queue.
 * Edge-safe (the memory store).
 */
import type { RoomConfig } from './config.ts';

export interface VisitInput {
  queueId: string;
  now: number;
  /** A random score in (0,1) for a pre-queue join. */
  random: number;
  /** Whether a visitor with no place may join (false: the room wants a proof of work this call lacks). */
  mayJoin: boolean;
}

export type VisitResult =
  | { kind: 'none' }
  | { kind: 'proof'; config: RoomConfig }
  | {
      kind: 'waiting';
      config: RoomConfig;
      /** 1-based; meaningful once the room has opened. */
      position: number;
      waiting: number;
      /** Wait (ms, join → admitted) of each visitor admitted by this call, for the metrics. */
      admittedWaits: number[];
    }
  | { kind: 'admitted'; config: RoomConfig; passExpiresAt: number; waiting: number; admittedWaits: number[] };

export interface RoomStats {
  /** Places in the queue. */
  waiting: number;
  /** Admitted since the room was opened. */
  admitted: number;
  /** Unexpired passes. */
  active: number;
  admittedLastMinute: number;
}

export interface RoomStore {
  /** Every room's configuration (closed ones are deleted, so never among them). */
  list(): Promise<RoomConfig[]>;
  get(id: string): Promise<RoomConfig | null>;
  /** Open or replace a room (its places kept). `ifAbsent`: only when there is none (a proxy's initial rooms). */
  put(config: RoomConfig, ifAbsent?: boolean): Promise<void>;
  /** Close a room: its configuration and places are dropped. */
  delete(id: string): Promise<void>;
  visit(id: string, input: VisitInput): Promise<VisitResult>;
  stats(id: string, now: number): Promise<RoomStats>;
  /** Who holds an unexpired pass expiring at exactly `expiresAt` (to tell another visitor's pass from a forged one). */
  holders(id: string, expiresAt: number): Promise<string[]>;
}

/** The allowance's cap: ten seconds' worth of admissions, at least one. */
export function allowanceCap(ratePerMinute: number): number {
  return Math.max(1, ratePerMinute / 6);
}

interface MemoryRoom {
  config: RoomConfig;
  opened: boolean;
  counter: number;
  allow: number;
  allowAt: number;
  admitted: number;
  /** Joined before the room opened, in no order yet: sorted into `order` when it opens. */
  pre: string[];
  /** Waiting ids in queue order. */
  order: string[];
  score: Map<string, number>;
  /** Waiting (and admitted, until they collect their pass) → last asked. */
  seen: Map<string, number>;
  joined: Map<string, number>;
  /** Admitted → pass expiry. */
  pass: Map<string, number>;
  /** Admission instants of the last minute. */
  log: number[];
}

/** The rooms in this process's memory: one proxy only. */
export class MemoryRoomStore implements RoomStore {
  readonly #rooms = new Map<string, MemoryRoom>();

  async list(): Promise<RoomConfig[]> {
    return [...this.#rooms.values()].map((r) => ({ ...r.config }));
  }

  async get(id: string): Promise<RoomConfig | null> {
    const room = this.#rooms.get(id);
    return room ? { ...room.config } : null;
  }

  async put(config: RoomConfig, ifAbsent = false): Promise<void> {
    const room = this.#rooms.get(config.id);
    if (room && ifAbsent) return;
    if (config.state === 'closed') return this.delete(config.id);
    if (room) room.config = { ...config };
    else {
      this.#rooms.set(config.id, {
        config: { ...config }, opened: false, counter: 0, allow: 0, allowAt: 0, admitted: 0,
        pre: [], order: [], score: new Map(), seen: new Map(), joined: new Map(), pass: new Map(), log: [],
      });
    }
  }

  async delete(id: string): Promise<void> {
    this.#rooms.delete(id);
  }

  #remove(room: MemoryRoom, who: string): void {
    if (room.score.delete(who)) {
      const at = room.order.indexOf(who);
      if (at >= 0) room.order.splice(at, 1);
      else room.pre.splice(room.pre.indexOf(who), 1);
    }
    room.seen.delete(who);
    room.joined.delete(who);
  }

  async visit(id: string, input: VisitInput): Promise<VisitResult> {
    const room = this.#rooms.get(id);
    if (!room) return { kind: 'none' };
    const { config } = room;
    const { now, queueId } = input;
    // 1. Release places not asked for, and passes admitted but never collected by a visitor who left.
    // `seen` is in the order of the last call (each call moves its visitor to the end): the stale ones come first.
    for (const [who, at] of room.seen) {
      if (at >= now - config.keepSeconds * 1000) break;
      this.#remove(room, who);
      room.pass.delete(who);
    }
    for (const [who, until] of room.pass) if (until <= now) room.pass.delete(who);
    const live = now >= config.opensAt;
    if (live && !room.opened) {
      room.opened = true;
      // The on-sale instant: the pre-queue in the order of its random scores, ahead of everyone later.
      room.order = [...room.pre.sort((a, b) => room.score.get(a)! - room.score.get(b)!), ...room.order];
      room.pre = [];
    }
    // 2. Join.
    const holds = room.pass.has(queueId);
    if (!holds && !room.score.has(queueId)) {
      if (!input.mayJoin) return { kind: 'proof', config: { ...config } };
      if (room.opened) {
        room.counter += 1;
        room.score.set(queueId, 1 + room.counter);
        room.order.push(queueId);
      } else {
        room.score.set(queueId, input.random);
        room.pre.push(queueId);
      }
      room.joined.set(queueId, now);
    }
    if (!holds) {
      room.seen.delete(queueId);
      room.seen.set(queueId, now);
    }
    // 3. Admit.
    const admittedWaits: number[] = [];
    if (live && config.state === 'open') {
      const from = Math.max(room.allowAt, config.opensAt);
      if (now > from) room.allow = Math.min(allowanceCap(config.ratePerMinute), room.allow + ((now - from) * config.ratePerMinute) / 60_000);
      room.allowAt = Math.max(now, from);
      let n = Math.floor(room.allow);
      if (config.maxActive !== null) n = Math.min(n, config.maxActive - room.pass.size);
      const front = n > 0 ? room.order.splice(0, n) : [];
      for (const who of front) {
        room.score.delete(who);
        room.pass.set(who, now + config.passSeconds * 1000);
        const joined = room.joined.get(who);
        room.joined.delete(who);
        if (joined !== undefined) admittedWaits.push(now - joined);
        room.log.push(now);
      }
      room.allow -= front.length;
      room.admitted += front.length;
    } else {
      room.allowAt = now;
    }
    room.log = room.log.filter((at) => at > now - 60_000);
    // 4. The visitor's place.
    const waiting = room.score.size;
    const until = room.pass.get(queueId);
    if (until !== undefined) {
      room.seen.delete(queueId);
      return { kind: 'admitted', config: { ...config }, passExpiresAt: until, waiting, admittedWaits };
    }
    const position = room.opened ? room.order.indexOf(queueId) + 1 : 0;
    return { kind: 'waiting', config: { ...config }, position, waiting, admittedWaits };
  }

  async stats(id: string, now: number): Promise<RoomStats> {
    const room = this.#rooms.get(id);
    if (!room) return { waiting: 0, admitted: 0, active: 0, admittedLastMinute: 0 };
    let active = 0;
    for (const until of room.pass.values()) if (until > now) active++;
    return { waiting: room.score.size, admitted: room.admitted, active, admittedLastMinute: room.log.filter((at) => at > now - 60_000).length };
  }

  async holders(id: string, expiresAt: number): Promise<string[]> {
    const room = this.#rooms.get(id);
    return room ? [...room.pass].filter(([, until]) => until === expiresAt).map(([who]) => who) : [];
  }
}
