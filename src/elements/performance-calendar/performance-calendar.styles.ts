import { css } from 'lit';
import { token } from '../shared.styles.ts';

export const performanceCalendarStyles = css`
  :host {
    container: calendar / inline-size;
    --_day-size: ${token('day-size')};
  }
  p {
    margin: 0;
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_gap);
    margin-block-end: var(--_gap);
  }
  .header {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .month {
    margin: 0;
    font-size: 1.25rem;
    min-width: 10ch;
    text-align: center;
  }
  .nav {
    min-width: 2.75rem;
    padding: 0.25rem 0.5rem;
    font-size: 1.25rem;
    line-height: 1;
  }
  .count {
    display: flex;
    align-items: center;
    gap: 0.5rem;
  }
  .grid {
    width: 100%;
    table-layout: fixed;
    border-collapse: separate;
    border-spacing: 4px;
  }
  th {
    font-weight: 600;
    font-size: 0.85rem;
    color: var(--_muted);
    padding: 0.25rem 0;
  }
  td {
    padding: 0;
    vertical-align: top;
  }
  .day {
    all: unset;
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.15rem;
    width: 100%;
    min-height: var(--_day-size);
    padding: 0.35rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    cursor: pointer;
    font-size: 0.8rem;
    color: inherit;
  }
  .day:focus-visible {
    outline: var(--_focus);
    outline-offset: 1px;
  }
  .day-number {
    font-size: 1rem;
    font-weight: 600;
  }
  .day[aria-disabled='true'] {
    cursor: default;
    color: var(--_muted);
    background: transparent;
    border-style: dashed;
  }
  .day[part~='today'] .day-number {
    text-decoration: underline;
    text-underline-offset: 3px;
  }
  .day[part~='has-performances'] {
    border-color: var(--_accent);
  }
  .day[part~='few-left'] {
    box-shadow: inset 0 -3px 0 var(--_warning);
  }
  .day[part~='sold-out'] {
    border-color: var(--_border);
    color: var(--_muted);
    text-decoration: line-through;
  }
  .day[part~='open'],
  .day[part~='selected'] {
    background: var(--_accent);
    color: var(--_accent-contrast);
    border-color: var(--_accent);
  }
  .day-times {
    display: flex;
    flex-wrap: wrap;
    gap: 0 0.35rem;
  }
  .day-panel {
    margin-block-start: var(--_gap);
    padding: var(--_gap);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  h3 {
    margin: 0 0 0.5rem;
    font-size: 1.05rem;
  }
  .performances {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .performance {
    width: 100%;
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.75rem;
    text-align: start;
    background: var(--_surface);
    color: inherit;
    border: 1px solid var(--_border);
  }
  .performance:hover:not(:disabled) {
    border-color: var(--_accent);
  }
  .performance[aria-pressed='true'] {
    border: 2px solid var(--_accent);
    background: color-mix(in srgb, var(--_accent) 8%, var(--_surface));
  }
  .time {
    font-weight: 600;
    flex: 1 1 10rem;
  }
  /* Sold out: muted, struck through and labelled, but never faded (the shared disabled opacity
     left its text at 2.3:1); the muted colour is AA on the surface in both schemes. */
  .performance:disabled {
    opacity: 1;
    color: var(--_muted);
    border-style: dashed;
  }
  .performance:disabled .time {
    text-decoration: line-through;
  }
  .availability {
    color: var(--_muted);
  }
  .performance[part~='few-left'] .availability {
    color: var(--_warning);
    font-weight: 600;
  }
  .price {
    font-weight: 600;
  }
  .badge {
    padding: 0 0.4rem;
    border: 1px solid var(--_success);
    color: var(--_success);
    border-radius: 999px;
    font-size: 0.8rem;
  }
  .list-view {
    display: none;
  }
  .list {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--_gap);
  }
  .empty {
    padding: 1rem;
    color: var(--_muted);
    border: 1px dashed var(--_border);
    border-radius: var(--_radius);
    margin-block-end: var(--_gap);
  }
  .error,
  .next-performance {
    margin-block-end: var(--_gap);
  }
  @container calendar (max-width: 34rem) {
    .grid-view {
      display: none;
    }
    .list-view {
      display: block;
    }
  }
  @media (forced-colors: active) {
    .day,
    .performance {
      border: 1px solid ButtonText;
    }
    .day[part~='open'],
    .day[part~='selected'],
    .performance[aria-pressed='true'] {
      border: 2px solid Highlight;
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
  }
`;
