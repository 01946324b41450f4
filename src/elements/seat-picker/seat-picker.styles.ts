import { css } from 'lit';

export const seatPickerStyles = css`
  :host {
    --_map-height: var(--booking-seat-map-height, min(70vh, 32rem));
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
  .muted {
    color: var(--_muted);
  }
  .row-of {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
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
  .list-body {
    display: grid;
    gap: 0.75rem;
    padding: 0 0.75rem 0.75rem;
  }
  .list-pickers {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
  }
  .list-pickers label {
    display: grid;
    gap: 0.25rem;
  }
  .seat-checks {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
    gap: 0.25rem 0.75rem;
    max-height: 16rem;
    overflow: auto;
  }
  .seat-checks label {
    font-weight: 400;
    display: flex;
    gap: 0.5rem;
    align-items: center;
    min-height: 2.75rem;
  }
  .seat-checks input {
    width: 1.25rem;
    height: 1.25rem;
    flex: none;
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
  /* A narrow picker: the two choices stack (always, so that the row's height is known). */
  @container (max-width: 19rem) {
    .above {
      --_mode-row: calc(2 * var(--_row) + 1.25rem + 2px + 1.2em);
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
    touch-action: none;
    overscroll-behavior: contain;
    cursor: grab;
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
  .seat-details {
    min-height: 1.5em;
    font-size: 0.95rem;
  }

  /* ---- legend */
  [part~='legend'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    list-style: none;
    margin: 0;
    padding: 0;
    font-size: 0.9rem;
  }
  [part~='legend'] li {
    display: flex;
    align-items: center;
    gap: 0.4rem;
  }
  [part~='legend'] svg {
    width: 22px;
    height: 22px;
    flex: none;
  }
  /* The seat the service refused, in the list: its words and the service's message. */
  label.invalid {
    outline: 2px solid var(--_danger);
    outline-offset: 1px;
    border-radius: 4px;
  }
  .invalid-note {
    display: block;
    color: var(--_danger);
    font-weight: 600;
  }
  .plan img {
    max-width: 100%;
    height: auto;
    display: block;
    margin-top: 0.5rem;
  }

  /* ---- summary and notices */
  [part~='summary'] {
    display: grid;
    gap: 0.5rem;
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .chosen {
    margin: 0;
    padding-left: 1.1rem;
  }
  .total {
    font-weight: 700;
    font-size: 1.1rem;
  }
  [part~='notice'] {
    padding: 0.6rem 0.75rem;
    border-radius: var(--_radius);
    border-left: 4px solid var(--_warning);
    background: color-mix(in srgb, var(--_warning) 8%, var(--_surface));
  }
  [part~='notice'][data-tone='error'] {
    border-left-color: var(--_danger);
    background: color-mix(in srgb, var(--_danger) 6%, var(--_surface));
  }
  [part~='notice'][data-tone='success'] {
    border-left-color: var(--_success);
    background: color-mix(in srgb, var(--_success) 7%, var(--_surface));
    color: var(--_text);
  }
  [part~='notice'][role='alert'] {
    color: var(--_text);
  }
  .options {
    display: grid;
    gap: 0.5rem;
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .option {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    justify-content: space-between;
    padding: 0.6rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
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
    [part~='legend'] svg * {
      forced-color-adjust: auto;
    }
  }
`;
