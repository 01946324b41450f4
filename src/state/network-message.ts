/**
 * The one sentence for "no answer at all" (failure.ts shares it): a module of its own, so the
 * basket store can say it without loading the failure words, when not even those arrive.
 */
import { msg } from '../i18n/msg.ts';

export const networkMessage = () => msg('We could not reach the box office. Check your connection and try again.');
