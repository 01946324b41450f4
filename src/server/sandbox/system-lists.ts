/**
 * The System reference lists the sandbox serves: countries (ISO 3166-1
 * alpha-2, the UK and US ordered first), the US states and DC, event types
 * 1–12, delivery types 1–7 with prices, and the ticket plan price. They are
 * part of the catalogue, so a JSON catalogue can replace them.
 */
import type { Country, DeliveryType, EventType, USState } from '../../api/types.ts';

/** Every officially assigned ISO 3166-1 alpha-2 code. */
const ISO_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** Names where the platform's region names are missing or unusual. */
const NAME_FALLBACK: Record<string, string> = { GB: 'United Kingdom', US: 'United States' };

function regionName(names: Intl.DisplayNames | null, code: string): string {
  const fallback = NAME_FALLBACK[code];
  if (fallback) return fallback;
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** All countries. CountryId is stable (alphabetical by code); Ordering puts the UK and the US first, then by name. */
export function countries(): Country[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    names = null;
  }
  const rows = ISO_CODES.map((code, i) => ({ CountryId: i + 1, CountryName: regionName(names, code), Ordering: 0, ISO3166: code }));
  const first = ['GB', 'US'];
  const rest = rows.filter((r) => !first.includes(r.ISO3166)).sort((a, b) => a.CountryName.localeCompare(b.CountryName, 'en'));
  const ordered = [...first.map((c) => rows.find((r) => r.ISO3166 === c)).filter((r): r is Country => r !== undefined), ...rest];
  ordered.forEach((r, i) => {
    r.Ordering = i + 1;
  });
  return ordered;
}

const STATES: [string, string][] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'],
  ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'],
  ['GA', 'Georgia'], ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'],
  ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'],
  ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'],
  ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'],
  ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'],
  ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

/** The 50 states and the District of Columbia. */
export function usStates(): USState[] {
  return STATES.map(([StateCode, StateName], i) => ({ StateId: i + 1, StateName, StateCode }));
}

/**
 * Event types. 1–7 and 12 are the upstream's (upstream-facts.md); the names of
 * 8–11 are not public, these are the sandbox's own.
 */
export function eventTypes(): EventType[] {
  const names = ['Musical', 'Play', 'Attraction', 'Ballet & Dance', 'Opera', 'Comedy', 'Drama', 'Family', 'Circus', 'Cabaret', 'Tours', 'Concerts'];
  return names.map((EventTypeName, i) => ({ EventTypeId: i + 1, EventTypeName }));
}

/** Delivery types 1–7 (names from upstream-facts.md; prices are the sandbox's, 1 for box office collection as in the sample). */
export function deliveryTypes(): DeliveryType[] {
  const rows: [string, number][] = [
    ['Box Office Collection', 1],
    ['Delivery UK', 3.5],
    ['Delivery International', 7.5],
    ['Agent to print', 0],
    ['Print at home tickets', 0],
    ['Venue dispatch', 2],
    ['Special delivery', 9.95],
  ];
  return rows.map(([DeliveryTypeName, DeliveryTypePrice], i) => ({ DeliveryTypeId: i + 1, DeliveryTypeName, DeliveryTypePrice }));
}

/** Refund protection, per ticket. */
export const TICKET_PLAN_PRICE = 3.5;
