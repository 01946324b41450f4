/**
 * The sandbox's catalogue: venues with their seating, events, performances and
 * the System lists. A plain JSON-loadable object: generate one from a seed
 * (`generateCatalogue`), or write one by hand and load it (`loadCatalogue`).
 *
 * Wire records are reused where they fit (VenueInfo, Review, CastMember...);
 * the rest (seating, prices, sales) is the sandbox's own and documented here.
 * Image URLs that start with `/` are served by the sandbox and made absolute
 * (with its public URL) when emitted.
 */
import { readFileSync } from 'node:fs';
import type { CastMember, Country, DeliveryType, EventInfo, EventType, Review, ServiceDateTime, USState, VenueInfo } from '../../api/types.ts';
import { DEFAULT_TIME_ZONE, formatWallClock, instantToServiceTime, serviceTimeToInstant, wallClockAt } from '../../api/time.ts';
import { countries, deliveryTypes, eventTypes, TICKET_PLAN_PRICE, usStates } from './system-lists.ts';

/** A row of seats numbered FirstSeat (default 1) upwards. */
export interface CatalogueRow {
  Row: string;
  Seats: number;
  FirstSeat?: number;
  /** Price band of the row (an index the event's Prices refer to). */
  Band: number;
  /** Restricted-view seats of this row, with a description and optionally their own (cheaper) band. */
  Restricted?: { Seats: number[]; Description: string; Band?: number }[];
}

export interface CatalogueArea {
  AreaId: number;
  AreaName: string;
  /** Rows from the front to the back. For a general-admission show they are places, not seats. */
  Rows: CatalogueRow[];
}

export interface CatalogueVenue extends VenueInfo {
  Areas: CatalogueArea[];
}

/** An event: the wire EventInfo fields that do not depend on performances, plus the sandbox's own. */
export interface CatalogueEvent
  extends Omit<EventInfo, 'CurrentPrice' | 'OfferPrice' | 'EventMinimumPrice' | 'StartDate' | 'EndDate' | 'Cast' | 'SeatingPlanSupported'> {
  /** General admission: no seat map (AreasPrices + BestSeats only). */
  GeneralAdmission: boolean;
  /** FaceValue per area and band. A seat whose area/band has no price is not on sale. */
  Prices: { AreaId: number; Band: number; FaceValue: number }[];
  Cast: CastMember[];
  Reviews: Review[];
}

export interface CataloguePerformance {
  PerformanceId: number;
  EventId: number;
  /** Wall clock in the catalogue's time zone. */
  PerformanceDate: ServiceDateTime;
  /** Share of seats already sold before the sandbox starts (0–1); 1 is sold out. */
  SoldFraction: number;
  /** Discount on every seat (0–1): SellingPrice below FaceValue. */
  Discount?: number;
  NoFeeOffer?: boolean;
  /** The supplier's box office is down: every add for this performance is a 502 (for trying error paths). */
  SupplierUnavailable?: boolean;
  PairedPerformances?: number[];
  /** Default true. False: only added together with its paired performance. */
  DirectlyBookable?: boolean;
}

export interface Catalogue {
  Version: 1;
  /** Zone of every DateTime in the catalogue; default Europe/London. */
  TimeZone?: string;
  Venues: CatalogueVenue[];
  Events: CatalogueEvent[];
  Performances: CataloguePerformance[];
  System: {
    Countries: Country[];
    USStates: USState[];
    EventTypes: EventType[];
    DeliveryTypes: DeliveryType[];
    TicketPlanPrice: number;
  };
}

/** Read a catalogue from a JSON file, checking its outline. Throws an Error naming what is wrong. */
export function loadCatalogue(path: string): Catalogue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the catalogue ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return checkCatalogue(parsed, path);
}

