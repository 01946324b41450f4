/** <event-list> against hostile content on a page without the Sanitizer API (as in Safari): DOMPurify sanitizes. */
import './helpers/without-sanitizer-api.ts';
import { eventListXssSuite } from './helpers/event-list-xss-suite.ts';

eventListXssSuite('dompurify');
