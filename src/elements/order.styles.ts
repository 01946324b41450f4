import { css } from 'lit';

/**
 * What <checkout-form> and <booking-confirmation> share: the text rhythm
 * (headings, paragraphs) and the basket-item cards, so the basket and the
 * booked order look like one thing before and after payment.
 */
export const orderStyles = css`
  :host {
    line-height: 1.45;
  }
  h2,
  h3 {
    margin: 0 0 0.5rem;
    line-height: 1.25;
  }
  h2 {
    font-size: 1.3rem;
  }
  h3 {
    font-size: 1.05rem;
  }
  p {
    margin: 0 0 0.5rem;
  }
  [part~='items'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_gap);
  }
  [part~='item'] {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: var(--_gap);
  }
  .meta {
    color: var(--_muted);
  }
`;
