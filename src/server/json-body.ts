/**
 * Raw request bytes → a JSON value, safely, for the proxy and the sandbox alike.
 *
 * JSON.parse itself copes with deep nesting, but everything that walks its
 * result afterwards (JSON.stringify, a canonical form, a binding) recurses once
 * per level, and a caller chooses the levels: `{"TicketIds":[[[[…]]]]}` at
 * 6,000 levels is 12 KB and overflowed the stack (a 500). So the text is
 * scanned first, in one loop with no recursion, and refused with a message
 * when it nests deeper than `maxDepth`, when a number literal is beyond what
 * a double holds (`1e400`: JSON.parse would make it Infinity, which becomes
 * `null` when forwarded) or when it is not UTF-8. Only then is it parsed.
 *
 * What the value means (types, names, Json.NET's binding rules) is not this
 * module's business. Edge-safe: no Node API.
 */

/** The service's bodies nest 3 levels at most (an order: object → array → object); this leaves room and no more. */
export const MAX_JSON_DEPTH = 32;

export type JsonRead = { ok: true; value: unknown } | { ok: false; message: string };

/** 0-9 . e E + - */
const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/**
 * How deep `text` nests (objects and arrays), scanning iteratively; stops at
 * the first level beyond `maxDepth` and at the first number beyond a double.
 * Strings are skipped with their escapes, so brackets inside them do not count.
 * Returns a message on refusal, or null. The text need not be valid JSON:
 * JSON.parse still judges that.
 */
export function scanJson(text: string, maxDepth: number = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: skip to its closing quote, over escapes (`\"`, `\\`).
      for (i++; i < length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c) i++;
        else if (c === 0x22) break;
      }
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return `The request body nests deeper than ${maxDepth} levels.`;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      // A number: its whole literal, then whether a double holds it.
      let end = i + 1;
      while (end < length && isNumberChar(text.charCodeAt(end))) end++;
      const value = Number(text.slice(i, end));
      if (value === Infinity || value === -Infinity) return `The number ${text.slice(i, Math.min(end, i + 24))}${end - i > 24 ? '…' : ''} in the request body is too large.`;
      i = end - 1;
    }
  }
  return null;
}

/** Text as JSON within the limits: the value, or a message saying what is wrong with it. */
export function parseJsonText(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonRead {
  const refused = scanJson(text, maxDepth);
  if (refused) return { ok: false, message: refused };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'The request body is not valid JSON.' };
  }
}

/** Bytes as UTF-8 text, or null when they are not UTF-8 (no silent U+FFFD). */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Bytes (a request body) as JSON within the limits. */
export function parseJsonBytes(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): JsonRead {
  const text = utf8Text(bytes);
  if (text === null) return { ok: false, message: 'The request body is not UTF-8.' };
  return parseJsonText(text, maxDepth);
}
