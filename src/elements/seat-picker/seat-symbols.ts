/**
 * One description of every seat symbol, drawn by the canvas (seat-map-painter.ts, through
 * Path2D, scaled to the seat's size) and by the legend (seat-map-legend.ts, as SVG, as it is):
 * path data in the units of a seat 24 units square with its top left corner at 0,0. A change
 * here changes both, so the key to the map always shows what the map shows.
 */

/** The seat's side, in the units below. */
export const SEAT_UNITS = 24;

/** The seat's upper corners' radius, and the lower ones' as a share of it (the canvas caps the radius at 6 px at any zoom). */
export const SEAT_RADIUS = 6;
export const SEAT_LOWER_RADIUS = 0.4;

/** The width of a mark's stroke (the canvas draws it at least 1.5 px wide). */
export const MARK_WIDTH = 2;

/** A shape: path data, stroked (in the mark's width, round caps) or filled. */
export interface SymbolShape {
  readonly d: string;
  readonly paint: 'stroke' | 'fill';
}

/** A circle as path data. */
function circle(cx: number, cy: number, r: number): string {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

/**
 * The mark that names a price band besides its colour: 0 none, 1 diagonal, 2 dot, 3 bar, 4 plus,
 * 5 ring. They repeat after six bands; from the seventh on, the band's letter tells them apart.
 */
export const BAND_MARKS: readonly (SymbolShape | null)[] = [
  null,
  { d: 'M6.5 17.5L17.5 6.5', paint: 'stroke' },
  { d: circle(12, 12, 2.6), paint: 'fill' },
  { d: 'M6.5 12H17.5', paint: 'stroke' },
  { d: 'M6.5 12H17.5M12 6.5V17.5', paint: 'stroke' },
  { d: circle(12, 12, 4.125), paint: 'stroke' },
];

/** Chosen, or in the basket: a check mark. */
export const CHECK_MARK: SymbolShape = { d: 'M6 12L10.5 17L18.5 7', paint: 'stroke' };

/** Restricted view: a triangle in the seat's upper right corner. */
export const RESTRICTED_CORNER: SymbolShape = { d: 'M14 0H24V10Z', paint: 'fill' };

/** The band's letter (from the seventh band on): its size, weight and middle. */
export const BAND_LETTER = { size: 11, weight: 700, x: 12, y: 12.5 } as const;

/** In the basket: a dashed outline this far outside the seat (on the canvas, CSS px at any zoom; grey alone would be colour only). */
export const HELD_OUTLINE = { outset: 1, dash: 2, width: 1 } as const;

/** Refused by the service (InvalidSeatID): a ring this far outside the seat (on the canvas, CSS px at any zoom), in the danger colour. */
export const INVALID_RING = { outset: 1, width: 2.5 } as const;

/** How a seat looks. */
export interface SeatLook {
  band: number;
  selected: boolean;
  held: boolean;
}

/** The mark drawn on a seat: the check when chosen or held, else its band's (none from the seventh band on: its letter). */
export function seatMark(look: SeatLook): SymbolShape | null {
  if (look.selected || look.held) return CHECK_MARK;
  return look.band >= 6 ? null : (BAND_MARKS[look.band % 6] ?? null);
}
