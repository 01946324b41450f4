/** Benchmark page: <seat-picker>, fed by an in-page fake api (no network). */
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import type { FullTicketInfo, PerformanceInfo } from '../../src/api/types.ts';
import '../../src/elements/booking-provider/booking-provider.ts';
import '../../src/elements/seat-picker/seat-picker.ts';
import { createBooking } from '../../src/state/booking.ts';
import { resolveConfig } from '../../src/state/config.ts';
import { centre, install, nextPaint } from './harness.ts';
import { generateVenue } from './venue.ts';

/**
 * An in-page fake api: the venue's FullAvailability, the performance and its
 * event (a seated show) as objects already in memory, as the peers get theirs
 * and as the picker finds the event when <event-list> has read it; every other
 * operation is refused with a 404, which the picker takes in its stride (no
 * plan image, no paired notice).
 */
function fakeApi(tickets: FullTicketInfo[]): ApiClient {
  const real = createApiClient({ endpoint: '/bench-api', fetch: async () => new Response('{"Message":"Not found"}', { status: 404 }) });
  const performance = (performanceId: number): PerformanceInfo => ({
    PerformanceId: performanceId,
    PerformanceDate: '2026-12-01T19:30:00' as PerformanceInfo['PerformanceDate'],
    TicketCount: tickets.length,
    TotalSeatsCount: tickets.length,
    TotalAvailableTickesCount: tickets.length,
    ContainsDiscountOfferTickets: false,
    ContainsNoFeeOfferTickets: false,
    MinimumTicketPrice: 20,
    MaximumConsecutiveSeatsCount: 10,
    EventId: 1,
    PairedPerformances: null,
    DirectlyBookablePerformance: true,
  });
  return {
    ...real,
    getPerformance: async ({ performanceId }) => ({ Performance: performance(performanceId) }) as Awaited<ReturnType<ApiClient['getPerformance']>>,
    getEvent: async ({ eventId }) => ({ Event: { EventId: eventId, Name: 'Bench', VenueId: 0, SeatingPlanSupported: true } }) as unknown as Awaited<ReturnType<ApiClient['getEvent']>>,
    getFullAvailability: async ({ performanceId }) => ({ PerformanceId: performanceId, EventId: 1, AvailableTickets: tickets }),
  };
}

install({
  async render(size) {
    const venue = generateVenue(size);
    const tickets: FullTicketInfo[] = venue.seats
      .filter((s) => s.available)
      .map((s) => ({ TicketId: s.id, AreaName: 'Hall', TicketName1: s.rowLabel, TicketName2: s.seatLabel, SellingPrice: s.price, FaceValue: s.price, RestrictedView: false, Description: null }));
    const api = fakeApi(tickets);
    const booking = createBooking(resolveConfig({ endpoint: '/bench-api' }), { api, restore: false });

    performance.mark('seat-bench-start');
    const start = performance.now();
    const provider = document.createElement('booking-provider');
    provider.booking = booking;
    const picker = document.createElement('seat-picker');
    picker.setAttribute('performance-id', '1');
    provider.append(picker);
    document.body.append(provider);
    const root = picker.shadowRoot as ShadowRoot;
    await new Promise<void>((resolve) => {
      // The map's canvas is in the DOM: it is painted in the coming frame (the picker paints
      // from its ResizeObserver report, after layout and before paint), which nextPaint waits out.
      const done = () => root.querySelector('canvas') !== null;
      if (done()) return resolve();
      const observer = new MutationObserver(() => {
        if (done()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(root, { childList: true, subtree: true });
    });
    await nextPaint();
    return performance.now() - start;
  },
  target() {
    const root = document.querySelector('seat-picker')?.shadowRoot;
    const seat = [...(root?.querySelectorAll('.sizer button[aria-pressed="false"]') ?? [])].find((b) => centre(b));
    return centre(seat);
  },
  selected() {
    return document.querySelector('seat-picker')?.shadowRoot?.querySelectorAll('.sizer button[aria-pressed="true"]').length ?? 0;
  },
});
