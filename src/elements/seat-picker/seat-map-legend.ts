/** The key to the seat map: each price band, your choice, in your basket, restricted view, drawn like the canvas draws them. */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, svg, type TemplateResult } from 'lit';
import { seatColour, type SeatColour } from './seat-colours.ts';
import type { SeatMap } from '../../state/seat-map.ts';
import type { MoneyText } from './seat-words.ts';

/** The legend of `map`; `held`: some seats of it are in the basket; `invalid`: the service refused a seat of the choice. */
export function renderLegend(map: SeatMap, shown: { held: boolean; invalid: boolean }, money: MoneyText): TemplateResult {
  return html`<ul part="legend" aria-label=${msg('Key to the map')}>
    ${map.bands.map(
      (band, i) => html`<li>
        ${swatch({ band: i, letter: band.label })}<span>${msg(str`${band.label}: ${money(band.price)}`)}</span>
      </li>`,
    )}
    <li>${swatch({ selected: true })}<span>${msg('Your choice')}</span></li>
    ${shown.held ? html`<li>${swatch({ held: true })}<span>${msg('In your basket')}</span></li>` : nothing}
    ${shown.invalid ? html`<li>${swatch({ invalid: true })}<span>${msg('Cannot be chosen')}</span></li>` : nothing}
    ${map.restrictedCount ? html`<li>${swatch({ restricted: true })}<span>${msg('Restricted view')}</span></li>` : nothing}
  </ul>`;
}

/**
 * A legend swatch drawn like the seats on the canvas: colour, mark and (for bands) a
 * letter beside it, in the same colours (seat-colours.ts), set by `paintSwatches`, so it
 * follows the colour scheme as the canvas does.
 */
/**
 * Give the legend's swatches their colours through the CSSOM (`var()` works there, not in
 * SVG's own attributes, and a strict CSP allows it where a style attribute would not): each
 * `data-fill` / `data-stroke` becomes that property. The element calls it after each render.
 */
export function paintSwatches(root: ParentNode): void {
  for (const el of root.querySelectorAll<SVGElement>('.swatch [data-fill], .swatch [data-stroke]')) {
    if (el.dataset.fill) el.style.fill = el.dataset.fill;
    if (el.dataset.stroke) el.style.stroke = el.dataset.stroke;
  }
}

function swatch(kind: { band?: number; letter?: string; selected?: boolean; held?: boolean; restricted?: boolean; invalid?: boolean }): TemplateResult {
  const fill = kind.selected
    ? seatColour('selected')
    : kind.held
      ? seatColour('held')
      : kind.band !== undefined
        ? seatColour(`band-${(kind.band % 6) + 1}` as SeatColour)
        : kind.restricted
          ? 'var(--_muted)' // a plain seat, deep enough for the corner's mark to show on it
          : 'var(--_border)';
  const mark = kind.selected ? 'var(--_accent-contrast)' : seatColour('mark');
  const marks = [
    svg``,
    svg`<line x1="6" y1="18" x2="18" y2="6" />`,
    svg`<circle cx="12" cy="12" r="2.6" data-fill=${mark} />`,
    svg`<line x1="6.5" y1="12" x2="17.5" y2="12" />`,
    svg`<path d="M6.5 12H17.5M12 6.5V17.5" />`,
    svg`<circle cx="12" cy="12" r="4.2" fill="none" />`,
  ];
  const check = svg`<path d="M6 12l4.5 5 8-10" fill="none" />`;
  return html`<svg class="swatch" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="22" height="22" rx="5" data-fill=${fill} />
    <g stroke-width="2" stroke-linecap="round" data-stroke=${mark}>
      ${kind.selected || kind.held ? check : kind.band !== undefined && kind.band < 6 ? marks[kind.band] : nothing}
    </g>
    ${kind.band !== undefined && kind.band >= 6
      ? svg`<text x="12" y="16.5" text-anchor="middle" font-size="11" font-weight="700" data-fill=${mark}>${kind.letter ?? ''}</text>`
      : nothing}
    ${kind.held ? svg`<rect x="0.5" y="0.5" width="23" height="23" rx="5" fill="none" stroke="currentColor" stroke-dasharray="2 2" />` : nothing}
    ${kind.restricted ? svg`<path d="M13 1h10v10z" data-fill=${seatColour('restricted')} />` : nothing}
    ${kind.invalid ? svg`<rect x="1.25" y="1.25" width="21.5" height="21.5" rx="5" fill="none" stroke-width="2.5" data-stroke=${'var(--_danger)'} />` : nothing}
  </svg>`;
}
