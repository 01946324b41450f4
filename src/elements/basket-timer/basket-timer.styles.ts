import { css } from 'lit';
import { token } from '../shared.styles.ts';

/** <basket-timer>'s first view: the host and the empty state (the countdown's styles come with its view). */
export const basketTimerStyles = css`
  :host {
    display: inline-block;
    max-width: 100%;
    vertical-align: middle;
    font-variant-numeric: tabular-nums;
    --_timer-warning: ${token('timer-warning-color')};
    --_timer-final: ${token('timer-final-color')};
  }
  :host([show-items]),
  :host([state='expired']) {
    display: block;
  }

  .empty {
    margin: 0;
    color: ${token('timer-label-color')};
  }
  .empty:focus {
    outline: none;
  }
`;
