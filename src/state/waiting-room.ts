/**
 * The visitor in the proxy's waiting room (docs/waiting-room.md), with no rendering: joins and
 * polls (one call) on the answer's `pollSeconds`, solves the proof of work when the room asks for
 * one, keeps the pass when admitted, and says where the visitor stands through `subscribe`.
 * Loaded only when the proxy answered 428 with a room (with the waiting view, a chunk of its own).
 *
 * One place per visitor: the queue id is kept per endpoint in localStorage (src/api/room.ts), so
 * a reload, a second tab or window asks with the same id and the room gives the same place. The
 * first position seen is kept beside it, for the progress shown.
 */
import { ApiError, isAbortError, type ApiClient } from '../api/client.ts';
import { passKey, queueKey, type RoomAnswer, type RoomPass, type RoomRef, type RoomStatus } from '../api/room.ts';
import { ServerClock } from '../api/time.ts';
import { solveProof } from './proof-of-work.ts';

/**
 * Where the visitor stands: the room's statuses, and ours: `joining` (no answer yet),
 * `catching-up` (the room's store is down, 503: the place is kept), `offline` (no answer: asked
 * again), `closed` (the room is gone: the seats can be asked for).
 */
export type QueueStatus = RoomStatus | 'joining' | 'catching-up' | 'offline' | 'closed';

export interface QueueState {
  readonly room: string;
  readonly status: QueueStatus;
  /** The on-sale instant (ms), once the room said it. */
  readonly opensAt: number | null;
  readonly position: number | null;
  readonly ahead: number | null;
  readonly waitSeconds: { low: number; high: number } | null;
  /** The first position this visitor was given in this room (for the progress). */
  readonly first: number | null;
  /** Once admitted. */
  readonly pass: RoomPass | null;
}

/** When the room's answer gives no usable `pollSeconds`; and the bounds any is kept within. */
const DEFAULT_POLL_S = 15;
const MIN_POLL_S = 1;
const MAX_POLL_S = 300;
/** Asked again this long after no answer came. */
const OFFLINE_RETRY_S = 10;

/** The site's localStorage; null where the browser refuses it. */
function roomStorage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

/** Ids made where localStorage is refused: one per endpoint for the page's life. */
const memoryIds = new Map<string, string>();

function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Not a secure context (plain http): 128 random bits all the same.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The visitor's queue id for this endpoint: the kept one, else a new one, kept (shared by the site's tabs). */
export function queueIdFor(key: string): string {
  const storage = roomStorage();
  let id: string | null | undefined;
  try {
    id = storage?.getItem(queueKey(key));
    if (!id) {
      id = memoryIds.get(key) ?? newId();
      storage?.setItem(queueKey(key), id);
    }
  } catch {
    id = memoryIds.get(key) ?? newId();
  }
  memoryIds.set(key, id);
  return id;
}

const firstKey = (key: string) => `stagedoor:queue-first:${key}`;

/** The first position kept for this queue id and room, or null. */
function keptFirst(key: string, id: string, room: string): number | null {
  try {
    const kept = JSON.parse(roomStorage()?.getItem(firstKey(key)) ?? 'null') as { id?: string; room?: string; first?: number } | null;
    return kept?.id === id && kept.room === room && typeof kept.first === 'number' ? kept.first : null;
  } catch {
    return null;
  }
}

function keep(name: string, value: unknown): void {
  try {
    roomStorage()?.setItem(name, JSON.stringify(value));
  } catch {
    // Refused (private mode, full): this page still goes on with what it has.
  }
}

const seconds = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(MAX_POLL_S, Math.max(MIN_POLL_S, value)) : fallback;

export class WaitingRoom {
  /** The proxy's clock, from each answer's `now` against its round trip: the countdown counts on it. */
  readonly clock: ServerClock;
  private current: QueueState;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | null = null;
  private readonly listeners = new Set<(state: QueueState) => void>();

  constructor(
    private readonly api: ApiClient,
    /** The endpoint's key (src/api/endpoint.ts). */
    private readonly key: string,
    readonly ref: RoomRef,
  ) {
    this.clock = new ServerClock(api.clock.localNow);
    this.current = { room: ref.id, status: 'joining', opensAt: null, position: null, ahead: null, waitSeconds: null, first: null, pass: null };
  }

  get state(): QueueState {
    return this.current;
  }

  get running(): boolean {
    return this.controller !== null;
  }

  subscribe(listener: (state: QueueState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Join (or take up the kept place) and keep asking until admitted, closed or stopped. */
  start(): void {
    if (this.controller) return;
    this.controller = new AbortController();
    void this.ask();
  }

  /** Stop asking (the place is kept by the room for its keep time). */
  stop(): void {
    clearTimeout(this.timer);
    this.controller?.abort();
    this.controller = null;
  }

  private set(change: Partial<QueueState>): void {
    this.current = { ...this.current, ...change };
    for (const listener of [...this.listeners]) listener(this.current);
  }

  private later(delaySeconds: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.ask(), delaySeconds * 1000);
  }

  private async ask(proof?: { challenge: string; nonce: string }): Promise<void> {
    const signal = this.controller?.signal;
    if (!signal || signal.aborted) return;
    const id = queueIdFor(this.key);
    const sentAt = this.clock.localNow();
    let answer: RoomAnswer;
    try {
      answer = await this.api.joinRoom(this.ref.join, proof ? { proof } : {}, { signal });
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      this.failed(error);
      return;
    }
    if (signal.aborted) return;
    const now = Date.parse(answer.now);
    this.clock.observe(now, now, sentAt, this.clock.localNow());
    const opensAt = Date.parse(answer.opensAt);
    const position = typeof answer.position === 'number' ? answer.position : null;
    let first = keptFirst(this.key, id, this.ref.id);
    // A place given afresh (released, or joined again after a pass ran out) is behind the first one kept.
    if (position !== null && (first === null || position > first)) keep(firstKey(this.key), { id, room: this.ref.id, first: (first = position) });
    this.set({
      status: answer.status,
      opensAt: Number.isFinite(opensAt) ? opensAt : null,
      position,
      ahead: typeof answer.ahead === 'number' ? answer.ahead : null,
      waitSeconds: answer.waitSeconds ?? null,
      first,
    });
    if (answer.status === 'admitted' && answer.pass) {
      // Its expiry on the visitor's clock too: the room's `now` says how far that is from the proxy's.
      keep(passKey(this.key), { ...answer.pass, until: Date.parse(answer.pass.expiresAt) - this.clock.offset });
      this.stop();
      this.set({ pass: answer.pass });
    } else if (answer.status === 'proof' && answer.proof) {
      try {
        const nonce = await solveProof(answer.proof.challenge, answer.proof.bits, signal);
        void this.ask({ challenge: answer.proof.challenge, nonce });
      } catch (error) {
        if (!signal.aborted) this.failed(error);
      }
    } else {
      this.later(seconds(answer.pollSeconds, DEFAULT_POLL_S));
    }
  }

  /** No usable answer: the place is kept; asked again when the room says, else soon. */
  private failed(error: unknown): void {
    if (error instanceof ApiError && error.status === 404) {
      this.stop();
      this.set({ status: 'closed' });
      return;
    }
    const busy = error instanceof ApiError && error.status === 503;
    const retry = busy ? (error.retryAfter ?? (error.body as { retrySeconds?: unknown } | null)?.retrySeconds) : null;
    this.set({ status: busy ? 'catching-up' : 'offline' });
    this.later(seconds(retry, OFFLINE_RETRY_S));
  }
}
