import { html, nothing, type TemplateResult } from 'lit';
import { msg, str } from '../../i18n/msg.ts';
import type { CastMember, EventInfo, Review, ReviewsResult, VenueInfo } from '../../api/types.ts';
import { formatDateTime, formatNumber } from '../../format.ts';
import { plural } from '../../i18n/plural.ts';
import { safeUrl, sanitizedHtml } from '../../sanitize.ts';
import type { BookingConfig } from '../../state/config.ts';

/*
 * The event's detail as <event-list> shows it: renderings of what the service sent. Fetched with the first
 * detail shown (beside Get Event), so a page of cards never downloads it. The element keeps the loading (its
 * tasks), the skeleton, the focus and the handlers; `renderEvent` is the detail's render function.
 */

/** The parts of the detail its element renders from its own state (tasks, the page's other elements). */
export interface DetailParts {
  /** The price, offer, running time and age line (event-facts.ts, shared with the cards). */
  facts: TemplateResult;
  /** The event's images as a srcset, or ''. */
  srcset: string;
  back: TemplateResult | typeof nothing;
  dates: TemplateResult | typeof nothing;
  reviews: TemplateResult;
  venue: TemplateResult;
}

/** One event's detail: its name, image, facts, notice, sanitized description and offer, cast, then reviews and venue. */
export function renderEvent(event: EventInfo, parts: DetailParts): TemplateResult {
  const image = safeUrl(event.DetailImageUrl) ?? safeUrl(event.MainImageUrl);
  const srcset = parts.srcset;
  const facts: [string, string][] = [];
  if (event.MinimumAge) facts.push([msg('Minimum age'), event.MinimumAge]);
  if (event.Accessibility) facts.push([msg('Accessibility'), event.Accessibility]);
  if (event.ContentWarnings) facts.push([msg('Content warnings'), event.ContentWarnings]);
  return html`
    <article part="detail" class="detail" aria-labelledby="detail-title">
      ${parts.back}
      <h2 id="detail-title" part="heading" class="detail-title" tabindex="-1" data-focus="detail">${event.Name}</h2>
      ${event.TagLine ? html`<p part="tag-line" class="tag-line">${event.TagLine}</p>` : nothing}
      ${parts.dates}
      ${image
        ? html`<img part="detail-image" class="detail-media" src=${image} srcset=${srcset || nothing}
            sizes=${srcset ? 'min(100vw, 60rem)' : nothing} alt=${event.Name} loading="lazy" />`
        : nothing}
      <div class="facts-line">${parts.facts}</div>
      ${event.ImportantNotice
        ? html`<p part="notice" class="notice" role="note"><strong>${msg('Important:')}</strong> ${event.ImportantNotice}</p>`
        : nothing}
      ${event.Description ? html`<div part="description" class="rich">${sanitizedHtml(event.Description)}</div>` : nothing}
      ${event.ShortOfferText || event.LongOfferText
        ? html`<section class="offer-text" aria-label=${msg('Offer')}>
            ${event.ShortOfferText ? html`<p part="short-offer"><strong>${event.ShortOfferText}</strong></p>` : nothing}
            ${event.LongOfferText ? html`<div part="long-offer" class="rich">${sanitizedHtml(event.LongOfferText)}</div>` : nothing}
          </section>`
        : nothing}
      ${facts.length
        ? html`<dl part="facts" class="facts">
            ${facts.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}
          </dl>`
        : nothing}
      ${renderCast(event.Cast ?? [])}
      ${parts.reviews}
      ${parts.venue}
    </article>
  `;
}

function renderCast(cast: readonly CastMember[]): TemplateResult | typeof nothing {
  if (!cast.length) return nothing;
  return html`
    <section class="section" aria-labelledby="cast-title">
      <h3 id="cast-title" part="heading">${msg('Cast')}</h3>
      <ul part="cast" class="cast">
        ${cast.map((member) => {
          const image = safeUrl(member.Image?.Url);
          const links = (member.ExternalLinks ?? [])
            .map((l) => ({ href: safeUrl(l.Link), title: l.DisplayTitle || l.ExternalLinkType || l.Link }))
            .filter((l): l is { href: string; title: string } => l.href !== null);
          return html`<li part="cast-member" class="cast-member">
            ${image
              ? html`<img part="cast-image" src=${image} alt=${member.Name} loading="lazy"
                  width=${member.Image.Width > 0 ? String(member.Image.Width) : nothing}
                  height=${member.Image.Height > 0 ? String(member.Image.Height) : nothing} />`
              : nothing}
            <div>
              <p class="cast-name">${member.Name}</p>
              ${member.Description ? html`<p class="meta">${member.Description}</p>` : nothing}
              ${links.length
                ? html`<ul class="links">
                    ${links.map(
                      (l) => html`<li><a part="cast-link" href=${l.href} target="_blank" rel="noopener noreferrer">${l.title}<span class="visually-hidden"> ${msg('(opens in a new tab)')}</span></a></li>`,
                    )}
                  </ul>`
                : nothing}
            </div>
          </li>`;
        })}
      </ul>
    </section>
  `;
}

