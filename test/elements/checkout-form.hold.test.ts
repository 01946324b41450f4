/**
 * <checkout-form> shows how long the seats are still held, for the customer
 * whose page header (and its <basket-timer>) scrolled away on a phone: the
 * same countdown truth as the timer (the server's clock, the basket's earliest
 * expiry, never more than remains), the warning and final styles at 2 minutes and 30
 * seconds, at the top of the screen while the form scrolls on a narrow one,
 * and never a second voice: the timer alone announces, once per basket.
 */
import { expect, html } from '@open-wc/testing';
import { setViewport } from './helpers/engine.ts';
import sinon from 'sinon';
import { ServerClock } from '../../src/api/time.ts';
import '../../src/elements/basket-timer/basket-timer.ts';
import type { BasketTimer } from '../../src/elements/basket-timer/basket-timer.ts';
import '../../src/elements/checkout-form/checkout-form.ts';
import type { CheckoutForm } from '../../src/elements/checkout-form/checkout-form.component.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { COUNTRIES, DELIVERIES, US_STATES, checkoutOptions } from './helpers/checkout-data.ts';
import { fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';
import { fakeBasketService } from './helpers/fake-basket.ts';
import { countdownBreaches, countdownSeconds, holdTimeLeft } from './helpers/countdown-samples.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The server's now at the start: 18:00 in London on 1 July 2026. */
const SERVER_START = Date.UTC(2026, 6, 1, 17, 0, 0);
/** The visitor's clock is 15 minutes slow: the countdown must not care. */
const SKEW = -15 * MINUTE;

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

describe('<checkout-form>: how long the seats are held', () => {
  let timers: sinon.SinonFakeTimers | undefined;

  afterEach(async () => {
    timers?.restore();
    timers = undefined;
    resetSharedBookings();
    await setViewport({ width: 800, height: 600 });
  });

  async function mount(options: { clock?: ServerClock; offset?: number } = {}) {
    timers = sinon.useFakeTimers({ now: SERVER_START + SKEW, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const clock = options.clock ?? new ServerClock();
    clock.offset = options.offset ?? -SKEW;
    const service = fakeBasketService({ clock });
    const api = fakeApi(
      {
        ...service.handlers,
        getCheckoutOptions: () => checkoutOptions(),
        getAvailableDeliveries: () => ({ DeliveryTypes: DELIVERIES }),
        getCountries: () => ({ Countries: COUNTRIES }),
        getUSStates: () => ({ USStates: US_STATES }),
        getTicketPlanPrice: () => ({ Price: 2.5 }),
      },
      { clock },
    );
    const booking = testBooking(api);
    const page = await withBooking<HTMLElement>(booking, html`<div><basket-timer></basket-timer><checkout-form></checkout-form></div>`);
    const timer = page.querySelector('basket-timer') as BasketTimer;
    const el = page.querySelector('checkout-form') as CheckoutForm;
    const events: string[] = [];
    for (const type of ['booking-expiry-warning', 'booking-expiry']) document.addEventListener(type, () => events.push(type));
    /** Jump the clocks, then let promises settle and both elements render. */
    const tick = async (ms: number) => {
      timers?.tick(ms);
      for (let i = 0; i < 8; i += 1) {
        await timers?.tickAsync(0);
        await Promise.all([el.updateComplete, timer.updateComplete]);
      }
    };
    await booking.basket.add({ Tickets: [1] });
    await tick(0);
    const hold = () => el.shadowRoot?.querySelector<HTMLElement>('[part~="hold"]') ?? null;
    const shownByTimer = () => text(timer.shadowRoot?.querySelector('[part~="time"] [aria-hidden="true"]'));
    const shownByCheckout = () => text(hold()?.querySelector('.time'));
    return { el, timer, booking, clock, events, tick, hold, shownByTimer, shownByCheckout };
  }

  it('counts down with the timer, to the second, and takes its warning and final styles at 2:00 and 0:30', async () => {
    const world = await mount();
    const { el, tick, hold } = world;
    expect(el.shadowRoot?.querySelector('form'), 'the checkout rendered').to.not.equal(null);
    const seen: string[] = [];
    // Moments across the hold (ms since the add), on the seconds the display changes at.
    let at = 0;
    for (const moment of [0, SECOND, 7 * SECOND, 4 * MINUTE, 8 * MINUTE - 2 * SECOND, 8 * MINUTE - SECOND, 9.5 * MINUTE - 2 * SECOND, 9.5 * MINUTE - SECOND, 9.5 * MINUTE]) {
      await tick(moment - at);
      at = moment;
      expect(world.shownByCheckout(), `at ${moment} ms`).to.equal(world.shownByTimer());
      expect(hold()?.getAttribute('part'), `at ${moment} ms`).to.equal(`hold ${world.timer.state}`);
      seen.push(`${world.shownByCheckout()} ${hold()?.getAttribute('part')}`);
    }
    // The levels switch with the digits: warning at 2:00, final at 0:30.
    expect(seen).to.deep.equal([
      '9:59 hold normal',
      '9:58 hold normal',
      '9:52 hold normal',
      '5:59 hold normal',
      '2:01 hold normal',
      '2:00 hold warning',
      '0:31 hold warning',
      '0:30 hold final',
      '0:29 hold final',
    ]);
    // Looks the part: the final style is the danger colour, unlike the normal line.
    expect(getComputedStyle(hold() as Element).color).to.not.equal(getComputedStyle(el).color);
    timers?.restore(); // axe waits on real timers
    timers = undefined;
    await expect(el).to.be.accessible();
  });

  it('while each value is on screen it is less than remains, by at most a second, as the timer\'s is', async () => {
    const world = await mount();
    const remaining = holdTimeLeft(world.booking.basket.value.content?.Items[0], world.clock);
    expect(remaining(), 'on a second mark as it renders').to.equal(10 * MINUTE);
    const breaches = await countdownBreaches({
      timers: timers as sinon.SinonFakeTimers,
      remaining,
      shown: { checkout: world.shownByCheckout, timer: world.shownByTimer },
      settle: () => world.tick(0),
    });
    expect(breaches).to.deep.equal([]);
    expect(world.shownByCheckout()).to.equal('9:56'); // 3 s on, on a mark
  });

  it('changes the timer and the checkout line on the same boundary, every second, though a tick fires early and each render takes time', async () => {
    // A busy page: each render takes RENDER_MS, during which the visitor's clock moves on and no timer can
    // fire (one due meanwhile fires after it). `busy` is that time, read by the clock but not yet let pass on
    // the fake timers; a timer set during a render counts from the clock's reading, as a browser's does.
    const RENDER_MS = 1;
    let busy = 0;
    const clock = new ServerClock(() => Date.now() + busy);
    // Half a millisecond into the visitor's millisecond: timers run whole milliseconds (a fractional delay
    // is cut short), so a tick meant for a second boundary of the hold fires 0.5 ms before it.
    const world = await mount({ clock, offset: -SKEW + 0.5 });
    const fake = timers as sinon.SinonFakeTimers;
    const fakeSetTimeout = window.setTimeout;
    window.setTimeout = ((handler: TimerHandler, delay = 0, ...rest: unknown[]) => fakeSetTimeout(handler, Math.trunc(delay) + busy, ...rest)) as typeof window.setTimeout;
    for (const host of [world.timer, world.el] as unknown as { update(changed: unknown): void }[]) {
      const update = host.update.bind(host);
      host.update = (changed) => {
        update(changed);
        busy += RENDER_MS;
      };
    }
    /** Render what fell due, then let the time the renders took pass (firing what fell due meanwhile), until idle. */
    const rendered = async () => {
      for (let i = 0; i < 3; i += 1) await Promise.all([world.el.updateComplete, world.timer.updateComplete]);
    };
    const settle = async () => {
      await rendered();
      while (busy > 0) {
        const owed = busy;
        busy = 0;
        fake.tick(owed);
        await rendered();
      }
    };
    const remaining = holdTimeLeft(world.booking.basket.value.content?.Items[0], clock);
    const seen: string[] = [];
    const wrong: string[] = [];
    let at = 0;
    const sampleUntil = async (end: number) => {
      while (at < end) {
        // Every 50 ms, and every millisecond around the hold's second marks (where the digits change):
        // never stepping over a mark, so a tick's render happens at the instant the tick fired.
        const phase = ((remaining() % 1000) + 1000) % 1000;
        const step = phase < 4 || phase > 996 ? 1 : Math.min(50, Math.floor(phase) - 3);
        fake.tick(step);
        at += step;
        await settle();
        const left = remaining();
        const [timer, checkout] = [world.shownByTimer(), world.shownByCheckout()];
        if (timer !== checkout) wrong.push(`+${at} ms: timer ${timer}, checkout ${checkout}`);
        // While on screen, each shows less than remains, by at most a second.
        const shownMs = countdownSeconds(timer) * 1000;
        if (!(shownMs < left && left - shownMs <= 1000)) wrong.push(`+${at} ms: timer ${timer} with ${left} ms left`);
        if (seen.at(-1) !== timer) seen.push(timer);
      }
    };
    expect(remaining() % 1, 'the hold ends on a whole millisecond of the server, half a millisecond off the timers').to.be.closeTo(0.5, 1e-6);
    await sampleUntil(2350);
    // Mid-second, a fresher reading moves the server's clock 300 ms on; the timer happens to
    // re-render (something else changed), the checkout does not: both follow the clock.
    clock.offset = clock.offset + 300;
    world.timer.requestUpdate();
    await sampleUntil(6000);
    expect(wrong).to.deep.equal([]);
    // Every second shown, none skipped, each in turn.
    expect(seen).to.deep.equal(['9:59', '9:58', '9:57', '9:56', '9:55', '9:54', '9:53']);
  });

  it('is never announced: no live region of its own, the checkout says nothing per tick, and one expiry event per basket', async () => {
    const world = await mount();
    const { el, tick, hold } = world;
    const line = hold() as HTMLElement;
    expect(line.getAttribute('role')).to.equal('timer');
    expect(line.getAttribute('aria-live')).to.equal('off');
    expect(line.closest('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')).to.equal(null);
    // The time in words for a screen-reader user who reads the checkout.
    expect(text(line.querySelector('.visually-hidden'))).to.equal('9 minutes, 59 seconds');
    const spoken: string[] = [];
    const region = el.shadowRoot?.querySelector('[role="status"][aria-live="polite"]') as Element;
    new MutationObserver(() => spoken.push(text(region))).observe(region, { childList: true, characterData: true, subtree: true });
    for (let s = 0; s < 20; s += 1) await tick(30 * SECOND);
    // Ten minutes on: the hold ran out, the timer told it once.
    expect(spoken, 'the checkout\'s own live region').to.deep.equal([]);
    expect(world.events.filter((e) => e === 'booking-expiry')).to.have.length(1);
    expect(world.events.filter((e) => e === 'booking-expiry-warning')).to.have.length(2);
  });

  it('on a 360 px phone it stays at the top of the screen while the form scrolls by', async () => {
    await setViewport({ width: 360, height: 640 });
    const world = await mount();
    const line = world.hold() as HTMLElement;
    expect(getComputedStyle(line).position).to.equal('sticky');
    const submit = world.el.shadowRoot?.querySelector('[part~="submit-button"]') as HTMLElement;
    // Far down the form, at its submit button: the line is still on screen, at the top.
    submit.scrollIntoView({ block: 'end' });
    const rect = line.getBoundingClientRect();
    expect(rect.top).to.be.within(-0.5, 0.5);
    expect(rect.bottom).to.be.lessThan(80);
    expect(world.el.shadowRoot?.querySelector('[part~="item"]')?.getBoundingClientRect().bottom ?? 0, 'the form really scrolled').to.be.lessThan(0);
    window.scrollTo(0, 0);
  });
});
