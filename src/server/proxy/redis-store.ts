/**
 * The proxy's shared store in Redis (ioredis), so every proxy process behind a
 * load balancer holds one cache, one set of rate limits, one single flight and
 * one set of kept SubmitOrder answers:
 *
 *   import { createProxy } from 'stagedoor/proxy';
 *   import { createRedisStore } from 'stagedoor/proxy/redis';
 *   const proxy = createProxy({ upstream, apiKey, store: createRedisStore({ url: process.env.REDIS_URL }) });
 *
 * Keys (all under `keyPrefix`, default `stagedoor:`):
 * - `cache:<GET path>` and `order:<operation>:<basket>`: one string each, a
 *   JSON header line then the body bytes, expiring with the entry (PX);
 * - `rate:<rule>:<address>`: a sorted set of request times, the sliding window,
 *   counted and added in one Lua script (atomic across processes);
 * - `cap:{<performance>}:<subject>`: the seats a visitor or address holds for one
 *   performance (seat-caps.ts), a hash of entry → `seats:expiresAt`; every subject of
 *   one performance shares the hash tag, so one Lua script checks and changes them
 *   together, on a Redis Cluster too; `capbasket:<basket>`: where its items are counted;
 * - `{room:<id>}:...`: a waiting room's configuration and queue, every key of one room in one
 *   hash slot (room/redis.ts);
 * - `flight:<key>`: the claim of the process fetching a key (SET NX PX); its
 *   release deletes it only if still its own and publishes on `<prefix>flights`,
 *   which every process listens to (one subscriber connection each).
 *
 * Fails fast rather than queueing: once connected, no offline queue, and a
 * command time limit, so a Redis that is down or slow costs a request nothing
 * more than one quick error (after which the proxy stops asking it until it
 * answers a probe: state.ts). ioredis reconnects by itself. Node only.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { redisRoomStore } from './room/redis.ts';
import type { BasketHold, CachedResponse, CacheStore, FlightStore, ProxyStore, RateLimitDecision, RateLimitRule, RateLimitStore, SeatHoldStore } from './stores.ts';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /**
   * A Redis Cluster instead: the `redis://host:port` of some of its masters (`url` is then ignored
   * except for its scheme checks). Every script's keys share one hash slot.
   */
  clusterNodes?: readonly string[];
  /** Prefix of every key and channel (default `stagedoor:`). Give each deployment its own when several share one Redis. */
  keyPrefix?: string;
  /** Longest wait for one command before it counts as failed, ms (default 500). */
  commandTimeoutMs?: number;
  /** Longest wait to connect, ms (default 2000). */
  connectTimeoutMs?: number;
  /** Anything else for ioredis. */
  redis?: RedisOptions;
}

export interface RedisStore extends ProxyStore {
  /** Resolves true once connected, false when the first attempt failed (the store keeps trying in the background). */
  connected(): Promise<boolean>;
}

/** Sliding window: drop what left the window, count, add this request if under the limit (score = time, member unique). */
const RATE_LIMIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, count + 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, count, tonumber(oldest[2]) + window - now}
`;

/** Release a claim if it is still ours, and tell every process. */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

/**
 * Seats held per subject: drop the entries past their time, sum, and hold the new entry under
 * every subject only if none would then pass its cap. KEYS: the subjects' hashes;
 * ARGV: now, field, seats, expiresAt, then one cap per key. Returns {1} or {0, remaining, key index}.
 */
const SEAT_RESERVE_SCRIPT = `
local now = tonumber(ARGV[1])
local seats = tonumber(ARGV[3])
local tightest, tightestIndex = nil, 0
for i, key in ipairs(KEYS) do
  local entries = redis.call('HGETALL', key)
  local held = 0
  for j = 1, #entries, 2 do
    local count, expires = string.match(entries[j + 1], '^(%d+):(%d+)$')
    if count == nil or tonumber(expires) <= now then
      redis.call('HDEL', key, entries[j])
    else
      held = held + tonumber(count)
    end
  end
  local remaining = tonumber(ARGV[4 + i]) - held
  if tightest == nil or remaining < tightest then tightest, tightestIndex = remaining, i end
