/** <event-list> against hostile content, sanitized by the browser's own HTML Sanitizer API. */
import { eventListXssSuite } from './helpers/event-list-xss-suite.ts';

eventListXssSuite('platform');
