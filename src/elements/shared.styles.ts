import { css, unsafeCSS } from 'lit';
import { forcedColourStyles } from './forced-colours.styles.ts';

/**
 * Styles every element shares. Custom properties are prefixed `--booking-`
 * and documented with their defaults in each element's JSDoc and the README.
 *
 * The built-in palette has a light and a dark side and follows the host page's
 * `color-scheme` (inherited, like any page's form controls): `light` or none,
 * the light side; `dark`, the dark side; `light dark`, the visitor's
 * preference. A `--booking-*` colour the host sets wins over both sides.
 * Browsers without `light-dark()` (before Chrome 123, Firefox 120, Safari 17.5)
 * get the light side.
 *
 * | property                   | light     | dark      |
 * | --booking-text             | #1d1d1f   | #ecebf0   |
 * | --booking-muted            | #5f6368   | #b1afb9   |
 * | --booking-surface          | #ffffff   | #1c1b20   |
 * | --booking-border           | #d0d4da   | #7a7884   |
 * | --booking-accent           | #7a1f3d   | #f2a0bd   |
 * | --booking-accent-contrast  | #ffffff   | #2b0b18   |
 * | --booking-danger           | #b3261e   | #ffb4ab   |
 * | --booking-warning          | #8a5a00   | #f3c06b   |
 * | --booking-success          | #1e6b35   | #8fd6a0   |
 * | --booking-focus (outline)  | 2px solid #1a73e8 | 2px solid #8ab4f8 |
 *
 * Also --booking-font (inherit), --booking-radius (8px), --booking-gap (0.75rem).
 * Every pair a reader sees (text, muted, accent, danger, warning and success on
 * the surface; accent-contrast on accent) passes WCAG AA on both sides
 * (test/elements/palette.test.ts).
 */
/** The palette: each `--_<name>` is the host's `--booking-*` of that name, else the built-in light or dark colour. */
const PALETTE: readonly (readonly [name: string, light: string, dark: string])[] = [
  ['text', '1d1d1f', 'ecebf0'],
  ['muted', '5f6368', 'b1afb9'],
  ['surface', 'ffffff', '1c1b20'],
  ['border', 'd0d4da', '7a7884'],
  ['accent', '7a1f3d', 'f2a0bd'],
  ['accent-contrast', 'ffffff', '2b0b18'],
  ['danger', 'b3261e', 'ffb4ab'],
  ['warning', '8a5a00', 'f3c06b'],
  ['success', '1e6b35', '8fd6a0'],
];
/** `light-dark()` where the browser has it; the light side elsewhere. */
const bySchemes = typeof CSS !== 'undefined' && CSS.supports?.('color', 'light-dark(#000, #fff)');
const colour = (light: string, dark: string) => (bySchemes ? `light-dark(#${light}, #${dark})` : `#${light}`);
/** The palette, and the focus ring's colour, as a stylesheet of its own (built from the table). */
const palette = unsafeCSS(
  `:host{${PALETTE.map(([name, light, dark]) => `--_${name}:var(--booking-${name},${colour(light, dark)});`).join('')}` +
    `--_focus:var(--booking-focus,2px solid ${colour('1a73e8', '8ab4f8')});}`,
);

const base = css`
  :host {
    display: block;
    box-sizing: border-box;
    font: var(--booking-font, inherit);
    --_radius: var(--booking-radius, 8px);
    --_gap: var(--booking-gap, 0.75rem);
    color: var(--_text);
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: var(--_focus);
    outline-offset: 2px;
  }
  button,
  [part~='continue-button'] {
    font: inherit;
    cursor: pointer;
    min-height: 2.75rem;
    padding: 0.5rem 1rem;
    border-radius: var(--_radius);
    border: 1px solid var(--_accent);
    background: var(--_accent);
    color: var(--_accent-contrast);
  }
  button[data-variant='secondary'] {
    background: transparent;
    color: var(--_accent);
  }
  /* aria-disabled: unusable for now, but still focusable, so focus is never dropped from it. */
  button:disabled,
  button[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }
  select {
    font: inherit;
    min-height: 2.75rem;
    padding: 0.25rem 0.5rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: inherit;
    max-width: 100%;
  }
  /* A load that failed: its message and a retry button on one line when they fit. */
  .error {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    padding: 0.75rem;
    border: 1px solid currentColor;
    border-radius: var(--_radius);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  [role='alert'] {
    color: var(--_danger);
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      transition-duration: 0.01ms !important;
    }
  }
`;

export const sharedStyles = [palette, base, forcedColourStyles];
