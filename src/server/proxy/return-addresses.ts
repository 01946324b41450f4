/**
 * Where the payment page may send the customer back to. An order names its
 * return addresses (SuccessReturnUrl, FailureReturnUrl; ReturnUrl on account)
 * and the service's payment page redirects there: without a check, anyone who
 * can call the proxy makes our payment page an open redirect (a phishing page
 * creates a basket, sends its victim to pay, then to itself "to finish the
 * booking"). Accepted: absolute http(s) addresses, with no user name or
 * password, on one of
 * - the origins the operator lists (`returnOrigins`), and the CORS `allowedOrigins`;
 * - the site's own origin, the host the request was addressed to (the Host
 *   header, either scheme: a TLS terminator in front makes it http here), as
 *   the CORS check reads it, unless the operator lists `returnOrigins`: the
 *   Host is the caller's to write, so a list replaces the guess.
 * Json.NET binds names in any case, so `successreturnurl` is checked too.
 * Edge-safe.
 */

const RETURN_FIELDS: ReadonlyMap<string, string> = new Map(['SuccessReturnUrl', 'FailureReturnUrl', 'ReturnUrl'].map((name) => [name.toLowerCase(), name]));

export interface ReturnAddressPolicy {
  /** The listed origins (normalised); null when the operator listed none (then the request's own host counts too). */
  listed: ReadonlySet<string> | null;
  /** The CORS allowed origins (normalised). */
  allowed: ReadonlySet<string>;
}

/** Why `value` is not a return address this policy accepts, or null when it is one. */
function refusal(value: unknown, ownHost: string | null, policy: ReturnAddressPolicy): string | null {
  if (typeof value !== 'string') return 'must be an address (a string)';
  // A backslash, a space or a control character: browsers and servers read them differently (`https:\\evil.example`).
  if (/[\\\s\x00-\x1f\x7f]/.test(value)) return 'must be a plain absolute address (no backslash, space or control character)';
  let url: URL;
  try {
    url = new URL(value); // no base: `//evil.example` and `/path` are refused
  } catch {
    return 'must be an absolute address (https://...)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https address';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (policy.allowed.has(url.origin) || policy.listed?.has(url.origin)) return null;
  if (!policy.listed && ownHost !== null && url.host === ownHost) return null;
  return "must be on this site's own origin or an origin this proxy allows";
}

/**
 * The first return address in an order `body` that the policy refuses, as a
 * message naming the field, or null. `requestUrl` is the URL the request was
 * addressed to.
 */
export function checkReturnAddresses(body: Record<string, unknown>, requestUrl: URL, policy: ReturnAddressPolicy): string | null {
  for (const [key, value] of Object.entries(body)) {
    const field = RETURN_FIELDS.get(key.toLowerCase());
    if (!field || value === null || value === undefined) continue;
    const why = refusal(value, requestUrl.host || null, policy);
    if (why) return `The field '${key}' ${why}.`;
  }
  return null;
}
