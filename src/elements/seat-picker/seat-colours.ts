/**
 * The seats' colours, for the canvas (seat-map-painter.ts, which has the browser
 * resolve them) and the legend alike: each the host's `--booking-seat-*` when it
 * sets one, else its default (tokens.ts) for the page's colour scheme.
 * Kept as CSS values here rather than custom properties in the styles, so the
 * seat map's first paint carries no stylesheet for them.
 */
import { lightSide, tokenVar } from '../tokens.ts';

export type SeatColour = 'band-1' | 'band-2' | 'band-3' | 'band-4' | 'band-5' | 'band-6' | 'mark' | 'held' | 'restricted' | 'selected';

/** The CSS value of a seat colour: the host's `--booking-seat-<name>`, else its default. */
export function seatColour(name: SeatColour): string {
  return tokenVar(`seat-${name}`);
}

/** The light-side colour of a price band (the canvas's fallback when a colour cannot be read). */
export function lightBand(band: number): string {
  return lightSide(`seat-band-${(band % 6) + 1}` as 'seat-band-1');
}
