import { css } from 'lit';

/** <seat-picker>'s styles for its later part (seat-picker.later.ts): added when it arrives. */
export const seatPickerLaterStyles = css`
  .muted {
    color: var(--_muted);
  }
  .row-of {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
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
  @media (forced-colors: active) {
    [part~='legend'] svg * {
      forced-color-adjust: auto;
    }
  }
`;
