/**
 * `stagedoor first-list`: the block a page's HTML may carry so that its `<event-list>` shows its
 * first cards with no request (src/api/early-list.ts names it, src/state/first-list.ts reads it; docs/embedding.md describes it):
 *
 *   <script type="application/json" id="stagedoor-first-list" data-endpoint="/api"
 *     data-fetched-at="2026-11-29T08:16:36Z" data-max-age="300">{"Events":[…]}</script>
 *
 * The list read through the proxy as the widget would read it, printed for a host that renders
 * its HTML (a template include refreshed every few minutes, a static site's build step).
 */
import { parseArgs } from 'node:util';
import { FIRST_LIST_ID, FIRST_LIST_MAX_AGE, listUrl } from '../api/early-list.ts';
import { UsageError } from './proxy/command.ts';

export const FIRST_LIST_USAGE = `  stagedoor first-list --proxy URL [--endpoint URL] [--event-type N]
                                       prints the stagedoor-first-list block for a page's <event-list>: its list
                                       read now through the proxy at URL (the page's elements ask --endpoint,
                                       default URL; --event-type: the list's event-type)`;

export interface FirstListAnswer {
  /** The list's answer as the proxy sent it. */
  body: string;
  /** The endpoint the page's elements ask (as written in their configuration: `/api`, or an address). */
  endpoint: string;
  eventType?: number | null;
  fetchedAt: Date;
  /** Seconds the answer may be kept (the proxy's `max-age`). */
  maxAge: number;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The block, the body as sent with every `<` written `\u003c` (only inside its strings, where JSON.parse reads it back the same). */
export function firstListBlock(answer: FirstListAnswer): string {
  const type = answer.eventType === undefined || answer.eventType === null ? '' : ` data-event-type="${answer.eventType}"`;
  const at = answer.fetchedAt.toISOString().replace(/\.\d+Z$/, 'Z');
  return (
    `<script type="application/json" id="${FIRST_LIST_ID}" data-endpoint="${attribute(answer.endpoint)}"${type}` +
    ` data-fetched-at="${at}" data-max-age="${answer.maxAge}">${answer.body.replace(/</g, '\\u003c')}</script>`
  );
}

/** Read the list through the proxy at `proxy` now: the block's answer, or an Error saying why not. */
export async function readFirstList(proxy: string, endpoint: string, eventType: number | null, doFetch: typeof fetch = fetch): Promise<FirstListAnswer> {
  const url = listUrl(proxy, eventType);
  const response = await doFetch(url, { headers: { Accept: 'application/json' } }).catch((error: unknown) => {
    throw new Error(`The proxy at ${proxy} could not be reached (${error instanceof Error ? error.message : String(error)}).`);
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`The proxy answered ${response.status} to GET ${url}.`);
  let events: unknown;
  try {
    events = (JSON.parse(body) as { Events?: unknown } | null)?.Events;
  } catch {
    /* said below */
  }
  if (!Array.isArray(events)) throw new Error(`GET ${url} did not answer a list of events (is ${proxy} the proxy's endpoint, ending in its prefix?).`);
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(response.headers.get('Cache-Control') ?? '')?.[1];
  return { body, endpoint, eventType, fetchedAt: new Date(), maxAge: maxAge === undefined ? FIRST_LIST_MAX_AGE : Number(maxAge) };
}

export async function runFirstListCommand(args: string[]): Promise<void> {
  let values: { proxy?: string; endpoint?: string; 'event-type'?: string };
  try {
    values = parseArgs({ args, options: { proxy: { type: 'string' }, endpoint: { type: 'string' }, 'event-type': { type: 'string' } }, strict: true }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const proxy = values.proxy ?? '';
  if (!/^https?:\/\/[^/]/i.test(proxy)) throw new UsageError(`--proxy must be the proxy's address, http(s)://… (its endpoint, e.g. https://tickets.example/api).`);
  const type = values['event-type'];
  if (type !== undefined && !/^\d+$/.test(type)) throw new UsageError('--event-type must be a whole number (an EventType id).');
  const answer = await readFirstList(proxy, values.endpoint ?? proxy.replace(/\/+$/, ''), type === undefined ? null : Number(type));
  process.stdout.write(`${firstListBlock(answer)}\n`);
}
