/**
 * Small catalogue records for the browsing elements' tests: events, a venue,
 * reviews, event types and performances, built by functions so each test can
 * change what it needs.
 */
import type {
  EventInfo,
  EventType,
  PerformanceInfo,
  PreliminaryPerformanceInfo,
  Review,
  ReviewsResult,
  VenueInfo,
} from '../../../src/api/types.ts';

export function eventFixture(id: number, overrides: Partial<EventInfo> = {}): EventInfo {
  return {
    EventId: id,
    EventType: 1,
    Name: `Show ${id}`,
    Description: `<p>About <strong>show ${id}</strong>.</p>`,
    VenueId: 10,
    RunningTime: '2 hours 30 minutes',
    AgeRating: 12,
    MinimumAge: '',
    ImportantNotice: '',
    MainImageUrl: `https://img.example/${id}/main.jpg`,
    SmallImageUrl: `https://img.example/${id}/small.jpg`,
    DetailImageUrl: `https://img.example/${id}/detail.jpg`,
    SpecialGraphics: '',
    OfferLabel: '',
    ShortOfferText: '',
    LongOfferText: '',
    CurrentPrice: 45,
    OfferPrice: 0,
    EventMinimumPrice: 25,
    StartDate: '2026-01-01T00:00:00',
    EndDate: '2027-12-31T00:00:00',
    Images: [
      { Width: 640, Height: 360, Url: `https://img.example/${id}/640.jpg` },
      { Width: 320, Height: 180, Url: `https://img.example/${id}/320.jpg` },
      { Width: 1280, Height: 720, Url: `https://img.example/${id}/1280.jpg` },
    ],
    MultimediaContent: [],
    EventDetailUrl: `https://shows.example/${id}`,
    TagLine: `The tag line of show ${id}`,
    PrintAtHomeTicketsEnabled: true,
    Accessibility: null,
    ContentWarnings: null,
    ...overrides,
  };
}

export function eventDetailFixture(id: number, overrides: Partial<EventInfo> = {}): EventInfo {
  return eventFixture(id, {
    Description: '<p>A <em>dazzling</em> musical. <a href="https://shows.example/about">More</a></p>',
    LongOfferText: '<ul><li>Save on Tuesdays</li></ul>',
    ShortOfferText: 'Tuesday saver',
    ImportantNotice: 'Latecomers will not be admitted.',
    MinimumAge: 'Under 5s not admitted',
    Accessibility: 'Step-free access to the stalls.',
    ContentWarnings: 'Strobe lighting.',
    SeatingPlanSupported: true,
    EventSeriesIds: [],
    Cast: [
      {
        Name: 'Ada Lovelace',
        Description: 'As the Countess',
        Nationality: 'British',
        ActorUrlPath: 'ada-lovelace',
        Image: { Width: 200, Height: 200, Url: 'https://img.example/cast/ada.jpg' },
        BirthDate: null,
        ExternalLinks: [
          { ExternalLinkType: 'Website', Link: 'https://ada.example/', DisplayTitle: 'Official site' },
          { ExternalLinkType: 'Website', Link: 'javascript:window.__xss=true', DisplayTitle: 'Bad link' },
        ],
      },
    ],
    ...overrides,
  });
}

export function venueFixture(id = 10, overrides: Partial<VenueInfo> = {}): VenueInfo {
  return {
    VenueId: id,
    Name: 'The Playhouse',
    Info: '<p>Bar opens at <b>18:00</b>.</p>',
    Address: '1 Stage Street',
    City: 'London',
    Postcode: 'WC2N 5DU',
    Telephone: null,
    Fax: null,
    Email: null,
    NearestTube: 'Embankment',
    Train: 'Charing Cross',
    PlanLink: 'https://img.example/plans/playhouse.png',
    ImageUrl: 'https://img.example/venues/playhouse.jpg',
    ...overrides,
  };
}

export const EVENT_TYPES: EventType[] = [
  { EventTypeId: 1, EventTypeName: 'Musical' },
  { EventTypeId: 2, EventTypeName: 'Play' },
  { EventTypeId: 6, EventTypeName: 'Comedy' },
];

/** `total` reviews, newest first; `reviewsPage` answers a Get Event Reviews call from them. */
export function reviewsFixture(total: number): Review[] {
  return Array.from({ length: total }, (_, i) => ({
    ConsumerName: `Reviewer ${i + 1}`,
    Stars: (i % 5) + 1,
    CreatedAt: `2026-10-${String(28 - (i % 27)).padStart(2, '0')}T12:00:00`,
    Content: `Review number ${i + 1}`,
  }));
}

export function reviewsPage(all: Review[], args: { from?: number; count?: number }): ReviewsResult {
  const from = args.from ?? 0;
  const count = args.count ?? 10;
  const page = all.slice(from, from + count);
  return {
    Reviews: page,
    ReviewsCount: all.length,
    AverageRating: all.length ? all.reduce((s, r) => s + r.Stars, 0) / all.length : 0,
    HighestPossibleRating: 5,
    CurrentReviewsCount: page.length,
    CurrentReviewsFrom: from,
  };
}

export function performanceFixture(id: number, date: string, overrides: Partial<PerformanceInfo> = {}): PerformanceInfo {
  return {
    PerformanceId: id,
    PerformanceDate: date,
    TicketCount: 0,
    TotalSeatsCount: 500,
    TotalAvailableTickesCount: 300,
    ContainsDiscountOfferTickets: false,
    ContainsNoFeeOfferTickets: false,
    MinimumTicketPrice: 25,
    MaximumConsecutiveSeatsCount: 10,
    EventId: 1,
    PairedPerformances: null,
    DirectlyBookablePerformance: true,
    ...overrides,
  };
}

export function preliminaryFixture(p: PerformanceInfo, min: number, max: number): PreliminaryPerformanceInfo {
  return { PerformanceId: p.PerformanceId, PerformanceDate: p.PerformanceDate, MinimalTicketPrice: min, MaximalTicketPrice: max };
}
