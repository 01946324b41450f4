import { expect, html, oneEvent } from '@open-wc/testing';
import { waitUntil } from './helpers/wait.ts';
import { sendKeys } from '@web/test-runner-commands';
import { chord } from './helpers/engine.ts';
import sinon from 'sinon';
import type { AddTicketsResult, EventInfo, FullTicketInfo, VenueInfo } from '../../src/api/types.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { readEvent } from '../../src/state/event-details.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { SeatPicker } from '../../src/elements/seat-picker/seat-picker.component.ts';
import { VALIDATION_DELAY } from '../../src/elements/seat-picker/selection-check.ts';
import { apiError, fakeApi, networkError, testBooking, withBooking, type FakeApi, type Handlers } from './helpers/fake-api.ts';
import { BASKET_ID, availableAreas, basketWith, hall, performance, ticket } from './helpers/seat-fixtures.ts';
import { root, seat, seatButtons } from './helpers/seat-picker-dom.ts';

const TICKETS: FullTicketInfo[] = [
  ticket(1, 'Stalls', 'B', '10', 45),
  ticket(2, 'Stalls', 'B', '9', 45),
  ticket(3, 'Stalls', 'AA', '1', 30),
  ticket(4, 'Stalls', 'A', '2', 45),
  ticket(5, 'Stalls', 'A', '1', 45),
  ticket(6, 'Dress Circle', 'C', '14', 62.5, true, 'Pillar'),
  ticket(7, 'Dress Circle', 'C', '13', 62.5),
  ticket(8, 'Stalls', 'A', '3', 45),
];

const byId = (id: number) => TICKETS.find((t) => t.TicketId === id) as FullTicketInfo;

function added(ids: number[]): AddTicketsResult {
  return { Success: true, FailureReason: 0, FailureReasonText: '', BookableTicketsCount: null, GetBasketContentResult: basketWith(ids.map(byId)) };
}

function seatedHandlers(extra: Handlers = {}): Handlers {
  return {
    getPerformance: ({ performanceId }) => performance(performanceId),
    getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: TICKETS }),
    getEvent: () => { throw apiError('getEvent', 404); },
    validateSeatsSelection: () => ({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' }),
    createBasket: () => ({ Success: true, BasketId: BASKET_ID }),
    ...extra,
  };
}

async function picker(api: FakeApi, attrs: { mode?: string; max?: number } = {}): Promise<SeatPicker> {
  const booking = testBooking(api);
  const el = await withBooking<SeatPicker>(
    booking,
    html`<seat-picker performance-id="1" mode=${attrs.mode ?? 'auto'} max-seats=${attrs.max ?? 10}></seat-picker>`,
  );
  return el;
}

const text = (el: SeatPicker) => root(el).textContent?.replace(/\s+/g, ' ') ?? '';
const button = (el: SeatPicker, label: RegExp) => {
  const b = [...root(el).querySelectorAll<HTMLButtonElement>('button:not(.sizer button)')].find((x) => label.test(x.textContent ?? ''));
  if (!b) throw new Error(`no button ${label}`);
  return b;
};
/**
 * The map is painted and its focusable seats are in place. Within 5 s, not waitUntil's 1 s: the
 * overlay of seat buttons follows the first painted frame, and with the whole suite on two cores
 * (the every-language tests beside it) a frame can come late.
 */
const mapReady = async (el: SeatPicker) => {
  await waitUntil(() => seatButtons(el).length > 1 || (seatButtons(el).length === 1 && root(el).querySelector('.sizer')?.getAttribute('aria-label')?.includes(' 1 seat.')), 'the map did not render', { timeout: 5000 });
  await el.updateComplete;
};

