/**
 * The script-tag entry: registers every element. Order matters for pages that
 * use <booking-provider>: it is defined first, so its descendants find it
 * when they upgrade.
 */
import './elements/booking-provider/booking-provider.ts';
import './elements/basket-timer/basket-timer.ts';
import './elements/event-list/event-list.ts';
import './elements/performance-calendar/performance-calendar.ts';
import './elements/seat-picker/seat-picker.ts';
import './elements/checkout-form/checkout-form.ts';
import './elements/booking-confirmation/booking-confirmation.ts';

export * from './exports.ts';
