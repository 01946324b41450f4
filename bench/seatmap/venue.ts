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

/** mulberry32: a tiny seeded generator. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateVenue(size: number, seed = 7): Venue {
  const shape = SHAPES[size] ?? [Math.max(1, Math.round(Math.sqrt(size / 2))), Math.ceil(size / Math.max(1, Math.round(Math.sqrt(size / 2))))];
  const [rows, columns] = shape;
  const rnd = random(seed);
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
        available: rnd() >= 0.2,
      });
    }
  }
  return { rows, columns, seats };
}