/** A page of reviews with its rating line and newer/older controls (`page` asks for the page from a review). */
export function renderReviewPage(result: ReviewsResult, config: BookingConfig, count: number, page: (from: number) => void): TemplateResult {
  if (!result.ReviewsCount) return html`<p class="meta">${msg('No reviews yet.')}</p>`;
  const best = result.HighestPossibleRating > 0 ? result.HighestPossibleRating : 5;
  const average = formatNumber(result.AverageRating, config, { maximumFractionDigits: 1 });
  const total = result.ReviewsCount;
  const first = result.CurrentReviewsFrom + 1;
  const last = result.CurrentReviewsFrom + result.Reviews.length;
  const [shownFrom, shownTo, shownTotal] = [first, last, total].map((n) => formatNumber(n, config));
  return html`
    <p part="rating" class="rating">
      ${plural(total, {
        one: () => msg(str`Average rating ${average} out of ${best}, from ${shownTotal} review`),
        other: () => msg(str`Average rating ${average} out of ${best}, from ${shownTotal} reviews`),
      })}
    </p>
    <ol part="reviews-list" class="reviews" start=${first}>
      ${result.Reviews.map((review) => renderReview(review, best, config))}
    </ol>
    <nav part="reviews-pager" class="pager" aria-label=${msg('More reviews')}>
      <button
        part="pager-button"
        data-variant="secondary"
        ?disabled=${result.CurrentReviewsFrom <= 0}
        @click=${() => page(Math.max(0, result.CurrentReviewsFrom - count))}
      >${msg('Newer reviews')}</button>
      <span class="meta">${msg(str`Reviews ${shownFrom}–${shownTo} of ${shownTotal}`)}</span>
      <button
        part="pager-button"
        data-variant="secondary"
        ?disabled=${last >= result.ReviewsCount}
        @click=${() => page(result.CurrentReviewsFrom + count)}
      >${msg('Older reviews')}</button>
    </nav>
  `;
}

function renderReview(review: Review, best: number, config: BookingConfig): TemplateResult {
  const stars = Math.max(0, Math.min(best, Math.round(review.Stars)));
  return html`<li part="review" class="review">
    <p>
      <span part="review-stars" class="stars" role="img" aria-label=${plural(best, { one: () => msg(str`${stars} out of ${best} star`), other: () => msg(str`${stars} out of ${best} stars`) })}
        >${'★'.repeat(stars)}${'☆'.repeat(best - stars)}</span>
      <strong>${review.ConsumerName}</strong>
      <span class="meta">${formatDateTime(review.CreatedAt, config, { dateStyle: 'medium' })}</span>
    </p>
    <p class="review-content">${review.Content}</p>
  </li>`;
}

export function renderVenueInfo(venue: VenueInfo): TemplateResult {
  const plan = safeUrl(venue.PlanLink);
  const address = [venue.Address, venue.City, venue.Postcode].filter((p): p is string => Boolean(p)).join(', ');
  return html`
    <section part="venue" class="section" aria-labelledby="venue-title">
      <h3 id="venue-title" part="heading">${venue.Name}</h3>
      ${address ? html`<p class="address">${address}</p>` : nothing}
      ${venue.NearestTube || venue.Train
        ? html`<dl class="facts">
            ${venue.NearestTube ? html`<div><dt>${msg('Nearest Tube')}</dt><dd>${venue.NearestTube}</dd></div>` : nothing}
            ${venue.Train ? html`<div><dt>${msg('Train')}</dt><dd>${venue.Train}</dd></div>` : nothing}
          </dl>`
        : nothing}
      ${plan
        ? html`<p><a part="plan-link" href=${plan} target="_blank" rel="noopener noreferrer"
            >${msg('Seating plan')}<span class="visually-hidden"> ${msg('(opens in a new tab)')}</span></a></p>`
        : nothing}
      ${venue.Info ? html`<div part="venue-info" class="rich">${sanitizedHtml(venue.Info)}</div>` : nothing}
    </section>
  `;
}