describe('<seat-picker> seated map', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  /** Fake only the timers the picker's debounce uses (axe and waitUntil need real ones: switch back before them). */
  const fakeTimers = () => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    return clock;
  };
  const realTimers = () => {
    clock?.restore();
    clock = undefined;
  };
  const tick = async (el: SeatPicker) => {
    await clock?.tickAsync(VALIDATION_DELAY + 10);
    await el.updateComplete;
  };
  /** Choose seats by name, let the seat check answer (fake timers), press "Add". */
  const chooseAndAdd = async (el: SeatPicker, names: string[]) => {
    fakeTimers();
    for (const name of names) seat(el, name).click();
    await el.updateComplete;
    await tick(el);
    button(el, names.length === 1 ? /Add 1 seat/ : new RegExp(`Add ${names.length} seats`)).click();
    await tick(el);
  };
  /** Whether a button can be used (the map's "Add" is aria-disabled, and stays focusable, while it cannot). */
  const usable = (b: HTMLButtonElement) => !b.disabled && b.getAttribute('aria-disabled') !== 'true';
  /** axe under real timers, then back to fake ones. */
  const accessible = async (el: SeatPicker) => {
    const faked = clock !== undefined;
    realTimers();
    await expect(el).to.be.accessible();
    if (faked) fakeTimers();
  };
  afterEach(() => {
    realTimers();
    resetSharedBookings();
  });

  it('builds the map from FullAvailability in natural order, naming every seat fully', async () => {
    const api = fakeApi(seatedHandlers());
    const el = await picker(api);
    await mapReady(el);
    expect(seatButtons(el).map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Stalls, row A, seat 1, £45.00',
      'Stalls, row A, seat 2, £45.00',
      'Stalls, row A, seat 3, £45.00',
      'Stalls, row B, seat 9, £45.00',
      'Stalls, row B, seat 10, £45.00',
      'Stalls, row AA, seat 1, £30.00',
      'Dress Circle, row C, seat 13, £62.50',
      'Dress Circle, row C, seat 14, £62.50, restricted view (Pillar)',
    ]);
    // The legend names each band by price and letter, and says what restricted view looks like. It comes
    // after the map's first paint (seat-picker.later.ts, fetched once the page is idle).
    await waitUntil(() => root(el).querySelector('[part~="legend"]'), 'the legend was not shown after the map');
    const legend = root(el).querySelector('[part~="legend"]')?.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(legend).to.include('A: £30.00').and.include('B: £45.00').and.include('C: £62.50').and.include('Restricted view');
    await waitUntil(() => api.callsTo('getEvent').length === 1, 'the plan was not looked up');
    await el.updateComplete;
    expect(root(el).querySelector('[part="plan"]')).to.equal(null); // Get Event answered 404: no plan, and no error
    expect(root(el).querySelector('[part="error"]')).to.equal(null);
    await accessible(el);
  });

  it('is one tab stop: exactly one seat is in the tab order, and the list path comes first', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    expect(seatButtons(el).filter((b) => b.tabIndex === 0)).to.have.length(1);
    const focusables = [...root(el).querySelectorAll<HTMLElement>('summary, input, select, button')].filter((x) => x.tabIndex >= 0 && !(x as HTMLButtonElement).disabled);
    expect(focusables[0]?.tagName).to.equal('SUMMARY');
    expect(focusables[0]?.textContent).to.match(/Choose seats from a list/);
  });

  it('moves by arrows within a row and to the nearest seat of the next row; Enter toggles', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    seat(el, 'Stalls, row A, seat 1,').focus();
    const focused = () => root(el).activeElement?.getAttribute('aria-label') ?? '';
    await sendKeys({ press: 'ArrowRight' });
    expect(focused()).to.match(/^Stalls, row A, seat 2,/);
    await sendKeys({ press: 'End' });
    expect(focused()).to.match(/^Stalls, row A, seat 3,/);
    await sendKeys({ press: 'ArrowDown' });
    expect(focused()).to.match(/^Stalls, row B, seat 9,/);
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    expect(focused()).to.match(/^Dress Circle, row C, seat 13,/);
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const pressed = seat(el, 'Dress Circle, row C, seat 14');
    expect(pressed.getAttribute('aria-pressed')).to.equal('true');
    expect(pressed.tabIndex).to.equal(0);
    expect(seatButtons(el).filter((b) => b.tabIndex === 0)).to.have.length(1);
    expect(root(el).querySelector('[part="status"]')?.textContent).to.match(/Dress Circle row C seat 14 chosen, £62\.50\. 1 seat, total £62\.50\./);
    expect(root(el).querySelector('[part="total"]')?.textContent).to.include('£62.50');
    await sendKeys({ press: ' ' }); // the space bar ("Space" is a name only Chromium's driver knows)
    await el.updateComplete;
    expect(pressed.getAttribute('aria-pressed')).to.equal('false');
  });

  it('selects by pointer on the painted map (hit test), not only through the buttons', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const target = seat(el, 'Stalls, row B, seat 10');
    const viewport = root(el).querySelector('.viewport') as HTMLElement;
    // Where the seat shows (the map may sit in the middle of its box): the centre of its button.
    const r = target.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const init = { clientX: x, clientY: y, pointerId: 1, bubbles: true, pointerType: 'mouse', button: 0 };
    viewport.dispatchEvent(new PointerEvent('pointerdown', init));
    viewport.dispatchEvent(new PointerEvent('pointerup', init));
    await el.updateComplete;
    expect(target.getAttribute('aria-pressed')).to.equal('true');
  });

  it('a click engages the map after the frame that shows its seat; a tap engages it at once', async () => {
    // Engaging (touch-action: none, so one finger pans the map) restyles every seat's stand-in: a
    // click's answer is not kept waiting behind it (the seat bench's press and release come back
    // to back); a tap's engagement is needed before the next finger comes down.
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const viewport = root(el).querySelector('.viewport') as HTMLElement;
    const press = (label: string, pointerType: string, pointerId: number) => {
      const r = seat(el, label).getBoundingClientRect();
      const init = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, pointerId, bubbles: true, pointerType, button: 0, isPrimary: true };
      viewport.dispatchEvent(new PointerEvent('pointerdown', init));
      viewport.dispatchEvent(new PointerEvent('pointerup', init));
    };
    const nextFrameDone = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    expect(getComputedStyle(viewport).touchAction).to.equal('pan-y');
    press('Stalls, row B, seat 10', 'mouse', 1);
    // The frame that answers the click: its seat chosen, the map not engaged yet.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(seat(el, 'Stalls, row B, seat 10').getAttribute('aria-pressed')).to.equal('true');
    expect(getComputedStyle(viewport).touchAction, 'not engaged in the frame answering the click').to.equal('pan-y');
    await nextFrameDone();
    expect(getComputedStyle(viewport).touchAction, 'engaged once that frame is out').to.equal('none');

    // A press elsewhere lets the page have one finger again, also before a click's engagement shows.
    const elsewhere = () => document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true, pointerId: 2 }));
    elsewhere();
    expect(getComputedStyle(viewport).touchAction).to.equal('pan-y');
    press('Stalls, row B, seat 9', 'mouse', 4);
    elsewhere();
    await nextFrameDone();
    await nextFrameDone();
    expect(getComputedStyle(viewport).touchAction, 'let go of before its frame: not engaged').to.equal('pan-y');
    // A tap on the map engages it at once.
    press('Stalls, row B, seat 9', 'touch', 3);
    expect(getComputedStyle(viewport).touchAction, 'a tap engages the map before the next finger').to.equal('none');
  });

  it('choosing a seat touches only that seat, not every seat in view', async () => {
    const big = hall(30, 40);
    const el = await picker(fakeApi(seatedHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: big }) })));
    await mapReady(el);
    const sizer = root(el).querySelector('.sizer') as HTMLElement;
    expect(seatButtons(el).length).to.be.greaterThan(50);
    const touched = new Set<Node>();
    const observer = new MutationObserver((records) => records.forEach((r) => touched.add(r.target)));
    observer.observe(sizer, { subtree: true, attributes: true, childList: true });
    seat(el, 'Arena, row B, seat 5,').click();
    await el.updateComplete;
    observer.takeRecords().forEach((r) => touched.add(r.target));
    observer.disconnect();
    // The chosen seat, and the roving tab stop leaving the previous seat: nothing else.
    expect(touched.size).to.be.at.most(3);
    expect(seat(el, 'Arena, row B, seat 5,').getAttribute('aria-pressed')).to.equal('true');
  });

  it('pans by dragging (without choosing a seat); two fingers pinch to zoom and pan together', async () => {
    const big = hall(60, 120);
    const el = await picker(fakeApi(seatedHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: big }) })));
    await mapReady(el);
    const viewport = root(el).querySelector('.viewport') as HTMLElement;
    // Until the visitor engages the map, one finger's vertical pan is the page's (test/e2e/seat-map-touch.test.ts).
    expect(getComputedStyle(viewport).touchAction).to.equal('pan-y');
    // It opens fitted (nothing to pan): zoom in first, with the buttons (which engage it).
    const zoomIn = root(el).querySelector('[aria-label="Zoom in"]') as HTMLButtonElement;
    for (let i = 0; i < 12 && !/\b(9\d|1\d\d)%/.test(text(el)); i += 1) {
      zoomIn.click();
      await el.updateComplete;
    }
    expect(getComputedStyle(viewport).touchAction).to.equal('none');
    const rect = viewport.getBoundingClientRect();
    const at = (id: number, x: number, y: number, type: string) =>
      viewport.dispatchEvent(new PointerEvent(type, { pointerId: id, clientX: rect.left + x, clientY: rect.top + y, bubbles: true, pointerType: 'touch', isPrimary: id === 1 }));
    const start = { left: viewport.scrollLeft, top: viewport.scrollTop };
    at(1, 200, 200, 'pointerdown');
    at(1, 150, 170, 'pointermove');
    at(1, 100, 140, 'pointermove');
    at(1, 100, 140, 'pointerup');
    await el.updateComplete;
    expect(viewport.scrollLeft - start.left).to.equal(100);
    expect(viewport.scrollTop - start.top).to.equal(60);
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true')).to.have.length(0);

    // Two fingers moving apart zoom in, about their midpoint.
    const zoomOf = () => Number(/(\d+)%/.exec(root(el).querySelector('[part~="zoom"] span')?.textContent ?? '')?.[1]) / 100;
    const before = zoomOf();
    const sizer = root(el).querySelector('.sizer') as HTMLElement;
    const pitch = () => sizer.offsetWidth / 1; // CSS px of the whole map: proportional to the zoom
    const mapPoint = (x: number, y: number) => ({ x: (viewport.scrollLeft + x) / pitch(), y: (viewport.scrollTop + y) / sizer.offsetHeight });
    const under = mapPoint(150, 100);
    at(1, 100, 100, 'pointerdown');
    at(2, 200, 100, 'pointerdown');
    at(2, 250, 100, 'pointermove');
    at(1, 50, 100, 'pointermove');
    await el.updateComplete;
    expect(zoomOf()).to.be.closeTo(before * 2, 0.011);
    const still = mapPoint(150, 100);
    expect(still.x, 'the map point under the fingers stays under them (x)').to.be.closeTo(under.x, 0.002);
    expect(still.y, '(y)').to.be.closeTo(under.y, 0.002);
    // Both fingers move together: the map pans with them, at the same zoom.
    const scrolled = { left: viewport.scrollLeft, top: viewport.scrollTop };
    at(1, 90, 140, 'pointermove');
    at(2, 290, 140, 'pointermove');
    await el.updateComplete;
    expect(zoomOf()).to.be.closeTo(before * 2, 0.011);
    expect(scrolled.left - viewport.scrollLeft).to.be.closeTo(40, 1);
    expect(scrolled.top - viewport.scrollTop).to.be.closeTo(40, 1);
    at(2, 290, 140, 'pointerup');
    at(1, 90, 140, 'pointerup');
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true'), 'no seat chosen by the gestures').to.have.length(0);
  });

  it('with a mouse on a map that fits whole, the press chooses (answered in the next frame); on a map that can be dragged, the release', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const viewport = root(el).querySelector('.viewport') as HTMLElement;
    const at = (name: string, type: string) => {
      const r = seat(el, name).getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      viewport.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, pointerId: 1, bubbles: true, pointerType: 'mouse', button: 0 }));
    };
    at('Stalls, row A, seat 1,', 'pointerdown');
    await el.updateComplete;
    expect(seat(el, 'Stalls, row A, seat 1,').getAttribute('aria-pressed'), 'chosen on press').to.equal('true');
    at('Stalls, row A, seat 1,', 'pointerup');
    await el.updateComplete;
    expect(seat(el, 'Stalls, row A, seat 1,').getAttribute('aria-pressed'), 'not toggled back on release').to.equal('true');
    // Zoomed in, the map can be dragged: a press alone chooses nothing; the release does.
    const zoomIn = root(el).querySelector('[aria-label="Zoom in"]') as HTMLButtonElement;
    for (let i = 0; i < 10 && viewport.scrollWidth <= viewport.clientWidth; i += 1) {
      zoomIn.click();
      await el.updateComplete;
    }
    expect(viewport.scrollWidth).to.be.greaterThan(viewport.clientWidth);
    seat(el, 'Stalls, row A, seat 2,').scrollIntoView({ block: 'nearest', inline: 'nearest' });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    at('Stalls, row A, seat 2,', 'pointerdown');
    await el.updateComplete;
    expect(seat(el, 'Stalls, row A, seat 2,').getAttribute('aria-pressed')).to.equal('false');
    at('Stalls, row A, seat 2,', 'pointerup');
    await el.updateComplete;
    expect(seat(el, 'Stalls, row A, seat 2,').getAttribute('aria-pressed')).to.equal('true');
  });

  it('opens fitted to its box at every width (the whole venue in view), keeps the fit on resize until the visitor zooms', async () => {
    const big = hall(40, 80);
    const api = fakeApi(seatedHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: big }) }));
    const booking = testBooking(api);
    const box = await withBooking<HTMLDivElement>(booking, html`<div style="width: 1000px"><seat-picker performance-id="1"></seat-picker></div>`);
    const el = box.querySelector('seat-picker') as SeatPicker;
    await mapReady(el);
    const viewport = root(el).querySelector('.viewport') as HTMLElement;
    const sizer = root(el).querySelector('.sizer') as HTMLElement;
    const fits = () => sizer.offsetWidth <= viewport.clientWidth && sizer.offsetHeight <= viewport.clientHeight;
    const fitButton = () => button(el, /^\s*Fit\s*$/);
    const zoomText = () => root(el).querySelector('[part~="zoom"] span')?.textContent ?? '';
    const resized = async (width: number) => {
      const before = viewport.clientWidth;
      box.style.width = `${width}px`;
      await waitUntil(() => viewport.clientWidth !== before, 'the picker took the new width');
      // The resize report comes with a next frame; the map follows it (its canvas the new size).
      const canvas = root(el).querySelector('canvas') as HTMLCanvasElement;
      await waitUntil(() => canvas.style.width === `${viewport.clientWidth}px`, 'the map took the new size', { timeout: 5000 });
      await el.updateComplete;
    };
    for (const width of [1000, 360, 280, 720]) {
      if (width !== 1000) await resized(width);
      expect(fits(), `the whole map in view at ${width} px`).to.equal(true);
      expect(sizer.offsetWidth, `and using the width at ${width} px`).to.be.greaterThan(viewport.clientWidth * 0.8);
      expect(fitButton().getAttribute('aria-pressed')).to.equal('true');
    }
    // The visitor zooms: the view no longer follows the box.
    (root(el).querySelector('[aria-label="Zoom in"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(fitButton().getAttribute('aria-pressed')).to.equal('false');
    const zoomed = zoomText();
    await resized(1000);
    expect(zoomText(), 'kept after a resize').to.equal(zoomed);
    // "Fit" fits again, and follows the box again.
    fitButton().click();
    await el.updateComplete;
    expect(fits()).to.equal(true);
    expect(fitButton().getAttribute('aria-pressed')).to.equal('true');
    await resized(400);
    expect(fits()).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('refuses more seats than max-seats, and says so', async () => {
    const el = await picker(fakeApi(seatedHandlers()), { max: 2 });
    await mapReady(el);
    for (const name of ['Stalls, row A, seat 1,', 'Stalls, row A, seat 2,', 'Stalls, row A, seat 3,']) {
      seat(el, name).click();
      await el.updateComplete;
    }
    expect(seatButtons(el).filter((b) => b.getAttribute('aria-pressed') === 'true')).to.have.length(2);
    expect(seat(el, 'Stalls, row A, seat 3,').getAttribute('aria-pressed')).to.equal('false');
    expect(root(el).querySelector('[part="status"]')?.textContent).to.match(/up to 2 seats/);
  });

  it('validates the selection once it is still, shows ErrorMessagePlan and disables adding on DisableBooking', async () => {
    const api = fakeApi(
      seatedHandlers({
        validateSeatsSelection: ({ body }) => ({
          SelectionValid: body.TicketIds.length < 2,
          DisableBooking: body.TicketIds.length >= 2,
          ErrorMessagePlan: 'Please do not leave a single empty seat.',
          ErrorMessageBasket: '',
          InvalidSeatID: '8',
        }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    fakeTimers();
    // Row B's two seats: a refusal the map cannot explain (no seat left alone), so the service's words are shown.
    seat(el, 'Stalls, row B, seat 9,').click();
    await el.updateComplete;
    seat(el, 'Stalls, row B, seat 10,').click();
    await el.updateComplete;
    await tick(el);
    // Two quick changes: one request, for the latest selection.
    expect(api.callsTo('validateSeatsSelection')).to.deep.equal([{ performanceId: 1, body: { TicketIds: [2, 1] } }]);
    const message = root(el).querySelector('[part~="validation"]');
    expect(message?.textContent).to.include('Please do not leave a single empty seat.');
    expect(usable(button(el, /Add 2 seats/))).to.equal(false);
    await accessible(el);
    seat(el, 'Stalls, row B, seat 10,').click();
    await el.updateComplete;
    await tick(el);
    expect(root(el).querySelector('[part~="validation"]')).to.equal(null);
    expect(usable(button(el, /Add 1 seat/))).to.equal(true);
  });

  it('says the single-seat refusal in the visitor\'s language, not in the service\'s words (German)', async () => {
    const serviceWords = 'Choosing seat A2 would leave a single empty seat. Please choose seats next to each other.';
    const api = fakeApi(
      seatedHandlers({
        validateSeatsSelection: ({ body }) =>
          body.TicketIds.length === 2
            ? { SelectionValid: false, DisableBooking: true, ErrorMessagePlan: serviceWords, ErrorMessageBasket: '', InvalidSeatID: '4' }
            : { SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' },
      }),
    );
    await setLocale('de');
    try {
      const el = await withBooking<SeatPicker>(testBooking(api, { locale: 'de' }), html`<seat-picker performance-id="1"></seat-picker>`);
      await mapReady(el);
      fakeTimers();
      // A1 and A2 chosen: A3, the row's last free seat, would be left alone.
      seat(el, 'Stalls, Reihe A, Platz 1,').click();
      await el.updateComplete;
      seat(el, 'Stalls, Reihe A, Platz 2,').click();
      await el.updateComplete;
      await tick(el);
      const message = root(el).querySelector('[part~="validation"]')?.textContent ?? '';
      expect(message).to.include('Diese Auswahl würde einen einzelnen Platz frei lassen.');
      expect(text(el)).not.to.include('would leave a single empty seat');
      // The seat the service named is marked, and says why in German too.
      const a2 = seat(el, 'Stalls, Reihe A, Platz 2,');
      expect(a2.getAttribute('part')).to.include('invalid');
      expect(a2.getAttribute('aria-label')).to.include('einzelnen Platz');
      await accessible(el);
    } finally {
      await setLocale('en');
    }
  });

  it('"Add" is enabled only once the seat check has answered for this very selection; then a double click adds once', async () => {
    let answerValidation: (() => void) | undefined;
    const api = fakeApi(
      seatedHandlers({
        addTickets: ({ body }) => added(body.Tickets ?? []),
        validateSeatsSelection: () =>
          new Promise((resolve) => {
            answerValidation = () => resolve({ SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' });
          }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    let changes = 0;
    el.addEventListener('booking-basket-change', () => (changes += 1));
    seat(el, 'Stalls, row B, seat 9').click();
    await el.updateComplete;
    const add = button(el, /Add 1 seat/);
    expect(usable(add), 'not while the check is pending').to.equal(false);
    expect(add.disabled, 'still focusable').to.equal(false);
    add.click();
    await el.updateComplete;
    expect(api.callsTo('addTickets')).to.have.length(0);
    expect(root(el).querySelector('[part="status"]')?.textContent).to.include('Checking that these seats can be booked together');
    await waitUntil(() => answerValidation !== undefined, 'the selection was never validated');
    answerValidation?.();
    await waitUntil(() => usable(button(el, /Add 1 seat/)), 'enabled once the check answered');
    add.click();
    add.click();
    await waitUntil(() => text(el).includes('1 ticket added to your basket.'), 'never added');
    await el.updateComplete;
    expect(api.callsTo('addTickets')).to.have.length(1);
    expect(changes).to.equal(1);
  });

  it('marks the seat the service named (InvalidSeatID) on the map and in the list, with its message', async () => {
    const refusal = 'Choosing seat A3 would leave a single empty seat. Please choose seats next to each other.';
    const api = fakeApi(
      seatedHandlers({
        validateSeatsSelection: ({ body }) =>
          body.TicketIds.includes(8)
            ? { SelectionValid: false, DisableBooking: true, ErrorMessagePlan: refusal, ErrorMessageBasket: '', InvalidSeatID: '8' }
            : { SelectionValid: true, DisableBooking: false, ErrorMessagePlan: '', ErrorMessageBasket: '', InvalidSeatID: '' },
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    const details = root(el).querySelector('details[part~="list"]') as HTMLDetailsElement;
    details.open = true;
    await waitUntil(() => root(el).querySelector('.list-body'), 'the list did not open');
    fakeTimers();
    seat(el, 'Stalls, row A, seat 3').click();
    await el.updateComplete;
    await tick(el);
    // On the map: the seat's button says why, and is marked (part token and a ring painted round it).
    const a3 = seat(el, 'Stalls, row A, seat 3');
    expect(a3.getAttribute('part')).to.include('invalid');
    expect(a3.getAttribute('aria-invalid')).to.equal('true');
    expect(a3.getAttribute('aria-label')).to.include(`Cannot be chosen: ${refusal}`);
    expect(root(el).querySelector('[part~="validation"]')?.textContent).to.include(refusal);
    expect(usable(button(el, /Add 1 seat/))).to.equal(false);
    expect(root(el).querySelector('[part~="legend"]')?.textContent).to.include('Cannot be chosen');
    // In the list: the same seat, marked, with the message.
    const entry = root(el).querySelector('[part~="list-seat"][part~="invalid"]');
    expect(entry?.textContent).to.include('Seat 3').and.include(refusal);
    expect(entry?.querySelector('input')?.getAttribute('aria-invalid')).to.equal('true');
    // The painted ring: the danger colour just outside the seat's shape.
    const canvas = root(el).querySelector('canvas') as HTMLCanvasElement;
    const c = canvas.getBoundingClientRect();
    const b = a3.getBoundingClientRect();
    const scale = canvas.width / c.width;
    const pixel = canvas.getContext('2d')?.getImageData(Math.round((b.left - c.left + b.width / 2) * scale), Math.floor((b.top - c.top + 1) * scale), 1, 1).data;
    expect([...(pixel ?? [])].slice(0, 3)).to.deep.equal([179, 38, 30]); // #b3261e
    await accessible(el);
    // A choice the service accepts: no mark left.
    seat(el, 'Stalls, row A, seat 3').click();
    seat(el, 'Stalls, row A, seat 1,').click();
    await el.updateComplete;
    await tick(el);
    expect(seat(el, 'Stalls, row A, seat 3').getAttribute('part')).not.to.include('invalid');
    expect(root(el).querySelector('[part~="list-seat"][part~="invalid"]')).to.equal(null);
    expect(usable(button(el, /Add 1 seat/))).to.equal(true);
  });

  it('adds through the basket store, clears the selection, shows the seats as in the basket and fires booking-basket-change', async () => {
    const api = fakeApi(seatedHandlers({ addTickets: ({ body }) => added(body.Tickets ?? []) }));
    const el = await picker(api);
    await mapReady(el);
    fakeTimers();
    seat(el, 'Stalls, row B, seat 9').click();
    seat(el, 'Stalls, row B, seat 10').click();
    await el.updateComplete;
    await tick(el);
    const fired = oneEvent(el, 'booking-basket-change');
    button(el, /Add 2 seats/).click();
    await tick(el);
    const event = await fired;
    expect(event.detail.action).to.equal('add');
    expect(event.detail.basketId).to.equal(BASKET_ID);
    expect(api.callsTo('addTickets')).to.deep.equal([{ basketId: BASKET_ID, body: { Tickets: [2, 1] } }]);
    await el.updateComplete;
    const b9 = seat(el, 'Stalls, row B, seat 9');
    expect(b9.getAttribute('aria-label')).to.match(/in your basket$/);
    expect(b9.getAttribute('aria-pressed')).to.equal('false');
    expect(b9.getAttribute('aria-disabled')).to.equal('true');
    expect(text(el)).to.include('2 tickets added to your basket.');
    expect(text(el)).to.include('No seats chosen yet');
    // A seat in the basket cannot be chosen again.
    b9.click();
    await el.updateComplete;
    expect(b9.getAttribute('aria-pressed')).to.equal('false');
    await accessible(el);
    // The basket emptied (or its hold ran out): "2 tickets added" no longer holds beside the expiry message.
    (el as unknown as { bookingController: { booking: { basket: { forget(): void } } } }).bookingController.booking.basket.forget();
    await el.updateComplete;
    expect(text(el)).not.to.include('tickets added to your basket');
  });

  it('focus is never dropped: after adding by keyboard it goes to the added item in the basket, or to the notice; after a refusal to the notice', async () => {
    const api = fakeApi(
      seatedHandlers({
        addTickets: ({ body }) => {
          if ((body.Tickets ?? []).includes(8)) return { Success: false, FailureReason: 5, FailureReasonText: 'TicketLeavesSingleSeat', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) };
          return added(body.Tickets ?? []);
        },
        getCheckoutOptions: () => ({ CheckoutNotices: [], ETicketNotices: [], CustomerEmailIsMandatory: true }),
        getAvailableDeliveries: () => ({ DeliveryTypes: [{ DeliveryTypeId: 1, DeliveryTypeName: 'Box Office Collection', DeliveryTypePrice: 1 }] }),
        getCountries: () => ({ Countries: [] }),
        getUSStates: () => ({ USStates: [] }),
        getTicketPlanPrice: () => ({ Price: 2 }),
      }),
    );
    const booking = testBooking(api);
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker performance-id="1"></seat-picker><checkout-form></checkout-form>`);
    const form = el.nextElementSibling as HTMLElement;
    await mapReady(el);
    const pressAdd = async (name: RegExp) => {
      await waitUntil(() => usable(button(el, name)), 'the seat check answered');
      button(el, name).focus();
      await sendKeys({ press: 'Enter' });
    };
    // Refused: the notice that says why.
    seat(el, 'Stalls, row A, seat 3').click();
    await el.updateComplete;
    await pressAdd(/Add 1 seat/);
    await waitUntil(() => root(el).activeElement?.matches('[part~="notice"][part~="result"]'), 'focus on the refusal');
    expect(root(el).activeElement?.textContent).to.include('single empty seat');
    // Added: the item in the basket that <checkout-form> shows.
    seat(el, 'Stalls, row A, seat 3').click();
    seat(el, 'Stalls, row B, seat 9').click();
    await el.updateComplete;
    await pressAdd(/Add 1 seat/);
    await waitUntil(() => document.activeElement === form, 'focus went to <checkout-form>');
    const item = form.shadowRoot?.activeElement as HTMLElement | null;
    expect(item?.matches('[part~="item"]')).to.equal(true);
    expect(item?.textContent).to.include('B9');
    // Without a basket on the page: the notice that says it was added.
    form.remove();
    seat(el, 'Stalls, row B, seat 10').click();
    await el.updateComplete;
    await pressAdd(/Add 1 seat/);
    await waitUntil(() => root(el).activeElement?.matches('[part~="notice"][part~="result"]'), 'focus on the notice');
    expect(root(el).activeElement?.textContent).to.include('1 ticket added to your basket.');
    expect(document.activeElement === el, 'never the page body').to.equal(true);
  });

  it('409 outdated: refreshes the map, names the seats lost and keeps the rest', async () => {
    let fresh = false;
    const api = fakeApi(
      seatedHandlers({
        getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: fresh ? TICKETS.filter((t) => t.TicketId !== 4) : TICKETS }),
        addTickets: () => {
          fresh = true;
          throw apiError('addTickets', 409, { Success: false, FailureReason: 1, FailureReasonText: 'TicketNotAvailable', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) });
        },
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await chooseAndAdd(el, ['Stalls, row A, seat 1,', 'Stalls, row A, seat 2,']);
    realTimers();
    await waitUntil(() => text(el).includes('No longer available'), 'no loss notice');
    expect(api.callsTo('getFullAvailability')).to.have.length(2);
    expect(text(el)).to.include('No longer available: Stalls row A seat 2. The rest of your choice is kept.');
    expect(seat(el, 'Stalls, row A, seat 1,').getAttribute('aria-pressed')).to.equal('true');
    expect(seatButtons(el).some((b) => b.getAttribute('aria-label')?.startsWith('Stalls, row A, seat 2,'))).to.equal(false);
    await waitUntil(() => usable(button(el, /Add 1 seat/)), 'the seat left is checked again and may be added');
    await accessible(el);
  });

  it('409 BookableTicketsExceeded: says how many can still be booked and continues with that many', async () => {
    const api = fakeApi(
      seatedHandlers({
        addTickets: ({ body }) => {
          const ids = body.Tickets ?? [];
          if (ids.length > 1) {
            throw apiError('addTickets', 409, { Success: false, FailureReason: 8, FailureReasonText: 'BookableTicketsExceeded', BookableTicketsCount: 1, GetBasketContentResult: basketWith([]) });
          }
          return added(ids);
        },
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await chooseAndAdd(el, ['Stalls, row A, seat 1,', 'Stalls, row A, seat 2,']);
    // The refusal's words come with a module of their own, fetched for real: wait for them, not for a fake tick.
    realTimers();
    await waitUntil(() => text(el).includes('Only 1 ticket can still be booked for this performance.'), 'no refusal in words');
    await accessible(el);
    button(el, /Continue with 1 ticket/).click();
    await waitUntil(() => text(el).includes('1 ticket added to your basket.'), 'continuing with 1 ticket did not add it');
    expect(api.callsTo('addTickets').at(-1)).to.deep.equal({ basketId: BASKET_ID, body: { Tickets: [5] } });
  });

  it('502: says so, keeps the selection, and retries', async () => {
    let fail = true;
    // Before the add is sent again, the basket is read (its answer may have been lost): it holds nothing of it.
    const api = fakeApi(seatedHandlers({ addTickets: ({ body }) => { if (fail) throw apiError('addTickets', 502); return added(body.Tickets ?? []); }, getBasket: () => basketWith([]) }));
    const el = await picker(api);
    await mapReady(el);
    fakeTimers();
    seat(el, 'Stalls, row A, seat 3').click();
    await el.updateComplete;
    await tick(el);
    const errorEvent = oneEvent(el, 'booking-error');
    button(el, /Add 1 seat/).click();
    await tick(el);
    expect((await errorEvent).detail).to.include({ source: 'seat-picker', status: 502 });
    await el.updateComplete;
    expect(text(el)).to.include('Your choice is kept.');
    expect(seat(el, 'Stalls, row A, seat 3').getAttribute('aria-pressed')).to.equal('true');
    await accessible(el);
    fail = false;
    realTimers(); // the read before it is sent again comes with a module of its own, fetched for real
    button(el, /Try again/).click();
    await waitUntil(() => text(el).includes('1 ticket added to your basket.'), 'Try again did not add');
    expect(api.callsTo('getBasket')).to.have.length.above(0);
    expect(api.callsTo('addTickets')).to.have.length(2);
  });

  it('Success false: the reason in words, selection kept', async () => {
    const api = fakeApi(
      seatedHandlers({
        addTickets: () => ({ Success: false, FailureReason: 5, FailureReasonText: 'TicketLeavesSingleSeat', BookableTicketsCount: null, GetBasketContentResult: basketWith([]) }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await chooseAndAdd(el, ['Stalls, row A, seat 2']);
    realTimers();
    await waitUntil(() => text(el).includes('would leave a single empty seat'), 'no reason in words');
    const alert = root(el).querySelector('[part~="notice"][role="alert"]');
    expect(alert?.textContent).to.include('would leave a single empty seat');
    expect(seat(el, 'Stalls, row A, seat 2').getAttribute('aria-pressed')).to.equal('true');
  });

  it('says before adding that the paired part (with its date) is booked too', async () => {
    const api = fakeApi(
      seatedHandlers({
        getPerformance: ({ performanceId }) =>
          performanceId === 1
            ? performance(1, { PairedPerformances: [2] })
            : performance(2, { PerformanceDate: '2026-12-05T14:30:00', DirectlyBookablePerformance: false, PairedPerformances: [1] }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await waitUntil(() => root(el).querySelector('[part~="paired"]'), 'no paired notice');
    const note = root(el).querySelector('[part~="paired"]')?.textContent ?? '';
    expect(note).to.include('paired part');
    expect(note).to.match(/5 December 2026/);
    expect(button(el, /Add to basket/).getAttribute('aria-describedby')).to.equal('paired-note');
    await accessible(el);
  });

  it("offers the venue's seating plan (Performance → Event → Venue PlanLink), and does without it when a step fails", async () => {
    const api = fakeApi(
      seatedHandlers({
        getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9 } as EventInfo }),
        getVenue: ({ venueId }) => ({ Venue: { VenueId: venueId, Name: 'The Lyric', PlanLink: 'https://plans.example/lyric.png' } as VenueInfo }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await waitUntil(() => root(el).querySelector('[part="plan"] img'), 'no plan', { timeout: 5000 });
    const img = root(el).querySelector('[part="plan"] img') as HTMLImageElement;
    expect(img.getAttribute('src')).to.equal('https://plans.example/lyric.png');
    expect(img.alt).to.equal('Seating plan of The Lyric');
    expect(api.callsTo('getVenue')).to.deep.equal([{ venueId: 9 }]);
    // seatedHandlers' getEvent answers 404 elsewhere: those maps simply have no plan (see the first test).
  });

  it('never puts a PlanLink that is not http(s) into the page', async () => {
    const api = fakeApi(
      seatedHandlers({
        getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9 } as EventInfo }),
        getVenue: ({ venueId }) => ({ Venue: { VenueId: venueId, Name: 'The Lyric', PlanLink: 'javascript:alert(1)' } as VenueInfo }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await waitUntil(() => api.callsTo('getVenue').length === 1, 'the venue was never asked');
    await el.updateComplete;
    expect(root(el).querySelector('[part="plan"] img')).to.equal(null);
    expect(root(el).innerHTML).not.to.contain('javascript:');
  });

  it('a part that is not bookable on its own says so and cannot be added', async () => {
    const api = fakeApi(
      seatedHandlers({
        getPerformance: ({ performanceId }) =>
          performanceId === 1
            ? performance(1, { PairedPerformances: [2], DirectlyBookablePerformance: false })
            : performance(2, { PerformanceDate: '2026-12-03T19:30:00', PairedPerformances: [1] }),
      }),
    );
    const el = await picker(api);
    await mapReady(el);
    await waitUntil(() => root(el).querySelector('[part~="paired"]'), 'no paired notice');
    seat(el, 'Stalls, row A, seat 1,').click();
    await el.updateComplete;
    expect(root(el).querySelector('[part~="paired"]')?.textContent).to.include('cannot be booked on its own');
    expect(usable(button(el, /Add 1 seat/))).to.equal(false);
  });

  it('zooms with its buttons: the map and every seat grow together', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const sizer = root(el).querySelector('.sizer') as HTMLElement;
    const before = sizer.offsetWidth;
    const a1 = seat(el, 'Stalls, row A, seat 1,');
    const size = a1.offsetWidth;
    expect(size).to.be.at.least(24); // targets at least 24 CSS px at the default zoom
    (root(el).querySelector('[aria-label="Zoom in"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(sizer.offsetWidth / before).to.be.closeTo(1.25, 0.02);
    expect(a1.offsetWidth / size).to.be.closeTo(1.25, 0.05);
    expect(text(el)).to.include('125%');
  });

  it('offers the list path: area, then row, then seat checkboxes that share the selection', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const details = root(el).querySelector('details[part~="list"]') as HTMLDetailsElement;
    details.open = true;
    await waitUntil(() => root(el).querySelector('.list-body'), 'the list did not open');
    const [areaSelect, rowSelect] = [...root(el).querySelectorAll<HTMLSelectElement>('.list-pickers select')];
    expect([...(areaSelect?.options ?? [])].map((o) => o.text)).to.deep.equal(['Stalls', 'Dress Circle']);
    expect([...(rowSelect?.options ?? [])].map((o) => o.text)).to.deep.equal(['Row A (3 seats)', 'Row B (2 seats)', 'Row AA (1 seat)']);
    (areaSelect as HTMLSelectElement).value = '1';
    areaSelect?.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const boxes = [...root(el).querySelectorAll<HTMLInputElement>('.seat-checks input')];
    expect(boxes.map((b) => b.parentElement?.textContent?.replace(/\s+/g, ' ').trim())).to.deep.equal([
      'Seat 13, £62.50',
      'Seat 14, £62.50, restricted view (Pillar)',
    ]);
    boxes[1]?.click();
    await el.updateComplete;
    expect(seat(el, 'Dress Circle, row C, seat 14').getAttribute('aria-pressed')).to.equal('true');
    expect(text(el)).to.include('Dress Circle row C seat 14 · £62.50');
    await accessible(el);
  });

  it('survives disconnect and reconnect', async () => {
    const el = await picker(fakeApi(seatedHandlers()));
    await mapReady(el);
    const parent = el.parentElement as HTMLElement;
    el.remove();
    parent.append(el);
    await el.updateComplete;
    await mapReady(el);
    seat(el, 'Stalls, row A, seat 1,').focus();
    await sendKeys({ press: 'ArrowRight' });
    expect(root(el).activeElement?.getAttribute('aria-label')).to.match(/^Stalls, row A, seat 2,/);
  });

  it('says when the seats could not be loaded, and retries', async () => {
    let down = true;
    const api = fakeApi(seatedHandlers({ getFullAvailability: () => { if (down) throw networkError('getFullAvailability'); return { PerformanceId: 1, EventId: 5, AvailableTickets: TICKETS }; } }));
    const el = await picker(api);
    await waitUntil(() => root(el).querySelector('[part="error"]'), 'no error');
    expect(api.callsTo('getAreasPrices')).to.have.length(0); // a failure is not "general admission"
    await accessible(el);
    down = false;
    button(el, /Try again/).click();
    await mapReady(el);
  });

  it('renders, responds and stays accessible at 20,000 seats, keeping only the seats in view as elements', async () => {
    const big = hall(100, 200);
    const el = await picker(fakeApi(seatedHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: big }) })));
    await mapReady(el);
    const count = seatButtons(el).length;
    expect(count).to.be.greaterThan(10).and.lessThan(1600);
    expect(root(el).querySelector('.sizer')?.getAttribute('aria-label')).to.include('20,000 seats');
    seatButtons(el)[0]?.focus();
    await chord(['Control'], 'End');
    expect(root(el).activeElement?.getAttribute('aria-label')).to.match(/^Arena, row CV, seat 200, £30\.00/);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(root(el).activeElement?.getAttribute('aria-pressed')).to.equal('true');
    await accessible(el);
  });
});

describe('<seat-picker> best available and general admission', () => {
  afterEach(() => resetSharedBookings());

  const areas = availableAreas;

  it('best available (forced by mode): asks AvailableTickets for N and adds the chosen group', async () => {
    const api = fakeApi(
      seatedHandlers({
        getAvailableTickets: ({ requiredTicketsCount }) => areas(requiredTicketsCount),
        addTickets: () => ({ Success: true, FailureReason: 0, FailureReasonText: '', BookableTicketsCount: null, GetBasketContentResult: basketWith([ticket(200, 'Balcony', 'M', '1', 25)]) }),
      }),
    );
    const el = await picker(api, { mode: 'best-available' });
    await waitUntil(() => root(el).querySelector('[part~="option"]'), 'no options');
    expect(api.callsTo('getFullAvailability')).to.have.length(0);
    expect(api.callsTo('getAvailableTickets')).to.deep.equal([{ performanceId: 1, requiredTicketsCount: 2 }]);
    expect(text(el)).to.include('Balcony · row M, seats 1, 2 · £25.00 each · restricted view');
    await expect(el).to.be.accessible();
    const select = root(el).querySelector('[part="best"] select') as HTMLSelectElement;
    select.value = '3';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => api.callsTo('getAvailableTickets').length === 2 && text(el).includes('seats 1, 2, 3'));
    expect(api.callsTo('getAvailableTickets')[1]).to.deep.equal({ performanceId: 1, requiredTicketsCount: 3 });
    const fired = oneEvent(el, 'booking-basket-change');
    button(el, /Add 3 for £75\.00/).click();
    await fired;
    expect(api.callsTo('addTickets')[0]).to.deep.equal({ basketId: BASKET_ID, body: { Tickets: [200, 201, 202] } });
  });

  it('best available with BookableTicketsExceeded: offers to look again for that many', async () => {
    const api = fakeApi(
      seatedHandlers({
        getAvailableTickets: ({ requiredTicketsCount }) => areas(requiredTicketsCount),
        addTickets: () => { throw apiError('addTickets', 409, { Success: false, FailureReason: 8, FailureReasonText: 'BookableTicketsExceeded', BookableTicketsCount: 1, GetBasketContentResult: basketWith([]) }); },
      }),
    );
    const el = await picker(api, { mode: 'best-available' });
    await waitUntil(() => root(el).querySelector('[part~="option"]'));
    button(el, /Add 2 for £90\.00/).click();
    await waitUntil(() => text(el).includes('Only 1 ticket can still be booked'));
    button(el, /Continue with 1 ticket/).click();
    await waitUntil(() => api.callsTo('getAvailableTickets').some((a) => (a as { requiredTicketsCount: number }).requiredTicketsCount === 1));
  });

  it('general admission: FullAvailability refused → AreasPrices, area + price + count, added with BestSeats', async () => {
    const api = fakeApi(
      seatedHandlers({
        getFullAvailability: () => { throw apiError('getFullAvailability', 400, { Message: 'Not for general admission shows.' }); },
        getAreasPrices: () => ({
          PerformanceId: 1,
          AreasPrices: [
            { AreaId: 11, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 120 }, { Price: 35, FaceValue: 35, AvailableSeatsCount: 0 }] },
            { AreaId: 12, AreaName: 'Balcony', Prices: [{ Price: 30, FaceValue: 30, AvailableSeatsCount: 3 }] },
          ],
        }),
        addTickets: () => ({ Success: true, FailureReason: 0, FailureReasonText: '', BookableTicketsCount: null, GetBasketContentResult: basketWith([ticket(9, 'Balcony', '', '', 30)]) }),
      }),
    );
    const el = await picker(api);
    await waitUntil(() => root(el).querySelector('[part="general stack"], [part~="general"]'), 'no general admission');
    const radios = [...root(el).querySelectorAll<HTMLInputElement>('input[name="ga"]')];
    expect(radios.map((r) => r.parentElement?.textContent?.replace(/\s+/g, ' ').trim())).to.deep.equal(['Standing · £25.00 (120 left)', 'Balcony · £30.00 (3 left)']);
    await expect(el).to.be.accessible();
    radios[1]?.click();
    await el.updateComplete;
    const count = root(el).querySelector('[part~="general"] select') as HTMLSelectElement;
    expect([...count.options].map((o) => o.value)).to.deep.equal(['1', '2', '3']); // never more than are left
    count.value = '3';
    count.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(root(el).querySelector('[part~="general"] [part="total"]')?.textContent).to.include('£90.00');
    const fired = oneEvent(el, 'booking-basket-change');
    button(el, /Add 3 tickets to basket/).click();
    await fired;
    expect(api.callsTo('addTickets')[0]).to.deep.equal({ basketId: BASKET_ID, body: { BestSeats: { PerformanceId: 1, AreaId: 12, SeatsCount: 3, Price: 30 } } });
  });

  it('general admission known from the event (SeatingPlanSupported false): asks AreasPrices only, never FullAvailability', async () => {
    const areas = { PerformanceId: 1, AreasPrices: [{ AreaId: 11, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 4 }] }] };
    const api = fakeApi(
      seatedHandlers({
        getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9, SeatingPlanSupported: false } as EventInfo }),
        getFullAvailability: () => { throw apiError('getFullAvailability', 400, { Message: 'Not for general admission shows.' }); },
        getAreasPrices: () => areas,
      }),
    );
    const el = await picker(api);
    await waitUntil(() => root(el).querySelector('[part~="general"]'), 'no general admission');
    expect(api.callsTo('getFullAvailability'), 'the refused request is never sent').to.deep.equal([]);
    expect(api.callsTo('getEvent')).to.deep.equal([{ eventId: 5 }]); // the performance's EventId
    // Chosen through the shared selection, the event is known already: no need to read the performance first.
    const shared = fakeApi(seatedHandlers({ getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9, SeatingPlanSupported: false } as EventInfo }), getAreasPrices: () => areas }));
    const booking = testBooking(shared);
    const other = await withBooking<SeatPicker>(booking, html`<seat-picker></seat-picker>`);
    booking.selection.selectPerformance(1, 7);
    await waitUntil(() => root(other).querySelector('[part~="general"]'), 'no general admission (shared selection)');
    expect(shared.callsTo('getEvent')).to.deep.equal([{ eventId: 7 }]);
    expect(shared.callsTo('getFullAvailability')).to.deep.equal([]);
  });

  it('an event detail already read on the page (by <event-list>) is not asked again: the seats are asked for at once', async () => {
    const areas = { PerformanceId: 1, AreasPrices: [{ AreaId: 11, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 4 }] }] };
    const api = fakeApi(seatedHandlers({ getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9, SeatingPlanSupported: false } as EventInfo }), getAreasPrices: () => areas }));
    await readEvent(api, 7); // what <event-list> does when the visitor opens the event
    const booking = testBooking(api);
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker></seat-picker>`);
    booking.selection.selectPerformance(1, 7);
    await waitUntil(() => root(el).querySelector('[part~="general"]'), 'no general admission');
    expect(api.callsTo('getEvent'), 'read once, by the list').to.deep.equal([{ eventId: 7 }]);
    expect(api.callsTo('getFullAvailability')).to.deep.equal([]);
    // A seated event: FullAvailability straight away, and the plan from the same remembered detail.
    const seated = fakeApi(
      seatedHandlers({
        getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9, SeatingPlanSupported: true } as EventInfo }),
        getVenue: ({ venueId }) => ({ Venue: { VenueId: venueId, Name: 'The Lyric', PlanLink: 'https://plans.example/lyric.png' } as VenueInfo }),
      }),
    );
    await readEvent(seated, 5);
    const map = await picker(seated);
    await waitUntil(() => root(map).querySelector('[part="plan"] img'), 'no plan');
    expect(seated.callsTo('getEvent')).to.have.length(1);
    expect(seated.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: 1 }]);
  });

  it('a seated event (SeatingPlanSupported true) asks FullAvailability, and its venue plan comes from the same event detail', async () => {
    const api = fakeApi(
      seatedHandlers({
        getEvent: ({ eventId }) => ({ Event: { EventId: eventId, VenueId: 9, SeatingPlanSupported: true } as EventInfo }),
        getVenue: ({ venueId }) => ({ Venue: { VenueId: venueId, Name: 'The Lyric', PlanLink: 'https://plans.example/lyric.png' } as VenueInfo }),
      }),
    );
    const el = await picker(api);
    await waitUntil(() => root(el).querySelector('[part="plan"] img'), 'no plan', { timeout: 5000 });
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: 1 }]);
    expect(api.callsTo('getAreasPrices')).to.deep.equal([]);
    expect(api.callsTo('getEvent'), 'the event is read once').to.have.length(1);
    expect(api.callsTo('getVenue')).to.deep.equal([{ venueId: 9 }]);
  });

  it('general admission: also when FullAvailability is empty and AreasPrices has seats; sold out when neither', async () => {
    const api = fakeApi(
      seatedHandlers({
        getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [] }),
        getAreasPrices: () => ({ PerformanceId: 1, AreasPrices: [{ AreaId: 11, AreaName: 'Standing', Prices: [{ Price: 25, FaceValue: 25, AvailableSeatsCount: 4 }] }] }),
      }),
    );
    const el = await picker(api);
    await waitUntil(() => root(el).querySelector('[part~="general"]'), 'no general admission');
    const sold = await picker(
      fakeApi(seatedHandlers({ getFullAvailability: () => ({ PerformanceId: 1, EventId: 5, AvailableTickets: [] }), getAreasPrices: () => { throw apiError('getAreasPrices', 400); } })),
    );
    await waitUntil(() => text(sold).includes('No seats are left'), 'not sold out');
    await expect(sold).to.be.accessible();
  });

  it('shows nothing to choose until a performance is selected, then follows the shared selection', async () => {
    const api = fakeApi(seatedHandlers());
    const booking = testBooking(api);
    const el = await withBooking<SeatPicker>(booking, html`<seat-picker></seat-picker>`);
    expect(text(el)).to.include('Choose a performance');
    await expect(el).to.be.accessible();
    booking.selection.selectPerformance(1, 5);
    await mapReady(el);
    expect(api.callsTo('getFullAvailability')).to.deep.equal([{ performanceId: 1 }]);
  });
});
