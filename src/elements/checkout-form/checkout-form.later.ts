/**
 * What <checkout-form> shows once there is a basket: its items, the form's
 * sections, what the checkout loads and sums, and sending the order. The
 * element loads this module the first time its basket has content: a page
 * whose visitor has no basket yet (the checkout in every page's sidebar) shows
 * "Your basket is empty" without downloading any of it.
 */
export { renderBasket } from './checkout-basket.ts';
export { loadCheckout, loadErrorMessage, loadSystemLists, orderTotal } from './checkout-data.ts';
export { renderCustomer, renderDelivery, renderErrorSummary, renderExtras, renderNotices, renderTotals } from './checkout-details.ts';
export { fieldRefusal, orderFields, sendFailure, sendOrder } from './checkout-submit.ts';
