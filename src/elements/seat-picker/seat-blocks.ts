/**
 * The seat map's jumps between blocks of free seats (PageDown/PageUp, Ctrl+ArrowRight/Left): where
 * the next block starts, and what is said of it. Loaded with the first jump (seat-map-overlay.ts),
 * not with the map: most visitors never press those keys.
 */
import { msg, str } from '../../i18n/msg.ts';
import { plural } from '../../i18n/plural.ts';
import { freeBlock } from '../../state/free-blocks.ts';

// Given on with the sentence, so the first jump loads one chunk (written as an import, not a
// re-export, so the element manifest names this module rather than a path relative to it).
export { freeBlock };

/** After a jump: "4 free seats side by side.", or that there are none that way. */
export function blockSentence(size: number): string {
  if (size <= 0) return msg('No more free seats that way.');
  return plural(size, { one: () => msg(str`${size} free seat on its own.`), other: () => msg(str`${size} free seats side by side.`) });
}
