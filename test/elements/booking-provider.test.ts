import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { BookingController } from '../../src/controllers/booking-controller.ts';
import { defineElement } from '../../src/define.ts';
import { resetSharedBookings } from '../../src/state/booking.ts';
import { fakeApi, testBooking, withBooking } from './helpers/fake-api.ts';

class ProbeElement extends LitElement {
  static override properties = { endpoint: {} };
  endpoint: string | null = null;
  readonly booking = new BookingController(this);
}
defineElement('probe-element', ProbeElement);

describe('booking-provider and the booking controller', () => {
  afterEach(() => resetSharedBookings());

  it('gives descendants the injected booking through context', async () => {
    const booking = testBooking(fakeApi({}));
    const probe = await withBooking<ProbeElement>(booking, html`<probe-element></probe-element>`);
    expect(probe.booking.booking).to.equal(booking);
  });

  it('gives loose elements on one endpoint one booking, and another endpoint another', async () => {
    const root = await fixture(html`<div>
      <header><probe-element endpoint="/one"></probe-element></header>
      <article><section><probe-element endpoint="/one"></probe-element></section></article>
      <aside><probe-element endpoint="/two"></probe-element></aside>
    </div>`);
    const [a, b, c] = [...root.querySelectorAll('probe-element')] as ProbeElement[];
    expect(a?.booking.booking).to.equal(b?.booking.booking);
    expect(a?.booking.booking.basket).to.equal(b?.booking.booking.basket);
    expect(c?.booking.booking).to.not.equal(a?.booking.booking);
    expect(c?.booking.booking.config.endpoint).to.equal('/two');
  });

  it('defining a tag twice is harmless', () => {
    expect(() => defineElement('probe-element', class extends LitElement {})).not.to.throw();
    expect(customElements.get('probe-element')).to.equal(ProbeElement);
  });
});
