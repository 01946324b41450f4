import { css } from 'lit';

/**
 * Forced colours (Windows High Contrast, `forced-colors: active`), for every
 * element, in one place (part of `sharedStyles`): the browser swaps our colours
 * for the visitor's system colours, except where we opt out
 * (`forced-color-adjust: none`) or paint ourselves (SVG swatches, the seat
 * map's canvas: seat-map-painter.ts reads the system colours itself). Here:
 * - controls, links and alerts name their system colours, so that what is
 *   computed is what is shown (Chromium computes `-webkit-text-fill-color`, which
 *   axe reads, from our own colour: our dark accent text on a black button); backgrounds are
 *   left to the browser, which keeps their transparency (the seat buttons over
 *   the canvas);
 * - disabled controls say GrayText instead of fading (opacity over a forced
 *   palette makes an unreadable mix);
 * - inside a chosen day or performance of the calendar (painted Highlight, opted
 *   out) every text is HighlightText: our muted colours stayed there, 1.89:1;
 * - the seat map's legend draws its swatches as the canvas draws seats under
 *   forced colours: Canvas seats outlined in CanvasText, the choice Highlight,
 *   seats in the basket GrayText.
 */
export const forcedColourStyles = css`
  @media (forced-colors: active) {
    :host {
      color: CanvasText;
    }
    button,
    [part~='continue-button'] {
      color: ButtonText;
      border: 1px solid ButtonText;
    }
    /* :host lifts it over an element's own disabled colours (a calendar day without performances). */
    :host button:disabled,
    :host button[aria-disabled='true'] {
      color: GrayText;
      border-color: GrayText;
      opacity: 1;
    }
    a:not([part~='continue-button']) {
      color: LinkText;
    }
    [role='alert'] {
      color: CanvasText;
    }
    /* <performance-calendar>: the chosen day and performance are painted Highlight (opted out). */
    :host .day[part~='open'] *,
    :host .day[part~='selected'] *,
    :host .performance[aria-pressed='true'],
    :host .performance[aria-pressed='true'] *,
    :host .performance[aria-pressed='true'] .availability {
      color: HighlightText;
    }
    /* <seat-picker>'s legend: swatches as the canvas paints seats in forced colours. */
    [part~='legend'] .swatch,
    [part~='legend'] .swatch * {
      forced-color-adjust: none;
    }
    [part~='legend'] .swatch rect[data-fill] {
      fill: Canvas !important;
      stroke: CanvasText;
    }
    [part~='legend'] .swatch [data-stroke],
    [part~='legend'] .swatch [data-stroke] * {
      stroke: CanvasText !important;
    }
    [part~='legend'] .swatch circle[data-fill],
    [part~='legend'] .swatch text[data-fill],
    [part~='legend'] .swatch path[data-fill] {
      fill: CanvasText !important;
    }
    [part~='legend'] .swatch rect[data-fill*='seat-selected'] {
      fill: Highlight !important;
      stroke: Highlight;
    }
    [part~='legend'] .swatch:has(rect[data-fill*='seat-selected']) [data-stroke] {
      stroke: HighlightText !important;
    }
    [part~='legend'] .swatch rect[data-fill*='seat-held'] {
      fill: GrayText !important;
      stroke: GrayText;
    }
    [part~='legend'] .swatch [data-stroke*='danger'] {
      stroke: Mark !important;
    }
  }
`;
