import { css } from 'lit';
import { token } from '../shared.styles.ts';

/**
 * <checkout-form>'s first view: the host, the basket section (empty, or being read) and its
 * messages. What it shows with a basket comes with its view (checkout-form.view.styles.ts).
 */
export const checkoutFormStyles = css`
  :host {
    --_field-border: ${token('field-border')};
    --_field-bg: ${token('field-background')};
    max-width: ${token('checkout-max-width')};
  }
  [part~='basket'],
  [part~='form'] {
    display: grid;
    gap: var(--_gap);
  }
  [part~='basket'] {
    margin-bottom: calc(var(--_gap) * 2);
  }
  /* Where focus is brought (an added or next item, a heading, the status): scrolled to with room for its focus ring. */
  [tabindex='-1'] {
    scroll-margin-block: ${token('scroll-margin')};
  }
  [part~='message'] {
    border-radius: var(--_radius);
    padding: var(--_gap);
    border: 1px solid var(--_border);
  }
`;
