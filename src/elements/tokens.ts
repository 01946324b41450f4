/**
 * Every default of every `--booking-*` custom property, written once.
 *
 * A host page restyles the widget through these properties (docs/vocabulary.md);
 * each element's styles read them through `tokenVar(name)` (or the palette's
 * `--_<name>`), the seat map's canvas and legend through `seatColour`, and the
 * manifest (custom-elements.json), the README's tables and the element
 * reference take their defaults from here (scripts/build.mjs, scripts/docs.mjs).
 * No colour literal and no property default is written anywhere else in src/
 * (test/e2e/vocabulary.test.ts).
 *
 * Colours have a light and a dark side, chosen by the host page's
 * `color-scheme` through CSS `light-dark()`; a browser without it gets the
 * light side. Every pair a reader sees passes WCAG AA on both sides
 * (test/elements/palette.test.ts).
 *
 * This module imports nothing, so the build can read it in Node.
 */

export type Colour = readonly [light: string, dark: string];

/** The shared palette: `--booking-<name>`, read in the styles as `var(--_<name>)`. */
export const PALETTE = {
  text: ['#1d1d1f', '#ecebf0'],
  muted: ['#5f6368', '#b1afb9'],
  surface: ['#ffffff', '#1c1b20'],
  border: ['#d0d4da', '#7a7884'],
  accent: ['#7a1f3d', '#f2a0bd'],
  'accent-contrast': ['#ffffff', '#2b0b18'],
  danger: ['#b3261e', '#ffb4ab'],
  warning: ['#8a5a00', '#f3c06b'],
  success: ['#1e6b35', '#8fd6a0'],
} as const satisfies Record<string, Colour>;

/**
 * The seats' colours (`--booking-seat-<name>`), for the canvas and the legend: the dark side
 * has light seats and dark marks, each at least 8:1 against the dark surface.
 */
export const SEAT_COLOURS = {
  'seat-band-1': ['#0b63a8', '#7cb8f2'],
  'seat-band-2': ['#a34400', '#f5a35c'],
  'seat-band-3': ['#007a5a', '#4fcf9f'],
  'seat-band-4': ['#a8437f', '#5ed3e6'],
  'seat-band-5': ['#5b4a9e', '#b9a8ff'],
  'seat-band-6': ['#7a6500', '#d8c35a'],
  'seat-mark': ['#ffffff', '#111318'],
  'seat-held': ['#6b6f76', '#9a9ca6'],
} as const satisfies Record<string, Colour>;

/** The focus ring's colour (part of `--booking-focus`, and the canvas's focus outline). */
export const FOCUS_RING: Colour = ['#1a73e8', '#8ab4f8'];

/**
 * Every other property's default, as CSS. A `var(--booking-<name>)` inside one stands for
 * that property with its own default (so `--booking-field-border` follows `--booking-border`
 * wherever the host sets that).
 */
export const VALUES = {
  font: 'inherit',
  radius: '8px',
  gap: '0.75rem',
  focus: `2px solid light-dark(${FOCUS_RING[0]}, ${FOCUS_RING[1]})`,
  // <event-list>
  'card-min-width': '15rem',
  'card-image-ratio': '16 / 9',
  'card-body-height': '15rem',
  skeleton: 'color-mix(in srgb, var(--booking-text) 10%, var(--booking-surface))',
  // <performance-calendar>
  'day-size': '4.5rem',
  // <seat-picker>
  'seat-selected': 'var(--booking-accent)',
  // The restricted-view corner is drawn in the marks' colour, so it stands out from every seat
  // colour by at least 3:1 in both schemes (a dark corner on the light scheme's deep seat
  // colours was 2.3-3.2:1).
  'seat-restricted': 'var(--booking-seat-mark)',
  'seat-map-height': 'min(70vh, 32rem)',
  // <basket-timer>
  'timer-background': 'var(--booking-surface)',
  'timer-color': 'inherit',
  'timer-border-color': 'var(--booking-border)',
  'timer-border-width': '1px',
  'timer-radius': '999px',
  'timer-padding': '0.25rem 0.75rem',
  'timer-gap': '0.375rem',
  'timer-label-color': 'var(--booking-muted)',
  'timer-label-size': '0.875em',
  'timer-time-size': '1.125em',
  'timer-time-weight': '700',
  'timer-warning-color': 'var(--booking-warning)',
  'timer-final-color': 'var(--booking-danger)',
  'timer-final-background': 'color-mix(in srgb, var(--booking-timer-final-color) 10%, var(--booking-surface))',
  'timer-expired-color': 'var(--booking-danger)',
  'timer-panel-background': 'var(--booking-surface)',
  'timer-panel-padding': '0.75rem',
  'timer-item-size': '0.875em',
  'timer-icon-size': '1em',
  // <checkout-form>
  'checkout-max-width': '48rem',
  'sticky-top': '0',
  'scroll-margin': '0.75rem',
  'field-border': 'var(--booking-border)',
  'field-background': 'var(--booking-surface)',
  // <booking-confirmation>
  'confirmation-max-width': '48rem',
} as const;

export type PaletteName = keyof typeof PALETTE;
export type TokenName = PaletteName | keyof typeof SEAT_COLOURS | keyof typeof VALUES;

const COLOURS: Record<string, Colour> = { ...PALETTE, ...SEAT_COLOURS };

/** Every default as documented: for the build (manifest, docs) and the tests, never read in a browser. */
function documentedDefaults(): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(COLOURS).map(([name, [light, dark]]) => [name, `light-dark(${light}, ${dark})`])),
    ...VALUES,
  };
}
// Marked pure, so the bundle leaves both out: no element reads them (they were dead bytes in the core chunk).
const ALL = /* @__PURE__ */ documentedDefaults();

/** Every property's name (without `--booking-`), in the order above. */
export const TOKEN_NAMES = /* @__PURE__ */ Object.keys(ALL) as TokenName[];

/** The default as documented: `light-dark(<light>, <dark>)` for a colour, else as written above (`var(--booking-border)`, `48rem`). */
export function documentedDefault(name: string): string | undefined {
  return ALL[name];
}

/** Whether the browser picks a colour by scheme (light-dark(): Chrome 123, Firefox 120, Safari 17.5); else the light side. */
const bySchemes = typeof CSS !== 'undefined' && CSS.supports?.('color', 'light-dark(#000, #fff)');

/** The default as CSS this browser understands, its references resolved (`var(--_border)` for a palette colour). */
export function cssDefault(name: TokenName): string {
  const colour = COLOURS[name];
  if (colour) return bySchemes ? `light-dark(${colour[0]}, ${colour[1]})` : colour[0];
  const value = VALUES[name as keyof typeof VALUES];
  const resolved = value.replace(/var\(--booking-([a-z0-9-]+)\)/g, (_, ref: string) => tokenVar(ref as TokenName));
  return bySchemes ? resolved : resolved.replace(/light-dark\(([^,]+),[^)]*\)/g, '$1');
}

/** `var(--booking-<name>, <default>)`; a palette colour is its `var(--_<name>)`, which already is that. */
export function tokenVar(name: TokenName): string {
  return name in PALETTE ? `var(--_${name})` : `var(--booking-${name}, ${cssDefault(name)})`;
}

/** The light side of a colour (the canvas's fallback when the browser cannot resolve one). */
export function lightSide(name: PaletteName | keyof typeof SEAT_COLOURS): string {
  return COLOURS[name]![0];
}
