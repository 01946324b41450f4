/**
 * The seat map as a visitor sees and touches it: a venue narrower than its box
 * is painted in the middle of it, with its row labels beside the rows, and
 * answers there (pointer, keyboard, pinch); a tap on seats smaller than a
 * fingertip zooms in about the tap before anything is chosen.
 */
import { expect, html } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { resetSharedBookings } from '../../src/state/booking.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { apiError, fakeApi, testBooking, withBooking, type FakeApi } from './helpers/fake-api.ts';
import { hall, performance } from './helpers/seat-fixtures.ts';
import { root, seat, seatButtons } from './helpers/seat-picker-dom.ts';

/** A tall, narrow venue: 40 rows of 20 seats (opens fitted at well under 100 %, far narrower than a desktop box). */
const TALL = hall(40, 20);

function api(): FakeApi {
  return fakeApi({
    getPerformance: ({ performanceId }) => performance(performanceId),
    getEvent: () => { throw apiError('getEvent', 404); },
    getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: TALL }),
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
  });
}

/** A picker in a box `width` px wide; resolves once the map is painted and its seat buttons are in place. */
async function picker(width: number): Promise<SeatPicker> {
  const box = await withBooking<HTMLDivElement>(testBooking(api()), html`<div style="width: ${width}px"><seat-picker performance-id="1"></seat-picker></div>`);
  const el = box.querySelector('seat-picker') as SeatPicker;
  await waitUntil(() => seatButtons(el).length > 100, 'the map did not render', { timeout: 5000 });
  await frame();
  await el.updateComplete;
  return el;
}

const viewportOf = (el: SeatPicker) => root(el).querySelector('.viewport') as HTMLElement;
const zoomOf = (el: SeatPicker) => Number(/(\d+)%/.exec(root(el).querySelector('[part~="zoom"] span')?.textContent ?? '')?.[1]) / 100;
const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** The x (client px) of every painted (not transparent) canvas pixel on the line at client y. */
function paintedAt(el: SeatPicker, clientY: number): number[] {
  const canvas = root(el).querySelector('canvas') as HTMLCanvasElement;
  const rect = canvas.getBoundingClientRect();
  const scale = canvas.width / rect.width;
  const y = Math.round((clientY - rect.top) * scale);
  const line = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(0, y, canvas.width, 1).data;
  const xs: number[] = [];
  for (let x = 0; x < canvas.width; x += 1) if ((line[x * 4 + 3] ?? 0) > 0) xs.push(rect.left + x / scale);
  return xs;
}

function pointer(target: HTMLElement, type: string, at: { x: number; y: number }, init: PointerEventInit = {}): void {
  target.dispatchEvent(new PointerEvent(type, { clientX: at.x, clientY: at.y, pointerId: 1, bubbles: true, isPrimary: true, button: 0, pointerType: 'mouse', ...init }));
}

