/**
 * The `Forwarded` header (RFC 7239), as a front server writes it:
 * `Forwarded: for=192.0.2.60;proto=https;host=theatre.example, for="[2001:db8::1]:4711"`.
 * Elements are separated by commas, their pairs by semicolons, a value is a
 * token or a quoted string. The proxy trusts only the rightmost element: the
 * one the nearest front added (those before it are the caller's to write).
 * Edge-safe.
 */

/** The pairs of the rightmost element (names in lower case, values unquoted); empty when there is none. */
export function lastForwarded(header: string | null): Record<string, string> {
  // The elements, split on commas outside quoted strings.
  const elements = header?.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
  const last = elements[elements.length - 1] ?? '';
  const pairs: Record<string, string> = {};
  for (const [, key = '', token, quoted] of last.matchAll(/\s*([A-Za-z]+)\s*=\s*(?:([^;",\s]+)|"((?:[^"\\]|\\.)*)")\s*;?/g)) {
    pairs[key.toLowerCase()] = token ?? quoted?.replace(/\\(.)/g, '$1') ?? '';
  }
  return pairs;
}

/** The address of a `for=` node (`192.0.2.60`, `192.0.2.60:4711`, `[2001:db8::1]:4711`), without its port; null for `unknown` or an obfuscated name. */
export function nodeAddress(node: string | undefined): string | null {
  if (!node || node.toLowerCase() === 'unknown' || node.startsWith('_')) return null;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) return bracketed[1] ?? null;
  const withPort = /^([^:]+):\d+$/.exec(node);
  return withPort ? (withPort[1] ?? null) : node;
}
