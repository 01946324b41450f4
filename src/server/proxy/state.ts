/**
 * The proxy's view of its stores: this process's memory first, then the shared
 * store (Redis) when there is one and it answers.
 *
 * - Cache: memory, then the shared store; an answer found there is kept in
 *   memory too until the same expiry (entries never change before they
 *   expire, so the two never disagree). New answers go to both.
 * - Rate limits: the shared store's counters, so every process holds one limit.
 * - Kept SubmitOrder answers: both.
 * - Single flight across processes: the shared store's.
 * - Seats held (seat caps): the shared store's; while it fails, this process's (each
 *   process then caps on its own: seat-caps.ts says why not closed).
 *
 * When the shared store fails, nothing the customer does fails with it: the
 * proxy is `degraded` (logged once, /readyz says so, /metrics counts the
 * errors): cache misses go upstream, rate limits fall back to per-process
 * counters, single flight to this process, and the shared store is left alone
 * but probed every `probeMs` (so a hung store costs no request any time). When
 * a probe answers, sharing resumes (logged).
 */
import {
  memoryStore,
  type CachedResponse,
  type FlightStore,
  type MemoryCacheStore,
  type ProxyStore,
  type RateLimitDecision,
  type RateLimitRule,
  type SeatHoldStore,
} from './stores.ts';

/** `local`: no shared store configured; `ok`: sharing; `degraded`: the shared store failed, this process alone. */
export type StoreHealth = 'local' | 'ok' | 'degraded';

export interface StateEvents {
  /** A shared-store operation failed (`cache-get`, `cache-set`, `rate-limit`, `seat-holds`, `order-get`, `order-set`, `flight`, `ping`). */
  storeError?(operation: string, error: unknown): void;
  /** The health changed. */
  storeHealth?(health: StoreHealth, error?: unknown): void;
}

export interface ProxyStateOptions {
  shared?: ProxyStore | null;
  now: () => number;
  /** How often a degraded proxy asks the shared store again (ms, default 1000). */
  probeMs?: number;
  events?: StateEvents;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ProxyState {
  readonly local: ProxyStore;
  readonly shared: ProxyStore | null;
  readonly #localCache: MemoryCacheStore;
  readonly #now: () => number;
  readonly #probeMs: number;
  readonly #events: StateEvents;
  #health: StoreHealth;
  #probe: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: ProxyStateOptions) {
    this.#now = options.now;
    this.local = memoryStore({ now: options.now });
    this.#localCache = this.local.cache as MemoryCacheStore;
    this.shared = options.shared ?? null;
    this.#probeMs = options.probeMs ?? 1000;
    this.#events = options.events ?? {};
    this.#health = this.shared ? 'ok' : 'local';
  }

  get health(): StoreHealth {
    return this.#health;
  }

  /** The shared store while it answers, else null. */
  get #usable(): ProxyStore | null {
    return this.#health === 'ok' ? this.shared : null;
  }

  #failed(operation: string, error: unknown): void {
    this.#events.storeError?.(operation, error);
    if (this.#health !== 'ok' || this.#closed) return;
    this.#health = 'degraded';
    console.error(
      `stagedoor proxy: the shared store (${this.shared?.name ?? '?'}) failed (${describe(error)}): degraded; ` +
        'bookings go on, with the cache, single flight and rate limits of this process only, until it answers again.',
    );
    this.#events.storeHealth?.('degraded', error);
    this.#probe = setInterval(() => void this.#tryAgain(), this.#probeMs);
    // Never keep the process alive for this.
    (this.#probe as { unref?: () => void }).unref?.();
  }

  async #tryAgain(): Promise<void> {
    if (this.#health !== 'degraded' || !this.shared) return;
    try {
      await this.shared.ping();
    } catch (error) {
      this.#events.storeError?.('ping', error);
      return;
    }
    if (this.#health !== 'degraded') return;
    clearInterval(this.#probe);
    this.#probe = undefined;
    this.#health = 'ok';
    console.error(`stagedoor proxy: the shared store (${this.shared.name}) answers again: sharing resumed.`);
    this.#events.storeHealth?.('ok');
  }

  /** Run `fn` on the shared store if it is usable; `fallback` when it is not or when it fails. */
  async #guard<T>(operation: string, fn: (store: ProxyStore) => Promise<T>, fallback: () => Promise<T> | T): Promise<T> {
    const store = this.#usable;
    if (!store) return fallback();
    try {
      return await fn(store);
    } catch (error) {
      this.#failed(operation, error);
      return fallback();
    }
  }

  /** This process's cache, synchronously. */
  cachedHere(key: string): CachedResponse | undefined {
    return this.#localCache.getNow(key);
  }

  /** The shared store's cache (kept here too when found). */
  async cachedShared(key: string): Promise<CachedResponse | undefined> {
    const found = await this.#guard('cache-get', (s) => s.cache.get(key), () => undefined);
    if (found && found.expiresAt > this.#now()) {
      await this.#localCache.set(key, found);
      return found;
    }
    return undefined;
  }

  /** Store a fresh answer here at once and in the shared store (the promise settles when it is there, or failed). */
  keep(key: string, value: CachedResponse): Promise<void> {
    void this.#localCache.set(key, value);
    return this.#guard('cache-set', (s) => s.cache.set(key, value), () => undefined);
  }

  async rateLimit(key: string, rule: RateLimitRule, now: number): Promise<RateLimitDecision> {
    return this.#guard('rate-limit', (s) => s.rateLimits.hit(key, rule, now), () => this.local.rateLimits.hit(key, rule, now));
  }

  /** Seats held: the shared store's while it answers, this process's otherwise (its failures count as store failures). */
  get seatHolds(): SeatHoldStore {
    const local = this.local.seatHolds;
    const on = <K extends keyof SeatHoldStore>(name: K) =>
      ((...args: Parameters<SeatHoldStore[K]>) =>
        this.#guard('seat-holds', (s) => (s.seatHolds[name] as (...a: typeof args) => Promise<unknown>)(...args), () =>
          (local[name] as (...a: typeof args) => Promise<unknown>)(...args),
        )) as SeatHoldStore[K];
    return { reserve: on('reserve'), settle: on('settle'), held: on('held'), basket: on('basket'), setBasket: on('setBasket') };
  }

  async order(key: string): Promise<CachedResponse | undefined> {
    const shared = await this.#guard('order-get', (s) => s.orders.get(key), () => undefined);
    return shared ?? (await this.local.orders.get(key));
  }

  async keepOrder(key: string, value: CachedResponse): Promise<void> {
    await this.local.orders.set(key, value);
    await this.#guard('order-set', (s) => s.orders.set(key, value), () => undefined);
  }

  /** The shared single flight, while the shared store answers (its failures count as store failures). */
  get flights(): FlightStore | null {
    const store = this.#usable;
    const flights = store?.flights;
    if (!flights) return null;
    return {
      claim: (key, ttlMs) => this.#guard('flight', () => flights.claim(key, ttlMs), () => true),
      release: (key) => this.#guard('flight', () => flights.release(key), () => undefined),
      wait: (key, timeoutMs) => flights.wait(key, timeoutMs),
    };
  }

  /** Ask the shared store now (for /readyz): its health after asking. */
  async check(): Promise<StoreHealth> {
    if (!this.shared) return 'local';
    if (this.#health === 'degraded') {
      await this.#tryAgain();
      return this.#health;
    }
    try {
      await this.shared.ping();
    } catch (error) {
      this.#failed('ping', error);
    }
    return this.#health;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#probe);
    await this.shared?.close();
  }
}
