/**
 * The proxy's waiting room, as the browser meets it (docs/waiting-room.md): what it keeps per
 * endpoint in localStorage, shared by every tab and window of the site, and the two headers the
 * client sends from it on the operations a room gates. A page that never met a room keeps
 * nothing and sends nothing (no header, so no extra CORS preflight). The waiting view
 * (src/state/waiting-room.ts, a chunk of its own) writes what this reads.
 */

/** The visitor's queue id (kept as it is, a string). */
export const queueKey = (key: string): string => `stagedoor:queue:${key}`;
/** The latest pass, `{ token, expiresAt, until }`: the room's expiry (ISO, the proxy's clock) and the same instant on the visitor's clock. */
export const passKey = (key: string): string => `stagedoor:pass:${key}`;

export interface RoomPass {
  token: string;
  expiresAt: string;
}

/**
 * A pass as kept: with its expiry on the visitor's own clock (ms), read through the room's answer's
 * `now`. The service's clock (the client's `clock`) is another machine's, and the visitor's may be
 * minutes off: a pass judged by either could be held back while the room still honours it, and the
 * visitor sent round the room again and again.
 */
export interface KeptPass extends RoomPass {
  until: number;
}

/**
 * The operations a room gates (Create Basket, Add Tickets v2 and v3, a performance's
 * AvailableTickets, FullAvailability and SeatsSelectionValidation, an event's AvailableTickets, in
 * its one- and several-event forms), and the room's own call.
 */
const GATED = /^(createBasket|addTickets|get(Full|Events?)?Availab(ility|leTickets)|validateSeats|joinRoom)/;

/** The headers `operation` carries: the queue id once there is one, the pass while unexpired on the visitor's clock. */
export function roomHeaders(operation: string, key: string): Record<string, string> {
  try {
    const id = GATED.test(operation) && localStorage.getItem(queueKey(key));
    if (!id) return {};
    const pass = JSON.parse(localStorage.getItem(passKey(key)) ?? 'null') as KeptPass | null;
    return pass && pass.until > Date.now() ? { 'Stagedoor-Queue-Id': id, 'Stagedoor-Pass': pass.token } : { 'Stagedoor-Queue-Id': id };
  } catch {
    // No storage (refused, or not a browser): nothing kept, nothing sent.
    return {};
  }
}

/** Where the visitor stands (the join-and-poll answer's `status`). */
export type RoomStatus = 'before' | 'waiting' | 'admitted' | 'paused' | 'proof';

/** The answer of `POST {prefix}/stagedoor/room/{id}` (join and poll are one call). */
export interface RoomAnswer {
  room: string;
  status: RoomStatus;
  /** The on-sale instant (ISO). */
  opensAt: string;
  /** The proxy's clock when it answered (ISO). */
  now: string;
  position: number | null;
  ahead: number | null;
  ratePerMinute: number;
  waitSeconds: { low: number; high: number } | null;
  pollSeconds: number;
  pass?: RoomPass;
  proof?: { challenge: string; bits: number };
}

/** The body of that call: `{}`, or the solved proof of work. */
export interface RoomJoinBody {
  proof?: { challenge: string; nonce: string };
}

/** The room a 428 names: its id and the path of its join call (under the proxy's prefix). */
export interface RoomRef {
  id: string;
  join: string;
}
