/**
 * Every record of the ticket service interface (its operations: docs/service-operations.md),
 * field names exactly as on the wire: PascalCase, including the service's own
 * spelling `TotalAvailableTickesCount`. Nullability follows the interface.
 *
 * Browser-safe: no DOM, no Node.
 */

/** ISO 8601 without offset, `yyyy-MM-ddTHH:mm:ss[.fff]`, service wall-clock (see time.ts). */
export type ServiceDateTime = string;
/** A globally unique identifier string. */
export type Guid = string;

// ---------------------------------------------------------------- enumerations

/** AddItemToBasketFailureReason. Numbers from the service's public portal; trust FailureReasonText over the number. */
export const FailureReason = {
  None: 0,
  TicketNotAvailable: 1,
  BasketIsLocked: 2,
  TicketsLimitExceeded: 3,
  TicketsLimitSubceeded: 4,
  TicketLeavesSingleSeat: 5,
  BoxOfficeApiUnavailable: 6,
  TicketForNonBookablePerformance: 7,
  /** Named by the interface; its number is not public (8 is ours). */
  BookableTicketsExceeded: 8,
} as const;
export type FailureReasonName = keyof typeof FailureReason;
/** On the wire a number; values outside the known list must never crash a consumer. */
export type FailureReasonCode = number;

/** PaymentGateLanguage. */
export const Language = {
  English: 1,
  German: 2,
  Spanish: 3,
  Italian: 4,
  Swedish: 5,
  French: 6,
  Dutch: 7,
  Norwegian: 8,
  Danish: 9,
} as const;
export type LanguageCode = number;

export const ReviewsOrder = {
  DateDescending: 0,
  DateAscending: 1,
  StarsDescending: 2,
  StarsAscending: 3,
} as const;
export type ReviewsOrderCode = number;

export const EventTypeId = {
  Musical: 1,
  Play: 2,
  Attraction: 3,
  BalletAndDance: 4,
  Opera: 5,
  Comedy: 6,
  Drama: 7,
  Concerts: 12,
} as const;

export const DeliveryTypeId = {
  BoxOfficeCollection: 1,
  DeliveryUK: 2,
  DeliveryInternational: 3,
  AgentToPrint: 4,
  PrintAtHome: 5,
  VenueDispatch: 6,
  SpecialDelivery: 7,
} as const;

/** MultimediaContent.Type: 0 is a YouTube video; other values exist. */
export const MultimediaType = { YouTube: 0 } as const;

/** BarcodeType strings seen: Pdf417, QRCode; others may occur. */
export type BarcodeType = 'Pdf417' | 'QRCode' | (string & {});

/** E-ticket Type strings: PDF and one value per wallet-pass platform. */
export type ETicketType = 'PDF' | (string & {});

// ---------------------------------------------------------------- basket

export interface BasketTicket {
  TicketId: number;
  TicketName1: string;
  TicketName2: string;
  FaceValue: number;
  SellingPrice: number;
  IsRestrictedView: boolean;
  RestrictionDescription: string | null;
  Barcode: string;
  BarcodeType: BarcodeType;
  /** Present only in the submitted basket summary. */
  ScheduledOn?: ServiceDateTime | null;
}

export interface BasketItem {
  BasketItemId: number;
  EventId: number;
  EventName: string;
  ImageUrl: string | null;
  PerformanceDate: ServiceDateTime;
  AreaName: string;
  Seats: string[];
  Tickets: BasketTicket[];
  VenueId: number;
  VenueName: string;
  VenueAddress: string;
  VenueCity: string;
  VenuePostCode: string;
  PriceSubTotal: number;
  /** Unit and meaning not shown by the interface: never drive a countdown from it. */
  ReservationValidity: number;
  ExpirationDate: ServiceDateTime;
}

