/**
 * What <seat-picker> needs after its seat map's first paint, or only for some
 * performances: what renders below the map (the seat under focus, the legend,
 * the plan, the visitor's choice with "Add"; it waits while a payment from this
 * tab is open: payment-in-progress.ts), the list's body, the add-to-basket
 * outcome and notices, and their styles (added by the element when this
 * arrives; best available's and general admission's too, whose code is
 * seat-picker.by-count.ts). The element asks for it in the frame after the map's
 * first paint (and at once for a performance without a map): the map's first
 * paint does not wait for, or pay for, any of it.
 */
export { addToBasket, renderNotice } from './add-to-basket.ts';
export { PaymentInProgress, PAYMENT_NOTE_ID } from './payment-in-progress.ts';
export { paintSwatches, renderLegend } from './seat-map-legend.ts';
export { FocusRecovery } from '../../controllers/focus-recovery.ts';
export { renderListBody } from './seat-list.ts';
export { addable, renderPaired, renderPlan, renderSeatDetails, renderSummary } from './seat-summary.ts';
export { seatPickerLaterStyles } from './seat-picker.later.styles.ts';
export { continueButtonStyles } from '../continue-button.styles.ts';
