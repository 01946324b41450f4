/**
 * What <seat-picker> needs only to choose by count: best available (a number of the best seats
 * left) and general admission (an area and a price), each with its count, task and add. Fetched
 * when a performance offers only those (beside the later part), or when the visitor switches from
 * the map to best available: a seat map ready for a tap needs neither.
 */
export { BestAvailable } from './best-available.ts';
export { GeneralAdmission } from './general-admission.ts';
