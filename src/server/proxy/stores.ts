/**
 * The proxy's only state: the response cache and the rate-limit counters.
 *
 * Both sit behind small async interfaces so that several proxies behind a
 * load balancer can share them (Redis, Memcached, a platform KV) instead of
 * the in-process defaults below. All booking state lives upstream; nothing
 * else in the proxy is shared.
 *
 * A Redis-backed implementation is a few lines each:
 * - CacheStore: the body as a binary value and the other fields beside it
 *   (`HSET key body <bytes> status 200 ...` + `PEXPIRE key ttlMs`, or one
 *   serialised value with `SET key value PX ttlMs`); `get` reads it back.
 * - RateLimitStore: `INCR key:windowStart` then `PEXPIRE key:windowStart windowMs`
 *   (in a MULTI), answering the count and `windowStart + windowMs`.
 */
import { LRUCache } from 'lru-cache';

/** One stored upstream answer (only 200 answers with a JSON body are stored). */
export interface CachedResponse {
  readonly status: number;
  /** The JSON body as the upstream sent it (after key redaction), UTF-8 encoded once so a hit never re-encodes it. */
  readonly body: Uint8Array<ArrayBuffer>;
  /** The upstream's Content-Type. */
  readonly contentType: string;
  /** When it was stored, in ms since the epoch on the proxy's clock. */
  readonly storedAt: number;
}

export interface CacheStore {
  /** The stored answer, or undefined when absent or expired. */
  get(key: string): Promise<CachedResponse | undefined>;
  /** Store an answer for `ttlMs` milliseconds. */
  set(key: string, value: CachedResponse, ttlMs: number): Promise<void>;
}

export interface MemoryCacheStoreOptions {
  /** Upper bound of the bodies held, in bytes (default 64 MiB). Least recently used answers go first. */
  maxBytes?: number;
  /** The clock TTLs are measured against (ms); defaults to Date.now. Tests inject one. */
  now?: () => number;
}

/** The default CacheStore: an LRU in this process's memory (lru-cache). */
export class MemoryCacheStore implements CacheStore {
  readonly #lru: LRUCache<string, CachedResponse>;

  constructor(options: MemoryCacheStoreOptions = {}) {
    const now = options.now ?? Date.now;
    this.#lru = new LRUCache<string, CachedResponse>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (value, key) => value.body.byteLength + key.length + 64,
      perf: { now },
      // Read the clock on every check: an injected clock may jump.
      ttlResolution: 0,
    });
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    return this.#lru.get(key);
  }

  async set(key: string, value: CachedResponse, ttlMs: number): Promise<void> {
    if (ttlMs > 0) this.#lru.set(key, value, { ttl: ttlMs });
  }
}

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  readonly count: number;
  /** When the current window ends (ms since the epoch). */
  readonly resetAt: number;
}

export interface RateLimitStore {
  /**
   * Count one request for `key` in the fixed window of `windowMs` that contains
   * `now`, and say how many the window holds so far.
   */
  hit(key: string, windowMs: number, now: number): Promise<RateLimitHit>;
}

/**
 * The default RateLimitStore: fixed-window counters in this process's memory,
 * at most `maxKeys` of them (least recently used dropped first). A fixed window
 * lets a client send up to twice the limit across a window boundary; that is
 * acceptable against seat-hoarding bots and keeps a shared-store version to one
 * INCR per request.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows: LRUCache<string, { start: number; count: number }>;

  constructor(options: { maxKeys?: number } = {}) {
    this.#windows = new LRUCache({ max: options.maxKeys ?? 100_000 });
  }

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const start = Math.floor(now / windowMs) * windowMs;
    const current = this.#windows.get(key);
    const count = current && current.start === start ? current.count + 1 : 1;
    this.#windows.set(key, { start, count });
    return { count, resetAt: start + windowMs };
  }
}
