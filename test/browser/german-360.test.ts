/**
 * Long words fit: every element, through the same states as the
 * every-language test, in German on a 360 px phone. At each look:
 *
 * - the page does not scroll sideways, and nothing sticks out of the element;
 * - nothing clips its content (an element that hides or scrolls its overflow
 *   has none), the seat map's own scrolling viewport excepted;
 * - no control is cut short: a button, label, link, summary or legend is as
 *   wide as its text, a select is wide enough for the option it shows, and
 *   the seat picker's fixed rows (mode switch, zoom, list path) hold their text.
 *
 * German has the longest words of the nine languages ("Rückerstattungsschutz",
 * "Veranstaltungsarten"), so this is the language that would break a layout.
 */
import { expect } from '@open-wc/testing';
import { setViewport } from '../elements/helpers/engine.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { ELEMENTS, newRun } from './helpers/element-states.ts';

const WIDTH = 360;

/** Scroll containers whose overflow is the point (the seat map pans inside its viewport). */
const SCROLLERS = '[part~="map-viewport"]';
const CONTROLS = new Set(['button', 'select', 'input', 'label', 'a', 'summary', 'legend']);
/** Parts laid out in rows of a fixed height (the seat picker keeps them so the map never moves): their text must fit the row. */
const FIXED_ROWS = '[part~="mode-switch"], [part~="zoom"], details[part~="list"]:not([open])';

function describeNode(el: Element): string {
  const part = el.getAttribute('part');
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
  return `<${el.localName}${part ? ` part="${part}"` : ''}>${text ? ` "${text}"` : ''}`;
}

/** Hidden from the eye on purpose: the visually-hidden pattern (1 px, clipped), or not rendered at all. */
function unseen(el: Element): boolean {
  if (el.getClientRects().length === 0) return true;
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (n.classList.contains('visually-hidden')) return true;
  }
  return false;
}

/** How wide a select's shown option is, in the select's own font. */
function optionWidth(select: HTMLSelectElement): number {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) return 0;
  const cs = getComputedStyle(select);
  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  return ctx.measureText(select.selectedOptions[0]?.text ?? '').width;
}

function elementsOf(root: ShadowRoot): Element[] {
  const out: Element[] = [];
  for (const el of root.querySelectorAll('*')) {
    out.push(el);
    if (el.shadowRoot) out.push(...elementsOf(el.shadowRoot));
  }
  return out;
}

/** What does not fit, as sentences. */
function layoutProblems(host: Element): string[] {
  const problems: string[] = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) problems.push(`the page scrolls sideways (${page.scrollWidth} px in ${page.clientWidth} px)`);
  const box = host.getBoundingClientRect();
  if (box.right > WIDTH + 0.5) problems.push(`<${host.localName}> is ${Math.round(box.width)} px wide, past the screen`);
  if (!host.shadowRoot) return problems;
  for (const el of elementsOf(host.shadowRoot)) {
    if (!(el instanceof HTMLElement) || unseen(el) || el.closest(SCROLLERS)?.contains(el) && !el.matches(SCROLLERS)) continue;
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) {
      problems.push(`${describeNode(el)} sticks out (${Math.round(r.left)}–${Math.round(r.right)} px in ${Math.round(box.left)}–${Math.round(box.right)} px)`);
    }
    // A replaced element (a photo cropped by object-fit) has no content to cut: Firefox gives an
    // <img> the scroll size of its picture, Chromium its box.
    if (!el.matches(SCROLLERS) && !el.matches('img, video, canvas, svg')) {
      const clipsX = cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1;
      const clipsY = cs.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1;
      if (clipsX || clipsY) problems.push(`${describeNode(el)} cuts off its content (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`);
    }
    if (el.matches(FIXED_ROWS) && el.scrollHeight > el.clientHeight + 2) {
      problems.push(`${describeNode(el)} spills out of its row (${el.scrollHeight} px in ${el.clientHeight} px)`);
    }
    if (CONTROLS.has(el.localName) && cs.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${describeNode(el)} is cut short (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
    }
    if (el instanceof HTMLSelectElement) {
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
      const need = optionWidth(el);
      if (need > room + 1) problems.push(`${describeNode(el)} shows "${el.selectedOptions[0]?.text}" cut short (${Math.round(need)} px in ${Math.round(room)} px)`);
    }
  }
  return problems;
}

describe('German at 360 px: every element, every state, nothing overflows or is cut short', function () {
  this.timeout(120_000);

  before(async () => {
    await setViewport({ width: WIDTH, height: 800 });
  });

  after(async () => {
    resetSharedBookings();
    await setLocale('en');
  });

  for (const [element, scenarios] of Object.entries(ELEMENTS)) {
    it(`<${element}>`, async () => {
      const problems: string[] = [];
      let looks = 0;
      for (const scenario of scenarios) {
        resetSharedBookings();
        const run = newRun('de', async (el) => {
          looks += 1;
          // As the visitor sees it: after the frames in which the seat map follows a scrollbar that
          // came or went (it resizes in the frame after its observer's report).
          for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
          for (const p of layoutProblems(el)) problems.push(`${scenario.state}: ${p}`);
        });
        await scenario.run(run);
      }
      expect(looks, 'states looked at').to.be.greaterThan(scenarios.length - 1);
      expect([...new Set(problems)], `at ${WIDTH} px in German:\n${[...new Set(problems)].join('\n')}`).to.deep.equal([]);
    });
  }
});
