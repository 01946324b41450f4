/**
 * `stagedoor first-list`: the block a page's HTML may carry so that its `<event-list>` shows its
 * first cards with no request (and with `--cards` the cards themselves, first-cards.ts) (src/api/early-list.ts names it, src/state/first-list.ts reads it; docs/embedding.md describes it):
 *
 *   <script type="application/json" id="stagedoor-first-list" data-endpoint="/api"
 *     data-fetched-at="2026-11-29T08:16:36Z" data-max-age="300">{"Events":[…]}</script>
 *
 * The list read through the proxy as the widget would read it, printed for a host that renders
 * its HTML (a template include refreshed every few minutes, a static site's build step).
 */
import { parseArgs } from 'node:util';
import { FIRST_LIST_MAX_AGE, listUrl } from '../api/early-list.ts';
import type { EventInfo } from '../api/types.ts';
import { canonicalTag } from '../i18n/locale.ts';
import { firstCardsStyleHash, firstCardsTemplate, firstListBlock, type FirstCardsOptions, type FirstListAnswer } from './first-cards.ts';
import { UsageError } from './proxy/command.ts';

/** The command's options as parseArgs reads them. */
interface CommandValues {
  proxy?: string;
  endpoint?: string;
  'event-type'?: string;
  cards?: boolean;
  lang?: string;
  currency?: string;
  'event-href'?: string;
  'event-param'?: string;
  page?: string;
  'style-hash'?: boolean;
}

export const FIRST_LIST_USAGE = `  stagedoor first-list --proxy URL [--endpoint URL] [--event-type N]
                      [--cards [--lang TAG] [--currency XXX] [--event-href URL] [--event-param NAME] [--page URL]]
                                       prints the stagedoor-first-list block for a page's <event-list>: its list
                                       read now through the proxy at URL (the page's elements ask --endpoint,
                                       default URL; --event-type: the list's event-type). --cards: the element's
                                       first cards too, to print inside the page's <event-list>, shown before any
                                       script (in --lang, the page's language; prices in --currency, default GBP;
                                       cards linking to --event-href, else the page at --page with ?stagedoor-event=ID)
  stagedoor first-list --style-hash    prints the cards' <style> as a Content-Security-Policy source ('sha256-…'),
                                       for a page whose style-src does not allow inline styles`;

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
  let values: CommandValues;
  const text = { type: 'string' } as const;
  try {
    values = parseArgs({
      args,
      options: {
        proxy: text,
        endpoint: text,
        'event-type': text,
        cards: { type: 'boolean' },
        lang: text,
        currency: text,
        'event-href': text,
        'event-param': text,
        page: text,
        'style-hash': { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values['style-hash']) {
    process.stdout.write(`${await firstCardsStyleHash()}\n`);
    return;
  }
  const proxy = values.proxy ?? '';
  if (!/^https?:\/\/[^/]/i.test(proxy)) throw new UsageError(`--proxy must be the proxy's address, http(s)://… (its endpoint, e.g. https://tickets.example/api).`);
  const type = values['event-type'];
  if (type !== undefined && !/^\d+$/.test(type)) throw new UsageError('--event-type must be a whole number (an EventType id).');
  const cards = cardOptions(values);
  const answer = await readFirstList(proxy, values.endpoint ?? proxy.replace(/\/+$/, ''), type === undefined ? null : Number(type));
  const template = cards ? await firstCardsTemplate((JSON.parse(answer.body) as { Events: EventInfo[] }).Events, cards) : '';
  process.stdout.write(`${template}${firstListBlock(answer)}\n`);
}

/** The cards' options from the command's (--cards), checked: undefined without --cards. */
function cardOptions(values: CommandValues): FirstCardsOptions | undefined {
  const named = (['lang', 'currency', 'event-href', 'event-param', 'page'] as const).filter((name) => values[name] !== undefined);
  if (!values.cards) {
    if (named.length) throw new UsageError(`--${named[0]} is an option of --cards.`);
    return undefined;
  }
  const { lang, currency, page } = values;
  if (lang !== undefined && !canonicalTag(lang)) throw new UsageError(`--lang must be a language tag (the page's <html lang>, e.g. en-GB or de).`);
  if (currency !== undefined && !/^[A-Za-z]{3}$/.test(currency)) throw new UsageError('--currency must be an ISO 4217 code (GBP, EUR).');
  if (page !== undefined && !(/^https?:\/\/[^/]/i.test(page) && URL.canParse(page))) throw new UsageError(`--page must be the page's address, http(s)://…`);
  if (values['event-param'] !== undefined && !/^[\w.-]+$/.test(values['event-param'])) throw new UsageError('--event-param must be a query parameter name (letters, digits, - _ .).');
  const href = values['event-href'];
  if (href !== undefined && !(href.includes('{EventId}') && URL.canParse(href.replaceAll('{EventId}', '1'), page ?? 'https://page.invalid/'))) {
    throw new UsageError('--event-href must be an address holding {EventId}, where each show\'s id goes (/shows/{EventId}).');
  }
  return { lang, currency: currency?.toUpperCase(), eventHref: href, eventParam: values['event-param'], pageUrl: page };
}
