/**
 * Imported FIRST by a test file (before anything that sanitizes): the page
 * then has no HTML Sanitizer API, as in Safari, so src/sanitize.ts takes its
 * other engine, DOMPurify. Each test file runs in a page of its own, so this
 * touches no other file's tests.
 */
delete (Element.prototype as { setHTML?: unknown }).setHTML;
delete (ShadowRoot.prototype as { setHTML?: unknown }).setHTML;
Reflect.deleteProperty(globalThis, 'Sanitizer');

if ('setHTML' in Element.prototype || 'Sanitizer' in globalThis) throw new Error('the Sanitizer API could not be removed from this page');
