/**
 * `stagedoor room ...`: the operator's waiting rooms, through a running proxy's admin endpoint
 * (/stagedoor/rooms, proxy/room/http.ts), with the admin secret from STAGEDOOR_ROOM_ADMIN_SECRET
 * (never argv, where `ps` shows it):
 *
 *   stagedoor room open <id> (--site | --event N | --performance N) [--at ISO|+10m] --rate N
 *                       [--max-active N] [--pass 15m] [--keep 2m] [--proof 16]
 *   stagedoor room pause|resume|close <id>
 *   stagedoor room rate <id> N
 *   stagedoor room status [<id>]
 *   --proxy http://127.0.0.1:8788 (default: the local proxy)
 */
import { parseArgs } from 'node:util';
import { UsageError } from './proxy/command.ts';

export const ADMIN_VARIABLE = 'STAGEDOOR_ROOM_ADMIN_SECRET';

export const ROOM_USAGE = `  stagedoor room open <id> (--site | --event N | --performance N) [--at ISO|+10m] --rate N
                  [--max-active N] [--pass 15m] [--keep 2m] [--proof 16]
  stagedoor room pause|resume|close <id>
  stagedoor room rate <id> N
  stagedoor room status [<id>]         a running proxy's waiting rooms (--proxy http://127.0.0.1:8788);
                                       the admin secret is read from ${ADMIN_VARIABLE}`;

/** `90s`, `15m`, `1h` or plain seconds. */
export function seconds(raw: string, name: string): number {
  const match = /^(\d+)(s|m|h)?$/.exec(raw.trim());
  if (!match) throw new UsageError(`--${name} must be a duration such as 90s, 15m or 1h, not '${raw}'.`);
  return Number(match[1]) * ({ s: 1, m: 60, h: 3600 } as const)[(match[2] ?? 's') as 's' | 'm' | 'h'];
}

function whole(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new UsageError(`${name} must be a whole number, not '${raw}'.`);
  return Number(raw);
}

/** `--at`: an ISO instant with its offset, or `+10m` from now; default now. */
function instant(raw: string | undefined, now: number): string {
  if (raw === undefined) return new Date(now).toISOString();
  if (raw.startsWith('+')) return new Date(now + seconds(raw.slice(1), 'at') * 1000).toISOString();
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw)) throw new UsageError(`--at must be an ISO instant with its offset (2026-12-01T10:00:00Z) or +10m, not '${raw}'.`);
  return raw;
}

interface Stats {
  waiting: number;
  admitted: number;
  active: number;
  admittedLastMinute: number;
}
interface Shown {
  id: string;
  state: string;
  scope: { kind: string; eventId?: number; performanceId?: number };
  opensAt: string;
  ratePerMinute: number;
  maxActive: number | null;
  stats?: Stats;
}

function line(room: Shown): string {
  const scope = room.scope.kind === 'site' ? 'site' : room.scope.kind === 'event' ? `event ${room.scope.eventId}` : `performance ${room.scope.performanceId}`;
  const stats = room.stats ? `  waiting ${room.stats.waiting}  admitted ${room.stats.admitted}  active ${room.stats.active}  last minute ${room.stats.admittedLastMinute}` : '';
  return `${room.id}  ${room.state}  ${scope}  opens ${room.opensAt}  rate ${room.ratePerMinute}/min  max active ${room.maxActive ?? 'none'}${stats}`;
}

