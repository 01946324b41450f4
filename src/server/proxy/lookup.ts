/**
 * Cached lookups with single flight: a stored answer when there is one (this
 * process's memory, then the shared store), else ONE upstream call for all the
 * concurrent identical requests: those in this process share a promise; those
 * in other processes wait for the process that claimed the key in the shared
 * store, then read its answer from there. A waiter whose holder never stores an
 * answer (an error, a crash) calls upstream itself after at most the upstream
 * time limit. Only 200 answers with a JSON body are stored.
 */
import type { CachedResponse } from './stores.ts';
import type { Reply } from './reply.ts';
import type { ProxyState } from './state.ts';

/** `hit`: a stored answer; `miss`: fetched (and stored); `coalesced`: shared another request's upstream call. */
export type LookupSource = 'hit' | 'miss' | 'coalesced';

export interface LookupOutcome {
  reply: Reply;
  source: LookupSource;
}

const encoder = new TextEncoder();

export interface LookupsOptions {
  state: ProxyState;
  now: () => number;
  /** The upstream time limit: how long another process's claim on a key is honoured. */
  timeoutMs: number;
}

export class Lookups {
  readonly #state: ProxyState;
  readonly #now: () => number;
  readonly #timeoutMs: number;
  /** Misses in flight in this process, by key. */
  readonly #inflight = new Map<string, Promise<LookupOutcome>>();

  constructor(options: LookupsOptions) {
    this.#state = options.state;
    this.#now = options.now;
    this.#timeoutMs = options.timeoutMs;
  }

  #fromStore(stored: CachedResponse, source: LookupSource): LookupOutcome {
    const age = Math.max(0, Math.floor((this.#now() - stored.storedAt) / 1000));
    return { reply: { status: stored.status, body: stored.body, contentType: stored.contentType, date: null, age }, source };
  }

  /** The answer for `key` (cacheable for `ttlMs`), from a store or from `forward()`. */
  get(key: string, ttlMs: number, forward: () => Promise<Reply>): Promise<LookupOutcome> | LookupOutcome {
    const here = this.#state.cachedHere(key);
    if (here) return this.#fromStore(here, 'hit');
    const flight = this.#inflight.get(key);
    if (flight) return flight.then((outcome) => (outcome.source === 'hit' ? outcome : { ...outcome, source: 'coalesced' }));
    const started = this.#resolve(key, ttlMs, forward).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, started);
    return started;
  }

  async #resolve(key: string, ttlMs: number, forward: () => Promise<Reply>): Promise<LookupOutcome> {
    const stored = await this.#state.cachedShared(key);
    if (stored) return this.#fromStore(stored, 'hit');
    const flights = this.#state.flights;
    if (!flights) return { reply: await this.#fetch(key, ttlMs, forward), source: 'miss' };

    const flightKey = `lookup:${key}`;
    if (!(await flights.claim(flightKey, this.#timeoutMs + 1000))) {
      // Another process is fetching it. Listen first, then look again (it may have finished meanwhile).
      const released = flights.wait(flightKey, this.#timeoutMs + 1000);
      const meanwhile = await this.#state.cachedShared(key);
      if (meanwhile) return this.#fromStore(meanwhile, 'coalesced');
      await released;
      const after = await this.#state.cachedShared(key);
      if (after) return this.#fromStore(after, 'coalesced');
      // It stored nothing (an error answer, or it gave up): ask ourselves.
      return { reply: await this.#fetch(key, ttlMs, forward), source: 'miss' };
    }
    let storing: Promise<void> = Promise.resolve();
    try {
      const reply = await this.#fetch(key, ttlMs, forward, (p) => (storing = p));
      return { reply, source: 'miss' };
    } finally {
      // Release once the answer is in the shared store, without making this request wait for it.
      void storing.finally(() => flights.release(flightKey));
    }
  }

  async #fetch(key: string, ttlMs: number, forward: () => Promise<Reply>, storing?: (p: Promise<void>) => void): Promise<Reply> {
    const fresh = await forward();
    if (fresh.status === 200 && !fresh.error && typeof fresh.body === 'string') {
      const storedAt = this.#now();
      const value: CachedResponse = { status: 200, body: encoder.encode(fresh.body), contentType: fresh.contentType, storedAt, expiresAt: storedAt + ttlMs };
      const kept = this.#state.keep(key, value);
      storing?.(kept);
    }
    return fresh;
  }
}
