import { css } from 'lit';
import { token } from '../shared.styles.ts';

/** <checkout-form>'s styles for its items and form: added with its view (checkout-form.view.ts). */
export const checkoutFormViewStyles = css`
  /* The time the seats are held: compact; on a phone it stays at the top while the form scrolls by. */
  .hold {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 0.375rem;
    margin: 0 0 var(--_gap);
    padding: 0.25rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .hold .label {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .hold .time {
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  .hold.warning {
    border-color: var(--_warning);
    box-shadow: inset 0 0 0 1px var(--_warning);
    color: var(--_warning);
  }
  .hold.final,
  .hold.expired {
    border-color: var(--_danger);
    box-shadow: inset 0 0 0 1px var(--_danger);
    color: var(--_danger);
    background: color-mix(in srgb, var(--_danger) 10%, var(--_surface));
  }
  .hold:not(.normal) .label {
    color: inherit;
    font-weight: 600;
  }
  @media (max-width: 45rem) {
    .hold {
      position: sticky;
      top: ${token('sticky-top')};
      z-index: 1;
    }
  }
  [part~='item'] {
    display: grid;
    gap: 0.35rem;
  }
  .item-head {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-start;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .item-head h3 {
    margin: 0;
    flex: 1 1 12rem;
  }
  .meta {
    margin: 0;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.95em;
  }
  th,
  td {
    text-align: left;
    padding: 0.3rem 0.4rem 0.3rem 0;
    border-bottom: 1px solid var(--_border);
    vertical-align: top;
  }
  th[scope='col'] {
    font-weight: 600;
    color: var(--_muted);
  }
  .num {
    text-align: right;
    white-space: nowrap;
    padding-right: 0;
    padding-left: 0.75rem;
  }
  [part~='restriction'] {
    display: block;
    color: var(--_warning);
    font-size: 0.9em;
  }
  [part~='eticket-notice'],
  [part~='notice'] {
    border-left: 4px solid var(--_accent);
    padding: 0.4rem 0.6rem;
    background: color-mix(in srgb, var(--_accent) 6%, transparent);
    margin: 0;
  }
  [part~='item-subtotal'] {
    text-align: right;
    font-weight: 600;
    margin: 0;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  [part~='empty-confirm'] {
    border: 1px solid var(--_danger);
    border-radius: var(--_radius);
    padding: var(--_gap);
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    margin: 0;
    padding: var(--_gap);
    display: grid;
    gap: var(--_gap);
    min-width: 0;
  }
  legend {
    font-weight: 700;
    padding: 0 0.25rem;
  }
  .fields {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr));
    gap: var(--_gap);
  }
  [part~='field'] {
    display: grid;
    gap: 0.25rem;
    align-content: start;
  }
  [part~='field'].wide {
    grid-column: 1 / -1;
  }
  label {
    font-weight: 600;
  }
  .optional {
    font-weight: 400;
    color: var(--_muted);
  }
  input:not([type='checkbox'], [type='radio']),
  select {
    font: inherit;
    width: 100%;
    min-height: 2.75rem;
    padding: 0.45rem 0.6rem;
    border: 1px solid var(--_field-border);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_field-bg);
    color: inherit;
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border: 2px solid var(--_danger);
  }
  input[type='checkbox'],
  input[type='radio'] {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0.1rem 0 0;
    accent-color: var(--_accent);
    flex: none;
  }
  .check {
    display: flex;
    gap: 0.6rem;
    align-items: flex-start;
    font-weight: 400;
  }
  .check > span {
    flex: 1;
  }
  [part~='delivery-option'] {
    display: flex;
    gap: 0.6rem;
    align-items: center;
    padding: 0.5rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    font-weight: 400;
  }
  [part~='delivery-option'] .price {
    margin-left: auto;
    font-weight: 600;
    white-space: nowrap;
  }
  [part~='delivery-option'].selected {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
  }
  .hint {
    color: var(--_muted);
    font-size: 0.9em;
    margin: 0;
  }
  [part~='field-error'] {
    color: var(--_danger);
    font-size: 0.9em;
    margin: 0;
    font-weight: 600;
  }
  [part~='error-summary'] {
    border: 2px solid var(--_danger);
    border-radius: var(--_radius);
    padding: var(--_gap);
  }
  [part~='error-summary'] ul {
    margin: 0.25rem 0 0;
    padding-left: 1.25rem;
  }
  [part~='error-summary'] a {
    color: var(--_danger);
  }
  [part~='totals'] {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 0.3rem 0;
    margin: 0;
  }
  [part~='totals'] dt {
    margin: 0;
  }
  [part~='totals'] dd {
    margin: 0;
    padding-left: 1rem;
    text-align: right;
    white-space: nowrap;
  }
  [part~='totals'] .grand {
    font-weight: 700;
    font-size: 1.15em;
    border-top: 1px solid var(--_border);
    padding-top: 0.35rem;
  }
  [part~='submit-button'] {
    width: 100%;
    font-weight: 700;
    font-size: 1.05em;
  }
  [part~='message'].warning {
    border-color: var(--_warning);
  }
  [part~='on-account-reference'] {
    font-size: 1.3em;
    font-weight: 700;
    letter-spacing: 0.05em;
  }
  @media (forced-colors: active) {
    [part~='delivery-option'].selected {
      outline: 2px solid Highlight;
    }
    input[aria-invalid='true'],
    select[aria-invalid='true'] {
      border-color: Mark;
    }
  }
`;
