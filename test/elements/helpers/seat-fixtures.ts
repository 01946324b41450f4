/** Service records for <seat-picker> tests. */
import type { BasketContent, FullTicketInfo, PerformanceInfo } from '../../../src/api/types.ts';
import { letterLabel } from '../../../src/state/seat-map.ts';

export function ticket(id: number, area: string, row: string, seat: string, price: number, restricted = false, description: string | null = null): FullTicketInfo {
  return { TicketId: id, AreaName: area, TicketName1: row, TicketName2: seat, SellingPrice: price, FaceValue: price, RestrictedView: restricted, Description: description };
}

export function performance(id: number, extra: Partial<PerformanceInfo> = {}): { Performance: PerformanceInfo } {
  return {
    Performance: {
      PerformanceId: id, PerformanceDate: '2026-12-04T19:30:00', TicketCount: 0, TotalSeatsCount: 100, TotalAvailableTickesCount: 50,
      ContainsDiscountOfferTickets: false, ContainsNoFeeOfferTickets: false, MinimumTicketPrice: 30, MaximumConsecutiveSeatsCount: 10,
      EventId: 5, PairedPerformances: null, DirectlyBookablePerformance: true, ...extra,
    },
  };
}

export const BASKET_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A basket holding these tickets (as one item of performance 1's event). */
export function basketWith(tickets: FullTicketInfo[]): BasketContent {
  return {
    BasketId: BASKET_ID, MinExpirationDate: '2099-01-01T00:00:00', DeliveryInformation: null, DiscountInformation: null,
    Items: tickets.length
      ? [{
          BasketItemId: 1, EventId: 5, EventName: 'Show', ImageUrl: null, PerformanceDate: '2026-12-04T19:30:00', AreaName: tickets[0]?.AreaName ?? '',
          Seats: tickets.map((t) => `${t.TicketName1}${t.TicketName2}`), VenueId: 9, VenueName: 'Lyric', VenueAddress: '', VenueCity: '', VenuePostCode: '',
          PriceSubTotal: tickets.reduce((s, t) => s + t.SellingPrice, 0), ReservationValidity: 600, ExpirationDate: '2099-01-01T00:00:00',
          Tickets: tickets.map((t) => ({
            TicketId: t.TicketId, TicketName1: t.TicketName1, TicketName2: t.TicketName2, FaceValue: t.FaceValue, SellingPrice: t.SellingPrice,
            IsRestrictedView: t.RestrictedView, RestrictionDescription: t.Description, Barcode: '', BarcodeType: 'Pdf417',
          })),
        }]
      : [],
  };
}

/** An AvailableTickets answer for `n` tickets: n seats together in the Stalls (£45) and in the Balcony (£25, the first restricted). */
export function availableAreas(n: number) {
  return {
    PerformanceId: 1,
    EventId: 5,
    TicketAreas: [
      { AreaName: 'Stalls', SellingPrice: 45, FaceValue: 45, TicketName1: 'F', SingleItemBookLink: '', Tickets: Array.from({ length: n }, (_, i) => ({ TicketId: 100 + i, TicketName1: 'F', TicketName2: String(i + 1), IsRestrictedView: false })) },
      { AreaName: 'Balcony', SellingPrice: 25, FaceValue: 25, TicketName1: 'M', SingleItemBookLink: '', Tickets: Array.from({ length: n }, (_, i) => ({ TicketId: 200 + i, TicketName1: 'M', TicketName2: String(i + 1), IsRestrictedView: i === 0 })) },
    ],
  };
}

/** A rectangular hall of `rows × columns` seats (rows A, B, … AA …), two price bands. */
export function hall(rows: number, columns: number): FullTicketInfo[] {
  const out: FullTicketInfo[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) out.push(ticket(1_000_000 + r * columns + c, 'Arena', letterLabel(r), String(c + 1), r < rows / 2 ? 45 : 30));
  return out;
}