/** Check the outline of a catalogue object (from JSON): the arrays exist and references resolve. */
export function checkCatalogue(value: unknown, source = 'catalogue'): Catalogue {
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not a JSON object');
  const c = value as Partial<Catalogue>;
  if (c.Version !== 1) fail('Version must be 1');
  for (const key of ['Venues', 'Events', 'Performances'] as const) if (!Array.isArray(c[key])) fail(`${key} must be an array`);
  if (typeof c.System !== 'object' || c.System === null) fail('System is missing');
  const cat = c as Catalogue;
  const venues = new Set(cat.Venues.map((v) => v.VenueId));
  const events = new Set(cat.Events.map((e) => e.EventId));
  const perfs = new Set(cat.Performances.map((p) => p.PerformanceId));
  for (const v of cat.Venues) if (!Array.isArray(v.Areas)) fail(`venue ${v.VenueId} has no Areas`);
  for (const e of cat.Events) if (!venues.has(e.VenueId)) fail(`event ${e.EventId} names unknown venue ${e.VenueId}`);
  for (const p of cat.Performances) {
    if (!events.has(p.EventId)) fail(`performance ${p.PerformanceId} names unknown event ${p.EventId}`);
    for (const paired of p.PairedPerformances ?? []) if (!perfs.has(paired)) fail(`performance ${p.PerformanceId} is paired with unknown ${paired}`);
    try {
      serviceTimeToInstant(p.PerformanceDate, cat.TimeZone ?? DEFAULT_TIME_ZONE);
    } catch {
      fail(`performance ${p.PerformanceId} has an invalid PerformanceDate`);
    }
  }
  if (venues.size !== cat.Venues.length || events.size !== cat.Events.length || perfs.size !== cat.Performances.length) {
    fail('ids must be unique');
  }
  return cat;
}

// ------------------------------------------------------------------ the generator

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slug = (s: string) => s.toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const image = (label: string, width: number, height: number) => `/sandbox/images/${slug(label)}/${width}x${height}.svg`;
const ROW_LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.split(''); // theatres skip I

interface AreaPlan {
  name: string;
  rows: number;
  seats: number;
  /** Band per row from the front: e.g. [3, 5] = first 3 rows band 0, next 5 band 1, the rest band 2. */
  bands: number[];
  restricted?: string;
  places?: boolean;
}

function buildAreas(firstAreaId: number, plans: AreaPlan[]): CatalogueArea[] {
  return plans.map((plan, a) => {
    const rows: CatalogueRow[] = [];
    for (let r = 0; r < plan.rows; r++) {
      let band = 0;
      let edge = 0;
      for (const size of plan.bands) {
        edge += size;
        if (r >= edge) band++;
      }
      const row: CatalogueRow = { Row: plan.places ? String(r + 1) : (ROW_LETTERS[r] ?? `R${r + 1}`), Seats: plan.seats, Band: band };
      if (plan.restricted && r >= plan.rows - 2) {
        row.Restricted = [{ Seats: [1, 2, plan.seats - 1, plan.seats], Description: plan.restricted, Band: plan.bands.length }];
      }
      rows.push(row);
    }
    return { AreaId: firstAreaId + a, AreaName: plan.name, Rows: rows };
  });
}

interface VenuePlan {
  name: string;
  address: string;
  postcode: string;
  tube: string;
  train: string;
  info: string;
  areas: AreaPlan[];
}

