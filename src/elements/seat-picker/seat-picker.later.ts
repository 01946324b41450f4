/**
 * What <seat-picker> needs after its seat map's first paint, or only for some
 * performances: best available and general admission (with their counts,
 * tasks and add flows), the legend, and the add-to-basket outcome and
 * notices. The element loads this module when one of them is needed, and on a
 * seated performance once its map has painted and the page is idle (so it is
 * there before the visitor reaches for it): the map's first paint does not wait
 * for, or pay for, any of it.
 */
export { addToBasket, renderNotice } from './add-to-basket.ts';
export { BestAvailable } from './best-available.ts';
export { GeneralAdmission } from './general-admission.ts';
export { paintSwatches, renderLegend } from './seat-map-legend.ts';
export { FocusRecovery } from '../../controllers/focus-recovery.ts';
export { renderListBody } from './seat-list.ts';
