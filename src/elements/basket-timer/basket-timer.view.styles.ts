import { css } from 'lit';
import { token } from '../shared.styles.ts';

/** <basket-timer>'s styles beyond its empty state: added with its view (basket-timer.view.ts). */
export const basketTimerViewStyles = css`
  .timer {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 ${token('timer-gap')};
    max-width: 100%;
    padding: ${token('timer-padding')};
    border: ${token('timer-border-width')} solid ${token('timer-border-color')};
    border-radius: ${token('timer-radius')};
    background: ${token('timer-background')};
    color: ${token('timer-color')};
    line-height: 1.4;
  }
  .icon {
    width: ${token('timer-icon-size')};
    height: ${token('timer-icon-size')};
    flex: none;
    align-self: center;
    color: ${token('timer-label-color')};
  }
  .timer.warning .icon,
  .timer.final .icon,
  .timer.expired .icon {
    color: inherit;
  }
  .label {
    color: ${token('timer-label-color')};
    font-size: ${token('timer-label-size')};
  }
  .time {
    font-size: ${token('timer-time-size')};
    font-weight: ${token('timer-time-weight')};
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
    background: ${token('timer-final-background')};
  }
  .timer.warning .label,
  .timer.final .label {
    color: inherit;
  }
  .timer.expired {
    border-color: ${token('timer-expired-color')};
    color: ${token('timer-expired-color')};
  }
  .timer.expired .label {
    color: inherit;
    font-weight: 700;
  }
  .status {
    font-size: ${token('timer-label-size')};
  }

  .panel {
    display: block;
    border-radius: var(--_radius);
    padding: ${token('timer-panel-padding')};
    margin-top: 0.5rem;
    border: ${token('timer-border-width')} solid ${token('timer-expired-color')};
    background: ${token('timer-panel-background')};
    color: var(--_text);
  }
  .panel.whole {
    margin-top: 0;
  }
  .panel .message {
    margin: 0 0 0.5rem;
    font-weight: 600;
    color: ${token('timer-expired-color')};
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
    font-size: ${token('timer-item-size')};
  }
  .item,
  .released-item {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0 ${token('timer-gap')};
  }
  .item-name {
    font-weight: 600;
  }
  .item-date,
  .item-seats {
    color: ${token('timer-label-color')};
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