const VENUE_PLANS: VenuePlan[] = [
  {
    name: 'The Royal Albion Theatre',
    address: '12 Albion Street',
    postcode: 'WC2N 5AA',
    tube: 'Charing Cross',
    train: 'London Charing Cross',
    info: '<p>A Victorian palace of a theatre with five levels and <strong>lifts to every level</strong>.</p>',
    areas: [
      { name: 'Stalls', rows: 22, seats: 36, bands: [6, 10], restricted: 'Pillar in the line of sight to the stage' },
      { name: 'Dress Circle', rows: 12, seats: 34, bands: [4, 5], restricted: 'Safety rail restricts the view when seated' },
      { name: 'Grand Circle', rows: 12, seats: 34, bands: [4, 5], restricted: 'Overhang of the circle above hides the top of the stage' },
      { name: 'Upper Circle', rows: 11, seats: 32, bands: [4, 4], restricted: 'Steep rake; part of the stage is out of view' },
      { name: 'Balcony', rows: 8, seats: 30, bands: [4], restricted: 'Very high; the back of the stage is out of view' },
    ],
  },
  {
    name: 'Kingsway Playhouse',
    address: '88 Kingsway',
    postcode: 'WC2B 6ST',
    tube: 'Holborn',
    train: 'London Euston',
    info: '<p>An intimate Edwardian playhouse. Step-free access to the Stalls.</p>',
    areas: [
      { name: 'Stalls', rows: 14, seats: 24, bands: [5, 5], restricted: 'Sound desk partly blocks the view' },
      { name: 'Dress Circle', rows: 8, seats: 22, bands: [3, 3] },
      { name: 'Upper Circle', rows: 8, seats: 20, bands: [4], restricted: 'Pillar in the line of sight to the stage' },
    ],
  },
  {
    name: 'Southbank Studio',
    address: '3 Riverside Walk',
    postcode: 'SE1 9PX',
    tube: 'Waterloo',
    train: 'London Waterloo',
    info: '<p>A black-box studio by the river. <em>Unreserved bar</em> opens an hour before curtain.</p>',
    areas: [
      { name: 'Stalls', rows: 10, seats: 18, bands: [4] },
      { name: 'Gallery', rows: 4, seats: 16, bands: [2], restricted: 'Lighting rig partly blocks the view' },
    ],
  },
  {
    name: 'Northern Lyric Opera House',
    address: '1 Lyric Square',
    postcode: 'WC2E 9DD',
    tube: 'Covent Garden',
    train: 'London Charing Cross',
    info: '<p>Home of opera and ballet since 1858. Surtitles at every opera performance.</p>',
    areas: [
      { name: 'Stalls', rows: 18, seats: 30, bands: [6, 8] },
      { name: 'Dress Circle', rows: 8, seats: 28, bands: [3, 3] },
      { name: 'Amphitheatre', rows: 10, seats: 30, bands: [5], restricted: 'Side seat: part of the stage is out of view' },
    ],
  },
  {
    name: 'The Wharf Yard',
    address: 'Unit 4, Canal Wharf',
    postcode: 'E14 4QT',
    tube: 'Canary Wharf',
    train: 'Limehouse',
    info: '<p>A converted warehouse for gigs and immersive shows. Standing and unreserved balcony.</p>',
    areas: [
      { name: 'Standing', rows: 10, seats: 40, bands: [3], places: true },
      { name: 'Balcony (unreserved)', rows: 3, seats: 40, bands: [1], places: true },
    ],
  },
];

