/**
 * A refusal that means "wait in the room first": HTTP 428 with `Room: { id, join }`
 * (docs/waiting-room.md). Read by the seat picker, which then loads the waiting view.
 */
import { ApiError } from './client.ts';
import type { RoomRef } from './room.ts';

/** The room an error names when the proxy asked for a pass, else null. */
export function roomOf(error: unknown): RoomRef | null {
  if (!(error instanceof ApiError) || error.status !== 428) return null;
  const room = (error.body as { Room?: Partial<RoomRef> } | null)?.Room;
  return typeof room?.id === 'string' && typeof room.join === 'string' ? { id: room.id, join: room.join } : null;
}
