/**
 * The codes the proxy puts beside its `Message` (as `Refusal`) when the widget
 * must say something of its own rather than show the message: one module, read
 * by the proxy (src/server/proxy/) and the widget (src/state/failure.ts).
 */

/** An order refused by the site's own setup (its return address not on an origin the proxy accepts): nothing was charged. */
export const SITE_REFUSAL = 'site-origin';

/** The `Refusal` code of an answer's body, or null. */
export function refusalOf(body: unknown): string | null {
  const code = typeof body === 'object' && body !== null ? (body as { Refusal?: unknown }).Refusal : undefined;
  return typeof code === 'string' ? code : null;
}
