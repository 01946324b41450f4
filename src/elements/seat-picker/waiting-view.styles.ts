import { css } from 'lit';

/** The waiting view's styles (waiting-view.ts): added to <seat-picker> when the view arrives. */
export const waitingViewStyles = css`
  .queue {
    display: grid;
    gap: 0.75rem;
    padding: 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .queue h3 {
    margin: 0;
    font-size: 1.125rem;
  }
  .queue p {
    margin: 0;
  }
  .queue-facts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
    gap: 0.75rem;
    margin: 0;
  }
  .queue-facts dt,
  .queue-label {
    color: var(--_muted);
    font-size: 0.875rem;
    font-weight: 400;
  }
  .queue-opens,
  .queue-progress {
    display: grid;
    gap: 0.25rem;
  }
  .queue-facts dd {
    margin: 0;
    font-size: 1.5rem;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
  .queue-countdown {
    font-size: 2rem;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .queue progress {
    width: 100%;
    height: 0.75rem;
    accent-color: var(--_accent);
  }
  .queue-note {
    color: var(--_muted);
    font-size: 0.875rem;
  }
`;
