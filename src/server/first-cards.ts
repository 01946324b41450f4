/**
 * What a server prints into a page for its `<event-list>`'s first list: the block of the list's
 * answer (the stagedoor-first-list block, src/state/first-list.ts reads it) and the first cards.
 *
 * The first cards, printed by a server into the page's HTML as the element's
 * declarative shadow root, so a visitor sees them with the HTML itself, before any script:
 *
 *   <event-list><template shadowrootmode="open"><style>…</style><div part="base">…cards…</div></template></event-list>
 *
 * The same markup, parts and styles as the element's own list (event-list.component.ts, renderCard and
 * event-facts.ts; test/elements/event-list-first-cards.test.ts holds them to it: the same text,
 * boxes and parts, in every engine), in the page's language. When the element upgrades it keeps them until its own
 * list is rendered, then puts its own in their place. A link followed before then opens the show as
 * the element's own link does (`?stagedoor-event=1042`, or the host's show page).
 *
 * Made from the same answer as the stagedoor-first-list block (src/server/first-list.ts), which the
 * element then reads: the cards are a picture of that list, never a source of seats or prices
 * beyond it. Printed only for a list whose every event has a whole-number id (the block's own rule);
 * every other value from the service is written as escaped text; an image address only if it is
 * absolute http(s) (src/safe-url.ts), and a link only to an http(s) address, as in the element.
 */
import type { LocaleModule } from '@lit/localize/internal/types.js';
import { runtimeMsg } from '@lit/localize/internal/runtime-msg.js';
import { str } from '@lit/localize/internal/str-tag.js';
import type { CSSResultGroup } from 'lit';
import type { EventInfo } from '../api/types.ts';
import { eventListStyles } from '../elements/event-list/event-list.styles.ts';
import { factsOf, responsiveImages, srcsetOf } from '../elements/event-list/event-facts.ts';
import { sharedStyles } from '../elements/shared.styles.ts';
import { loaders, servedLocale, textLocaleFor, type TextLocale } from '../i18n/locale.ts';
import { allLocales, sourceLocale } from '../i18n/locale-codes.ts';
import { safeUrl } from '../safe-url.ts';
import { FIRST_LIST_ID } from '../api/early-list.ts';

const escapeText = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string): string => escapeText(value).replace(/"/g, '&quot;');

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

/** The block, the body as sent with every `<` written `\u003c` (only inside its strings, where JSON.parse reads it back the same). */
export function firstListBlock(answer: FirstListAnswer): string {
  const type = answer.eventType === undefined || answer.eventType === null ? '' : ` data-event-type="${answer.eventType}"`;
  const at = answer.fetchedAt.toISOString().replace(/\.\d+Z$/, 'Z');
  return (
    `<script type="application/json" id="${FIRST_LIST_ID}" data-endpoint="${escapeAttribute(answer.endpoint)}"${type}` +
    ` data-fetched-at="${at}" data-max-age="${answer.maxAge}">${answer.body.replace(/</g, '\\u003c')}</script>`
  );
}

export interface FirstCardsOptions {
  /** The page's language (its `<html lang>`, or the widget's configured `locale`): text, money. */
  lang?: string | null;
  /** ISO 4217, as the page's configuration (default GBP). */
  currency?: string;
  /** The card's link: the host's show page with `{EventId}` (`event-href`), else this page with `?<eventParam>=<id>`. */
  eventHref?: string | null;
  eventParam?: string;
  /** The page's own address, for the links to it (else they are written relative: `?stagedoor-event=1042`). */
  pageUrl?: string | null;
}

/** A language's text (none for English, the source): its module, as the browser loads it (each imported once). */
const templatesOf = async (text: TextLocale): Promise<LocaleModule['templates'] | undefined> =>
  text === sourceLocale ? undefined : (await loaders[text]()).templates;

/**
 * The words of the cards in one language, each a pattern whose `{0}`, `{1}` are its values (a
 * price, an age), read through the element's own lookup (@lit/localize's runtimeMsg, the same
 * message ids), so the cards say what the element says.
 */
export interface FirstCardsWords {
  /** The list's label. */
  shows: string;
  /** Before the running time. */
  runningTime: string;
  /** `{0}`: the lowest price. */
  from: string;
  /** `{0}`: the offer's price, `{1}`: the usual one. */
  offer: string;
  /** `{0}`: the age. */
  age: string;
}

/**
 * What a server in another language than JavaScript needs to print the same cards (the WordPress
 * plugin: scripts/build.mjs writes it as the plugin's first-cards.json): the styles, and the
 * words in every language the widget speaks. firstCardsTemplate prints from the same kit.
 */
export interface FirstCardsKit {
  styles: string;
  texts: Record<TextLocale, FirstCardsWords>;
}

/** One language's words (`text`: a language we have text for, textLocaleFor's answer). */
export async function firstCardsWords(text: TextLocale): Promise<FirstCardsWords> {
  const templates = await templatesOf(text);
  const msg = (template: string | ReturnType<typeof str>): string => runtimeMsg(templates, template as never, undefined) as string;
  const [a, b] = ['{0}', '{1}'];
  return {
    shows: msg('Shows'),
    runningTime: msg('Running time:'),
    from: msg(str`From ${a}`),
    offer: msg(str`Offer ${a}, usually ${b}`),
    age: msg(str`Age ${a}+`),
  };
}

/** The kit: styles and every language's words. */
export async function firstCardsKit(): Promise<FirstCardsKit> {
  const words = await Promise.all(allLocales.map(async (text) => [text, await firstCardsWords(text)] as const));
  return { styles: firstCardsStyles(), texts: Object.fromEntries(words) as Record<TextLocale, FirstCardsWords> };
}

/** A pattern with its `{0}`, `{1}` replaced by the values, in one pass (a value is never read as a pattern). */
const fill = (pattern: string, ...values: string[]): string => pattern.replace(/\{(\d)\}/g, (whole, i: string) => values[Number(i)] ?? whole);

/** The element's first view's styles, as text, their white space folded (with no `<`: they go into a `<style>`). */
let styles: string | undefined;
function firstCardsStyles(): string {
  const flat = (group: CSSResultGroup): string[] =>
    Array.isArray(group) ? group.flatMap((g) => flat(g as CSSResultGroup)) : ['cssText' in group ? group.cssText : ''];
  styles ??= flat([sharedStyles, eventListStyles])
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/</g, '\\3c ');
  return styles;
}

