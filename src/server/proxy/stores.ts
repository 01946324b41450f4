/**
 * The proxy's only state, behind one interface (`ProxyStore`) so that several
 * proxy processes behind a load balancer can share it (redis-store.ts) instead
 * of each keeping its own (`memoryStore`, the default):
 *
 * - `cache`: catalogue, availability and System answers, until their TTL;
 * - `orders`: each basket's SubmitOrder answer (its PaymentRedirectUrl), until
 *   the payment timeout, so a repeated SubmitOrder gets the same redirect;
 * - `rateLimits`: sliding-window counters per client address;
 * - `seatHolds`: the seats each visitor and client address holds per performance
 *   (seat-caps.ts), and which basket item holds them;
 * - `flights` (shared stores only): one upstream call for concurrent identical
 *   lookups across processes (within a process the proxy coalesces them itself).
 *
 * All booking state lives upstream; nothing else in the proxy is shared.
 * Edge-safe: no Node built-ins.
 */
import { LRUCache } from 'lru-cache';
import type { RoomStore } from './room/store.ts';

/** One stored upstream answer (only 200 answers with a JSON body are stored). */
export interface CachedResponse {
  readonly status: number;
  /** The JSON body as the upstream sent it (after key redaction), UTF-8 encoded once so a hit never re-encodes it. */
  readonly body: Uint8Array<ArrayBuffer>;
  /** The upstream's Content-Type. */
  readonly contentType: string;
  /** When it was stored, in ms since the epoch on the proxy's clock. */
  readonly storedAt: number;
  /** When it stops being valid (ms since the epoch): storedAt + its TTL. */
  readonly expiresAt: number;
  /** A kept SubmitOrder answer only: the SHA-256 (hex) of the order it answered, so only that same order is answered with it. */
  readonly orderHash?: string;
}

export interface CacheStore {
  /** The stored answer, or undefined when absent or expired. */
  get(key: string): Promise<CachedResponse | undefined>;
  /** Store an answer until `value.expiresAt`. */
  set(key: string, value: CachedResponse): Promise<void>;
}

/** At most `limit` requests per client address in any `windowMs`. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Requests counted in the window ending now, this one included when allowed. */
  readonly count: number;
  /** When refused: milliseconds until the oldest counted request leaves the window. 0 when allowed. */
  readonly retryAfterMs: number;
}

export interface RateLimitStore {
  /**
   * A sliding window: count this request for `key` when fewer than `rule.limit`
   * were counted in the `rule.windowMs` before `now`, and say whether it was.
   * Refused requests are not counted, so a client that keeps trying still gets
   * its limit's worth per window and no more; unlike a fixed window, there is
   * no boundary at which a client can send twice the limit.
   */
  hit(key: string, rule: RateLimitRule, now: number): Promise<RateLimitDecision>;
}

/** One upstream call for concurrent identical lookups across processes. */
export interface FlightStore {
  /** Try to become the one caller (in every process) fetching `key`, for at most `ttlMs`. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Done with `key` (its answer is stored, or the call failed): wake every waiter, in every process. */
  release(key: string): Promise<void>;
  /** Resolves when `key` is released by whoever holds it, or after `timeoutMs`. */
  wait(key: string, timeoutMs: number): Promise<void>;
}

/** One subject of a seat cap (seat-caps.ts): `v:<visitor>` or `a:<address>`, and its cap in seats. */
export interface SeatCapSubject {
  readonly subject: string;
  readonly cap: number;
}

/** Seats held under one field of a subject's count: a pending reservation (`r:<token>`) or a basket item (`i:<basket>:<item>`). */
export interface SeatHoldEntry {
  readonly field: string;
  /** 0 removes the field. */
  readonly seats: number;
  /** When the hold lapses, ms since the epoch on the proxy's clock. */
  readonly expiresAt: number;
}

