/**
 * `stagedoor proxy`: the key-holding proxy as a standalone Node server.
 *
 *   STAGEDOOR_API_KEY=... stagedoor proxy --upstream URL [--port 8788] [--host 127.0.0.1] [--prefix /api]
 *       [--allow-origin URL]... [--return-origin URL]... [--allow-on-account] [--timeout-ms 10000]
 *       [--client-address-header X-Forwarded-For] [--trust-forwarded] [--redis URL] [--redis-prefix stagedoor:]
 *       [--redis-cluster URL]... [--seat-cap-visitor 10|off] [--seat-cap-address 20|off]
 *       [--payment-timeout-minutes 20] [--drain-timeout-ms 15000] [--access-log stdout|off|FILE]
 *       [--ops-port PORT] [--ops-host 127.0.0.1] [--rooms FILE]
 *
 * Waiting rooms (room/index.ts) are on when STAGEDOOR_ROOM_SECRET is set (≥ 32 bytes, the same for
 * every proxy); STAGEDOOR_ROOM_ADMIN_SECRET opens /stagedoor/rooms for `stagedoor room`; `--rooms`
 * names a JSON file of rooms to open at start (unless the store already has them). Secrets come
 * from the environment only.
 *
 * The Api-Key comes from STAGEDOOR_API_KEY only, never argv (where `ps` shows
 * it). `--redis` (or REDIS_URL) shares the cache, rate limits, single flight
 * kept orders and seats held with every other process on that Redis (`--redis-cluster`, once per
 * master, for a Redis Cluster). `--seat-cap-visitor` and `--seat-cap-address` set the seats one
 * visitor and one client address may hold at once per performance (seat-caps.ts; `off` for none). One JSON access-log
 * line per request on stdout (or appended to a file, or none); /healthz, /readyz and /metrics beside the
 * prefix, or with `--ops-port` /metrics only on a listener of its own (loopback by default: never
 * on the public port) and /healthz, /readyz on both; SIGTERM or SIGINT drains (server.ts). At start-up
 * it says where orders may send the customer back to, and warns when only the Host header can say it
 * (a front server that rewrites Host makes every order refused). Node only.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { promMetrics } from './metrics.ts';
import { createProxy, type AccessLogEntry } from './node.ts';
import { createRedisStore, type RedisStore } from './redis-store.ts';
import { listenProxy } from './server.ts';
import { parseRoomConfig, type RoomConfig, type RoomOptions } from './room/index.ts';

export const KEY_VARIABLE = 'STAGEDOOR_API_KEY';
export const ROOM_VARIABLE = 'STAGEDOOR_ROOM_SECRET';
export const ROOM_ADMIN_VARIABLE = 'STAGEDOOR_ROOM_ADMIN_SECRET';

export const PROXY_USAGE = `  stagedoor proxy --upstream URL [--port 8788] [--host 127.0.0.1] [--prefix /api]
                  [--allow-origin URL]... [--return-origin URL]... [--allow-on-account] [--timeout-ms 10000]
                  [--client-address-header X-Forwarded-For] [--trust-forwarded] [--redis URL] [--redis-prefix stagedoor:]
                  [--redis-cluster URL]... [--seat-cap-visitor 10|off] [--seat-cap-address 20|off]
                  [--payment-timeout-minutes 20] [--drain-timeout-ms 15000] [--access-log stdout|off|FILE]
                  [--ops-port PORT] [--ops-host 127.0.0.1] [--rooms FILE]
                                       the proxy; the service's Api-Key is read from ${KEY_VARIABLE},
                                       the Redis URL from --redis or REDIS_URL (optional), waiting rooms'
                                       secrets from ${ROOM_VARIABLE} and ${ROOM_ADMIN_VARIABLE}`;

/** A mistake in the command line: printed with the usage, exit status 2. */
export class UsageError extends Error {}

export function parsePort(raw: string, source: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new UsageError(`${source} must be a port number (0-65535), not '${raw}'.`);
  return Number(raw);
}

/** A seat cap: a positive whole number, or `off`/`0` for none. */
function seatCap(raw: string | undefined, name: string): number | false | undefined {
  if (raw === 'off' || raw === '0') return false;
  return positive(raw, name);
}

function positive(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!(Number.isInteger(value) && value > 0)) throw new UsageError(`--${name} must be a positive whole number, not '${raw}'.`);
  return value;
}

/**
 * Access-log lines gathered and written together, like nginx's `access_log ...
 * buffer= flush=`: when 32 KiB are waiting, or 50 ms after the first line. One
 * write (a system call on a pipe or file) for many requests, not one each.
 */