/** A value from the service as the element renders it in text: anything but null and undefined as its string. */
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A card's link, as the element writes it (its `cardHref`), relative when the page's address is not known. */
function cardHref(eventId: number, options: FirstCardsOptions): string {
  const pattern = options.eventHref;
  if (pattern?.includes('{EventId}')) {
    const href = pattern.replaceAll('{EventId}', encodeURIComponent(eventId));
    if (safeUrl(new URL(href, options.pageUrl ?? 'https://page.invalid/').href)) return href;
  }
  const param = options.eventParam || 'stagedoor-event';
  if (!options.pageUrl) return `?${new URLSearchParams({ [param]: String(eventId) })}`;
  const here = new URL(options.pageUrl);
  here.hash = '';
  here.searchParams.set(param, String(eventId));
  return here.href;
}

/**
 * The element's declarative shadow root showing `events` as its first cards: a `<template>` to
 * print as the first child of the page's `<event-list>`. Empty for an empty list (the element says so itself).
 */
export async function firstCardsTemplate(events: readonly EventInfo[], options: FirstCardsOptions = {}): Promise<string> {
  // Only a list the element itself would show from the block (state/first-list.ts pageList): events with whole-number ids.
  if (!events.length || !events.every((e) => typeof e === 'object' && e !== null && Number.isSafeInteger(e.EventId))) return '';
  const words = await firstCardsWords(textLocaleFor(options.lang ?? ''));
  const money = new Intl.NumberFormat(servedLocale(options.lang), { style: 'currency', currency: options.currency || 'GBP' });
  const cards = events.map((event) => {
    const name = escapeText(text(event.Name));
    const images = responsiveImages(event.Images);
    const fallback = safeUrl(event.SmallImageUrl) ?? safeUrl(event.MainImageUrl) ?? images[0]?.url ?? null;
    const srcset = srcsetOf(images);
    const first = images[0];
    const image = fallback
      ? `<img part="card-image" src="${escapeAttribute(fallback)}"` +
        (srcset ? ` srcset="${escapeAttribute(srcset)}" sizes="(max-width: 40rem) 100vw, 22rem"` : '') +
        (first ? ` width="${first.width}" height="${first.height}"` : '') +
        ` loading="lazy" decoding="async" alt="${escapeAttribute(text(event.Name))}">`
      : '';
    // The facts line, as event-facts.ts renderFacts writes it.
    const { from, reduced, age } = factsOf(event);
    const facts = [
      event.RunningTime ? `<p part="running-time" class="meta">${escapeText(words.runningTime)} ${escapeText(text(event.RunningTime))}</p>` : '',
      from > 0 ? `<p part="price" class="price">${escapeText(fill(words.from, money.format(from)))}</p>` : '',
      reduced || event.OfferLabel
        ? `<p part="offer" class="offer">${event.OfferLabel ? `<span class="badge">${escapeText(text(event.OfferLabel))}</span> ` : ''}` +
          `${reduced ? escapeText(fill(words.offer, money.format(event.OfferPrice), money.format(event.CurrentPrice))) : ''}</p>`
        : '',
      age !== null ? `<p part="age-rating" class="meta">${escapeText(fill(words.age, String(age)))}</p>` : '',
    ].join('');
    return (
      `<li part="card" class="card"><div part="card-media" class="media">${image}</div><div class="body">` +
      `<h3 part="card-heading" class="name"><a part="card-button" class="card-button" href="${escapeAttribute(cardHref(event.EventId, options))}"` +
      ` data-event-id="${event.EventId}">${name}</a></h3>` +
      (event.TagLine ? `<p part="tag-line" class="tag-line">${escapeText(text(event.TagLine))}</p>` : '') +
      `${facts}</div></li>`
    );
  });
  return (
    `<template shadowrootmode="open"><style>${firstCardsStyles()}</style>` +
    `<div part="base"><ul part="list" class="cards" aria-label="${escapeAttribute(words.shows)}">${cards.join('')}</ul></div></template>`
  );
}

/**
 * The cards' `<style>` as a Content-Security-Policy source (`'sha256-…'`), for a page whose
 * `style-src` does not allow inline styles: with it the printed cards are styled, without it
 * they show unstyled until the element takes over (its own styles are constructed stylesheets,
 * which `style-src` does not govern). The same for every list and language of one release.
 */
export async function firstCardsStyleHash(): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(firstCardsStyles())));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}
