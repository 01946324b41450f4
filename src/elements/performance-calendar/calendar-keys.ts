/**
 * The keyboard of <performance-calendar>'s grid (the ARIA date-grid pattern): arrows move by
 * day and week, Home/End to the week's start/end, PageUp/PageDown by month (with Shift by
 * year), Enter or Space opens the day.
 */
import { addDays, addMonths, isoWeekday, type CalendarDate } from './calendar-dates.ts';

/** Where a key moves the focus day from `current` ('open': open the day; null: not the grid's key). */
export function keyTarget(e: KeyboardEvent, current: CalendarDate, firstWeekday: number): CalendarDate | 'open' | null {
  const weekday = (isoWeekday(current) - firstWeekday + 7) % 7;
  switch (e.key) {
    case 'ArrowLeft':
      return addDays(current, -1);
    case 'ArrowRight':
      return addDays(current, 1);
    case 'ArrowUp':
      return addDays(current, -7);
    case 'ArrowDown':
      return addDays(current, 7);
    case 'Home':
      return addDays(current, -weekday);
    case 'End':
      return addDays(current, 6 - weekday);
    case 'PageUp':
      return addMonths(current, e.shiftKey ? -12 : -1);
    case 'PageDown':
      return addMonths(current, e.shiftKey ? 12 : 1);
    case 'Enter':
    case ' ':
      return 'open';
    default:
      return null;
  }
}