export interface SeatCapDecision {
  readonly allowed: boolean;
  /** When refused: the seats the tightest subject may still add (never negative). */
  readonly remaining: number;
  /** When refused: which subject refused (`v:...` or `a:...`). */
  readonly subject?: string;
}

/** Where a basket item's seats are counted, to release them when it goes. */
export interface BasketHold {
  readonly scope: string;
  readonly subjects: readonly string[];
  readonly seats: number;
}

/**
 * Seats held per subject and performance (`scope`), atomic across processes: every subject's
 * count for one scope is checked and changed together, or not at all.
 */
export interface SeatHoldStore {
  /**
   * Hold `entry` under every subject, unless one would then hold more than its cap
   * (entries past their expiry at `now` are dropped first): then nothing is held.
   */
  reserve(scope: string, subjects: readonly SeatCapSubject[], entry: SeatHoldEntry, now: number): Promise<SeatCapDecision>;
  /** Set (or, with seats 0, remove) entries under every subject, unconditionally. */
  settle(scope: string, subjects: readonly string[], entries: readonly SeatHoldEntry[], now: number): Promise<void>;
  /** The seats a subject holds in `scope` at `now` (for tests and the operator). */
  held(scope: string, subject: string, now: number): Promise<number>;
  /** Where each of a basket's items is counted (item id → hold). */
  basket(basketId: string): Promise<Record<string, BasketHold>>;
  /** Record or forget (null) where basket items are counted; `keepMs`: how long the record outlives its last change. */
  setBasket(basketId: string, items: Record<string, BasketHold | null>, keepMs: number): Promise<void>;
}

export interface ProxyStore {
  /** For logs, /readyz and /metrics: `memory`, `redis`. */
  readonly name: string;
  /** Whether other proxy processes see what this one stores. */
  readonly shared: boolean;
  readonly cache: CacheStore;
  readonly orders: CacheStore;
  readonly rateLimits: RateLimitStore;
  readonly seatHolds: SeatHoldStore;
  readonly flights?: FlightStore;
  /** The waiting rooms (room/store.ts), when this store keeps them (Redis: shared by every proxy). */
  readonly rooms?: RoomStore;
  /** Resolves when the store answers; rejects when it does not. */
  ping(): Promise<void>;
  /** Close its connections. */
  close(): Promise<void>;
}

export interface MemoryCacheStoreOptions {
  /** Upper bound of the bodies held, in bytes (default 64 MiB). Least recently used answers go first. */
  maxBytes?: number;
  /** The clock expiry is measured against (ms); defaults to Date.now. Tests inject one. */
  now?: () => number;
}

/** A CacheStore in this process's memory: an LRU bounded in bytes (lru-cache). */
export class MemoryCacheStore implements CacheStore {
  readonly #lru: LRUCache<string, CachedResponse>;
  readonly #now: () => number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#lru = new LRUCache<string, CachedResponse>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (value, key) => value.body.byteLength + key.length + 64,
    });
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    return this.getNow(key);
  }

  /** The same, synchronously: the proxy's first look, before any shared store. */
  getNow(key: string): CachedResponse | undefined {
    const value = this.#lru.get(key);
    if (value && value.expiresAt <= this.#now()) {
      this.#lru.delete(key);
      return undefined;
    }
    return value;
  }

  async set(key: string, value: CachedResponse): Promise<void> {
    if (value.expiresAt > this.#now()) this.#lru.set(key, value);
  }
}

