/**
 * The waiting rooms in Redis (ioredis, through the proxy's store: redis-store.ts), so every proxy
 * on it shares one order, one admission rate and one count of passes, and a proxy restart loses
 * no place. Every key of one room shares the hash tag `{room:<id>}` (one slot: one Lua script
 * does a visit atomically, on a Redis Cluster too):
 *
 * - `<prefix>{room:<id>}:meta`  hash: `config` (JSON), `opened`, `counter`, `allow`, `allowAt`, `admitted`;
 * - `<prefix>{room:<id>}:q`     sorted set: waiting visitor → score (pre-queue (0,1), later 1 + counter);
 * - `<prefix>{room:<id>}:seen`  sorted set: visitor → last asked (waiting, or admitted and not yet collected);
 * - `<prefix>{room:<id>}:pass`  sorted set: admitted visitor → pass expiry;
 * - `<prefix>{room:<id>}:joined` hash: waiting visitor → joined at (for the wait histogram);
 * - `<prefix>{room:<id>}:log`   sorted set: admissions of the last minute;
 * - `<prefix>rooms`             set of room ids (the list; its own slot, never in a script).
 * Node only (ioredis).
 */
import type { Redis } from 'ioredis';
import type { RoomStats, RoomStore, VisitResult } from './store.ts';
import type { RoomConfig } from './config.ts';

/** KEYS: q, seen, pass, meta, joined, log. ARGV: now, queueId, random score, mayJoin (1/0). See store.ts for the steps. */
const VISIT_SCRIPT = `
local now = tonumber(ARGV[1])
local id = ARGV[2]
local raw = redis.call('HGET', KEYS[4], 'config')
if not raw then return {'none'} end
local c = cjson.decode(raw)
local stale = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - c.keepSeconds * 1000), 'LIMIT', 0, 1000)
for _, who in ipairs(stale) do
  redis.call('ZREM', KEYS[1], who)
  redis.call('ZREM', KEYS[2], who)
  redis.call('ZREM', KEYS[3], who)
  redis.call('HDEL', KEYS[5], who)
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local live = now >= c.opensAt
local opened = redis.call('HGET', KEYS[4], 'opened') == '1'
if live and not opened then
  redis.call('HSET', KEYS[4], 'opened', '1')
  opened = true
end
local holds = redis.call('ZSCORE', KEYS[3], id)
if not holds and not redis.call('ZSCORE', KEYS[1], id) then
  if ARGV[4] ~= '1' then return {'proof', raw} end
  local score = tonumber(ARGV[3])
  if opened then score = 1 + redis.call('HINCRBY', KEYS[4], 'counter', 1) end
  redis.call('ZADD', KEYS[1], score, id)
  redis.call('HSET', KEYS[5], id, now)
end
if not holds then redis.call('ZADD', KEYS[2], now, id) end
local result = {'', raw, 0, 0}
if live and c.state == 'open' then
  local rate = c.ratePerMinute
  local allow = tonumber(redis.call('HGET', KEYS[4], 'allow') or '0')
  local from = math.max(tonumber(redis.call('HGET', KEYS[4], 'allowAt') or '0'), c.opensAt)
  -- The allowance's cap: ten seconds' worth, at least one (allowanceCap in store.ts).
  if now > from then allow = math.min(math.max(1, rate / 6), allow + (now - from) * rate / 60000) end
  local n = math.floor(allow)
  if c.maxActive ~= cjson.null then n = math.min(n, c.maxActive - redis.call('ZCARD', KEYS[3])) end
  local front = {}
  if n > 0 then front = redis.call('ZRANGE', KEYS[1], 0, n - 1) end
  for _, who in ipairs(front) do
    redis.call('ZREM', KEYS[1], who)
    redis.call('ZADD', KEYS[3], now + c.passSeconds * 1000, who)
    local joined = redis.call('HGET', KEYS[5], who)
    redis.call('HDEL', KEYS[5], who)
    if joined then result[#result + 1] = now - tonumber(joined) end
    redis.call('ZADD', KEYS[6], now, who .. ' ' .. now)
  end
  if #front > 0 then redis.call('HINCRBY', KEYS[4], 'admitted', #front) end
  redis.call('HSET', KEYS[4], 'allow', string.format('%.6f', allow - #front), 'allowAt', string.format('%d', math.max(now, from)))
else
  redis.call('HSET', KEYS[4], 'allowAt', ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now - 60000)
result[4] = redis.call('ZCARD', KEYS[1])
local expires = redis.call('ZSCORE', KEYS[3], id)
if expires then
  redis.call('ZREM', KEYS[2], id)
  result[1] = 'admitted'
  result[3] = tonumber(expires)
  return result
end
result[1] = 'waiting'
if opened then result[3] = redis.call('ZRANK', KEYS[1], id) + 1 end
return result
`;

