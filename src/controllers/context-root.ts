/**
 * One @lit/context `ContextRoot` for the page, attached before the first of our
 * elements asks for its booking.
 *
 * Without it, an element that upgrades before its <booking-provider> (a host
 * importing `stagedoor/elements/<tag>`, or registering our classes under its
 * own tags, and the provider later) asks for the booking, hears nothing, takes
 * the page-wide one, and keeps it: the provider's later arrival is never told
 * to it. The root keeps such unanswered requests and asks again when a
 * provider appears, so the element moves to the provider's booking at once.
 *
 * Attached from the booking controller's constructor, which every element
 * passes through whatever the entry point (the script-tag loader, `stagedoor/define`,
 * a registration file, a class export under another tag), and always before
 * its first request (made when the element connects). Importing a module still
 * registers and attaches nothing. One root per page, shared by every copy of
 * Stagedoor on it (keyed on a global symbol): two roots would ask twice.
 */
import { ContextRoot } from '@lit/context';

const KEY = Symbol.for('stagedoor.context-root');

export function ensureContextRoot(): void {
  if (typeof document === 'undefined' || !document.documentElement) return;
  const page = globalThis as unknown as Record<symbol, ContextRoot | undefined>;
  if (page[KEY]) return;
  const root = new ContextRoot();
  root.attach(document.documentElement);
  page[KEY] = root;
}
