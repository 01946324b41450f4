/**
 * Runtime records → wire records, exactly as the interface shapes them.
 * DateTimes are wall clock in the sandbox's zone without offset; image URLs
 * that the sandbox serves itself are made absolute with its public URL.
 */
import { instantToServiceTime, MIN_SERVICE_DATE_TIME } from '../../api/time.ts';
import type {
  BasketContent,
  BasketItem,
  BasketTicket,
  DeliveryType,
  EventInfo,
  FullTicketInfo,
  PerformanceInfo,
  VenueInfo,
} from '../../api/types.ts';
import { round2, type Basket, type EventRt, type Item, type PerfRt, type Store, type VenueRt } from './store.ts';

export interface ViewContext {
  store: Store;
  /** Origin (and optional path prefix) of every absolute URL, without a trailing slash. */
  origin: string;
  timeZone: string;
}

export const absolute = (url: string, origin: string) => (url.startsWith('/') ? `${origin}${url}` : url);

export function serviceTime(ctx: ViewContext, instant: number, milliseconds = false): string {
  return instantToServiceTime(instant, ctx.timeZone, { milliseconds });
}

/** Row and seat designators and the label of a seat ("A12"; "Standing 23" for general admission). */
export function seatNames(perf: PerfRt, seat: number): { name1: string; name2: string; label: string } {
  const def = perf.venue.seats[seat];
  if (!def) return { name1: '', name2: '', label: '' };
  if (perf.event.def.GeneralAdmission) {
    const first = def.area.rows[0]?.start ?? 0;
    const n = String(seat - first + 1);
    return { name1: def.area.name, name2: n, label: `${def.area.name} ${n}` };
  }
  return { name1: def.row, name2: String(def.number), label: `${def.row}${def.number}` };
}

// ---------------------------------------------------------------- venues and events

export function venueInfo(ctx: ViewContext, venue: VenueRt): VenueInfo {
  const { Areas: _areas, ...info } = venue.def;
  return { ...info, PlanLink: absolute(info.PlanLink, ctx.origin), ImageUrl: absolute(info.ImageUrl, ctx.origin) };
}

export type EventShape = 'list' | 'venue' | 'detail';

export function upcoming(ctx: ViewContext, event: EventRt): PerfRt[] {
  const now = ctx.store.now();
  return event.performances.filter((p) => p.instant > now);
}

export function eventInfo(ctx: ViewContext, event: EventRt, shape: EventShape): EventInfo {
  const d = event.def;
  const perfs = upcoming(ctx, event);
  const faces = d.Prices.map((p) => p.FaceValue);
  const minFace = faces.length ? Math.min(...faces) : 0;
  const bestDiscount = Math.max(0, ...perfs.map((p) => p.discount));
  const abs = (u: string) => absolute(u, ctx.origin);
  const first = perfs[0];
  const last = perfs[perfs.length - 1];
  const info: EventInfo = {
    EventId: d.EventId,
    EventType: d.EventType,
    Name: d.Name,
    Description: d.Description,
    VenueId: d.VenueId,
    RunningTime: d.RunningTime,
    AgeRating: d.AgeRating ?? null,
    MinimumAge: d.MinimumAge,
    ImportantNotice: d.ImportantNotice,
    MainImageUrl: abs(d.MainImageUrl),
    SmallImageUrl: abs(d.SmallImageUrl),
    DetailImageUrl: abs(d.DetailImageUrl ?? d.MainImageUrl),
    SpecialGraphics: d.SpecialGraphics,
    OfferLabel: d.OfferLabel,
    ShortOfferText: d.ShortOfferText,
    LongOfferText: d.LongOfferText,
    CurrentPrice: minFace,
    OfferPrice: round2(minFace * (1 - bestDiscount)),
    EventMinimumPrice: round2(minFace * (1 - bestDiscount)),
    StartDate: first ? serviceTime(ctx, first.instant) : serviceTime(ctx, ctx.store.now()),
    EndDate: last ? serviceTime(ctx, last.instant) : serviceTime(ctx, ctx.store.now()),
    Images: d.Images.map((i) => ({ ...i, Url: abs(i.Url) })),
    MultimediaContent: d.MultimediaContent,
    EventDetailUrl: d.EventDetailUrl,
    TagLine: d.TagLine,
    PrintAtHomeTicketsEnabled: d.PrintAtHomeTicketsEnabled,
    Accessibility: d.Accessibility ?? null,
    ContentWarnings: d.ContentWarnings ?? null,
  };
  if (shape === 'venue') {
    delete info.AgeRating;
    delete info.DetailImageUrl;
    delete info.Accessibility;
    delete info.ContentWarnings;
  }
  if (shape === 'detail') {
    info.SeatingPlanSupported = !d.GeneralAdmission;
    info.EventSeriesIds = d.EventSeriesIds ?? [];
    info.Cast = d.Cast.map((c) => ({ ...c, Image: { ...c.Image, Url: abs(c.Image.Url) } }));
  }
  return info;
}

// ---------------------------------------------------------------- performances

