import { css, unsafeCSS } from 'lit';
import { forcedColourStyles } from './forced-colours.styles.ts';

import { PALETTE, cssDefault, tokenVar, type PaletteName, type TokenName } from './tokens.ts';

/**
 * Styles every element shares. Custom properties are prefixed `--booking-`, with
 * their defaults in tokens.ts (documented in each element's reference and the
 * README, generated from there).
 *
 * The built-in palette has a light and a dark side and follows the host page's
 * `color-scheme` (inherited, like any page's form controls): `light` or none,
 * the light side; `dark`, the dark side; `light dark`, the visitor's
 * preference. A `--booking-*` colour the host sets wins over both sides.
 */

/** A property with its default (tokens.ts), for a style: `${token('timer-gap')}`. */
export const token = (name: TokenName) => unsafeCSS(tokenVar(name));

/** The palette, and the focus ring, as a stylesheet of its own: each `--_<name>` is the host's `--booking-<name>`, else the built-in colour. */
const palette = unsafeCSS(
  `:host{${(Object.keys(PALETTE) as PaletteName[]).map((name) => `--_${name}:var(--booking-${name},${cssDefault(name)});`).join('')}` +
    `--_focus:${tokenVar('focus')};}`,
);

const base = css`
  :host {
    display: block;
    box-sizing: border-box;
    font: ${token('font')};
    --_radius: ${token('radius')};
    --_gap: ${token('gap')};
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
  /* iOS Safari zooms the page into a focused field whose text is under 16 px: on touch screens
   * fields are never smaller (:host outranks the elements' own 'font: inherit'). */
  @media (pointer: coarse) {
    :host input:not([type='checkbox'], [type='radio']),
    :host select,
    :host textarea {
      font-size: max(16px, 1em);
    }
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