export interface DeliveryInformation {
  DeliveryType: number;
  DeliveryPrice: number;
  CustomerEmail: string;
  BillingFirstName: string;
  BillingSurname: string;
  BillingAddressLine1: string;
  BillingAddressLine2: string;
  BillingPostCode: string;
  BillingPhoneNumber: string;
  BillingCity: string;
  BillingStateCode: string;
  BillingCountry: string;
  BillingCountryName: string;
  DeliveryFirstName: string;
  DeliverySurname: string;
  DeliveryAddressLine1: string;
  DeliveryAddressLine2: string;
  DeliveryPostCode: string;
  DeliveryPhoneNumber: string;
  DeliveryCity: string;
  DeliveryStateCode: string;
  DeliveryCountry: string;
  DeliveryCountryName: string;
  DeliveryAddressSame: boolean;
}

/** Basket content: Get Basket detail, and GetBasketContentResult of add/delete. */
export interface BasketContent {
  BasketId: Guid;
  /** Earliest reservation expiry; `0001-01-01T00:00:00` for an empty basket. */
  MinExpirationDate: ServiceDateTime;
  DeliveryInformation: DeliveryInformation | null;
  Items: BasketItem[];
  DiscountInformation: string | null;
}

export interface ProtectionInformation {
  ProtectedTicketsCount: number;
  TotalProtectionPrice: number;
}

export interface DeliveryType {
  DeliveryTypeId: number;
  DeliveryTypeName: string;
  DeliveryTypePrice: number;
}

export interface CheckoutNotice {
  Message: string;
  RequiresCustomerConfirmation: boolean;
}

export interface ETicketNotice {
  EventId: number;
  Message: string;
}

export interface ETicketLink {
  Type: ETicketType;
  DownloadUrl: string;
}

export interface GetBasketETicketsItem {
  TicketId: number;
  ETickets: ETicketLink[];
}

export interface BestSeatsRequest {
  PerformanceId: number;
  AreaId: number;
  SeatsCount: number;
  Price: number;
}

// ---------------------------------------------------------------- basket requests and responses

export interface CreateBasketResult {
  Success: boolean;
  BasketId: Guid;
}

/** Exactly one of the two members. */
export type AddTicketsV2Body = { Tickets: number[]; BestSeats?: never } | { BestSeats: BestSeatsRequest; Tickets?: never };

/**
 * v3 body. The interface does not show it; our sandbox's design (upstream-facts.md):
 * `{ TicketIds }` for specific seats or `{ AreaId, SeatsCount, Price }` for general admission.
 */
export type AddTicketsV3Body =
  | { TicketIds: number[]; AreaId?: never; SeatsCount?: never; Price?: never }
  | { AreaId: number; SeatsCount: number; Price: number; TicketIds?: never };

export interface AddTicketsResult {
  Success: boolean;
  FailureReason: FailureReasonCode;
  /** Name of the FailureReason value; trusted over the number. */
  FailureReasonText: string;
  /** Set only when FailureReason is BookableTicketsExceeded; a point-in-time value. */
  BookableTicketsCount: number | null;
  GetBasketContentResult: BasketContent;
}

export interface CheckoutOptions {
  CheckoutNotices: CheckoutNotice[];
  ETicketNotices: ETicketNotice[];
  CustomerEmailIsMandatory: boolean;
}

interface OrderCustomerFields {
  BasketId: Guid;
  Email: string;
  Name: string;
  LastName: string;
  AddressLine1?: string;
  AddressLine2?: string;
  CompanyName?: string;
  City?: string;
  /** Billing country identifier (Country.CountryId). */
  Country?: number;
  Zip?: string;
  Phone?: string;
  /** Obsolete: use Phone. */
  Mobile?: string;
  /** Applied only for the United States. */
  StateCode?: string;
  DeliveryType: number;
  RequireTicketPlan?: boolean;
  SendConfirmationEmail?: boolean;
  TransactionReference?: string;
}

export interface SubmitOrderBody extends OrderCustomerFields {
  SuccessReturnUrl: string;
  FailureReturnUrl: string;
  PaymentGateLanguage?: LanguageCode;
}

export interface SubmitOrderOnAccountBody extends OrderCustomerFields {
  ReturnUrl: string;
}

