import { defineElement } from '../../define.ts';
import { PerformanceCalendar } from './performance-calendar.component.ts';

export { PerformanceCalendar };
defineElement('performance-calendar', PerformanceCalendar);

declare global {
  interface HTMLElementTagNameMap {
    'performance-calendar': PerformanceCalendar;
  }
}
