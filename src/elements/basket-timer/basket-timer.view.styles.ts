import { css } from 'lit';

/** <basket-timer>'s styles beyond its empty state: added with its view (basket-timer.view.ts). */
export const basketTimerViewStyles = css`
  .timer {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 var(--booking-timer-gap, 0.375rem);
    max-width: 100%;
    padding: var(--booking-timer-padding, 0.25rem 0.75rem);
    border: var(--booking-timer-border-width, 1px) solid var(--booking-timer-border-color, var(--_border));
    border-radius: var(--booking-timer-radius, 999px);
    background: var(--booking-timer-background, var(--_surface));
    color: var(--booking-timer-color, inherit);
    line-height: 1.4;
  }
  .icon {
    width: var(--booking-timer-icon-size, 1em);
    height: var(--booking-timer-icon-size, 1em);
    flex: none;
    align-self: center;
    color: var(--booking-timer-label-color, var(--_muted));
  }
  .timer.warning .icon,
  .timer.final .icon,
  .timer.expired .icon {
    color: inherit;
  }
  .label {
    color: var(--booking-timer-label-color, var(--_muted));
    font-size: var(--booking-timer-label-size, 0.875em);
  }
  .time {
    font-size: var(--booking-timer-time-size, 1.125em);
    font-weight: var(--booking-timer-time-weight, 700);
    min-width: 4ch;
  }
  .timer.warning {
    border-color: var(--_timer-warning);
    box-shadow: inset 0 0 0 1px var(--_timer-warning);
    color: var(--_timer-warning);
  }
  .timer.final {
    border-color: var(--_timer-final);
    box-shadow: inset 0 0 0 1px var(--_timer-final);
    color: var(--_timer-final);
    background: var(--booking-timer-final-background, color-mix(in srgb, var(--_timer-final) 10%, var(--_surface)));
  }
  .timer.warning .label,
  .timer.final .label {
    color: inherit;
  }
  .timer.expired {
    border-color: var(--booking-timer-expired-color, var(--_danger));
    color: var(--booking-timer-expired-color, var(--_danger));
  }
  .timer.expired .label {
    color: inherit;
    font-weight: 700;
  }
  .status {
    font-size: var(--booking-timer-label-size, 0.875em);
  }

  .panel {
    display: block;
    border-radius: var(--_radius);
    padding: var(--booking-timer-panel-padding, 0.75rem);
    margin-top: 0.5rem;
    border: var(--booking-timer-border-width, 1px) solid var(--booking-timer-expired-color, var(--_danger));
    background: var(--booking-timer-panel-background, var(--_surface));
    color: var(--_text);
  }
  .panel.whole {
    margin-top: 0;
  }
  .panel .message {
    margin: 0 0 0.5rem;
    font-weight: 600;
    color: var(--booking-timer-expired-color, var(--_danger));
  }
  .released,
  .items {
    list-style: none;
    margin: 0 0 0.5rem;
    padding: 0;
    display: grid;
    gap: 0.25rem;
  }
  .items {
    margin: 0.5rem 0 0;
    font-size: var(--booking-timer-item-size, 0.875em);
  }
  .item,
  .released-item {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 var(--booking-timer-gap, 0.375rem);
  }
  .item-name {
    font-weight: 600;
  }
  .item-date,
  .item-seats {
    color: var(--booking-timer-label-color, var(--_muted));
  }
  .item-time {
    margin-inline-start: auto;
    font-weight: 700;
  }
  .item.warning .item-time {
    color: var(--_timer-warning);
  }
  .item.final .item-time,
  .item.expired .item-time {
    color: var(--_timer-final);
  }
  @media (forced-colors: active) {
    .timer,
    .panel {
      border-color: CanvasText;
    }
    .timer.warning,
    .timer.final,
    .timer.expired {
      border-width: 3px;
      border-style: double;
    }
  }
`;
