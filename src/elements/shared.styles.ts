import { css } from 'lit';

/**
 * Styles every element shares. Custom properties are prefixed `--booking-`
 * and documented with their defaults in each element's JSDoc and the README:
 *
 * --booking-font (inherit), --booking-text (CanvasText-like #1d1d1f),
 * --booking-muted (#5f6368), --booking-surface (#ffffff), --booking-border (#d0d4da),
 * --booking-accent (#7a1f3d), --booking-accent-contrast (#ffffff),
 * --booking-danger (#b3261e), --booking-warning (#8a5a00), --booking-success (#1e6b35),
 * --booking-radius (8px), --booking-gap (0.75rem), --booking-focus (2px solid #1a73e8).
 */
export const sharedStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    font: var(--booking-font, inherit);
    color: var(--booking-text, #1d1d1f);
    --_accent: var(--booking-accent, #7a1f3d);
    --_accent-contrast: var(--booking-accent-contrast, #ffffff);
    --_surface: var(--booking-surface, #ffffff);
    --_border: var(--booking-border, #d0d4da);
    --_muted: var(--booking-muted, #5f6368);
    --_danger: var(--booking-danger, #b3261e);
    --_warning: var(--booking-warning, #8a5a00);
    --_success: var(--booking-success, #1e6b35);
    --_radius: var(--booking-radius, 8px);
    --_gap: var(--booking-gap, 0.75rem);
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
    outline: var(--booking-focus, 2px solid #1a73e8);
    outline-offset: 2px;
  }
  button {
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
  button:disabled {
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
  @media (forced-colors: active) {
    button {
      border: 1px solid ButtonText;
    }
  }
`;
