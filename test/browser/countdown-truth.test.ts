/**
 * Countdown truth, in the browser: <basket-timer> with the REAL api client
 * against a fake network whose server stamps its answers as our proxy does
 * (`Server-Timing: clock;desc=<ms>` and `Date`), with uneven latency both
 * ways, the visitor's clock faked 15 minutes slow, right and 15 minutes fast,
 * and the browser in three time zones (emulated by Chromium and Firefox; WebKit runs this file in a
 * browser per zone, TZ in its environment).
 *
 * At hundreds of moments over a hold's ten minutes the m:ss shown is compared
 * with the hold's true remaining time (its ExpirationDate against the
 * service's clock): it is never more, and less by at most a second plus the
 * round trip (the display shows what holds until its next tick, a second on;
 * the clock it counts against may run up to a round trip ahead, plus 100 ppm
 * of drift). The worst case per run is printed.
 */
import { expect, fixture, html } from '@open-wc/testing';
import sinon from 'sinon';
import { createApiClient } from '../../src/api/client.ts';
import { matchRoute, validateParams } from '../../src/api/match.ts';
import type { OperationName } from '../../src/api/operations.ts';
import { clockTiming, ServerClock, serviceTimeToInstant } from '../../src/api/time.ts';
import '../../src/elements/basket-timer/basket-timer.ts';
import '../../src/elements/booking-provider/booking-provider.ts';
import type { BasketTimer } from '../../src/elements/basket-timer/basket-timer.ts';
import { createBooking, registerSharedBooking, resetSharedBookings } from '../../src/state/booking.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { countdownSeconds } from '../elements/helpers/countdown-samples.ts';
import { fakeBasketService } from '../elements/helpers/fake-basket.ts';
import { controlVisibility, type VisibilityControl } from '../elements/helpers/visibility.ts';
import { visitorZones } from '../elements/helpers/engine.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The service's true time at the start: 18:00:00.437 in London. The .437 is what a Date header loses. */
const TRUE_START = Date.UTC(2026, 6, 1, 17, 0, 0, 437);
/** Request and answer travel times (ms): uneven, as on a phone. */
const UP = 70;
const DOWN = 25;
/** How far ahead the clock may run: a round trip, plus the drift allowed over the ten minutes since the last reading (100 ppm). */
const AHEAD = UP + DOWN + 10 * MINUTE * 1e-4;

interface Run {
  zone: string;
  skew: number;
  /** Whether the answers carry the clock stamp (our proxy), or only Date. */
  stamped: boolean;
}

const visitor = await visitorZones(['America/New_York', 'Europe/London', 'Asia/Tokyo']);
const runs: Run[] = [];
for (const zone of visitor.zones) {
  for (const skew of [-15 * MINUTE, 0, 15 * MINUTE]) runs.push({ zone, skew, stamped: true });
}

