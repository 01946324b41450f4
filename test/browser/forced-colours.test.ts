/**
 * Windows High Contrast (`forced-colors: active`): every element, through the
 * same states as the every-language test, on a light and on a dark page
 * (which pick the light and the dark forced palette), passes axe at every
 * look: nothing the elements draw with colours of their own (an author
 * background under forced text, a canvas) may vanish or lose its contrast.
 *
 * Chromium emulates forced colours through DevTools (the
 * `emulate-forced-colours` command of web-test-runner.config.mjs), both
 * palettes and live; Firefox cannot be switched, so this file runs in two
 * Firefoxes launched with forced colours, a light and a dark palette, each
 * showing its own (and the live switch is Chromium's alone). WebKitGTK has no
 * forced-colours mode: there the file shows that `forced-colors: active` never
 * matches, and its other tests say so in their names.
 */
import { expect } from '@open-wc/testing';
import { waitUntil } from '../elements/helpers/wait.ts';
import type { FullTicketInfo } from '../../src/api/types.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { visitorForcedColours } from '../elements/helpers/engine.ts';
import { ticket } from '../elements/helpers/seat-fixtures.ts';
import { seat, seatedPicker, seatPixel } from '../elements/helpers/seat-picker-dom.ts';
import { ELEMENTS, newRun } from './helpers/element-states.ts';

type Scheme = 'light' | 'dark';

const forced = await visitorForcedColours();
/** The palettes this file looks at here: where the engine has no forced-colours mode, both, to say so. */
const SCHEMES = forced.engineHasMode ? forced.schemes : (['light', 'dark'] as const);
const NO_MODE = ' (not in this engine: it has no forced-colours mode)';
/** A test of forced colours, or, where the engine has none, the same test skipped and saying why. */
const itForced = (name: string, fn: () => Promise<void>) => (forced.engineHasMode ? it(name, fn) : it.skip(`${name}${NO_MODE}`, fn));

/** Hooks of a describe: forced colours on a `scheme` page before its tests, then back. */
function forcedPage(scheme: Scheme): void {
  before(async function () {
    if (!forced.engineHasMode) return;
    await forced.force(true, scheme);
    document.documentElement.style.colorScheme = scheme;
    // A page that declares a scheme gets the browser's page colour for it; axe reads an explicit one.
    document.documentElement.style.background = 'Canvas';
  });
  after(async () => {
    if (forced.live) await forced.force(false, 'light');
    document.documentElement.style.removeProperty('color-scheme');
    document.documentElement.style.removeProperty('background');
    resetSharedBookings();
    await setLocale('en');
  });
}

/**
 * The axe rules whose outcome a palette can change: contrast, and links told from text by colour
 * alone. The others (names, roles, structure) read no colour: the light page runs them all, the
 * dark page only these (each look costs WebKit and Firefox seconds on a busy machine).
 */
const PALETTE_RULES = ['color-contrast', 'color-contrast-enhanced', 'link-in-text-block'];

/** axe's findings on `el`, as lines (none when it passes): every rule, or those a palette changes. */
async function axeFindings(el: Element, scheme: Scheme): Promise<string[]> {
  if (scheme === 'dark') {
    // axe-core registers itself on the window (as chai-a11y-axe loads it).
    await import('axe-core/axe.min.js' as string);
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const { violations } = await axe.run(el, { runOnly: { type: 'rule', values: PALETTE_RULES }, resultTypes: ['violations'] });
    return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`.slice(0, 600));
  }
  try {
    await expect(el).to.be.accessible();
    return [];
  } catch (error) {
    return [(error as Error).message.replace(/\s+/g, ' ').slice(0, 600)];
  }
}

for (const scheme of SCHEMES) {
  describe(`forced colours on a ${scheme} page: every element, every state, passes axe`, function () {
    this.timeout(300_000);

    forcedPage(scheme);

    if (forced.engineHasMode) {
      it('forced colours are on', () => {
        expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
        expect(matchMedia(`(prefers-color-scheme: ${scheme})`).matches).to.equal(true);
      });
    } else {
      it('this engine has no forced-colours mode: `forced-colors: active` never matches', () => {
        expect(matchMedia('(forced-colors: none)').matches, 'the media feature is known, and none').to.equal(true);
        expect(matchMedia('(forced-colors: active)').matches).to.equal(false);
      });
    }

    for (const [element, scenarios] of Object.entries(ELEMENTS)) {
      itForced(`<${element}>`, async () => {
        const findings: string[] = [];
        let looks = 0;
        for (const scenario of scenarios) {
          resetSharedBookings();
          const run = newRun('en', async (el) => {
            looks += 1;
            for (const finding of await axeFindings(el, scheme)) findings.push(`${scenario.state}: ${finding}`);
          });
          await scenario.run(run);
        }
        expect(looks, 'states looked at').to.be.greaterThan(scenarios.length - 1);
        expect(findings, `in forced colours (${scheme}):\n${findings.join('\n')}`).to.deep.equal([]);
      });
    }
  });
}

// ------------------------------------------------------------------ the seat map's canvas

const TICKETS: FullTicketInfo[] = [ticket(1, 'Stalls', 'A', '1', 30), ticket(2, 'Stalls', 'A', '2', 30), ticket(3, 'Stalls', 'A', '3', 45)];

/** Inside a seat's painted square, away from its outline, its mark and the check of a chosen seat; with alpha (a clear canvas is black too). */
const inside = (el: Parameters<typeof seatPixel>[0], label: string) => seatPixel(el, label, { x: 0.2, y: 0.3 }, true);

/**
 * A system colour as the page shows it now (the forced palette in force), painted on a clear
 * canvas as the seat map paints a seat (Highlight is translucent in some palettes).
 */
function systemPixel(name: string): string {
  const probe = document.createElement('span');
  probe.style.color = name;
  document.body.append(probe);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.fillStyle = getComputedStyle(probe).color;
  ctx.fillRect(0, 0, 1, 1);
  probe.remove();
  const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

for (const scheme of SCHEMES) {
  describe(`the seat map's canvas in forced colours on a ${scheme} page`, function () {
    this.timeout(60_000);

    forcedPage(scheme);

    itForced("paints seats in the visitor's system colours: Canvas, and Highlight for the choice", async () => {
      const el = await seatedPicker(TICKETS);
      expect(inside(el, 'Stalls, row A, seat 1,'), 'a free seat is Canvas').to.equal(systemPixel('Canvas'));
      seat(el, 'Stalls, row A, seat 2,').click();
      await waitUntil(() => inside(el, 'Stalls, row A, seat 2,') === systemPixel('Highlight'), 'the chosen seat is Highlight', { timeout: 5000 });
      expect(inside(el, 'Stalls, row A, seat 1,')).to.equal(systemPixel('Canvas'));
    });

    const repaints = 'repaints when forced colours are switched off, and on again';
    const switchOffAndOn = async () => {
      const el = await seatedPicker(TICKETS);
      const painted = inside(el, 'Stalls, row A, seat 1,');
      await forced.force(false, scheme);
      await waitUntil(() => inside(el, 'Stalls, row A, seat 1,') !== painted, 'repainted in our own colours', { timeout: 5000 });
      await forced.force(true, scheme);
      await waitUntil(() => inside(el, 'Stalls, row A, seat 1,') === systemPixel('Canvas'), 'repainted in the system colours', { timeout: 5000 });
    };
    if (!forced.engineHasMode || forced.live) itForced(repaints, switchOffAndOn);
    else it.skip(`${repaints} (not in this browser: its forced colours are fixed at launch; Chromium switches them live)`, switchOffAndOn);
  });
}