function accessLog(write: (text: string) => unknown): { log: (entry: AccessLogEntry) => void; flush: () => void } {
  let lines: string[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!lines.length) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    write(text);
  };
  return {
    log(entry) {
      const line = `${JSON.stringify(entry)}\n`;
      lines.push(line);
      size += line.length;
      if (size >= 32 * 1024) flush();
      else if (!timer) {
        timer = setTimeout(flush, 50);
        timer.unref();
      }
    },
    flush,
  };
}

/** Where a Redis URL points, without its password. */
function redisTarget(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'an invalid URL';
  }
}

/**
 * Where orders may send the customer back to (return-addresses.ts), for the start-up: a line,
 * and a warning when the site's own origin can only come from the Host header, which a front
 * server on the site's origin rewrites by default (nginx: Host $proxy_host): every order refused.
 */
function returnsNote(returnOrigins: string[], allowedOrigins: string[], trustForwarded: boolean): { line: string; warning?: string } {
  const listed = [...new Set([...returnOrigins, ...allowedOrigins].map((o) => new URL(o).origin))];
  const own = returnOrigins.length ? null : trustForwarded ? "the site's origin the front server names (Forwarded, X-Forwarded-Host)" : 'the Host each request names';
  const line = `Stagedoor proxy: orders may return to ${[...listed, ...(own ? [own] : [])].join(', ')}`;
  if (listed.length || trustForwarded) return { line };
  return {
    line,
    warning:
      "stagedoor proxy: orders are taken only from pages on the Host each request names: behind a front server that rewrites Host (nginx's default for proxy_pass), every order is refused " +
      '(GET /readyz then says orders: refused). Pass the site on (nginx: proxy_set_header X-Forwarded-Host $http_host; proxy_set_header X-Forwarded-Proto $scheme;) ' +
      'and add --trust-forwarded, or list the site with --return-origin https://theatre.example.',
  };
}