end
if tightest ~= nil and seats > tightest then return {0, math.max(tightest, 0), tightestIndex} end
for _, key in ipairs(KEYS) do
  redis.call('HSET', key, ARGV[2], seats .. ':' .. ARGV[4])
  local ttl = tonumber(ARGV[4]) - now
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return {1, 0, 0}
`;

/** Set or remove entries under every subject. ARGV: now, then field, seats, expiresAt per entry. */
const SEAT_SETTLE_SCRIPT = `
local now = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  for i = 2, #ARGV, 3 do
    local seats, expires = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
    if seats > 0 and expires > now then
      redis.call('HSET', key, ARGV[i], seats .. ':' .. expires)
      if redis.call('PTTL', key) < expires - now then redis.call('PEXPIRE', key, expires - now) end
    else
      redis.call('HDEL', key, ARGV[i])
    end
  end
end
return 1
`;

interface Scripted extends Redis {
  stagedoorSeatReserve(...args: (string | number)[]): Promise<[number, number, number]>;
  stagedoorSeatSettle(...args: (string | number)[]): Promise<number>;
  stagedoorRateLimit(key: string, now: number, windowMs: number, limit: number, member: string): Promise<[number, number, number]>;
  stagedoorRelease(key: string, token: string, channel: string, message: string): Promise<number>;
}

const NEWLINE = 0x0a;

function encode(value: CachedResponse): Buffer {
  const header = JSON.stringify({
    status: value.status,
    contentType: value.contentType,
    storedAt: value.storedAt,
    expiresAt: value.expiresAt,
    ...(value.orderHash === undefined ? {} : { orderHash: value.orderHash }),
  });
  return Buffer.concat([Buffer.from(`${header}\n`), value.body]);
}

function decode(raw: Buffer | null): CachedResponse | undefined {
  if (!raw) return undefined;
  const end = raw.indexOf(NEWLINE);
  if (end < 0) return undefined;
  const header = JSON.parse(raw.subarray(0, end).toString('utf8')) as Omit<CachedResponse, 'body'>;
  // A copy of its own: never a view into a larger buffer of the connection.
  const body = new Uint8Array(raw.byteLength - end - 1);
  body.set(raw.subarray(end + 1));
  return { ...header, body };
}

export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const prefix = options.keyPrefix ?? 'stagedoor:';
  const channel = `${prefix}flights`;
  const common: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    // Reconnect for ever, backing off to one attempt a second.
    retryStrategy: (times) => Math.min(times * 100, 1000),
    ...options.redis,
  };
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new Error(`The Redis URL '${options.url}' is not a URL (expected for example redis://127.0.0.1:6379).`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`The Redis URL '${url.protocol}//${url.host}' must start with redis:// or rediss://.`);

  // Until the first connection, commands wait for it (within the command time limit), so a proxy
  // used the moment it is created is not degraded by a connection still being made; after it,
  // no queue: a Redis that goes away fails each command at once.
  const nodes = options.clusterNodes?.map((node) => {
    const at = new URL(node);
    return { host: at.hostname, port: Number(at.port || 6379) };
  });
  const connect = (extra: RedisOptions): Redis =>
    nodes?.length
      ? (new Cluster(nodes, { redisOptions: { ...common, ...extra }, enableOfflineQueue: extra.enableOfflineQueue ?? false }) as unknown as Redis)
      : new Redis(options.url, { ...common, ...extra });
  const redis = connect({ enableOfflineQueue: true, lazyConnect: false }) as Scripted;
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  // The subscriber (re)subscribes whenever it (re)connects.
  const subscriber = connect({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
  // Connection errors surface as failed commands (state.ts logs them); without listeners ioredis would print each retry.
  redis.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  redis.defineCommand('stagedoorRateLimit', { numberOfKeys: 1, lua: RATE_LIMIT_SCRIPT });
  redis.defineCommand('stagedoorRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  redis.defineCommand('stagedoorSeatReserve', { lua: SEAT_RESERVE_SCRIPT });
  redis.defineCommand('stagedoorSeatSettle', { lua: SEAT_SETTLE_SCRIPT });

  const firstConnection = new Promise<boolean>((resolve) => {
    redis.once('ready', () => resolve(true));
    redis.once('error', () => resolve(false));
  });

  /** Local waiters for a released key, woken by the channel. */
  const waiters = new Map<string, Set<() => void>>();
  subscriber.on('message', (_channel: string, key: string) => {
    const wake = waiters.get(key);
    if (!wake) return;
    waiters.delete(key);
    for (const resolve of wake) resolve();
  });
  subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => undefined));

  function keyed(kind: string): CacheStore {
    return {
      async get(key) {
        return decode(await redis.getBuffer(`${prefix}${kind}:${key}`));
      },
      async set(key, value) {
        // Its own lifetime (the proxy's clock decides expiry on reading; this only frees the memory).
        const ttl = Math.ceil(value.expiresAt - value.storedAt);
        if (ttl > 0) await redis.set(`${prefix}${kind}:${key}`, encode(value), 'PX', ttl);
      },
    };
  }

  const rateLimits: RateLimitStore = {
    async hit(key: string, rule: RateLimitRule, now: number): Promise<RateLimitDecision> {
      const member = `${now}-${Math.random().toString(36).slice(2)}`;
      const [allowed, count, retryAfterMs] = await redis.stagedoorRateLimit(`${prefix}rate:${key}`, now, rule.windowMs, rule.limit, member);
      return { allowed: allowed === 1, count, retryAfterMs: Math.max(0, retryAfterMs) };
    },
  };

  /** One performance's subjects share the hash tag `{<scope>}`: one slot, one script. */
  const capKey = (scope: string, subject: string) => `${prefix}cap:{${scope}}:${subject}`;
  const seatHolds: SeatHoldStore = {
    async reserve(scope, subjects, entry, now) {
      if (!subjects.length) return { allowed: true, remaining: 0 };
      const keys = subjects.map(({ subject }) => capKey(scope, subject));
      const [allowed, remaining, index] = await redis.stagedoorSeatReserve(
        keys.length, ...keys, now, entry.field, entry.seats, Math.ceil(entry.expiresAt), ...subjects.map(({ cap }) => cap),
      );
      return allowed === 1 ? { allowed: true, remaining: 0 } : { allowed: false, remaining, subject: subjects[index - 1]?.subject };
    },
    async settle(scope, subjects, entries, now) {
      if (!subjects.length || !entries.length) return;
      const keys = subjects.map((subject) => capKey(scope, subject));
      await redis.stagedoorSeatSettle(keys.length, ...keys, now, ...entries.flatMap((e) => [e.field, e.seats, Math.ceil(e.expiresAt)]));
    },
    async held(scope, subject, now) {
      const entries = await redis.hgetall(capKey(scope, subject));
      let held = 0;
      for (const value of Object.values(entries)) {
        const [seats, expires] = value.split(':').map(Number);
        if ((expires ?? 0) > now) held += seats ?? 0;
      }
      return held;
    },
    async basket(basketId) {
      const raw = await redis.hgetall(`${prefix}capbasket:${basketId}`);
      return Object.fromEntries(Object.entries(raw).map(([item, json]) => [item, JSON.parse(json) as BasketHold]));
    },
    async setBasket(basketId, items, keepMs) {
      const key = `${prefix}capbasket:${basketId}`;
      const gone = Object.keys(items).filter((item) => !items[item]);
      const kept = Object.entries(items).flatMap(([item, hold]) => (hold ? [item, JSON.stringify(hold)] : []));
      const batch = redis.multi();
      if (gone.length) batch.hdel(key, ...gone);
      if (kept.length) batch.hset(key, ...kept);
      batch.pexpire(key, keepMs);
      await batch.exec();
    },
  };

  /** This process's claims: key → token. */
  const claims = new Map<string, string>();
  const flights: FlightStore = {
    async claim(key, ttlMs) {
      const token = crypto.randomUUID();
      const ok = await redis.set(`${prefix}flight:${key}`, token, 'PX', ttlMs, 'NX');
      if (ok !== 'OK') return false;
      claims.set(key, token);
      return true;
    },
    async release(key) {
      const token = claims.get(key) ?? '';
      claims.delete(key);
      await redis.stagedoorRelease(`${prefix}flight:${key}`, token, channel, key);
    },
    wait(key, timeoutMs) {
      // Registered now, before the caller looks at the cache again: a release in between is not missed.
      return new Promise<void>((resolve) => {
        let set = waiters.get(key);
        if (!set) waiters.set(key, (set = new Set()));
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.get(key)?.delete(done);
          resolve();
        }, timeoutMs);
        set.add(done);
      });
    },
  };

  return {
    name: 'redis',
    shared: true,
    cache: keyed('cache'),
    orders: keyed('order'),
    rateLimits,
    seatHolds,
    flights,
    rooms: redisRoomStore(redis, prefix),
    async ping() {
      await redis.ping();
    },
    connected: () => firstConnection,
    async close() {
      for (const wake of waiters.values()) for (const resolve of wake) resolve();
      waiters.clear();
      redis.disconnect();
      subscriber.disconnect();
    },
  };
}
