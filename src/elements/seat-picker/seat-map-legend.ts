/** The key to the seat map: each price band, your choice, in your basket, restricted view, drawn like the canvas draws them. */
import { msg, str } from '../../i18n/msg.ts';
import { html, nothing, svg, type TemplateResult } from 'lit';
import { seatColour, type SeatColour } from './seat-colours.ts';
import type { SeatMap } from '../../state/seat-map.ts';
import type { MoneyText } from './seat-words.ts';
import {
  BAND_LETTER,
  HELD_OUTLINE,
  INVALID_RING,
  MARK_WIDTH,
  RESTRICTED_CORNER,
  SEAT_RADIUS,
  SEAT_UNITS,
  seatMark,
  type SymbolShape,
} from './seat-symbols.ts';

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

/** A symbol of seat-symbols.ts in SVG (in seat units, as the canvas draws it scaled). */
function shape(symbol: SymbolShape, colour: string) {
  return symbol.paint === 'fill'
    ? svg`<path d=${symbol.d} data-fill=${colour} />`
    : svg`<path d=${symbol.d} fill="none" stroke-width=${MARK_WIDTH} stroke-linecap="round" data-stroke=${colour} />`;
}

/**
 * A legend swatch drawn from the same description as the seats on the canvas (seat-symbols.ts):
 * colour, mark and (from the seventh band) a letter, in the same colours (seat-colours.ts), set
 * by `paintSwatches`, so it follows the colour scheme as the canvas does.
 */
function swatch(kind: { band?: number; letter?: string; selected?: boolean; held?: boolean; restricted?: boolean; invalid?: boolean }): TemplateResult {
  const band = kind.band ?? -1;
  const fill = kind.selected
    ? seatColour('selected')
    : kind.held
      ? seatColour('held')
      : band >= 0
        ? seatColour(`band-${(band % 6) + 1}` as SeatColour)
        : kind.restricted
          ? 'var(--_muted)' // a plain seat, deep enough for the corner's mark to show on it
          : 'var(--_border)';
  const markColour = kind.selected ? 'var(--_accent-contrast)' : seatColour('mark');
  const mark = kind.selected || kind.held || band >= 0 ? seatMark({ band: Math.max(0, band), selected: !!kind.selected, held: !!kind.held }) : null;
  const held = HELD_OUTLINE.outset;
  const ring = INVALID_RING.outset;
  // The seat at 0,0 to 24,24 in seat units, with room around it for the outlines.
  return html`<svg class="swatch" viewBox="-1.5 -1.5 27 27" overflow="visible" aria-hidden="true" focusable="false">
    <rect width=${SEAT_UNITS} height=${SEAT_UNITS} rx=${SEAT_RADIUS} data-fill=${fill} />
    ${mark ? shape(mark, markColour) : nothing}
    ${band >= 6 && !kind.selected && !kind.held
      ? svg`<text x=${BAND_LETTER.x} y=${BAND_LETTER.y} dominant-baseline="central" text-anchor="middle" font-size=${BAND_LETTER.size} font-weight=${BAND_LETTER.weight} data-fill=${markColour}>${kind.letter ?? ''}</text>`
      : nothing}
    ${kind.held
      ? svg`<rect x=${-held} y=${-held} width=${SEAT_UNITS + 2 * held} height=${SEAT_UNITS + 2 * held} fill="none" stroke="currentColor" stroke-width=${HELD_OUTLINE.width} stroke-dasharray=${`${HELD_OUTLINE.dash} ${HELD_OUTLINE.dash}`} />`
      : nothing}
    ${kind.restricted ? shape(RESTRICTED_CORNER, seatColour('restricted')) : nothing}
    ${kind.invalid
      ? svg`<rect x=${-ring} y=${-ring} width=${SEAT_UNITS + 2 * ring} height=${SEAT_UNITS + 2 * ring} rx=${SEAT_RADIUS + ring} fill="none" stroke-width=${INVALID_RING.width} data-stroke=${'var(--_danger)'} />`
      : nothing}
  </svg>`;
}