const FIRST_NAMES = ['Amara', 'Ben', 'Chloe', 'Dev', 'Elena', 'Femi', 'Grace', 'Hiro', 'Isla', 'Jonah', 'Kemi', 'Liam', 'Maya', 'Niall', 'Olu', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq'];
const SURNAMES = ['Adeyemi', 'Byrne', 'Chen', 'Davies', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Iqbal', 'Jones', 'Kowalski', 'Lopez', 'Murphy', 'Nakamura', 'Okafor', 'Patel', 'Quinn', 'Rossi', 'Singh', 'Taylor'];
const REVIEW_LINES = [
  ['Astonishing from the first note to the last.', 'We were on our feet at the curtain call.', 'Worth every penny.'],
  ['A lovely evening out, though the second half drags a little.', 'Great cast, clever staging.', 'Bring tissues.'],
  ['Not quite for me, but my family adored it.', 'The music stays with you for days.', 'Seats in the circle were excellent value.'],
];

interface EventPlan {
  name: string;
  type: number;
  venue: number;
  tagLine: string;
  running: string;
  age: number | null;
  minimumAge: string;
  warnings: string | null;
  notice: string;
  synopsis: string;
  /** Weekday (0 Sunday) → times. */
  schedule: Record<number, string[]>;
  /** Face value per band, per area index (most expensive first). */
  prices: number[][];
  generalAdmission?: boolean;
  twoPart?: boolean;
  cast: string[];
  offer?: { label: string; short: string; long: string };
  printAtHome: boolean;
}

const EVE = '19:30';
const MAT = '14:30';

const EVENT_PLANS: EventPlan[] = [
  {
    name: 'The Lantern Keeper', synopsis: 'On a storm-wrecked island, a young lighthouse keeper must keep the lamp burning for one last night, as the ghosts of every ship it saved come ashore to sing.', type: 1, venue: 0, tagLine: 'The musical that lights up the West End',
    running: '2 hours 40 minutes including one interval', age: 8, minimumAge: 'Recommended for ages 8+', warnings: 'Flashing lights, haze and loud sound effects.',
    notice: 'Latecomers will be admitted at a suitable break.', schedule: { 2: [EVE], 3: [MAT, EVE], 4: [EVE], 5: [EVE], 6: [MAT, EVE], 0: [MAT] },
    prices: [[125, 89.5, 65], [110, 79, 49.5], [85, 59, 39.5], [55, 39.5, 25], [35, 25]], cast: ['Lead', 'Keeper', 'Narrator', 'Ensemble'],
    offer: { label: 'Save 20%', short: 'Save 20% on Tuesday to Thursday evenings', long: '<p>Save <strong>20%</strong> on selected seats for Tuesday to Thursday evenings.</p>' }, printAtHome: true,
  },
  {
    name: 'The Glass Kingdom', synopsis: 'A glassmaker\'s child shatters the crown that holds a kingdom together, and has one day to mend it. Told in two parts, seen on the same day.', type: 2, venue: 1, tagLine: 'One story, two parts, one unforgettable day',
    running: 'Part One 2 hours 45 minutes; Part Two 2 hours 35 minutes', age: 10, minimumAge: 'Recommended for ages 10+', warnings: 'Scenes of peril, pyrotechnics and strobe lighting.',
    notice: 'Part One and Part Two are booked together, for the same seats on the same day.', schedule: { 3: [MAT, EVE], 6: [MAT, EVE], 0: [MAT, EVE] },
    prices: [[99, 75, 55], [85, 60], [45, 30]], twoPart: true, cast: ['King', 'Queen', 'Glassmaker', 'Child'], printAtHome: true,
  },
  {
    name: 'Much Ado About Nothing', synopsis: 'Beatrice and Benedick swear they will never marry; their friends swear they will. Shakespeare\'s comedy of wit and mistaken words.', type: 2, venue: 1, tagLine: "Shakespeare's sharpest comedy, in a 1950s seaside hotel",
    running: '2 hours 30 minutes including one interval', age: 12, minimumAge: 'Recommended for ages 12+', warnings: null,
    notice: '', schedule: { 1: [EVE], 2: [EVE], 4: [EVE], 5: [EVE] }, prices: [[69, 49.5, 35], [59, 39.5], [29.5, 20]], cast: ['Beatrice', 'Benedick', 'Hero'], printAtHome: true,
  },
  {
    name: "A Winter's Orchard", synopsis: 'Three generations gather to bring in the apples on a farm that is about to be sold, and say what they never said.', type: 7, venue: 2, tagLine: 'A family, a farm and one last harvest',
    running: '1 hour 50 minutes, no interval', age: 14, minimumAge: 'Recommended for ages 14+', warnings: 'Strong language and references to suicide.',
    notice: 'There is no admission once the performance has started.', schedule: { 2: [EVE], 3: [EVE], 4: [EVE], 5: [EVE], 6: [MAT, EVE] },
    prices: [[42, 32], [25, 18]], cast: ['Mother', 'Eldest son', 'Neighbour'], printAtHome: true,
    offer: { label: 'Under 26', short: '£15 tickets for under-26s', long: '<p><strong>£15</strong> tickets for under-26s at every performance. <em>ID required.</em></p>' },
  },
  {
    name: 'Late Laughs at the Studio', synopsis: 'The best new stand-up on the circuit, with a different line-up every week and a headliner you will have heard of.', type: 6, venue: 2, tagLine: 'Four comedians, one microphone, no mercy',
    running: '2 hours including one interval', age: 18, minimumAge: 'Over 18s only', warnings: 'Strong language and adult themes throughout.',
    notice: 'Photo ID may be requested on entry.', schedule: { 0: [EVE], 1: [EVE] }, prices: [[28, 22], [18, 15]], cast: ['Host', 'Headliner'], printAtHome: true,
  },
  {
    name: 'La Traviata', synopsis: 'Violetta, the toast of Paris, gives up everything for love, and learns what the world asks in return.', type: 5, venue: 3, tagLine: "Verdi's tragic love story, sung in Italian with English surtitles",
    running: '3 hours including two intervals', age: null, minimumAge: '', warnings: 'Depictions of illness and death.',
    notice: 'Sung in Italian with English surtitles.', schedule: { 2: [EVE], 4: [EVE], 6: [EVE] }, prices: [[160, 120, 85], [140, 95], [45, 30]], cast: ['Violetta', 'Alfredo', 'Germont'], printAtHome: false,
  },
  {
    name: 'Swan Lake', synopsis: 'Prince Siegfried falls in love with Odette, a princess turned into a swan by the sorcerer Von Rothbart.', type: 4, venue: 3, tagLine: 'The classic ballet in a sumptuous new staging',
    running: '2 hours 45 minutes including two intervals', age: 5, minimumAge: 'Recommended for ages 5+', warnings: null,
    notice: '', schedule: { 3: [EVE], 5: [EVE], 6: [MAT] }, prices: [[120, 90, 65], [105, 75], [39, 25]], cast: ['Odette / Odile', 'Prince Siegfried', 'Von Rothbart'], printAtHome: false,
  },
  {
    name: 'Midnight Brass: Live', synopsis: 'Twelve players, no amplification needed: funk, soul and pop hits arranged for trumpets, trombones and a sousaphone.', type: 12, venue: 4, tagLine: 'The twelve-piece brass band that sold out Glastonbury',
    running: '2 hours 15 minutes including a support act', age: 14, minimumAge: 'Under 16s must be accompanied by an adult', warnings: 'Loud music and strobe lighting.',
    notice: 'Standing show. Doors open 45 minutes before the start.', schedule: { 5: [EVE], 6: [EVE] }, prices: [[38.5, 32.5], [45]], generalAdmission: true, cast: ['Band leader', 'Trumpet'], printAtHome: true,
  },
  {
    name: 'The Clockwork Menagerie', synopsis: 'Wind up a brass elephant, ride a mechanical owl and meet the inventor\'s automata in a museum that comes alive.', type: 3, venue: 4, tagLine: 'Walk through a museum of mechanical wonders',
    running: 'Allow 75 minutes', age: 3, minimumAge: 'All ages', warnings: 'Low lighting in some rooms.',
    notice: 'Timed entry: please arrive at your entry time.', schedule: { 0: [MAT], 2: [MAT], 3: [MAT], 4: [MAT], 6: [MAT] }, prices: [[24, 18], [15]], generalAdmission: true, cast: [], printAtHome: true,
    offer: { label: 'Family ticket', short: 'Families save up to 25%', long: '<p>Families save up to <strong>25%</strong> on weekday mornings.</p>' },
  },
];

const LINK_TYPES = ['Website', 'Instagram', 'Twitter', 'YouTube', 'Facebook', 'TikTok'];

function castFor(plan: EventPlan, rnd: () => number, now: number, timeZone: string): CastMember[] {
  return plan.cast.map((role, i) => {
    const name = `${FIRST_NAMES[Math.floor(rnd() * FIRST_NAMES.length)] ?? 'Alex'} ${SURNAMES[Math.floor(rnd() * SURNAMES.length)] ?? 'Smith'}`;
    const born = now - (22 + Math.floor(rnd() * 40)) * 365.25 * 86_400_000;
    const links = LINK_TYPES.slice(0, 1 + ((i + Math.floor(rnd() * 3)) % 4)).map((type) => ({
      ExternalLinkType: type,
      Link: type === 'Website' ? `https://${slug(name)}.example.com/` : `https://${type.toLowerCase()}.example.com/${slug(name)}`,
      DisplayTitle: type === 'Website' ? `${name}'s website` : `${name} on ${type}`,
    }));
    return {
      Name: name,
      Description: `${name} plays ${role}.`,
      Nationality: ['British', 'Irish', 'American', 'Nigerian', 'Indian', 'Australian'][i % 6] ?? 'British',
      ActorUrlPath: `/cast/${slug(name)}`,
      Image: { Width: 300, Height: 400, Url: image(`${name} headshot`, 300, 400) },
      BirthDate: i % 3 === 2 ? null : `${instantToServiceTime(born, timeZone).slice(0, 10)}T00:00:00`,
      ExternalLinks: links,
    };
  });
}

function reviewsFor(rnd: () => number, now: number, timeZone: string): Review[] {
  const count = 12 + Math.floor(rnd() * 18);
  const reviews: Review[] = [];
  for (let i = 0; i < count; i++) {
    const stars = Math.max(1, Math.min(5, 5 - Math.floor(rnd() * rnd() * 5)));
    const tone = REVIEW_LINES[stars >= 5 ? 0 : stars >= 4 ? 1 : 2] ?? [];
    const daysAgo = 1 + Math.floor(rnd() * 120);
    reviews.push({
      ConsumerName: `${FIRST_NAMES[Math.floor(rnd() * FIRST_NAMES.length)] ?? 'Sam'} ${(SURNAMES[Math.floor(rnd() * SURNAMES.length)] ?? 'S').charAt(0)}.`,
      Stars: stars,
      CreatedAt: instantToServiceTime(now - daysAgo * 86_400_000 - Math.floor(rnd() * 86_400_000), timeZone),
      Content: tone[Math.floor(rnd() * tone.length)] ?? 'Great show.',
    });
  }
  return reviews;
}

/** Add `days` to a calendar date. */
function addDays(y: number, m: number, d: number, days: number): { year: number; month: number; day: number; weekday: number } {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), weekday: t.getUTCDay() };
}