export interface SubmitOrderResult {
  Success: boolean;
  PaymentRedirectUrl: string;
}

export interface SubmitOrderOnAccountResult {
  Success: boolean;
  BookingReference: string;
}

export interface SubmittedBasketSummary {
  TransactionReference: number;
  BasketId: Guid;
  DeliveryInformation: DeliveryInformation | null;
  BasketItems: BasketItem[];
  BookingReference: string;
  ProtectionInformation: ProtectionInformation | null;
  DiscountInformation: string | null;
}

export interface DeliveryTypesResult {
  DeliveryTypes: DeliveryType[];
}

export interface ETicketsResult {
  Items: GetBasketETicketsItem[];
}

/** Delete from Basket / Delete all from Basket. */
export interface BasketChangeResult {
  Success: boolean;
  GetBasketContentResult: BasketContent;
}

// ---------------------------------------------------------------- events

export interface ImageInfo {
  Width: number;
  Height: number;
  Url: string;
}

export interface MultimediaContent {
  Type: number;
  Url: string;
}

export interface ExternalLink {
  /** Website, and several social-network and video-site kinds. */
  ExternalLinkType: string;
  Link: string;
  DisplayTitle: string;
}

export interface CastMember {
  Name: string;
  Description: string;
  Nationality: string;
  ActorUrlPath: string;
  Image: ImageInfo;
  BirthDate: ServiceDateTime | null;
  ExternalLinks: ExternalLink[];
}

export interface EventInfo {
  EventId: number;
  EventType: number;
  Name: string;
  /** May contain HTML: render only through the sanitizer. */
  Description: string;
  VenueId: number;
  RunningTime: string;
  /** Absent from the venue-events list. */
  AgeRating?: number | null;
  MinimumAge: string;
  ImportantNotice: string;
  MainImageUrl: string;
  SmallImageUrl: string;
  /** Absent from the venue-events list. */
  DetailImageUrl?: string;
  SpecialGraphics: string;
  OfferLabel: string;
  ShortOfferText: string;
  /** May contain HTML: render only through the sanitizer. */
  LongOfferText: string;
  CurrentPrice: number;
  OfferPrice: number;
  EventMinimumPrice: number;
  StartDate: ServiceDateTime;
  EndDate: ServiceDateTime;
  Images: ImageInfo[];
  MultimediaContent: MultimediaContent[];
  EventDetailUrl: string;
  TagLine: string;
  PrintAtHomeTicketsEnabled: boolean;
  /** Absent from the venue-events list. */
  Accessibility?: string | null;
  /** Absent from the venue-events list. */
  ContentWarnings?: string | null;
  /** Only in Get Event detail. */
  SeatingPlanSupported?: boolean;
  /** Only in Get Event detail. */
  EventSeriesIds?: number[];
  /** Only in Get Event detail. */
  Cast?: CastMember[];
}

export interface EventsResult {
  Events: EventInfo[];
}

export interface EventDetailResult {
  Event: EventInfo;
}

export interface PerformanceInfo {
  PerformanceId: number;
  PerformanceDate: ServiceDateTime;
  TicketCount: number;
  TotalSeatsCount: number;
  /** Total available tickets (the service spells it so). */
  TotalAvailableTickesCount: number;
  ContainsDiscountOfferTickets: boolean;
  ContainsNoFeeOfferTickets: boolean;
  MinimumTicketPrice: number;
  MaximumConsecutiveSeatsCount: number;
  EventId: number;
  PairedPerformances: number[] | null;
  /** false: added to a basket together with tickets of its paired performance. */
  DirectlyBookablePerformance: boolean;
}

export interface EventPerformancesResult {
  EventId: number;
  Performances: PerformanceInfo[];
}

export interface PreliminaryPerformanceInfo {
  PerformanceId: number;
  PerformanceDate: ServiceDateTime;
  MinimalTicketPrice: number;
  MaximalTicketPrice: number;
}

export interface PreliminaryBookingInfoResult {
  Performances: PreliminaryPerformanceInfo[];
}

