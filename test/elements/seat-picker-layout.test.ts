/**
 * The map's first frame shows the map only; the list path, mode switch, zoom, legend and summary
 * follow a frame later. They must not push the map: the map stays where its first paint put it,
 * at a phone's width and at a desktop's.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { apiError, fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { hall, performance } from './helpers/seat-fixtures.ts';

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** What one frame showed: the map's box, whether its canvas was painted, whether the later parts were there. */
interface Sample {
  box: Box;
  painted: boolean;
  rest: boolean;
}

function mapBox(root: ShadowRoot): Box | null {
  const frame = root.querySelector('[part~="map"]');
  if (!frame) return null;
  const r = frame.getBoundingClientRect();
  return { top: r.top, left: r.left, width: r.width, height: r.height };
}

/**
 * Samples the picker at the start of every frame (rAF) until stopped. The canvas gets its size in
 * the controller's first paint, so the first sample with a sized canvas and no zoom buttons is the
 * map's first painted frame (what the layout was when it was painted).
 */
function watchFrames(): { samples: Sample[]; stop: () => void } {
  const samples: Sample[] = [];
  let id = 0;
  const loop = () => {
    const root = document.querySelector('seat-picker')?.shadowRoot;
    const box = root ? mapBox(root) : null;
    if (root && box) {
      const canvas = root.querySelector('canvas');
      samples.push({ box, painted: Boolean(canvas?.style.width), rest: Boolean(root.querySelector('[part~="zoom"]')) });
    }
    id = requestAnimationFrame(loop);
  };
  id = requestAnimationFrame(loop);
  return { samples, stop: () => cancelAnimationFrame(id) };
}

interface LayoutShift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/** Cumulative Layout Shift while the picker loads (shifts not caused by input, summed). */
function watchShifts(): { cls: () => number; stop: () => void } {
  const entries: LayoutShift[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as LayoutShift[])));
  observer.observe({ type: 'layout-shift' });
  return {
    cls: () => {
      entries.push(...(observer.takeRecords() as LayoutShift[]));
      return entries.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0);
    },
    stop: () => observer.disconnect(),
  };
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

describe('<seat-picker> layout while it loads', () => {
  afterEach(() => resetSharedBookings());

  for (const width of [280, 360, 1000]) {
    it(`the map does not move when the parts after its first frame arrive (${width} px wide)`, async () => {
      const api = fakeApi({
        getPerformance: ({ performanceId }) => performance(performanceId),
        getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: hall(20, 30) }),
        getEvent: () => {
          throw apiError('getEvent', 404);
        },
      });
      const frames = watchFrames();
      const shifts = watchShifts();
      const el = await withBooking<SeatPicker>(
        testBooking(api),
        html`<seat-picker performance-id="1" style=${`width: ${width}px`}></seat-picker>`,
      );
      const root = el.shadowRoot as ShadowRoot;
      await waitUntil(() => root.querySelector('[part~="summary"]'), 'the parts after the map did not render', { timeout: 5000 });
      await el.updateComplete;
      // Layout shifts are reported once the frame that shows them is produced.
      await frame();
      await frame();
      frames.stop();
      const cls = shifts.cls();
      shifts.stop();

      const first = frames.samples.find((s) => s.painted && !s.rest);
      expect(first, 'a frame with the painted map and nothing after it yet').to.exist;
      expect(root.querySelector('[part~="zoom"]'), 'the zoom buttons').to.exist;
      expect(root.querySelector('[part~="list"]'), 'the list path').to.exist;
      expect(root.querySelector('[part~="mode-switch"]'), 'the mode switch').to.exist;
      const after = mapBox(root);
      console.log(`seat-picker at ${width} px: map at ${JSON.stringify(first?.box)} in its first frame, ${JSON.stringify(after)} after; CLS ${cls.toFixed(4)}`);
      expect(after).to.deep.equal(first?.box);
      // The parts fit the rows kept for them (they do not spill over the map).
      for (const part of ['list', 'mode-switch', 'zoom']) {
        const node = root.querySelector(`[part~="${part}"]`) as HTMLElement;
        expect(node.scrollHeight, `${part} fits its row`).to.be.at.most(node.clientHeight + 2);
        // A fieldset's scrollHeight leaves out its legend in Chromium: every box inside, too.
        const inside = Math.max(...[...node.querySelectorAll('*')].map((child) => child.getBoundingClientRect().bottom));
        expect(inside, `everything in ${part} fits its row`).to.be.at.most(node.getBoundingClientRect().bottom + 0.5);
        expect(node.getBoundingClientRect().bottom, `${part} is above the map`).to.be.at.most(after?.top ?? 0);
      }
      expect(cls, 'Cumulative Layout Shift while loading').to.equal(0);
      await expect(el).to.be.accessible();
    });
  }
});
