/**
 * Blocks of free seats side by side on a seat map, for the map's keyboard jumps (PageDown/PageUp).
 * No rendering; loaded with the first jump (src/elements/seat-picker/seat-blocks.ts).
 */
import type { MapRow, MapSeat, SeatMap } from './seat-map.ts';

/** A run of free seats side by side in one row: its first seat (map index) and how many. */
export interface FreeBlock {
  start: number;
  size: number;
}

/**
 * The next (or previous) block of free seats from seat `from`, in reading order (rows as the map
 * lists them, each from its first seat): seats side by side in one row, none of them `taken`
 * (chosen or held), with no gap between them (a seat sold or missing ends a block). `next`: the
 * first block starting after `from`; `previous`: the last starting before it (from inside a
 * block, its own start). Null when there is none: it does not wrap.
 */
export function freeBlock(map: SeatMap, from: number, direction: 'next' | 'previous', taken: (index: number) => boolean): FreeBlock | null {
  const seat = map.seats[from];
  if (!seat) return null;
  const step = direction === 'next' ? 1 : -1;
  let found: FreeBlock | null = null;
  for (let r = seat.rowIndex; r >= 0 && r < map.rows.length; r += step) {
    const row = map.rows[r] as MapRow;
    // This row's blocks, in order.
    const blocks: FreeBlock[] = [];
    let current: FreeBlock | null = null;
    let lastX = Number.NEGATIVE_INFINITY;
    for (const i of row.seats) {
      const s = map.seats[i] as MapSeat;
      if (taken(i)) current = null;
      else if (current && s.x - lastX < 1.5) current.size += 1;
      else blocks.push((current = { start: i, size: 1 }));
      lastX = s.x;
    }
    const before = (b: FreeBlock) => r < seat.rowIndex || (map.seats[b.start] as MapSeat).indexInRow < seat.indexInRow;
    const after = (b: FreeBlock) => r > seat.rowIndex || (map.seats[b.start] as MapSeat).indexInRow > seat.indexInRow;
    found = direction === 'next' ? (blocks.find(after) ?? null) : (blocks.filter(before).at(-1) ?? null);
    if (found) break;
  }
  return found;
}