export async function runRoomCommand(args: string[], now = Date.now()): Promise<void> {
  if (args.some((a) => /^--(admin-)?secret(=|$)/i.test(a))) {
    throw new UsageError(`The admin secret is never taken from the command line (ps would show it): set ${ADMIN_VARIABLE} in the environment.`);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        proxy: { type: 'string', default: 'http://127.0.0.1:8788' },
        site: { type: 'boolean', default: false },
        event: { type: 'string' },
        performance: { type: 'string' },
        at: { type: 'string' },
        rate: { type: 'string' },
        'max-active': { type: 'string' },
        pass: { type: 'string' },
        keep: { type: 'string' },
        proof: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [action, id, extra, ...rest] = positionals;
  if (rest.length) throw new UsageError(`Unexpected '${rest.join(' ')}'.`);
  const secret = process.env[ADMIN_VARIABLE]?.trim();
  if (!secret) throw new Error(`${ADMIN_VARIABLE} is not set: the room commands authenticate to the proxy with it (the proxy reads the same variable).`);
  let base: URL;
  try {
    base = new URL(values.proxy);
  } catch {
    throw new UsageError(`--proxy must be the proxy's URL (http://127.0.0.1:8788), not '${values.proxy}'.`);
  }
  const needId = () => {
    if (!id) throw new UsageError(`stagedoor room ${action} needs the room's id.`);
    return id;
  };

  let method = 'GET';
  let path = '/stagedoor/rooms';
  let body: Record<string, unknown> | undefined;
  switch (action) {
    case 'open': {
      const room = needId();
      const scopes = [values.site, values.event !== undefined, values.performance !== undefined].filter(Boolean).length;
      if (scopes !== 1) throw new UsageError('stagedoor room open needs exactly one of --site, --event N, --performance N.');
      if (values.rate === undefined) throw new UsageError('stagedoor room open needs --rate N (visitors admitted per minute).');
      const scope = values.site ? { kind: 'site' } : values.event !== undefined ? { kind: 'event', eventId: whole(values.event, '--event') } : { kind: 'performance', performanceId: whole(values.performance, '--performance') };
      body = { scope, opensAt: instant(values.at, now), ratePerMinute: whole(values.rate, '--rate') };
      if (values['max-active'] !== undefined) body.maxActive = whole(values['max-active'], '--max-active');
      if (values.pass !== undefined) body.passSeconds = seconds(values.pass, 'pass');
      if (values.keep !== undefined) body.keepSeconds = seconds(values.keep, 'keep');
      if (values.proof !== undefined) body.proofBits = whole(values.proof, '--proof');
      method = 'PUT';
      path += `/${encodeURIComponent(room)}`;
      break;
    }
    case 'pause':
    case 'resume':
      method = 'PATCH';
      path += `/${encodeURIComponent(needId())}`;
      body = { state: action === 'pause' ? 'paused' : 'open' };
      break;
    case 'rate':
      method = 'PATCH';
      path += `/${encodeURIComponent(needId())}`;
      if (extra === undefined) throw new UsageError('stagedoor room rate <id> N: the new rate (visitors per minute) is missing.');
      body = { ratePerMinute: whole(extra, 'The rate') };
      break;
    case 'close':
      method = 'DELETE';
      path += `/${encodeURIComponent(needId())}`;
      break;
    case 'status':
      if (id) path += `/${encodeURIComponent(id)}`;
      break;
    default:
      throw new UsageError(action ? `Unknown room command '${action}' (open, pause, resume, rate, close, status).` : 'stagedoor room needs a command: open, pause, resume, rate, close or status.');
  }
  if (action !== 'rate' && extra !== undefined) throw new UsageError(`Unexpected '${extra}'.`);

  let response: Response;
  try {
    response = await fetch(new URL(path, base), {
      method,
      headers: { Authorization: `Bearer ${secret}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new Error(`The proxy at ${base.origin} does not answer (${error instanceof Error ? error.message : String(error)}).`);
  }
  const text = await response.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: said below.
  }
  if (!response.ok) {
    const why = typeof answer.Message === 'string' ? answer.Message : `HTTP ${response.status}`;
    if (response.status === 404 && path === '/stagedoor/rooms') throw new Error(`The proxy at ${base.origin} has no rooms endpoint: start it with ${ADMIN_VARIABLE} (and STAGEDOOR_ROOM_SECRET) set.`);
    throw new Error(`${why} (HTTP ${response.status})`);
  }
  if (action === 'status' && !id) {
    const rooms = (answer.rooms ?? []) as Shown[];
    console.log(rooms.length ? rooms.map(line).join('\n') : 'No waiting room is open.');
  } else if (action === 'close') console.log(`${id}: closed`);
  else console.log(line(answer as unknown as Shown));
}
