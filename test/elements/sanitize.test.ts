/** The sanitizer with this browser's own HTML Sanitizer API (Chromium 146+, Firefox 148+). */
import { sanitizeSuite } from './helpers/sanitize-suite.ts';

sanitizeSuite('platform');