export const CATALOGUE_DAYS = 92;

/**
 * A complete catalogue, deterministic from `seed` and `now` (ms since epoch):
 * performances over the next three months (evenings 19:30, matinees 14:30,
 * London wall clock), sales and reviews drawn from the seed.
 */
export function generateCatalogue(seed = 1, now: number = Date.now(), timeZone: string = DEFAULT_TIME_ZONE): Catalogue {
  const rnd = seededRandom(seed);
  let nextAreaId = 301;
  const venues: CatalogueVenue[] = VENUE_PLANS.map((plan, i) => {
    const areas = buildAreas(nextAreaId, plan.areas);
    nextAreaId += areas.length;
    return {
      VenueId: 201 + i,
      Name: plan.name,
      Info: plan.info,
      Address: plan.address,
      City: 'London',
      Postcode: plan.postcode,
      Telephone: `020 7946 0${String(100 + i * 37).padStart(3, '0')}`,
      Fax: null,
      Email: `boxoffice@${slug(plan.name)}.example.com`,
      NearestTube: plan.tube,
      Train: plan.train,
      PlanLink: image(`${plan.name} seating plan`, 800, 600),
      ImageUrl: image(plan.name, 640, 360),
      Areas: areas,
    };
  });

  const today = wallClockAt(now, timeZone);
  const events: CatalogueEvent[] = [];
  const performances: CataloguePerformance[] = [];
  let nextPerformanceId = 100_001;

  EVENT_PLANS.forEach((plan, e) => {
    const venue = venues[plan.venue];
    if (!venue) throw new Error(`generateCatalogue: no venue ${plan.venue}`);
    const eventId = 1001 + e;
    const prices: CatalogueEvent['Prices'] = [];
    venue.Areas.forEach((area, a) => {
      const bands = plan.prices[a] ?? plan.prices[plan.prices.length - 1] ?? [20];
      const maxBand = Math.max(...area.Rows.flatMap((r) => [r.Band, ...(r.Restricted ?? []).map((x) => x.Band ?? r.Band)]));
      for (let band = 0; band <= maxBand; band++) {
        const face = bands[band] ?? Math.max(10, Math.round((bands[bands.length - 1] ?? 20) * 0.6));
        prices.push({ AreaId: area.AreaId, Band: band, FaceValue: face });
      }
    });
    const name = plan.name;
    events.push({
      EventId: eventId,
      EventType: plan.type,
      Name: name,
      Description:
        `<p><strong>${plan.tagLine}.</strong></p><p>${plan.synopsis}</p>` +
        `<p>Now playing at <em>${venue.Name}</em>.</p><ul><li>${plan.minimumAge || 'Suitable for all ages'}</li><li>Running time: ${plan.running}</li></ul>`,
      VenueId: venue.VenueId,
      RunningTime: plan.running,
      AgeRating: plan.age,
      MinimumAge: plan.minimumAge,
      ImportantNotice: plan.notice,
      MainImageUrl: image(name, 1200, 675),
      SmallImageUrl: image(name, 320, 180),
      DetailImageUrl: image(`${name} detail`, 800, 450),
      SpecialGraphics: '',
      OfferLabel: plan.offer?.label ?? '',
      ShortOfferText: plan.offer?.short ?? '',
      LongOfferText: plan.offer?.long ?? '',
      Images: [
        { Width: 320, Height: 180, Url: image(name, 320, 180) },
        { Width: 640, Height: 360, Url: image(name, 640, 360) },
        { Width: 1200, Height: 675, Url: image(name, 1200, 675) },
      ],
      MultimediaContent: plan.generalAdmission ? [] : [{ Type: 0, Url: `https://www.youtube.com/watch?v=sandbox${eventId}` }],
      EventDetailUrl: `https://tickets.example.com/events/${slug(name)}`,
      TagLine: plan.tagLine,
      PrintAtHomeTicketsEnabled: plan.printAtHome,
      Accessibility: plan.generalAdmission
        ? 'Step-free access to the standing area. Accessible toilets. Assistance dogs welcome.'
        : 'Wheelchair spaces in the Stalls; audio-described and captioned performances monthly. Assistance dogs welcome.',
      ContentWarnings: plan.warnings,
      EventSeriesIds: [],
      GeneralAdmission: plan.generalAdmission ?? false,
      Prices: prices,
      Cast: castFor(plan, rnd, now, timeZone),
      Reviews: reviewsFor(rnd, now, timeZone),
    });

    let index = 0;
    for (let offset = 0; offset < CATALOGUE_DAYS; offset++) {
      const date = addDays(today.year, today.month, today.day, offset);
      const times = plan.schedule[date.weekday] ?? [];
      const made: CataloguePerformance[] = [];
      for (const time of times) {
        const [hour, minute] = time.split(':').map(Number);
        const wall = formatWallClock({ ...date, hour: hour ?? 19, minute: minute ?? 30, second: 0, millisecond: 0 });
        if (serviceTimeToInstant(wall, timeZone) <= now) continue;
        // Sales: every event has a sold-out third performance and a nearly sold-out fourth.
        const roll = rnd();
        const sold = index === 2 ? 1 : index === 3 ? 0.97 : roll < 0.05 ? 1 : roll < 0.12 ? 0.95 : 0.15 + rnd() * 0.5;
        const perf: CataloguePerformance = { PerformanceId: nextPerformanceId++, EventId: eventId, PerformanceDate: wall, SoldFraction: Math.round(sold * 100) / 100 };
        if (plan.offer && time === EVE && date.weekday >= 2 && date.weekday <= 4) perf.Discount = 0.2;
        if (rnd() < 0.1) perf.NoFeeOffer = true;
        made.push(perf);
        index++;
      }
      // The two-part show: Part One is the matinee, Part Two the same evening, only booked with Part One.
      if (plan.twoPart) {
        const [partOne, partTwo] = made;
        if (partOne && partTwo && partOne.PerformanceDate.endsWith(`${MAT}:00`)) {
          partOne.PairedPerformances = [partTwo.PerformanceId];
          partTwo.PairedPerformances = [partOne.PerformanceId];
          partTwo.DirectlyBookable = false;
          partTwo.SoldFraction = partOne.SoldFraction;
          delete partTwo.Discount;
          if (partOne.NoFeeOffer) partTwo.NoFeeOffer = true;
          else delete partTwo.NoFeeOffer;
        } else {
          // A lone half (Part Two whose Part One has passed today) is not sold.
          for (const p of made) nextPerformanceId = Math.max(nextPerformanceId, p.PerformanceId + 1);
          made.length = 0;
        }
      }
      performances.push(...made);
    }
  });

  return {
    Version: 1,
    TimeZone: timeZone,
    Venues: venues,
    Events: events,
    Performances: performances,
    System: {
      Countries: countries(),
      USStates: usStates(),
      EventTypes: eventTypes(),
      DeliveryTypes: deliveryTypes(),
      TicketPlanPrice: TICKET_PLAN_PRICE,
    },
  };
}
