/**
 * Service records for the checkout and confirmation tests, shaped exactly as
 * the wire has them, and a fake api that answers the checkout's calls.
 */
import type {
  BasketContent,
  BasketItem,
  CheckoutOptions,
  Country,
  DeliveryType,
  ETicketsResult,
  SubmittedBasketSummary,
  USState,
} from '../../../src/api/types.ts';
import { fakeApi, type FakeApi, type Handlers } from './fake-api.ts';

export const BASKET_ID = '6f1c2a8e-4b3d-4e5f-9a7b-1c2d3e4f5a6b';

export function basketItems(): BasketItem[] {
  return [
    {
      BasketItemId: 11,
      EventId: 100,
      EventName: 'The Lantern Keeper',
      ImageUrl: null,
      PerformanceDate: '2026-12-05T19:30:00',
      AreaName: 'Stalls',
      Seats: ['A12', 'A13'],
      Tickets: [
        { TicketId: 1001, TicketName1: 'Row A', TicketName2: 'Seat 12', FaceValue: 45, SellingPrice: 49.5, IsRestrictedView: false, RestrictionDescription: null, Barcode: '', BarcodeType: 'Pdf417' },
        { TicketId: 1002, TicketName1: 'Row A', TicketName2: 'Seat 13', FaceValue: 45, SellingPrice: 49.5, IsRestrictedView: true, RestrictionDescription: 'Pillar on the left', Barcode: '', BarcodeType: 'Pdf417' },
      ],
      VenueId: 7,
      VenueName: 'Aldwych Playhouse',
      VenueAddress: '1 Aldwych',
      VenueCity: 'London',
      VenuePostCode: 'WC2B 4DF',
      PriceSubTotal: 99,
      ReservationValidity: 10,
      ExpirationDate: '2026-12-01T10:10:00',
    },
    {
      BasketItemId: 12,
      EventId: 200,
      EventName: 'Comedy Night',
      ImageUrl: null,
      PerformanceDate: '2026-12-06T14:00:00',
      AreaName: 'Circle',
      Seats: ['C4'],
      Tickets: [
        { TicketId: 2001, TicketName1: 'Row C', TicketName2: 'Seat 4', FaceValue: 22, SellingPrice: 25, IsRestrictedView: false, RestrictionDescription: null, Barcode: '', BarcodeType: 'QRCode' },
      ],
      VenueId: 8,
      VenueName: 'Riverside Hall',
      VenueAddress: '2 Bank',
      VenueCity: 'London',
      VenuePostCode: 'SE1 9AA',
      PriceSubTotal: 25,
      ReservationValidity: 10,
      ExpirationDate: '2026-12-01T10:10:00',
    },
  ];
}

export function basketContent(items: BasketItem[] = basketItems()): BasketContent {
  return { BasketId: BASKET_ID, MinExpirationDate: '2026-12-01T10:10:00', DeliveryInformation: null, Items: items, DiscountInformation: null };
}

export const DELIVERIES: DeliveryType[] = [
  { DeliveryTypeId: 1, DeliveryTypeName: 'Box Office Collection', DeliveryTypePrice: 1 },
  { DeliveryTypeId: 5, DeliveryTypeName: 'Print at home tickets', DeliveryTypePrice: 0 },
  { DeliveryTypeId: 2, DeliveryTypeName: 'Delivery UK', DeliveryTypePrice: 4.5 },
];

export const COUNTRIES: Country[] = [
  { CountryId: 840, CountryName: 'United States', Ordering: 2, ISO3166: 'US' },
  { CountryId: 826, CountryName: 'United Kingdom', Ordering: 1, ISO3166: 'GB' },
  { CountryId: 40, CountryName: 'Austria', Ordering: 3, ISO3166: 'AT' },
];

export const US_STATES: USState[] = [
  { StateId: 1, StateName: 'New York', StateCode: 'NY' },
  { StateId: 2, StateName: 'California', StateCode: 'CA' },
];