describe('countdown truth: the time shown against the hold\'s true remaining time', () => {
  let timers: sinon.SinonFakeTimers | undefined;
  let page: VisibilityControl;
  const results: string[] = [];

  beforeEach(() => {
    page = controlVisibility('visible');
  });
  afterEach(async () => {
    timers?.restore();
    timers = undefined;
    resetSharedBookings();
    page.restore();
    await visitor.enter(undefined);
  });
  after(() => {
    console.log(`countdown error (shown − true remaining, s; clock ahead of the service, ms):\n${results.join('\n')}`);
  });

  async function measure({ zone, skew, stamped }: Run): Promise<{ worstMore: number; worstLess: number; clockAhead: number[] }> {
    await visitor.enter(zone);
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).to.equal(zone);
    // The visitor's clock: the true time plus the skew, and fake.
    timers = sinon.useFakeTimers({ now: TRUE_START + skew, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const clock = timers;
    const trueNow = () => Date.now() - skew;
    // The service: holds by its own (true) clock.
    const serviceClock = new ServerClock();
    serviceClock.offset = -skew;
    const service = fakeBasketService({ clock: serviceClock });
    const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    const network = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      await wait(UP);
      const url = new URL(String(input), 'http://theatre.example');
      const match = matchRoute(init?.method ?? 'GET', url.pathname.replace(/^\/api/, ''));
      if (match.kind !== 'match') throw new Error(`no route ${url.pathname}`);
      const params = validateParams(match.op, match.rawPath, url.searchParams);
      if (!params.ok) throw new Error(params.message);
      const handler = service.handlers[match.op.name as OperationName] as ((args: unknown) => unknown) | undefined;
      if (!handler) throw new Error(`not served: ${match.op.name}`);
      const body = await handler({ ...params.path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const at = trueNow();
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Date: new Date(at).toUTCString() };
      if (stamped) headers['Server-Timing'] = clockTiming(at);
      await wait(DOWN);
      return new Response(JSON.stringify(body), { status: 200, headers });
    };
    const api = createApiClient({ endpoint: '/api', fetch: network });
    const booking = createBooking(resolveConfig({ endpoint: `/countdown-${zone}-${skew}-${stamped}` }), { api, restore: false });
    registerSharedBooking(booking);
    const provider = await fixture(html`<booking-provider .booking=${booking}><basket-timer></basket-timer></booking-provider>`);
    const el = provider.querySelector('basket-timer') as BasketTimer;

    /** Move the clocks in small steps until `promise` settles (the network's waits are fake timers). */
    const through = async <T>(promise: Promise<T>): Promise<T> => {
      let settled = false;
      void promise.finally(() => {
        settled = true;
      });
      for (let i = 0; i < 1000 && !settled; i += 1) await clock.tickAsync(5);
      return promise;
    };
    expect((await through(booking.basket.add({ Tickets: [41] }))).ok).to.equal(true);
    const item = booking.basket.value.content?.Items[0];
    if (!item) throw new Error('nothing held');
    // The hold's true end: its ExpirationDate (London wall clock, to the ms) on the service's clock.
    const holdEnd = serviceTimeToInstant(item.ExpirationDate, 'Europe/London');

    const errors: number[] = [];
    const clockAhead: number[] = [];
    const sample = async () => {
      await el.updateComplete;
      const text = el.shadowRoot?.querySelector('[part~="time"] [aria-hidden="true"]')?.textContent?.trim() ?? '';
      const left = (holdEnd - trueNow()) / SECOND;
      if (left <= 0) return;
      // "Time is up" a moment early (the clock it counts against may be a round trip ahead) is 0:00.
      errors.push((el.state === 'expired' ? 0 : countdownSeconds(text)) - left);
      clockAhead.push(api.clock.latest() - trueNow());
    };
    await sample();
    // The first seconds, at every phase of a second; a basket read half way (a fresh reading); the last seconds.
    for (let i = 0; i < 60; i += 1) {
      await clock.tickAsync(173);
      await sample();
    }
    await through(booking.basket.refresh());
    // Long stretches in one jump (timers due on the way run, then one render), as a busy page would.
    const jump = async (ms: number) => {
      clock.tick(ms);
      await clock.tickAsync(0);
    };
    await jump(4 * MINUTE + 37);
    for (let i = 0; i < 60; i += 1) {
      await clock.tickAsync(211);
      await sample();
    }
    await jump(holdEnd - trueNow() - 5 * SECOND);
    while (holdEnd - trueNow() > 0) {
      await clock.tickAsync(97);
      await sample();
    }
    expect(errors.length).to.be.greaterThan(150);
    return { worstMore: Math.max(...errors), worstLess: Math.min(...errors), clockAhead };
  }

  for (const run of runs) {
    const label = `${run.zone}, visitor's clock ${run.skew < 0 ? '15 min slow' : run.skew > 0 ? '15 min fast' : 'right'}`;
    it(`${label}: never more than remains, and at most a second (plus the round trip) less`, async function () {
      this.timeout(60_000);
      const { worstMore, worstLess, clockAhead } = await measure(run);
      results.push(`  ${label}: shown − true ∈ [${worstLess.toFixed(3)}, ${worstMore.toFixed(3)}] s; clock ${Math.min(...clockAhead).toFixed(1)}–${Math.max(...clockAhead).toFixed(1)} ms ahead`);
      expect(worstMore, 'never shows more time than remains').to.be.at.most(0);
      expect(worstLess, 'less by at most a second plus the round trip').to.be.at.least(-1 - AHEAD / SECOND);
      // The clock it counts against is never behind the service's, and ahead by at most a round trip (and drift).
      expect(Math.min(...clockAhead)).to.be.at.least(0);
      expect(Math.max(...clockAhead)).to.be.at.most(AHEAD);
    });
  }

  if (visitor.zones.includes('Asia/Tokyo')) it('an answer with only a Date header (no stamp): still never more than remains', async function () {
    this.timeout(60_000);
    const { worstMore } = await measure({ zone: 'Asia/Tokyo', skew: -15 * MINUTE + 613, stamped: false });
    results.push(`  Asia/Tokyo, Date header only: never more (worst ${worstMore.toFixed(3)} s)`);
    expect(worstMore).to.be.at.most(0);
  });
});
