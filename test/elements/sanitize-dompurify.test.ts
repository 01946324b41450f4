/** The same sanitizer tests on a page without the Sanitizer API (as in Safari): DOMPurify does the work. */
import './helpers/without-sanitizer-api.ts';
import { sanitizeSuite } from './helpers/sanitize-suite.ts';

sanitizeSuite('dompurify');
