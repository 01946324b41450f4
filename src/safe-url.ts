/**
 * The URL rule for addresses the service sends in plain fields (PlanLink,
 * cast ExternalLinks, image URLs, PaymentRedirectUrl, e-ticket downloads)
 * before they reach an `href`, a `src` or a navigation: absolute http(s)
 * only. A module of its own, so elements that only need this rule do not
 * pull in the HTML sanitizer; src/sanitize.ts applies the same rule to links
 * inside HTML fields and re-exports it.
 *
 * Decided by the URL parser itself, never by a pattern on the text: the value
 * is parsed as the browser will parse it (`new URL`, with no base, so a
 * relative address — which the page would resolve against its own origin —
 * is no address at all), and what is written back is the parsed `href`. A
 * pattern that strips more than the parser does (`h\u0085ttps://x` read as
 * `https://x`) passes text the browser reads as a same-origin relative path.
 */

/** Schemes kept: the web, and mail for links when asked. */
const WEB = new Set(['http:', 'https:']);

/**
 * An address from the service, if it is safe to put in `href`/`src`:
 * absolute http(s) (and mailto when `allowMail`), as the URL parser writes it, else null.
 */
export function safeUrl(url: string | null | undefined, options: { allowMail?: boolean } = {}): string | null {
  if (typeof url !== 'string') return null;
  // Only what the URL parser itself ignores: C0 controls and space at either end, tab/LF/CR anywhere.
  // eslint-disable-next-line no-control-regex
  const value = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (WEB.has(parsed.protocol) || (options.allowMail && parsed.protocol === 'mailto:')) return parsed.href;
  return null;
}

/** Whether an address `safeUrl` returned is a web one (links to it open in a new tab). */
export function isWebUrl(url: string): boolean {
  return /^https?:/.test(url);
}
