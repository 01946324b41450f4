import { css } from 'lit';

/** <basket-timer>'s first view: the host and the empty state (the countdown's styles come with its view). */
export const basketTimerStyles = css`
  :host {
    display: inline-block;
    max-width: 100%;
    vertical-align: middle;
    font-variant-numeric: tabular-nums;
    --_timer-warning: var(--booking-timer-warning-color, var(--_warning));
    --_timer-final: var(--booking-timer-final-color, var(--_danger));
  }
  :host([show-items]),
  :host([state='expired']) {
    display: block;
  }

  .empty {
    margin: 0;
    color: var(--booking-timer-label-color, var(--_muted));
  }
  .empty:focus {
    outline: none;
  }
`;
