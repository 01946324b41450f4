/**
 * A refused seat selection in words. The single-seat rule: the seat picker says it before an add (selection-check.ts), the
 * basket's failure words when the service refuses one (basket-failure.ts). A module of its own, so
 * the seat map's first download does not carry the basket's other failure words.
 */
import { msg } from '../i18n/msg.ts';

export const singleSeatMessage = () => msg('That choice would leave a single empty seat. Please choose seats side by side, or include the gap.');

/** A selection the service refuses without words of its own (its ErrorMessagePlan empty). */
export const notTogetherMessage = () => msg('These seats cannot be booked together.');