export interface Review {
  ConsumerName: string;
  Stars: number;
  CreatedAt: ServiceDateTime;
  Content: string;
}

export interface ReviewsResult {
  Reviews: Review[];
  ReviewsCount: number;
  AverageRating: number;
  HighestPossibleRating: number;
  CurrentReviewsCount: number;
  CurrentReviewsFrom: number;
}

// ---------------------------------------------------------------- venues

export interface VenueInfo {
  VenueId: number;
  Name: string;
  /** May contain HTML: render only through the sanitizer. */
  Info: string | null;
  Address: string;
  City: string;
  Postcode: string | null;
  Telephone: string | null;
  Fax: string | null;
  Email: string | null;
  NearestTube: string | null;
  Train: string | null;
  /** Seating plan image address. */
  PlanLink: string;
  ImageUrl: string;
}

export interface VenuesResult {
  Venues: VenueInfo[];
}

export interface VenueDetailResult {
  Venue: VenueInfo;
}

// ---------------------------------------------------------------- performances

export interface PerformanceResult {
  Performance: PerformanceInfo;
}

export interface PerformancesResult {
  Performances: PerformanceInfo[];
}

export interface TicketAreaTicket {
  TicketId: number;
  TicketName1: string;
  TicketName2: string;
  IsRestrictedView: boolean;
  /**
   * What restricts the view, for a restricted-view ticket (null otherwise). Not in the interface's
   * TicketAreaInfo table, but in the service's DTO library (TicketInfo) and sent by the sandbox.
   */
  RestrictionDescription?: string | null;
}

export interface TicketAreaInfo {
  AreaName: string;
  SellingPrice: number;
  FaceValue: number;
  TicketName1: string;
  Tickets: TicketAreaTicket[];
  SingleItemBookLink: string;
}

export interface AvailableTicketsResult {
  PerformanceId: number;
  EventId: number;
  TicketAreas: TicketAreaInfo[];
}

export interface FullTicketInfo {
  TicketId: number;
  AreaName: string;
  TicketName1: string;
  TicketName2: string;
  SellingPrice: number;
  FaceValue: number;
  RestrictedView: boolean;
  Description: string | null;
}

export interface FullAvailabilityResult {
  PerformanceId: number;
  EventId: number;
  AvailableTickets: FullTicketInfo[];
}

export interface AreaPrice {
  Price: number;
  FaceValue: number;
  AvailableSeatsCount: number;
}

export interface AreaPriceGroup {
  AreaId: number;
  AreaName: string;
  Prices: AreaPrice[];
}

/**
 * Get Area prices as it may arrive: the interface's sample names the list
 * `AreasPrices`, its field table `PricesPerArea`. The client accepts both.
 */
export interface AreasPricesWire {
  PerformanceId: number;
  AreasPrices?: AreaPriceGroup[];
  PricesPerArea?: AreaPriceGroup[];
}

/** What the client hands the elements: always `AreasPrices`. */
export interface AreasPricesResult {
  PerformanceId: number;
  AreasPrices: AreaPriceGroup[];
}

export interface SeatsSelectionValidationBody {
  TicketIds: number[];
}

export interface SeatsSelectionValidationResult {
  SelectionValid: boolean;
  /** The selection cannot be booked. */
  DisableBooking: boolean;
  ErrorMessagePlan: string;
  ErrorMessageBasket: string;
  /** Id of the invalid seat. */
  InvalidSeatID: string;
}

// ---------------------------------------------------------------- system

export interface Country {
  CountryId: number;
  CountryName: string;
  Ordering: number;
  /** Two-letter code. */
  ISO3166: string;
}

export interface USState {
  StateId: number;
  StateName: string;
  StateCode: string;
}

export interface EventType {
  EventTypeId: number;
  EventTypeName: string;
}

export interface CountriesResult {
  Countries: Country[];
}

export interface USStatesResult {
  USStates: USState[];
}

export interface EventTypesResult {
  EventTypes: EventType[];
}

export interface TicketPlanPriceResult {
  Price: number;
}

