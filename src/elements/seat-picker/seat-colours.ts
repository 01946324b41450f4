/**
 * The seats' colours, for the canvas (seat-map-painter.ts, which has the browser
 * resolve them) and the legend alike: each the host's `--booking-seat-*` when it
 * sets one, else a built-in default for the page's colour scheme (light, or dark
 * with light seats and dark marks, each at least 8:1 against the dark surface).
 * The restricted-view corner is drawn in the marks' colour, so it stands out
 * from every seat colour by at least 3:1 in both schemes (a dark corner on the
 * light scheme's deep seat colours was 2.3-3.2:1).
 * Kept as CSS values here rather than custom properties in the styles, so the
 * seat map's first paint carries no stylesheet for them.
 */
const DEFAULTS = {
  'band-1': ['#0b63a8', '#7cb8f2'],
  'band-2': ['#a34400', '#f5a35c'],
  'band-3': ['#007a5a', '#4fcf9f'],
  'band-4': ['#a8437f', '#5ed3e6'],
  'band-5': ['#5b4a9e', '#b9a8ff'],
  'band-6': ['#7a6500', '#d8c35a'],
  mark: ['#ffffff', '#111318'],
  held: ['#6b6f76', '#9a9ca6'],
  restricted: ['#ffffff', '#111318'],
} as const;

export type SeatColour = keyof typeof DEFAULTS | 'selected';

/** Whether the browser picks a colour by scheme (light-dark(): Chrome 123, Firefox 120, Safari 17.5); else the light side. */
const bySchemes = typeof CSS !== 'undefined' && CSS.supports?.('color', 'light-dark(#000, #fff)');

/** The CSS value of a seat colour (`var(--booking-seat-band-1, light-dark(#0b63a8, #7cb8f2))`). */
export function seatColour(name: SeatColour): string {
  if (name === 'selected') return 'var(--booking-seat-selected, var(--_accent))';
  const [light, dark] = DEFAULTS[name];
  return `var(--booking-seat-${name}, ${bySchemes ? `light-dark(${light}, ${dark})` : light})`;
}

/** The light-side colour of a price band (the canvas's fallback when a colour cannot be read). */
export function lightBand(band: number): string {
  return DEFAULTS[`band-${(band % 6) + 1}` as 'band-1'][0];
}
