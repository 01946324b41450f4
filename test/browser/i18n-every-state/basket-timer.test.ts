/** <basket-timer> in every state: nothing left in English in any of the nine languages (helpers/every-language.ts). */
import { describeEveryLanguage } from '../helpers/every-language.ts';

describeEveryLanguage('basket-timer');
