/**
 * Shared set-up for the sandbox tests: a sandbox on a ManualClock, a tiny
 * hand-written catalogue for exact seat scenarios, and request helpers that go
 * through the real handler (`sandbox.fetch(new Request(...))`).
 */
import { createSandbox, generateCatalogue, ManualClock, type Catalogue, type Sandbox, type SandboxOptions } from '../../src/server/sandbox/index.ts';
import { instantToServiceTime } from '../../src/api/time.ts';
import type { AddTicketsResult, BasketContent, FullTicketInfo } from '../../src/api/types.ts';

/** Thursday 15 January 2026, 10:00 in London (GMT, so also 10:00 UTC). */
export const START = Date.UTC(2026, 0, 15, 10, 0, 0);
export const MINUTE = 60_000;
export const KEY = 'test-key';
export const BASE = 'http://sandbox.test';

export interface Harness {
  clock: ManualClock;
  sandbox: Sandbox;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  get(path: string): Promise<Reply>;
  post(path: string, body?: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
  newBasket(): Promise<string>;
  add(basketId: string, body: unknown): Promise<{ status: number; result: AddTicketsResult }>;
  basket(basketId: string): Promise<BasketContent>;
  available(performanceId: number): Promise<FullTicketInfo[]>;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when not JSON, or null when empty. */
  body: unknown;
  text: string;
}

/** Narrow a JSON body to a record for property access in assertions. */
export function rec(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw new Error(`expected an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

export function setup(options: SandboxOptions = {}): Harness {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(START);
  const sandbox = createSandbox({ ...options, clock });
  return harnessOver(clock, sandbox, (request) => sandbox.fetch(request), BASE, { 'Api-Key': KEY });
}

/**
 * A harness whose requests (`BASE`-relative paths, JSON bodies) go to `handler` at `base` with `headers`:
 * the sandbox itself, or something in front of it (the proxy, in the compatibility suite).
 */
export function harnessOver(
  clock: ManualClock,
  sandbox: Sandbox,
  handler: (request: Request) => Response | Promise<Response>,
  base: string,
  headers: Record<string, string> = {},
): Harness {
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers, 'Content-Type': 'application/json', ...extra } };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await handler(new Request(base + path, init));
    const text = await response.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  const h: Harness = {
    clock,
    sandbox,
    call,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    del: (path) => call('DELETE', path),
    async newBasket() {
      const r = await call('POST', '/rest/v2/Baskets');
      const id = rec(r.body).BasketId;
      if (typeof id !== 'string') throw new Error('no BasketId');
      return id;
    },
    async add(basketId, body) {
      const r = await call('POST', `/rest/v2/Baskets/${basketId}/Tickets`, body);
      return { status: r.status, result: r.body as AddTicketsResult };
    },
    async basket(basketId) {
      const r = await call('GET', `/rest/v2/Baskets/${basketId}`);
      if (r.status !== 200) throw new Error(`basket ${basketId}: ${r.status} ${r.text}`);
      return r.body as BasketContent;
    },
    async available(performanceId) {
      const r = await call('GET', `/rest/v2/Performances/${performanceId}/FullAvailability`);
      if (r.status !== 200) throw new Error(`availability ${performanceId}: ${r.status} ${r.text}`);
      return rec(r.body).AvailableTickets as FullTicketInfo[];
    },
  };
  return h;
}

// ---------------------------------------------------------------- a tiny catalogue with exact seats

export const TINY = {
  venue: 9001,
  stalls: 9101,
  circle: 9102,
  standing: 9103,
  seated: 9201,
  ga: 9202,
  twoPart: 9203,
  /** Seated, tomorrow 19:30. */
  perf: 9301,
  /** Seated, already played (yesterday). */
  pastPerf: 9302,
  gaPerf: 9303,
  partOne: 9304,
  partTwo: 9305,
  /** Seated, the day after tomorrow. */
  perf2: 9306,
} as const;

/**
 * One venue: Stalls row A (seats 1–10, £50), row B (1–10, £30; seats 1 and 10
 * restricted view, £20), Circle row A (1–6, £40), and a Standing area of 20
 * places (£25 and £15) for the general-admission event. Nothing sold.
 */
export function tinyCatalogue(now: number = START): Catalogue {
  const base = generateCatalogue(1, now);
  const at = (days: number, hour: number, minute = 30) => {
    const day = instantToServiceTime(now + days * 86_400_000).slice(0, 10);
    return `${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
  };
  const event = base.Events[0];
  if (!event) throw new Error('no event to copy');
  const seated = {
    ...event,
    EventId: TINY.seated,
    Name: 'Tiny Seated Show',
    VenueId: TINY.venue,
    GeneralAdmission: false,
    Prices: [
      { AreaId: TINY.stalls, Band: 0, FaceValue: 50 },
      { AreaId: TINY.stalls, Band: 1, FaceValue: 30 },
      { AreaId: TINY.stalls, Band: 2, FaceValue: 20 },
      { AreaId: TINY.circle, Band: 0, FaceValue: 40 },
    ],
  };
  return {
    ...base,
    Venues: [
      {
        ...(base.Venues[0] ?? (() => { throw new Error('no venue'); })()),
        VenueId: TINY.venue,
        Name: 'Tiny Theatre',
        Areas: [
          {
            AreaId: TINY.stalls,
            AreaName: 'Stalls',
            Rows: [
              { Row: 'A', Seats: 10, Band: 0 },
              { Row: 'B', Seats: 10, Band: 1, Restricted: [{ Seats: [1, 10], Description: 'Pillar', Band: 2 }] },
            ],
          },
          { AreaId: TINY.circle, AreaName: 'Circle', Rows: [{ Row: 'A', Seats: 6, Band: 0 }] },
          { AreaId: TINY.standing, AreaName: 'Standing', Rows: [{ Row: '1', Seats: 10, Band: 0 }, { Row: '2', Seats: 10, Band: 1 }] },
        ],
      },
    ],
    Events: [
      // The seated event has no price for Standing, so those places are not on sale for it.
      seated,
      { ...seated, EventId: TINY.ga, Name: 'Tiny Gig', GeneralAdmission: true, Prices: [{ AreaId: TINY.standing, Band: 0, FaceValue: 25 }, { AreaId: TINY.standing, Band: 1, FaceValue: 15 }] },
      { ...seated, EventId: TINY.twoPart, Name: 'Tiny Epic' },
    ],
    Performances: [
      { PerformanceId: TINY.perf, EventId: TINY.seated, PerformanceDate: at(1, 19), SoldFraction: 0 },
      { PerformanceId: TINY.pastPerf, EventId: TINY.seated, PerformanceDate: at(-1, 19), SoldFraction: 0 },
      { PerformanceId: TINY.gaPerf, EventId: TINY.ga, PerformanceDate: at(1, 20, 0), SoldFraction: 0 },
      { PerformanceId: TINY.partOne, EventId: TINY.twoPart, PerformanceDate: at(2, 14), SoldFraction: 0, PairedPerformances: [TINY.partTwo] },
      { PerformanceId: TINY.partTwo, EventId: TINY.twoPart, PerformanceDate: at(2, 19), SoldFraction: 0, PairedPerformances: [TINY.partOne], DirectlyBookable: false },
      { PerformanceId: TINY.perf2, EventId: TINY.seated, PerformanceDate: at(2, 19), SoldFraction: 0 },
    ],
  };
}

/** A tiny-catalogue harness. */
export function tiny(options: SandboxOptions = {}): Harness {
  return setup({ catalogue: tinyCatalogue(), ...options });
}

/** TicketId of a seat ("A3") in an area of a performance's availability. */
export function seatId(tickets: FullTicketInfo[], area: string, label: string): number {
  const t = tickets.find((x) => x.AreaName === area && `${x.TicketName1}${x.TicketName2}` === label);
  if (!t) throw new Error(`no free seat ${area} ${label}`);
  return t.TicketId;
}
