/**
 * Register a custom element unless its tag is already taken: loading the
 * script twice, or two versions of it, is harmless.
 */
export function defineElement(tag: string, constructor: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(tag)) return;
  customElements.define(tag, constructor);
}
