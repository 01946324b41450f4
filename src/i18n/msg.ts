/**
 * `msg`, `str` and `@localized()` for our elements: import them from here,
 * not from '@lit/localize'. That package's index also carries its runtime
 * (configuring locales, loading and looking up translations), which only a
 * visitor in another language than English needs: importing the index from
 * any element would put that runtime in every page's first download. Here
 * are only the three small modules every element uses; the runtime loads
 * with the visitor's language (./runtime.ts).
 */
export { msg } from '@lit/localize/init/install.js';
export { str } from '@lit/localize/internal/str-tag.js';
export { localized } from '@lit/localize/internal/localized-decorator.js';
