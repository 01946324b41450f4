import { html, nothing, type TemplateResult } from 'lit';
import { msg, str } from '../../i18n/msg.ts';
import type { EventInfo, ImageInfo } from '../../api/types.ts';
import { formatMoney } from '../../format.ts';
import { safeUrl } from '../../safe-url.ts';
import type { BookingConfig } from '../../state/config.ts';

/* What a card and the detail both show of an event: its facts line and its images. */

/**
 * Which facts an event shows, and their numbers: the lowest price ("From", 0 for none), whether an
 * offer is a reduction, the age rating (null for none). Also what a server printing the first cards
 * shows (src/server/first-cards.ts).
 */
export function factsOf(event: EventInfo): { from: number; reduced: boolean; age: number | null } {
  return {
    from: event.EventMinimumPrice > 0 ? event.EventMinimumPrice : event.CurrentPrice > 0 ? event.CurrentPrice : 0,
    // The service sends OfferPrice equal to CurrentPrice when nothing is on offer.
    reduced: event.OfferPrice > 0 && event.OfferPrice < event.CurrentPrice,
    age: typeof event.AgeRating === 'number' && event.AgeRating > 0 ? event.AgeRating : null,
  };
}

/** The price, offer, running time and age rating lines shared by cards and the detail. */
export function renderFacts(event: EventInfo, config: BookingConfig): TemplateResult {
  const { from, reduced, age } = factsOf(event);
  return html`
    ${event.RunningTime
      ? html`<p part="running-time" class="meta">${msg('Running time:')} ${event.RunningTime}</p>`
      : nothing}
    ${from > 0 ? html`<p part="price" class="price">${msg(str`From ${formatMoney(from, config)}`)}</p>` : nothing}
    ${reduced || event.OfferLabel
      ? html`<p part="offer" class="offer">
          ${event.OfferLabel ? html`<span class="badge">${event.OfferLabel}</span>` : nothing}
          ${reduced
            ? msg(str`Offer ${formatMoney(event.OfferPrice, config)}, usually ${formatMoney(event.CurrentPrice, config)}`)
            : nothing}
        </p>`
      : nothing}
    ${age !== null ? html`<p part="age-rating" class="meta">${msg(str`Age ${age}+`)}</p>` : nothing}
  `;
}

/** Images with safe URLs and real widths, narrowest first, one per width. */
export function responsiveImages(images: readonly ImageInfo[] | null | undefined): { url: string; width: number; height: number }[] {
  const byWidth = new Map<number, { url: string; width: number; height: number }>();
  for (const image of images ?? []) {
    const url = safeUrl(image?.Url);
    const width = Math.floor(Number(image?.Width));
    if (!url || !(width > 0) || byWidth.has(width)) continue;
    // A comma or space in a URL would split a srcset candidate: encode them.
    byWidth.set(width, { url: url.replace(/,/g, '%2C').replace(/\s/g, '%20'), width, height: Math.floor(Number(image.Height)) || 0 });
  }
  return [...byWidth.values()].sort((a, b) => a.width - b.width);
}

export function srcsetOf(images: readonly { url: string; width: number }[]): string {
  return images.map((i) => `${i.url} ${i.width}w`).join(', ');
}
