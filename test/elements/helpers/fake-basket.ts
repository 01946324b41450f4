/**
 * A small in-memory basket service for browser tests: handlers for the basket
 * operations of `fakeApi`, with holds that run out by the SERVER clock (the
 * fake api's `ServerClock`, whose `offset` plays the visitor's clock error).
 *
 *   const service = fakeBasketService({ clock });
 *   const api = fakeApi({ ...service.handlers }, { clock });
 *
 * Every ticket id added becomes one basket item "Show <id>", held for
 * `holdMs` (10 minutes by default) from the server's now. `getBasket` leaves
 * out items whose ExpirationDate has passed, as the service releases them.
 */
import { ApiError } from '../../../src/api/client.ts';
import type { OperationName } from '../../../src/api/operations.ts';
import { instantToServiceTime, MIN_SERVICE_DATE_TIME, ServerClock } from '../../../src/api/time.ts';
import type { AddTicketsResult, AddTicketsV2Body, BasketContent, BasketItem } from '../../../src/api/types.ts';
import type { Handlers } from './fake-api.ts';

/** What the real client throws for a status (no test-framework import, so demo pages can use this file). */
function apiError(operation: OperationName, status: number): ApiError {
  return new ApiError(operation, status, { Message: `HTTP ${status}` }, `HTTP ${status}`);
}

export interface FakeBasketService {
  handlers: Handlers;
  clock: ServerClock;
  /** Items per basket id, including expired ones (filtered when read). */
  baskets: Map<string, BasketItem[]>;
  /** The content the service would answer now (expired items left out). */
  content(basketId: string): BasketContent;
  /** Add an item as the service would (used to seed a basket). */
  addItem(basketId: string, ticketId: number, holdMs?: number): BasketItem;
  /** The service forgets a basket (then answers 404). */
  drop(basketId: string): void;
}

export interface FakeBasketOptions {
  clock?: ServerClock;
  /** The service's zone for DateTimes (default Europe/London). */
  timeZone?: string;
  /** Hold length (default 10 minutes). */
  holdMs?: number;
}

export function fakeBasketService(options: FakeBasketOptions = {}): FakeBasketService {
  const clock = options.clock ?? new ServerClock();
  const timeZone = options.timeZone ?? 'Europe/London';
  const holdMs = options.holdMs ?? 10 * 60_000;
  const baskets = new Map<string, BasketItem[]>();
  let nextItemId = 100;
  let nextBasket = 1;

  /** The instant each item's hold runs out (kept as a number: no parsing of the wire text). */
  const holds = new Map<number, number>();
  const expiry = (item: BasketItem): number => holds.get(item.BasketItemId) ?? 0;

  function live(basketId: string): BasketItem[] {
    const items = baskets.get(basketId);
    if (!items) throw apiError('getBasket', 404);
    const now = clock.now();
    return items.filter((item) => expiry(item) > now);
  }

  function content(basketId: string): BasketContent {
    const items = live(basketId);
    const min = items.length ? Math.min(...items.map(expiry)) : null;
    return {
      BasketId: basketId,
      MinExpirationDate: min === null ? MIN_SERVICE_DATE_TIME : instantToServiceTime(min, timeZone, { milliseconds: true }),
      DeliveryInformation: null,
      Items: items,
      DiscountInformation: null,
    };
  }

  function addItem(basketId: string, ticketId: number, hold = holdMs): BasketItem {
    const items = baskets.get(basketId);
    if (!items) throw apiError('addTickets', 404);
    const until = clock.now() + hold;
    const item: BasketItem = {
      BasketItemId: nextItemId++,
      EventId: 7,
      EventName: `Show ${ticketId}`,
      ImageUrl: null,
      PerformanceDate: '2026-12-19T19:30:00',
      AreaName: 'Stalls',
      Seats: [`A${ticketId}`],
      Tickets: [
        { TicketId: ticketId, TicketName1: 'Adult', TicketName2: '', FaceValue: 45, SellingPrice: 45, IsRestrictedView: false, RestrictionDescription: null, Barcode: '', BarcodeType: 'Pdf417' },
      ],
      VenueId: 3,
      VenueName: 'The Playhouse',
      VenueAddress: '1 Stage Door Lane',
      VenueCity: 'London',
      VenuePostCode: 'WC2N 5DE',
      PriceSubTotal: 45,
      ReservationValidity: 600,
      ExpirationDate: instantToServiceTime(until, timeZone, { milliseconds: true }),
    };
    holds.set(item.BasketItemId, until);
    items.push(item);
    return item;
  }

  function ticketsOf(body: AddTicketsV2Body): number[] {
    return body.Tickets ?? [body.BestSeats?.AreaId ?? 0];
  }

  const handlers: Handlers = {
    createBasket: () => {
      const id = `00000000-0000-4000-8000-${String(nextBasket++).padStart(12, '0')}`;
      baskets.set(id, []);
      return { Success: true, BasketId: id };
    },
    addTickets: ({ basketId, body }): AddTicketsResult => {
      live(basketId);
      for (const ticket of ticketsOf(body)) addItem(basketId, ticket);
      return { Success: true, FailureReason: 0, FailureReasonText: 'None', BookableTicketsCount: null, GetBasketContentResult: content(basketId) };
    },
    getBasket: ({ basketId }) => content(basketId),
    deleteBasketItem: ({ basketId, basketItemId }) => {
      const items = baskets.get(basketId);
      if (!items) throw apiError('deleteBasketItem', 404);
      baskets.set(
        basketId,
        items.filter((i) => i.BasketItemId !== basketItemId),
      );
      return { Success: true, GetBasketContentResult: content(basketId) };
    },
    deleteAllFromBasket: ({ basketId }) => {
      if (!baskets.has(basketId) || live(basketId).length === 0) throw apiError('deleteAllFromBasket', 403);
      baskets.set(basketId, []);
      return { Success: true, GetBasketContentResult: content(basketId) };
    },
  };

  return {
    handlers,
    clock,
    baskets,
    content,
    addItem,
    drop: (basketId) => void baskets.delete(basketId),
  };
}

/** The add-result of a refused add (the 409 body, or a 200 with Success false). */
export function refusedAdd(content: BasketContent, reason: string, code: number, bookableTicketsCount: number | null = null): AddTicketsResult {
  return { Success: false, FailureReason: code, FailureReasonText: reason, BookableTicketsCount: bookableTicketsCount, GetBasketContentResult: content };
}

/** A promise with its resolve/reject outside (to hold a request in flight). */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
