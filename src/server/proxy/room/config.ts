/**
 * A waiting room's configuration (docs/waiting-room.md, "Proxy side"): what the operator sets, read
 * and checked here from JSON (the admin endpoint, `rooms.initial`) into the one shape every store
 * keeps. Edge-safe.
 */

export type RoomScope = { kind: 'site' } | { kind: 'event'; eventId: number } | { kind: 'performance'; performanceId: number };

export interface RoomConfig {
  /** `/^[a-z0-9][a-z0-9-]{0,39}$/` */
  id: string;
  scope: RoomScope;
  /** The on-sale instant, ms since the epoch. */
  opensAt: number;
  /** Visitors admitted per minute, a whole number of at least 1. */
  ratePerMinute: number;
  /** At most this many unexpired passes at once (null: no limit). */
  maxActive: number | null;
  /** How long a pass lasts (default 900). */
  passSeconds: number;
  /** A place is released this long after its visitor last asked (default 120). */
  keepSeconds: number;
  /** Proof of work to join: leading zero bits of SHA-256; 0 = off (default). */
  proofBits: number;
  /** open: admitting (after opensAt); paused: nobody admitted, places kept; closed: no room. */
  state: 'open' | 'paused' | 'closed';
}

export const ROOM_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const ROOM_DEFAULTS = Object.freeze({ maxActive: null, passSeconds: 900, keepSeconds: 120, proofBits: 0, state: 'open' as const });

/** A configuration error, answered 400 by the admin endpoint. */
export class RoomConfigError extends Error {}

type Json = Record<string, unknown>;

function whole(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RoomConfigError(`${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)}).`);
  }
  return value;
}

function instant(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // An ISO instant with its offset (the admin's JSON); never a local time.
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    const at = Date.parse(value);
    if (Number.isFinite(at)) return at;
  }
  throw new RoomConfigError(`opensAt must be an ISO instant with its offset, e.g. 2026-12-01T10:00:00Z (got ${JSON.stringify(value)}).`);
}

function scopeOf(value: unknown): RoomScope {
  const s = (value ?? {}) as Json;
  if (s.kind === 'site') return { kind: 'site' };
  if (s.kind === 'event') return { kind: 'event', eventId: whole(s.eventId, 'scope.eventId', 1) };
  if (s.kind === 'performance') return { kind: 'performance', performanceId: whole(s.performanceId, 'scope.performanceId', 1) };
  throw new RoomConfigError(`scope must be {"kind":"site"}, {"kind":"event","eventId":N} or {"kind":"performance","performanceId":N}.`);
}

const PARTS = ['state', 'ratePerMinute', 'maxActive', 'opensAt', 'passSeconds', 'keepSeconds', 'proofBits'] as const;

/** The fields a PATCH may change, checked; unknown fields are refused (a typo must not pass silently). */
function applyParts(base: RoomConfig, body: Json, allowed: readonly string[]): RoomConfig {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new RoomConfigError(`Unknown room setting '${key.slice(0, 40)}' (known: ${allowed.join(', ')}).`);
  }
  const next = { ...base };
  if ('state' in body) {
    if (body.state !== 'open' && body.state !== 'paused' && body.state !== 'closed') throw new RoomConfigError(`state must be open, paused or closed.`);
    next.state = body.state;
  }
  if ('ratePerMinute' in body) next.ratePerMinute = whole(body.ratePerMinute, 'ratePerMinute', 1, 1_000_000);
  if ('maxActive' in body) next.maxActive = body.maxActive === null ? null : whole(body.maxActive, 'maxActive', 1);
  if ('opensAt' in body) next.opensAt = instant(body.opensAt);
  if ('passSeconds' in body) next.passSeconds = whole(body.passSeconds, 'passSeconds', 30, 24 * 3600);
  if ('keepSeconds' in body) next.keepSeconds = whole(body.keepSeconds, 'keepSeconds', 10, 24 * 3600);
  if ('proofBits' in body) next.proofBits = whole(body.proofBits, 'proofBits', 0, 32);
  return next;
}

/** A whole RoomConfig from JSON (PUT, `rooms.initial`): defaults for what it leaves out. */
export function parseRoomConfig(value: unknown, id?: string): RoomConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RoomConfigError('A room configuration must be a JSON object.');
  const body = { ...(value as Json) };
  const roomId = id ?? body.id;
  if (typeof roomId !== 'string' || !ROOM_ID.test(roomId)) throw new RoomConfigError(`A room id is 1 to 40 of a-z, 0-9 and '-', starting with a letter or digit.`);
  if (body.id !== undefined && body.id !== roomId) throw new RoomConfigError(`The body's id '${String(body.id).slice(0, 40)}' is not the room's '${roomId}'.`);
  if (body.ratePerMinute === undefined) throw new RoomConfigError('ratePerMinute is required.');
  if (body.opensAt === undefined) throw new RoomConfigError('opensAt is required.');
  const scope = scopeOf(body.scope);
  delete body.id;
  delete body.scope;
  delete body.stats;
  return applyParts({ id: roomId, scope, opensAt: 0, ratePerMinute: 1, ...ROOM_DEFAULTS }, body, PARTS);
}

/** A configuration changed by a PATCH body. */
export function patchRoomConfig(base: RoomConfig, value: unknown): RoomConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RoomConfigError('A room change must be a JSON object.');
  return applyParts(base, value as Json, PARTS);
}

/** As the admin endpoint shows it: opensAt as an ISO instant. */
export function roomConfigJson(config: RoomConfig): Json {
  return { ...config, opensAt: new Date(config.opensAt).toISOString() };
}