/** The rooms' options from the environment (and `--rooms FILE`), or undefined when rooms are off. */
function roomOptions(file: string | undefined): RoomOptions | undefined {
  const secret = process.env[ROOM_VARIABLE] ?? '';
  const adminSecret = process.env[ROOM_ADMIN_VARIABLE]?.trim() || undefined;
  if (!secret) {
    if (adminSecret || file) throw new Error(`Waiting rooms need ${ROOM_VARIABLE} (at least 32 bytes, the same on every proxy).`);
    return undefined;
  }
  let initial: RoomConfig[] = [];
  if (file) {
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`--rooms: cannot read ${file} as JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (!Array.isArray(list)) throw new Error(`--rooms: ${file} must hold a JSON array of rooms.`);
    try {
      initial = list.map((room) => parseRoomConfig(room));
    } catch (error) {
      throw new Error(`--rooms: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { secret, adminSecret, initial };
}

export async function runProxyCommand(args: string[]): Promise<void> {
  if (args.some((a) => /^--(room-)?(admin-)?secret(=|$)/i.test(a))) {
    throw new UsageError(`Room secrets are never taken from the command line (ps would show them): set ${ROOM_VARIABLE} and ${ROOM_ADMIN_VARIABLE} in the environment.`);
  }
  if (args.some((a) => /^--(api-?key|key)(=|$)/i.test(a))) {
    throw new UsageError(`The Api-Key is never taken from the command line (ps would show it): set ${KEY_VARIABLE} in the environment.`);
  }
  let values;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        upstream: { type: 'string' },
        port: { type: 'string', default: '8788' },
        host: { type: 'string', default: '127.0.0.1' },
        prefix: { type: 'string', default: '/api' },
        'allow-origin': { type: 'string', multiple: true },
        'return-origin': { type: 'string', multiple: true },
        'allow-on-account': { type: 'boolean', default: false },
        'timeout-ms': { type: 'string' },
        'client-address-header': { type: 'string' },
        'trust-forwarded': { type: 'boolean', default: false },
        redis: { type: 'string' },
        'redis-prefix': { type: 'string' },
        'redis-cluster': { type: 'string', multiple: true },
        'seat-cap-visitor': { type: 'string' },
        'seat-cap-address': { type: 'string' },
        'payment-timeout-minutes': { type: 'string' },
        'drain-timeout-ms': { type: 'string' },
        'access-log': { type: 'string', default: 'stdout' },
        'ops-port': { type: 'string' },
        'ops-host': { type: 'string', default: '127.0.0.1' },
        rooms: { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (!values.upstream) throw new UsageError('--upstream URL is required (the ticket service, e.g. https://api.example.com).');
  const apiKey = process.env[KEY_VARIABLE]?.trim();
  if (!apiKey) {
    throw new Error(
      `${KEY_VARIABLE} is not set. The proxy reads the ticket service's Api-Key from this environment variable only, e.g.\n` +
        `  ${KEY_VARIABLE}=your-key npx stagedoor proxy --upstream ${values.upstream}`,
    );
  }
  const timeoutMs = positive(values['timeout-ms'], 'timeout-ms');
  const paymentMinutes = positive(values['payment-timeout-minutes'], 'payment-timeout-minutes');
  const drainTimeoutMs = positive(values['drain-timeout-ms'], 'drain-timeout-ms') ?? (timeoutMs ?? 10_000) + 5000;
  const port = parsePort(values.port, '--port');
  const opsPort = values['ops-port'] === undefined ? undefined : parsePort(values['ops-port'], '--ops-port');
  const clusterNodes = values['redis-cluster'];
  const redisUrl = values.redis ?? clusterNodes?.[0] ?? (process.env.REDIS_URL?.trim() || undefined);
  const perVisitor = seatCap(values['seat-cap-visitor'], 'seat-cap-visitor');
  const perAddress = seatCap(values['seat-cap-address'], 'seat-cap-address');

  const rooms = roomOptions(values.rooms);

  let store: RedisStore | undefined;
  if (redisUrl) store = createRedisStore({ url: redisUrl, clusterNodes, keyPrefix: values['redis-prefix'] });
  const target = values['access-log'];
  let file: number | undefined;
  if (target !== 'stdout' && target !== 'off') {
    try {
      file = openSync(target, 'a');
    } catch (error) {
      throw new Error(`--access-log: cannot write to ${target} (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
  // A file is written synchronously, a batch at a time (as nginx writes its logs), so nothing is lost at exit.
  const { log, flush } = accessLog((text) => (file === undefined ? process.stdout.write(text) : writeSync(file, text)));
  process.once('exit', flush);
  const proxy = createProxy({
    upstream: values.upstream,
    apiKey,
    prefix: values.prefix,
    allowedOrigins: values['allow-origin'] ?? [],
    returnOrigins: values['return-origin'],
    allowOnAccount: values['allow-on-account'],
    timeoutMs,
    clientAddressHeader: values['client-address-header'],
    trustForwarded: values['trust-forwarded'],
    seatCaps: { ...(perVisitor === undefined ? {} : { perVisitor }), ...(perAddress === undefined ? {} : { perAddress }) },
    paymentTimeoutMs: paymentMinutes === undefined ? undefined : paymentMinutes * 60_000,
    store,
    rooms,
    log: target === 'off' ? false : log,
    metrics: promMetrics({ processMetrics: true }),
    // With an operations port, /metrics is served there only; load balancers still probe /healthz and /readyz here.
    operationalEndpoints: opsPort === undefined ? true : 'health',
  });
  if (store && !(await store.connected())) {
    // Asking once makes the proxy degraded at once (and says so) rather than at the first request.
    await proxy.readiness();
  }
  const onRefusal = (status: number, reason: string) => proxy.refused(status, reason);
  const running = await listenProxy(proxy.fetch, { port, host: values.host, drainTimeoutMs, onRefusal });
  const operations =
    opsPort === undefined ? undefined : await listenProxy((request) => proxy.operations(request), { port: opsPort, host: values['ops-host'], drainTimeoutMs, onRefusal });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`stagedoor proxy: ${signal}: draining ${running.inFlight} request(s) in flight (at most ${drainTimeoutMs} ms)`);
    void running
      .drain()
      .then(async (clean) => {
        await operations?.drain();
        await proxy.close().catch(() => undefined);
        flush();
        if (file !== undefined) closeSync(file);
        console.error(clean ? 'stagedoor proxy: drained; exiting' : 'stagedoor proxy: drain time over; requests still in flight were cut off');
        process.exit(clean ? 0 : 1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  const storeNote = redisUrl ? `redis ${redisTarget(redisUrl)}${proxy.storeHealth === 'degraded' ? ' (not answering: degraded)' : ''}` : 'memory (this process only)';
  console.log(`Stagedoor proxy: http://${host}:${running.port}${values.prefix.replace(/\/+$/, '')}/ -> ${new URL(values.upstream).origin}; store: ${storeNote}`);
  const returns = returnsNote(values['return-origin'] ?? [], values['allow-origin'] ?? [], values['trust-forwarded']);
  console.log(returns.line);
  if (returns.warning) console.error(returns.warning);
  if (rooms) console.log(`Stagedoor proxy: waiting rooms on${rooms.adminSecret ? ' (stagedoor room ... through /stagedoor/rooms)' : ` (no admin endpoint: ${ROOM_ADMIN_VARIABLE} is not set)`}`);
  if (operations) {
    const opsHost = values['ops-host'].includes(':') ? `[${values['ops-host']}]` : values['ops-host'];
    console.log(`Stagedoor proxy operations: http://${opsHost}:${operations.port}/metrics (and /healthz, /readyz)`);
  }
}
