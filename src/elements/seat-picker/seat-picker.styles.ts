import { css } from 'lit';
import { token } from '../shared.styles.ts';

/**
 * <seat-picker>'s first view: the map and the rows above it (list path, mode switch, zoom). What
 * renders below the map, the list's body and the ways of choosing by count come with the later
 * part (seat-picker.later.styles.ts).
 */
export const seatPickerStyles = css`
  :host {
    --_map-height: ${token('seat-map-height')};
    min-width: 0;
    /* The region above the map is sized from the picker's own width, not the viewport's. */
    container-type: inline-size;
  }
  .stack {
    display: grid;
    gap: var(--_gap);
  }
  .stack > button,
  .stack > label {
    justify-self: start;
  }
  h2,
  h3 {
    margin: 0;
    font-size: 1.05rem;
  }
  p {
    margin: 0;
  }
  label,
  legend {
    font-weight: 600;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem 0.75rem;
    margin: 0;
    min-width: 0;
  }

  /* ---- choose from a list */
  details[part~='list'] {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  details[part~='list'] > summary {
    cursor: pointer;
    padding: 0.75rem;
    font-weight: 600;
  }
  /* ---- the map
   * Above it: list path, mode switch, zoom, in rows of fixed height (per width of the picker).
   * The map's first frame has the same rows, empty: the map does not move when they fill.
   * Only the list row grows, when the visitor opens it. */
  .above {
    --_row: 2.75rem;
    --_list-row: calc(var(--_row) + 2px);
    --_mode-row: calc(var(--_row) + 1.25rem + 2px + 1.2em);
    display: grid;
    gap: var(--_gap);
    grid-template-rows: minmax(var(--_list-row), auto) var(--_mode-row) var(--_row);
  }
  /* A narrow picker: the two choices stack (always, so that the row's height is known), and the
   * question above them may take two lines (it does at 280 px in Firefox's and WebKit's fonts). */
  @container (max-width: 19rem) {
    .above {
      --_mode-row: calc(2 * var(--_row) + 1.25rem + 2px + 2.4em);
    }
    .above .mode-switch {
      flex-direction: column;
    }
  }
  .above legend {
    line-height: 1.2;
  }
  details[part~='list'] > summary {
    line-height: 1.25rem;
    padding-block: 0.75rem;
  }
  .zoom {
    justify-self: end;
    display: flex;
    gap: 0.25rem;
    align-items: center;
  }
  .zoom button {
    min-width: 2.75rem;
    padding: 0.25rem 0.6rem;
  }
  .frame {
    position: relative;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    overflow: hidden;
  }
  .stage {
    display: block;
    text-align: center;
    font-size: 0.8rem;
    letter-spacing: 0.2em;
    text-transform: uppercase;
    padding: 0.2rem;
    /* A strip of the text colour over the surface: readable on either side of the palette. */
    background: color-mix(in srgb, var(--_text) 18%, var(--_surface));
    color: var(--_text);
  }
  canvas {
    position: absolute;
    left: 0;
    pointer-events: none;
    display: block;
  }
  .viewport {
    position: relative;
    height: var(--_map-height);
    overflow: auto;
    /* Until the visitor engages the map (seat-map-gestures.ts), one finger scrolls the page past it. */
    touch-action: pan-y;
    cursor: grab;
  }
  .viewport.engaged {
    touch-action: none;
    overscroll-behavior: contain;
  }
  .viewport.dragging {
    cursor: grabbing;
  }
  .sizer {
    position: relative;
    contain: layout style;
  }
  /* Transparent stand-ins over the painted seats: as few properties as possible (hundreds of them). */
  .sizer > button {
    position: absolute;
    margin: 0;
    padding: 0;
    min-height: 0;
    border: 0;
    background: none;
    pointer-events: none;
    border-radius: 4px;
  }
  .sizer > button:focus-visible,
  .sizer > button:focus {
    outline: var(--_focus);
    outline-width: 3px;
    outline-offset: -1px;
    box-shadow: 0 0 0 5px color-mix(in srgb, var(--_surface) 80%, transparent);
  }
  .radio {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    min-height: 2.75rem;
    font-weight: 400;
  }
  .radio input {
    width: 1.25rem;
    height: 1.25rem;
  }
  .mode-switch {
    display: flex;
    flex-wrap: wrap;
    gap: 0 1rem;
  }

  @media (forced-colors: active) {
    .sizer > button:focus {
      outline: 3px solid Highlight;
    }
  }
`;