describe('<seat-picker> map view: centred in its box', () => {
  afterEach(() => resetSharedBookings());

  it('a venue narrower than its box is painted in the middle of it, the seats where their buttons are, row labels beside the rows', async () => {
    const el = await picker(1200);
    const viewport = viewportOf(el);
    const v = viewport.getBoundingClientRect();
    expect(zoomOf(el), 'opens fitted, below 100 %').to.be.below(1);
    expect(viewport.scrollWidth, 'nothing to scroll').to.be.at.most(viewport.clientWidth);
    // The map's box (its row-label column and its seats) is centred in the viewport.
    const map = (root(el).querySelector('.sizer') as HTMLElement).getBoundingClientRect();
    const inner = { left: v.left + viewport.clientLeft, right: v.left + viewport.clientLeft + viewport.clientWidth };
    expect(map.width, 'a narrow venue').to.be.below(viewport.clientWidth / 2);
    expect(Math.abs((map.left - inner.left) - (inner.right - map.right)), 'the same space either side').to.be.at.most(2);
    // What is painted on that row is where the seat buttons are: the first and last seats of row T.
    const first = seat(el, 'Arena, row T, seat 1,').getBoundingClientRect();
    const last = seat(el, 'Arena, row T, seat 20,').getBoundingClientRect();
    const painted = paintedAt(el, centre(first).y);
    const seatsPainted = painted.filter((x) => x >= first.left - 1);
    expect(Math.min(...seatsPainted) - first.left, 'the first seat is painted under its button').to.be.within(-1, first.width / 2);
    expect(last.right - Math.max(...seatsPainted), 'the last seat is painted under its button').to.be.within(-1, last.width / 2);
    // Nothing painted in the empty space either side; the row's label just left of its first seat.
    expect(painted.filter((x) => x < map.left - 1 || x > map.right + 1), 'nothing painted outside the map').to.deep.equal([]);
    const label = painted.filter((x) => x < first.left - 1);
    expect(label.length, 'the row label is painted').to.be.greaterThan(0);
    expect(Math.min(...label), 'the row label is beside its row').to.be.at.least(map.left - 1);
  });

  it('a click or Enter on a seat of the centred map chooses that very seat (hit test and buttons agree with the painting)', async () => {
    const el = await picker(1200);
    const viewport = viewportOf(el);
    const target = seat(el, 'Arena, row J, seat 7,');
    const at = centre(target.getBoundingClientRect());
    expect(paintedAt(el, at.y).some((x) => Math.abs(x - at.x) < 1), 'the seat is painted where its button is').to.equal(true);
    pointer(viewport, 'pointerdown', at);
    pointer(viewport, 'pointerup', at);
    await el.updateComplete;
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.getAttribute('aria-label')?.split(',').slice(0, 3).join(','))).to.deep.equal(['Arena, row J, seat 7']);
    // By keyboard: the next seat along, then Enter.
    target.focus();
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(seat(el, 'Arena, row J, seat 8,').getAttribute('aria-pressed')).to.equal('true');
  });

  it('a pinch that starts on the centred map keeps the seat under the fingers under them; zoomed past the box it pans as before', async () => {
    const el = await picker(1200);
    const viewport = viewportOf(el);
    const before = zoomOf(el);
    const target = seat(el, 'Arena, row T, seat 9,');
    const mid = centre(target.getBoundingClientRect());
    const touch = (id: number, x: number, type: string) => pointer(viewport, type, { x, y: mid.y }, { pointerId: id, pointerType: 'touch', isPrimary: id === 1 });
    touch(1, mid.x - 20, 'pointerdown');
    touch(2, mid.x + 20, 'pointerdown');
    touch(2, mid.x + 120, 'pointermove');
    touch(1, mid.x - 120, 'pointermove');
    await el.updateComplete;
    expect(zoomOf(el)).to.be.closeTo(before * 6, 0.011);
    expect(viewport.scrollWidth, 'now wider than its box').to.be.greaterThan(viewport.clientWidth);
    await frame();
    const after = seat(el, 'Arena, row T, seat 9,').getBoundingClientRect();
    expect(after.left, 'the seat is still under the fingers (x)').to.be.at.most(mid.x + 1);
    expect(after.right, '(x)').to.be.at.least(mid.x - 1);
    expect(after.top, '(y)').to.be.at.most(mid.y + 1);
    expect(after.bottom, '(y)').to.be.at.least(mid.y - 1);
    touch(2, mid.x + 120, 'pointerup');
    touch(1, mid.x - 120, 'pointerup');
    // One finger drags the map by exactly as far as it moved, and chooses nothing.
    const start = viewport.scrollLeft;
    touch(1, mid.x, 'pointerdown');
    touch(1, mid.x - 30, 'pointermove');
    touch(1, mid.x - 80, 'pointermove');
    touch(1, mid.x - 80, 'pointerup');
    await el.updateComplete;
    expect(viewport.scrollLeft - start).to.equal(80);
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true')).to.have.length(0);
  });
});

describe('<seat-picker> map view: a tap on seats smaller than a fingertip', () => {
  afterEach(() => resetSharedBookings());

  it('on a phone, the first tap zooms in about the tap until seats are 24 px and chooses nothing; the next tap chooses the seat under the finger', async () => {
    const el = await picker(360);
    const viewport = viewportOf(el);
    const target = seat(el, 'Arena, row P, seat 11,');
    expect(target.getBoundingClientRect().width, 'seats are drawn under 24 px').to.be.below(24);
    const at = centre(target.getBoundingClientRect());
    const tap = (p: { x: number; y: number }) => {
      pointer(viewport, 'pointerdown', p, { pointerType: 'touch' });
      pointer(viewport, 'pointerup', p, { pointerType: 'touch' });
    };
    tap(at);
    await el.updateComplete;
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true'), 'nothing chosen by the first tap').to.have.length(0);
    expect(zoomOf(el), 'zoomed to 100 %').to.equal(1);
    await frame();
    const zoomed = seat(el, 'Arena, row P, seat 11,').getBoundingClientRect();
    expect(zoomed.width, 'seats are now touch-sized (pitch)').to.be.at.least(24);
    expect(at.x, 'the tapped seat is still under the finger (x)').to.be.within(zoomed.left - 1, zoomed.right + 1);
    expect(at.y, '(y)').to.be.within(zoomed.top - 1, zoomed.bottom + 1);
    tap(centre(zoomed));
    await el.updateComplete;
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.getAttribute('aria-label')?.split(',').slice(0, 3).join(','))).to.deep.equal(['Arena, row P, seat 11']);
    await expect(el).to.be.accessible();
  });

  it('a mouse still chooses at once at the fitted zoom (it points to the pixel)', async () => {
    const el = await picker(360);
    const at = centre(seat(el, 'Arena, row P, seat 11,').getBoundingClientRect());
    pointer(viewportOf(el), 'pointerdown', at);
    pointer(viewportOf(el), 'pointerup', at);
    await el.updateComplete;
    expect(seat(el, 'Arena, row P, seat 11,').getAttribute('aria-pressed')).to.equal('true');
    expect(zoomOf(el)).to.be.below(1);
  });
});