export function performanceInfo(ctx: ViewContext, perf: PerfRt): PerformanceInfo {
  const summary = ctx.store.summary(perf);
  return {
    PerformanceId: perf.id,
    PerformanceDate: serviceTime(ctx, perf.instant),
    TicketCount: summary.free,
    TotalSeatsCount: summary.onSale,
    TotalAvailableTickesCount: summary.free,
    ContainsDiscountOfferTickets: perf.discount > 0,
    ContainsNoFeeOfferTickets: perf.def.NoFeeOffer === true,
    MinimumTicketPrice: summary.minFreePrice ?? summary.minPrice ?? 0,
    MaximumConsecutiveSeatsCount: perf.event.def.GeneralAdmission ? summary.free : summary.maxConsecutive,
    EventId: perf.event.def.EventId,
    PairedPerformances: perf.paired.length ? perf.paired.map((p) => p.id) : null,
    DirectlyBookablePerformance: perf.bookable,
  };
}

export function fullTicketInfo(ctx: ViewContext, perf: PerfRt, seat: number): FullTicketInfo {
  const def = perf.venue.seats[seat];
  const names = seatNames(perf, seat);
  return {
    TicketId: ctx.store.ticketId(perf, seat),
    AreaName: def?.area.name ?? '',
    TicketName1: names.name1,
    TicketName2: names.name2,
    SellingPrice: ctx.store.sellingPrice(perf, seat) ?? 0,
    FaceValue: ctx.store.faceValue(perf, seat) ?? 0,
    RestrictedView: def?.restriction !== null && def?.restriction !== undefined,
    Description: def?.restriction ?? null,
  };
}

// ---------------------------------------------------------------- baskets

function basketTicket(ctx: ViewContext, item: Item, seat: number, summary: boolean): BasketTicket {
  const full = fullTicketInfo(ctx, item.perf, seat);
  const ticket: BasketTicket = {
    TicketId: full.TicketId,
    TicketName1: full.TicketName1,
    TicketName2: full.TicketName2,
    FaceValue: full.FaceValue,
    SellingPrice: full.SellingPrice,
    IsRestrictedView: full.RestrictedView,
    RestrictionDescription: full.Description,
    Barcode: item.basket.barcodes.get(full.TicketId) ?? '',
    BarcodeType: 'Pdf417',
  };
  if (summary) ticket.ScheduledOn = serviceTime(ctx, item.perf.instant);
  return ticket;
}

/** When an item stops being held: its own expiry, or the payment deadline while payment is awaited. */
export function itemExpiry(basket: Basket, item: Item): number {
  return basket.state === 'submitted' && basket.paymentDeadline !== null ? basket.paymentDeadline : item.expiresAt;
}

export function basketItem(ctx: ViewContext, item: Item, summary = false): BasketItem {
  const perf = item.perf;
  const venue = perf.venue.def;
  const event = perf.event.def;
  const tickets = item.seats.map((s) => basketTicket(ctx, item, s, summary));
  const expiry = itemExpiry(item.basket, item);
  return {
    BasketItemId: item.id,
    EventId: event.EventId,
    EventName: event.Name,
    ImageUrl: absolute(event.SmallImageUrl, ctx.origin),
    PerformanceDate: serviceTime(ctx, perf.instant),
    AreaName: item.area.name,
    Seats: item.seats.map((s) => seatNames(perf, s).label),
    Tickets: tickets,
    VenueId: venue.VenueId,
    VenueName: venue.Name,
    VenueAddress: venue.Address,
    VenueCity: venue.City,
    VenuePostCode: venue.Postcode ?? '',
    PriceSubTotal: round2(tickets.reduce((sum, t) => sum + t.SellingPrice, 0)),
    ReservationValidity: Math.max(0, Math.floor((expiry - ctx.store.now()) / 60_000)),
    ExpirationDate: serviceTime(ctx, expiry, true),
  };
}

export function basketContent(ctx: ViewContext, basket: Basket): BasketContent {
  const items = basket.items;
  const min = items.length ? Math.min(...items.map((i) => itemExpiry(basket, i))) : null;
  return {
    BasketId: basket.id,
    MinExpirationDate: min === null ? MIN_SERVICE_DATE_TIME : serviceTime(ctx, min, true),
    DeliveryInformation: basket.order?.delivery ?? null,
    Items: items.map((i) => basketItem(ctx, i)),
    DiscountInformation: null,
  };
}

export const EMPTY_CONTENT = (basketId: string): BasketContent => ({
  BasketId: basketId,
  MinExpirationDate: MIN_SERVICE_DATE_TIME,
  DeliveryInformation: null,
  Items: [],
  DiscountInformation: null,
});

/** Amount to pay: tickets, delivery and refund protection. */
export function basketTotal(ctx: ViewContext, basket: Basket): { tickets: number; delivery: number; protection: number; total: number } {
  const tickets = round2(
    basket.items.reduce((sum, i) => sum + i.seats.reduce((s, seat) => s + (ctx.store.sellingPrice(i.perf, seat) ?? 0), 0), 0),
  );
  const delivery = basket.order?.delivery.DeliveryPrice ?? 0;
  const protection = basket.order?.requireTicketPlan ? round2(ticketCount(basket) * ctx.store.catalogue.System.TicketPlanPrice) : 0;
  return { tickets, delivery, protection, total: round2(tickets + delivery + protection) };
}

export function ticketCount(basket: Basket): number {
  return basket.items.reduce((n, i) => n + i.seats.length, 0);
}

/** Delivery types a basket can use: print-at-home only when every event allows it. */
export function basketDeliveries(ctx: ViewContext, basket: Basket): DeliveryType[] {
  const printAtHome = basket.items.every((i) => i.perf.event.def.PrintAtHomeTicketsEnabled);
  return ctx.store.catalogue.System.DeliveryTypes.filter((d) => printAtHome || d.DeliveryTypeId !== 5);
}