/**
 * A RateLimitStore in this process's memory: for each key, the times of the
 * requests counted in the last window (at most `limit` of them), for at most
 * `maxKeys` keys (least recently used dropped first).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows: LRUCache<string, number[]>;

  constructor(options: { maxKeys?: number } = {}) {
    this.#windows = new LRUCache({ max: options.maxKeys ?? 100_000 });
  }

  async hit(key: string, rule: RateLimitRule, now: number): Promise<RateLimitDecision> {
    const since = now - rule.windowMs;
    const times = (this.#windows.get(key) ?? []).filter((t) => t > since);
    if (times.length >= rule.limit) {
      this.#windows.set(key, times);
      return { allowed: false, count: times.length, retryAfterMs: (times[0] ?? now) + rule.windowMs - now };
    }
    times.push(now);
    this.#windows.set(key, times);
    return { allowed: true, count: times.length, retryAfterMs: 0 };
  }
}

/** A SeatHoldStore in this process's memory (at most `maxKeys` subject counts and baskets each, least recently used dropped first). */
export class MemorySeatHoldStore implements SeatHoldStore {
  readonly #counts: LRUCache<string, Map<string, { seats: number; expiresAt: number }>>;
  readonly #baskets: LRUCache<string, Record<string, BasketHold>>;

  constructor(options: { maxKeys?: number } = {}) {
    this.#counts = new LRUCache({ max: options.maxKeys ?? 100_000 });
    this.#baskets = new LRUCache({ max: options.maxKeys ?? 100_000, ttl: 60 * 60_000 });
  }

  #count(scope: string, subject: string, now: number): Map<string, { seats: number; expiresAt: number }> {
    const key = `${scope}\n${subject}`;
    let entries = this.#counts.get(key);
    if (!entries) this.#counts.set(key, (entries = new Map()));
    for (const [field, entry] of entries) if (entry.expiresAt <= now) entries.delete(field);
    return entries;
  }

  async reserve(scope: string, subjects: readonly SeatCapSubject[], entry: SeatHoldEntry, now: number): Promise<SeatCapDecision> {
    const counts = subjects.map(({ subject, cap }) => {
      const entries = this.#count(scope, subject, now);
      let held = 0;
      for (const e of entries.values()) held += e.seats;
      return { subject, entries, remaining: cap - held };
    });
    const tightest = counts.reduce<(typeof counts)[number] | undefined>((a, b) => (a && a.remaining <= b.remaining ? a : b), undefined);
    if (tightest && entry.seats > tightest.remaining) return { allowed: false, remaining: Math.max(0, tightest.remaining), subject: tightest.subject };
    for (const { entries } of counts) entries.set(entry.field, { seats: entry.seats, expiresAt: entry.expiresAt });
    return { allowed: true, remaining: 0 };
  }

  async settle(scope: string, subjects: readonly string[], entries: readonly SeatHoldEntry[], now: number): Promise<void> {
    for (const subject of subjects) {
      const held = this.#count(scope, subject, now);
      for (const e of entries) {
        if (e.seats > 0 && e.expiresAt > now) held.set(e.field, { seats: e.seats, expiresAt: e.expiresAt });
        else held.delete(e.field);
      }
    }
  }

  async held(scope: string, subject: string, now: number): Promise<number> {
    let held = 0;
    for (const e of this.#count(scope, subject, now).values()) held += e.seats;
    return held;
  }

  async basket(basketId: string): Promise<Record<string, BasketHold>> {
    return { ...this.#baskets.get(basketId) };
  }

  async setBasket(basketId: string, items: Record<string, BasketHold | null>, keepMs: number): Promise<void> {
    const record = { ...this.#baskets.get(basketId) };
    for (const [item, hold] of Object.entries(items)) {
      if (hold) record[item] = hold;
      else delete record[item];
    }
    if (Object.keys(record).length) this.#baskets.set(basketId, record, { ttl: keepMs });
    else this.#baskets.delete(basketId);
  }
}

/** The default store: everything in this process's memory. */
export function memoryStore(options: MemoryCacheStoreOptions = {}): ProxyStore {
  return {
    name: 'memory',
    shared: false,
    cache: new MemoryCacheStore(options),
    // Its own LRU, so catalogue answers never push a basket's redirect out.
    orders: new MemoryCacheStore({ now: options.now, maxBytes: 16 * 1024 * 1024 }),
    rateLimits: new MemoryRateLimitStore(),
    seatHolds: new MemorySeatHoldStore(),
    ping: async () => undefined,
    close: async () => undefined,
  };
}
