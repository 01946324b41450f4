import { css } from 'lit';
import { token } from '../shared.styles.ts';

export const bookingConfirmationStyles = css`
  :host {
    max-width: ${token('confirmation-max-width')};
  }
  :host(:not([embedded])) {
    margin-block: var(--_gap);
  }
  [part~='summary'] {
    display: grid;
    gap: var(--_gap);
  }
  [part~='message'] {
    border: 1px solid var(--_border);
    border-left-width: 6px;
    border-radius: var(--_radius);
    padding: var(--_gap);
    background: var(--_surface);
  }
  [part~='message'].success {
    border-left-color: var(--_success);
  }
  [part~='message'].failure {
    border-left-color: var(--_danger);
  }
  [part~='message'].waiting {
    border-left-color: var(--_warning);
  }
  [part~='reference'] {
    font-size: 1.1em;
  }
  [part~='reference'] strong {
    display: block;
    font-size: 1.35em;
    letter-spacing: 0.06em;
    overflow-wrap: anywhere;
  }
  [part~='message'][role='alert'] {
    color: inherit;
  }
  [part~='message'].failure [part~='heading'] {
    color: var(--_danger);
  }
  [part~='tickets'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  [part~='ticket'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.35rem 1rem;
    align-items: baseline;
    border-top: 1px solid var(--_border);
    padding-top: 0.5rem;
  }
  [part~='ticket'] .seat {
    font-weight: 600;
    flex: 1 1 auto;
  }
  [part~='ticket'] .price {
    white-space: nowrap;
  }
  [part~='ticket'] .details {
    flex-basis: 100%;
    display: flex;
    flex-wrap: wrap;
    gap: 0 1rem;
  }
  [part~='ticket'] .details:empty {
    display: none;
  }
  [part~='etickets'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    flex-basis: 100%;
  }
  [part~='eticket-link'] {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    padding: 0.4rem 0.8rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_radius);
    color: var(--_accent);
    text-decoration: none;
    font-weight: 600;
  }
  [part~='eticket-link']:hover {
    background: color-mix(in srgb, var(--_accent) 8%, transparent);
  }
  [part~='delivery'] {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 1rem;
    margin: 0;
  }
  [part~='delivery'] dt {
    color: var(--_muted);
  }
  [part~='delivery'] dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  [part~='total'] {
    font-weight: 700;
    text-align: right;
  }
  @media (max-width: 30rem) {
    [part~='delivery'] {
      grid-template-columns: 1fr;
    }
    [part~='delivery'] dd {
      margin-bottom: 0.35rem;
    }
  }
  @media (forced-colors: active) {
    [part~='eticket-link'] {
      border-color: LinkText;
      color: LinkText;
    }
  }
`;
