/**
 * The URL rule for addresses the service sends in plain fields (PlanLink,
 * cast ExternalLinks, image URLs, PaymentRedirectUrl, e-ticket downloads)
 * before they reach an `href`, a `src` or a navigation: absolute http(s)
 * only. A module of its own, so elements that only need this rule do not
 * pull in the HTML sanitizer; src/sanitize.ts applies the same rule to links
 * inside HTML fields and re-exports it.
 */

export const WEB_SCHEMES = /^https?:\/\//i;

/** Trim the whitespace and control characters browsers ignore in URLs, so `java\tscript:` is seen for what it is. */
export function compact(url: string): string {
  // eslint-disable-next-line no-control-regex
  return url.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, '');
}

/**
 * An address from the service, if it is safe to put in `href`/`src`:
 * absolute http(s) (and mailto when `allowMail`), else null.
 */
export function safeUrl(url: string | null | undefined, options: { allowMail?: boolean } = {}): string | null {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  const tested = compact(trimmed);
  if (WEB_SCHEMES.test(tested) || (options.allowMail && /^mailto:/i.test(tested))) {
    try {
      return new URL(trimmed).href;
    } catch {
      return null;
    }
  }
  return null;
}
