/**
 * Side-effect-free exports: classes (register them under any tag), the api
 * client, the state, the events. Importing this registers nothing.
 */
export { BookingProvider } from './elements/booking-provider/booking-provider.component.ts';
export { BookingElement } from './elements/booking-element.ts';
export { BasketTimer } from './elements/basket-timer/basket-timer.component.ts';
export { EventList } from './elements/event-list/event-list.component.ts';
export { PerformanceCalendar } from './elements/performance-calendar/performance-calendar.component.ts';
export { SeatPicker } from './elements/seat-picker/seat-picker.component.ts';
export { CheckoutForm } from './elements/checkout-form/checkout-form.component.ts';
export { BookingConfirmation } from './elements/booking-confirmation/booking-confirmation.component.ts';
export { createApiClient, ApiError, NetworkError, InvalidRequestError, NOT_AVAILABLE_YET, isNotAvailableYet } from './api/client.ts';
export type { ApiClient, ApiClientOptions } from './api/client.ts';
export { operations, operationList } from './api/operations.ts';
export * from './api/types.ts';
export { ServerClock, serviceTimeToInstant, instantToServiceTime, formatServiceDateTime } from './api/time.ts';
export { BasketStore } from './state/basket-store.ts';
export type { BasketState, BasketFailure, AddOutcome } from './state/basket-store.ts';
export { SelectionStore } from './state/selection.ts';
export { bookingContext, createBooking, sharedBooking } from './state/booking.ts';
export type { BookingContextValue } from './state/booking.ts';
export { resolveConfig } from './state/config.ts';
export { setLocale, textLocaleFor } from './i18n/locale.ts';
export type { TextLocale } from './i18n/locale.ts';
export type { BookingConfig } from './state/config.ts';
export { bookingEvent } from './events.ts';
export type { BookingEventDetails, BookingEventName, BookingEvent } from './events.ts';
export { defineElement } from './define.ts';
