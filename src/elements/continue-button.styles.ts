/**
 * The way back to a payment in progress (<checkout-form>'s unfinished payment, <seat-picker>'s
 * note beside "Add"): a link, since it goes to another page, that looks like the primary button it is.
 */
import { css } from 'lit';

export const continueButtonStyles = css`
  /* Its box, border and colours are the buttons' (shared.styles.ts). */
  [part~='continue-button'] {
    display: inline-flex;
    align-items: center;
    text-decoration: none;
    font-weight: 600;
  }
`;
