/**
 * The generated venue every library in the seat-map benchmark renders: a
 * rectangular hall of `rows × columns` seats, rows lettered A–Z, AA–ZZ…,
 * seats numbered from 1, the front half at £45 and the back half at £30,
 * and 20% of the seats unavailable (a seeded, reproducible choice).
 * Browser-safe: it is bundled into each benchmark page.
 */
import { letterLabel } from '../../src/state/seat-map.ts';

export interface VenueSeat {
  id: number;
  row: number;
  col: number;
  rowLabel: string;
  seatLabel: string;
  price: number;
  available: boolean;
}

export interface Venue {
  rows: number;
  columns: number;
  seats: VenueSeat[];
}

export const SHAPES: Record<number, [number, number]> = { 1000: [25, 40], 5000: [50, 100], 20000: [100, 200] };

/** A well-mixed integer hash of a seat's position (a reproducible 20% that is not a pattern). */
function mix(n: number, seed: number): number {
  let h = Math.imul(n ^ seed, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

export function generateVenue(size: number, seed = 7): Venue {
  const shape = SHAPES[size] ?? [Math.max(1, Math.round(Math.sqrt(size / 2))), Math.ceil(size / Math.max(1, Math.round(Math.sqrt(size / 2))))];
  const [rows, columns] = shape;
  const seats: VenueSeat[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      seats.push({
        id: 100000 + r * columns + c,
        row: r,
        col: c,
        rowLabel: letterLabel(r),
        seatLabel: String(c + 1),
        price: r < rows / 2 ? 45 : 30,
        available: mix(r * columns + c, seed) >= 0.2,
      });
    }
  }
  return { rows, columns, seats };
}
