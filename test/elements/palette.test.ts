/**
 * Dark colours of their own: the elements follow the host page's
 * `color-scheme` (light, dark, or `light dark` with the visitor's preference),
 * their built-in dark palette passes contrast, a `--booking-*` colour the host
 * sets still wins, axe finds nothing in the dark, and the seat map's canvas
 * repaints when the scheme changes live.
 *
 * The visitor's preference: Chromium emulates both, live; Firefox and WebKit cannot be switched, so
 * this file runs in a browser launched preferring light and again in one preferring dark
 * (web-test-runner.config.mjs), each showing its own.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import type { FullTicketInfo } from '../../src/api/types.ts';
import '../../src/elements/basket-timer/basket-timer.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import { seatColour, type SeatColour } from '../../src/elements/seat-picker/seat-colours.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { contrast, resolve } from './helpers/contrast.ts';
import { ticket } from './helpers/seat-fixtures.ts';
import { seatedPicker, seatPixel } from './helpers/seat-picker-dom.ts';
import { resetVisitorPreference, visitorPrefers } from './helpers/engine.ts';

const visitor = await visitorPrefers();
const LIGHT_SURFACE = 'rgb(255, 255, 255)';
const DARK_SURFACE = 'rgb(28, 27, 32)';
/** Band A's seats: light #0b63a8, dark #7cb8f2. */
const BAND_A = { light: 'rgb(11, 99, 168)', dark: 'rgb(124, 184, 242)' };

const TICKETS: FullTicketInfo[] = [
  ticket(1, 'Stalls', 'A', '1', 30),
  ticket(2, 'Stalls', 'A', '2', 30),
  ticket(3, 'Stalls', 'A', '3', 45, true, 'Pillar'),
  ticket(4, 'Stalls', 'B', '1', 60),
];

describe('dark colours of their own', () => {
  afterEach(async () => {
    document.documentElement.style.removeProperty('color-scheme');
    document.documentElement.style.removeProperty('background');
    await resetVisitorPreference();
    resetSharedBookings();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`the ${scheme} palette passes contrast: text AA on the surface, seats and marks 3:1`, async () => {
      document.documentElement.style.colorScheme = scheme;
      // A page that declares a scheme gets the browser's page colour for it; axe reads an explicit one.
      document.documentElement.style.background = 'Canvas';
      const el = await seatedPicker(TICKETS);
      const at = (p: string) => resolve(el, p);
      const surface = at('--_surface');
      for (const p of ['--_text', '--_muted', '--_accent', '--_danger', '--_warning', '--_success']) {
        expect(contrast(at(p), surface), `${p} on the surface (${scheme})`).to.be.at.least(4.5);
      }
      expect(contrast(at('--_accent-contrast'), at('--_accent')), `button text on the accent (${scheme})`).to.be.at.least(4.5);
      const seats: SeatColour[] = ['band-1', 'band-2', 'band-3', 'band-4', 'band-5', 'band-6', 'held', 'selected'];
      for (const p of seats) {
        expect(contrast(at(seatColour(p)), surface), `${p} seats against the surface (${scheme})`).to.be.at.least(3);
        const mark = p === 'selected' ? '--_accent-contrast' : seatColour('mark');
        expect(contrast(at(mark), at(seatColour(p))), `the mark on ${p} seats (${scheme})`).to.be.at.least(3);
      }
      if (scheme === 'dark') expect(contrast(at('--_border'), surface), 'borders (dark)').to.be.at.least(3);
      // The restricted-view corner on every seat it can sit on, and on the legend's plain seat.
      for (const p of seats) {
        expect(contrast(at(seatColour('restricted')), at(seatColour(p))), `the restricted corner on ${p} seats (${scheme})`).to.be.at.least(3);
      }
      expect(contrast(at(seatColour('restricted')), at('--_muted')), `the restricted corner in the legend (${scheme})`).to.be.at.least(3);
      await expect(el).to.be.accessible();
    });
  }

  for (const prefers of visitor.schemes) {
    it(`follows the page: light, dark, and "light dark" by the visitor's preference (the visitor prefers ${prefers})`, async () => {
      const el = await seatedPicker(TICKETS);
      const surface = () => resolve(el, '--_surface');
      await visitor.prefer(prefers);
      expect(surface(), 'no color-scheme on the page: light, whatever the visitor prefers').to.equal(LIGHT_SURFACE);
      document.documentElement.style.colorScheme = 'light';
      expect(surface()).to.equal(LIGHT_SURFACE);
      document.documentElement.style.colorScheme = 'dark';
      expect(surface()).to.equal(DARK_SURFACE);
      document.documentElement.style.colorScheme = 'light dark';
      expect(surface(), `"light dark", the visitor prefers ${prefers}`).to.equal(prefers === 'dark' ? DARK_SURFACE : LIGHT_SURFACE);
    });
  }

  it("the host's --booking-* colours still win on the dark side", async () => {
    document.documentElement.style.colorScheme = 'dark';
    const wrapper = await fixture<HTMLDivElement>(html`<div style="--booking-accent: #0d7c66; --booking-surface: #101820"><basket-timer></basket-timer></div>`);
    const timer = wrapper.querySelector('basket-timer') as HTMLElement;
    expect(resolve(timer, '--_accent')).to.equal('rgb(13, 124, 102)');
    expect(resolve(timer, '--_surface')).to.equal('rgb(16, 24, 32)');
    expect(resolve(timer, '--_text'), 'what the host did not set comes from the dark side').to.equal('rgb(236, 235, 240)');
  });

  const live = visitor.live ? ', and the visitor\'s preference changes' : `, and "light dark" for a visitor preferring ${visitor.schemes.join('')}`;
  it(`the seat map repaints on a live scheme change (the page switches${live})`, async () => {
    document.documentElement.style.colorScheme = 'light';
    const el = await seatedPicker(TICKETS);
    const light = seatPixel(el, 'row A, seat 1,');
    expect(light).to.equal(BAND_A.light);
    document.documentElement.style.colorScheme = 'dark';
    await waitUntil(() => seatPixel(el, 'row A, seat 1,') === BAND_A.dark, 'repainted with the dark band A (#7cb8f2)', { timeout: 5000 });
    // The legend follows too (it is styled, not painted).
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="legend"] .swatch rect'), 'the legend (after the first paint)', { timeout: 5000 });
    const swatch = el.shadowRoot?.querySelector('[part~="legend"] .swatch rect') as SVGElement;
    expect(getComputedStyle(swatch).fill).to.equal('rgb(124, 184, 242)');
    document.documentElement.style.colorScheme = 'light dark';
    if (!visitor.live) {
      // "light dark": the preference this browser was launched with.
      const own = visitor.schemes[0] ?? 'light';
      await waitUntil(() => seatPixel(el, 'row A, seat 1,') === BAND_A[own], `repainted ${own} for a visitor preferring ${own}`, { timeout: 5000 });
      return;
    }
    // "light dark": the visitor's preference switches it back and forth.
    await visitor.prefer('light');
    await waitUntil(() => seatPixel(el, 'row A, seat 1,') === light, 'repainted light when the visitor prefers light', { timeout: 5000 });
    await visitor.prefer('dark');
    await waitUntil(() => seatPixel(el, 'row A, seat 1,') === BAND_A.dark, 'and dark again', { timeout: 5000 });
  });
});