export function checkoutOptions(overrides: Partial<CheckoutOptions> = {}): CheckoutOptions {
  return {
    CheckoutNotices: [
      { Message: 'Latecomers are admitted at a suitable break.', RequiresCustomerConfirmation: false },
      { Message: 'I understand that tickets cannot be exchanged.', RequiresCustomerConfirmation: true },
    ],
    ETicketNotices: [{ EventId: 100, Message: 'E-tickets for this show arrive 48 hours before the performance.' }],
    CustomerEmailIsMandatory: true,
    ...overrides,
  };
}

export function submittedSummary(): SubmittedBasketSummary {
  const items = basketItems().map((item) => ({
    ...item,
    Tickets: item.Tickets.map((t) => ({ ...t, ScheduledOn: '2026-12-03T09:00:00' })),
  }));
  return {
    TransactionReference: 555,
    BasketId: BASKET_ID,
    DeliveryInformation: {
      DeliveryType: 5, DeliveryPrice: 0, CustomerEmail: 'ada@example.com', BillingFirstName: 'Ada', BillingSurname: 'Lovelace',
      BillingAddressLine1: '12 Example Street', BillingAddressLine2: '', BillingPostCode: 'N1 1AA', BillingPhoneNumber: '+44 20 7946 0000',
      BillingCity: 'London', BillingStateCode: '', BillingCountry: 'GB', BillingCountryName: 'United Kingdom',
      DeliveryFirstName: 'Ada', DeliverySurname: 'Lovelace', DeliveryAddressLine1: '12 Example Street', DeliveryAddressLine2: '',
      DeliveryPostCode: 'N1 1AA', DeliveryPhoneNumber: '+44 20 7946 0000', DeliveryCity: 'London', DeliveryStateCode: '',
      DeliveryCountry: 'GB', DeliveryCountryName: 'United Kingdom', DeliveryAddressSame: true,
    },
    BasketItems: items,
    BookingReference: 'SD-7Q4K2M',
    ProtectionInformation: { ProtectedTicketsCount: 3, TotalProtectionPrice: 7.5 },
    DiscountInformation: null,
  };
}

export function eTickets(): ETicketsResult {
  return {
    Items: [
      { TicketId: 1001, ETickets: [
        { Type: 'PDF', DownloadUrl: 'https://tickets.example/1001.pdf' },
        { Type: 'AppleWallet', DownloadUrl: 'https://tickets.example/1001.pkpass' },
        { Type: 'GoogleWallet', DownloadUrl: 'https://tickets.example/1001.json' },
      ] },
      { TicketId: 1002, ETickets: [
        { Type: 'PDF', DownloadUrl: 'https://tickets.example/1002.pdf' },
        { Type: 'HolographicPass', DownloadUrl: 'https://tickets.example/1002.holo' },
        { Type: 'PDF', DownloadUrl: 'javascript:alert(1)' },
      ] },
      { TicketId: 2001, ETickets: [{ Type: 'PDF', DownloadUrl: 'https://tickets.example/2001.pdf' }] },
    ],
  };
}

/** A fake api answering everything the checkout asks, with overrides. */
export function checkoutApi(overrides: Handlers = {}): FakeApi {
  let content = basketContent();
  return fakeApi({
    createBasket: () => ({ Success: true, BasketId: BASKET_ID }),
    addTickets: () => ({ Success: true, FailureReason: 0, FailureReasonText: 'None', BookableTicketsCount: null, GetBasketContentResult: content }),
    getBasket: () => content,
    deleteBasketItem: ({ basketItemId }) => {
      content = basketContent(content.Items.filter((i) => i.BasketItemId !== basketItemId));
      return { Success: true, GetBasketContentResult: content };
    },
    deleteAllFromBasket: () => {
      content = basketContent([]);
      return { Success: true, GetBasketContentResult: content };
    },
    getCheckoutOptions: () => checkoutOptions(),
    getAvailableDeliveries: () => ({ DeliveryTypes: DELIVERIES }),
    getCountries: () => ({ Countries: COUNTRIES }),
    getUSStates: () => ({ USStates: US_STATES }),
    getTicketPlanPrice: () => ({ Price: 2.5 }),
    getDeliveryTypes: () => ({ DeliveryTypes: DELIVERIES }),
    submitOrder: () => ({ Success: true, PaymentRedirectUrl: 'https://pay.example/sandbox/pay/' + BASKET_ID }),
    ...overrides,
  });
}