/** KEYS: meta. ARGV: config JSON, ifAbsent (1/0). */
const PUT_SCRIPT = `
if ARGV[2] == '1' and redis.call('HEXISTS', KEYS[1], 'config') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'config', ARGV[1])
return 1
`;

/** KEYS: q, pass, meta, log. ARGV: now. */
const STATS_SCRIPT = `
local now = tonumber(ARGV[1])
return {redis.call('ZCARD', KEYS[1]), tonumber(redis.call('HGET', KEYS[3], 'admitted') or '0'),
  redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf'), redis.call('ZCOUNT', KEYS[4], '(' .. (now - 60000), '+inf')}
`;

interface RoomScripted {
  stagedoorRoomVisit(...args: (string | number)[]): Promise<(string | number)[]>;
  stagedoorRoomPut(key: string, config: string, ifAbsent: number): Promise<number>;
  stagedoorRoomStats(...args: (string | number)[]): Promise<number[]>;
}

export function redisRoomStore(redis: Redis, prefix: string): RoomStore {
  const scripted = redis as Redis & RoomScripted;
  redis.defineCommand('stagedoorRoomVisit', { numberOfKeys: 6, lua: VISIT_SCRIPT });
  redis.defineCommand('stagedoorRoomPut', { numberOfKeys: 1, lua: PUT_SCRIPT });
  redis.defineCommand('stagedoorRoomStats', { numberOfKeys: 4, lua: STATS_SCRIPT });
  const key = (id: string, part: string) => `${prefix}{room:${id}}:${part}`;
  const keys = (id: string) => ['q', 'seen', 'pass', 'meta', 'joined', 'log'].map((part) => key(id, part));
  const listKey = `${prefix}rooms`;

  async function get(id: string): Promise<RoomConfig | null> {
    const raw = await redis.hget(key(id, 'meta'), 'config');
    return raw ? (JSON.parse(raw) as RoomConfig) : null;
  }

  return {
    get,
    async list() {
      const ids = (await redis.smembers(listKey)).sort();
      const configs = await Promise.all(ids.map(get));
      return configs.filter((c): c is RoomConfig => c !== null);
    },
    async put(config, ifAbsent = false) {
      if (config.state === 'closed') return this.delete(config.id);
      await scripted.stagedoorRoomPut(key(config.id, 'meta'), JSON.stringify(config), ifAbsent ? 1 : 0);
      await redis.sadd(listKey, config.id);
    },
    async delete(id) {
      await redis.srem(listKey, id);
      await redis.del(...keys(id));
    },
    async visit(id, input): Promise<VisitResult> {
      const reply = await scripted.stagedoorRoomVisit(...keys(id), input.now, input.queueId, String(input.random), input.mayJoin ? 1 : 0);
      const [kind, raw, place = 0, waiting = 0, ...waits] = reply;
      if (kind === 'none') return { kind: 'none' };
      const config = JSON.parse(String(raw)) as RoomConfig;
      if (kind === 'proof') return { kind: 'proof', config };
      const admittedWaits = waits.map(Number);
      if (kind === 'admitted') return { kind: 'admitted', config, passExpiresAt: Number(place), waiting: Number(waiting), admittedWaits };
      return { kind: 'waiting', config, position: Number(place), waiting: Number(waiting), admittedWaits };
    },
    async stats(id, now): Promise<RoomStats> {
      const [waiting = 0, admitted = 0, active = 0, admittedLastMinute = 0] = await scripted.stagedoorRoomStats(key(id, 'q'), key(id, 'pass'), key(id, 'meta'), key(id, 'log'), now);
      return { waiting, admitted, active, admittedLastMinute };
    },
    async holders(id, expiresAt) {
      return redis.zrangebyscore(key(id, 'pass'), expiresAt, expiresAt);
    },
  };
}
