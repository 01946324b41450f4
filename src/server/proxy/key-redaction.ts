/**
 * The Api-Key, found and replaced in whatever the upstream sends back, however
 * it is written. An upstream (or a gateway in front of it) that echoes the
 * key may write it:
 * - as it is, in any case (its letters, and every hex digit below, match in
 *   either case; base64 below is matched as written, its case being meaning);
 * - JSON-escaped: any character as `\uXXXX`, `/` as `\/`, `"` and `\` backslashed;
 * - URL-encoded: any character as `%XX` (either case of hex), a space as `+`;
 *   these may mix character by character with the forms above;
 * - as hex (its bytes, two digits each);
 * - base64 or base64url (`-` and `_` for `+` and `/`), of the key as it is,
 *   upper- or lower-cased: base64 writes three bytes as four characters, so the
 *   key's characters depend on where in the surrounding bytes it starts (a
 *   `Basic` credential puts it after `user:`). Each of the three alignments
 *   gives a run of characters that depends on the key's bytes alone; that run
 *   is what is matched.
 * One regular expression, built once per proxy, and cheaper ones that decide
 * whether a text needs it (keyRedactor). A key under 8 characters
 * would match ordinary text: it is left alone (createProxy accepts it, and
 * says nothing of it). Edge-safe: no Node API.
 */

const REDACTED = '[redacted]';

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A character matched in either case (`[sS]`), or as it is. */
const anyCase = (char: string) => (char.toLowerCase() === char.toUpperCase() ? escapeRegExp(char) : `[${char.toLowerCase()}${char.toUpperCase()}]`);

/** Hex digits of a printable ASCII character (createProxy checks the key is such), matched in either case. */
const hexOf = (char: string) => [...char.charCodeAt(0).toString(16).padStart(2, '0')].map(anyCase).join('');

/** One character of the key as written (either case), JSON-escaped or URL-encoded. */
function characterForms(char: string): string {
  const forms = [anyCase(char), `\\\\u00${hexOf(char)}`, `%${hexOf(char)}`];
  if (char === '/') forms.push('\\\\/');
  if (char === '"' || char === '\\') forms.push(`\\\\${escapeRegExp(char)}`);
  if (char === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** The characters base64 writes for `text`'s bytes alone, at each of the three offsets from a 3-byte boundary. */
function base64Runs(text: string): string[] {
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = btoa('\0'.repeat(offset) + text + '\0\0');
    runs.push(encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + text.length) * 8) / 6)));
  }
  return runs;
}

/** A base64 run as base64 or base64url, its `+` and `/` also URL-encoded or JSON-escaped. */
function base64Pattern(run: string): string {
  return [...run].map((char) => (char === '+' ? '(?:\\+|-|%2[bB]|\\\\u002[bB])' : char === '/' ? '(?:/|_|%2[fF]|\\\\/|\\\\u002[fF])' : char)).join('');
}

/**
 * A function that replaces every common encoding of `apiKey` in a text with `[redacted]`.
 * Every answer body passes through it, so it first asks cheaper questions (about a
 * microsecond for a basket's 1 KB): the key in either case, or its escaped forms only where
 * the text holds a `%` or a backslash; its hex; its base64 runs. Only a text that holds one
 * is rewritten.
 */
export function keyRedactor(apiKey: string): (text: string) => string {
  if (apiKey.length < 8) return (text) => text;
  const written = [...apiKey].map(characterForms).join('');
  const hex = [...apiKey].map(hexOf).join('');
  const base64 = [...new Set([apiKey, apiKey.toUpperCase(), apiKey.toLowerCase()].flatMap(base64Runs))].map(base64Pattern).join('|');
  const every = new RegExp(`${written}|${hex}|${base64}`, 'g');
  const plain = new RegExp([...apiKey].map(anyCase).join(''));
  const escaped = new RegExp(written);
  const others = [new RegExp(hex), new RegExp(base64)];
  const holds = (text: string) =>
    (text.includes('%') || text.includes('\\') ? escaped : plain).test(text) || others.some((pattern) => pattern.test(text));
  return (text) => (holds(text) ? text.replace(every, REDACTED) : text);
}