// ---------------------------------------------------------------- from the service's DTO library only
// Five operations the interface leaves out; their shapes are the service's published DTO classes
// (LondonTheatreDirect/api-v2-dto-classes), field names exactly as there.

/** Get Seating plan: `GET /rest/v2/Performances/{performanceId}/SeatingPlan`. */
export interface SeatingPlanResult {
  /** Address of an image of the house: its areas, rows and seats. */
  SeatingPlanUrl: string;
}

/** Check ticket availability: `GET /rest/v2/TicketAvailability/{ticketId}`. */
export interface TicketAvailabilityResult {
  TicketId: number;
  IsAvailable: boolean;
}

/** One performance of several events' Performances: less than PerformanceInfo. */
export interface EventPerformanceSummary {
  PerformanceId: number;
  PerformanceDate: ServiceDateTime;
  /** True for a general-admission (unreserved) performance. */
  IsUnreserved: boolean;
}

export interface EventPerformancesSummary {
  EventId: number;
  Performances: EventPerformanceSummary[];
}

/** Several events' Performances: `GET /rest/v2/Events/{id1},{id2}/Performances`. */
export interface EventsPerformancesResult {
  Events: EventPerformancesSummary[];
}

/** One available ticket of an event's AvailableTickets, with its venue. */
export interface AvailableTicketInfo {
  VenueId: number;
  VenueName: string;
  VenueAddress: string;
  VenueCity: string;
  TicketName1: string;
  TicketName2: string;
  /** Seats with the same index in one row sit next to each other. */
  AdjacencyIndex: number;
  FaceValue: number;
  SellingPrice: number;
  DirectBookingUrl: string;
  /** The area's name. */
  TicketArea: string;
  TicketId: number;
  IsRestrictedView: boolean;
  RestrictionDescription: string | null;
}

/** The tickets of one area at one price. `FacePrice` is the DTO's own name for the face value here. */
export interface AvailableTicketsBlockInfo {
  AreaName: string;
  FacePrice: number;
  SellingPrice: number;
  AvailableTicketsInfos: AvailableTicketInfo[];
}

export interface AvailablePerformanceInfo {
  PerformanceId: number;
  PerformanceDate: ServiceDateTime;
  MinimumTicketPrice: number;
  AvailableTicketInfos: AvailableTicketInfo[];
  AvailableTicketsBlockInfos: AvailableTicketsBlockInfo[];
}

export interface AvailableEventInfo {
  EventName: string;
  EventId: number;
  AvailablePerformanceInfos: AvailablePerformanceInfo[];
}

/** An event's available tickets: `GET /rest/v2/Events/{eventId}/AvailableTickets`. */
export interface EventAvailableTicketsResult {
  AvailableEvent: AvailableEventInfo;
}

/** Several events' available tickets: `GET /rest/v2/Events/{eventIds}/AvailableTickets` (GetEventsAvailableTicketsResult). */
export interface EventsAvailableTicketsResult {
  AvailableEvents: AvailableEventInfo[];
}

export interface PrintAtHomeTicketInfo {
  TicketId: number | null;
  TicketName1: string;
  TicketName2: string;
}

export interface GeneratedPrintAtHomeTicket {
  Ticket: PrintAtHomeTicketInfo;
  /** Size of the file at DownloadUrl, in bytes. */
  FileSize: number;
  DownloadUrl: string;
}

/** Print-at-home tickets of a booked basket: `GET /rest/v2/Baskets/{basketId}/PrintAtHomeTickets`. */
export interface PrintAtHomeTicketsResult {
  AllTicketsGenerated: boolean;
  RequestedTicketsCount: number;
  GeneratedTicketsCount: number;
  GeneratedTickets: GeneratedPrintAtHomeTicket[];
}

/**
 * Error body of the service (ASP.NET Web API shape). There is no `ErrorCode`: no class of the service's
 * DTO library has one; the one coded failure is Add Tickets' FailureReason (AddTicketsResult).
 */
export interface ServiceErrorBody {
  Message?: string;
  MessageDetail?: string;
}
