/**
 * The typed client against a recording fake `fetch`: what it sends for every
 * operation of the table, and what it makes of every answer the interface
 * documents (and of the broken ones it does not).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ApiError,
  createApiClient,
  InvalidRequestError,
  isNotAvailableYet,
  NetworkError,
  NOT_AVAILABLE_YET,
  type ApiClient,
  type CallInit,
} from '../../src/api/client.ts';
import { operationList, type ArgsOf, type HttpMethod, type OperationName, type Operations } from '../../src/api/operations.ts';
import { ServerClock } from '../../src/api/time.ts';

const ENDPOINT = 'https://tickets.example/api/booking/';
const BASKET = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

// ------------------------------------------------------------------ the fake fetch

interface Sent {
  url: URL;
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

/** A fetch that records what it is given and answers with `answer`; like the platform's, it rejects at once on an aborted signal. */
function fakeFetch(answer: (sent: Sent) => Response = () => json(200, {})) {
  const calls: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (init.signal?.aborted) throw init.signal.reason;
    const sent: Sent = {
      url: new URL(String(input)),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
    };
    calls.push(sent);
    return answer(sent);
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });
}

function raw(status: number, text: string | null, contentType = 'application/json'): Response {
  return new Response(text, { status, headers: text === null ? {} : { 'Content-Type': contentType } });
}

function clientWith(answer?: (sent: Sent) => Response, clock?: ServerClock) {
  const { calls, fetch } = fakeFetch(answer);
  return { calls, api: createApiClient({ endpoint: ENDPOINT, fetch, clock }) };
}

/** Call any operation by name with untyped arguments (to loop over the table, or to pass what the types forbid). */
function callOf(api: ApiClient, name: OperationName): (args?: object, init?: CallInit) => Promise<unknown> {
  return api[name] as unknown as (args?: object, init?: CallInit) => Promise<unknown>;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('expected the call to fail');
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return error;
}

// ------------------------------------------------------------------ one sample call per operation

interface Expected {
  method: HttpMethod;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

const order = {
  BasketId: BASKET,
  Email: 'ada@example.com',
  Name: 'Ada',
  LastName: 'Lovelace',
  Phone: '+44 20 7946 0000',
  DeliveryType: 1,
  SendConfirmationEmail: true,
};

/** Written out by hand from the interface: a new operation without a sample does not compile. */
const samples: { [K in OperationName]: { args: ArgsOf<Operations[K]>; sent: Expected } } = {
  createBasket: { args: {}, sent: { method: 'POST', path: '/rest/v2/Baskets' } },
  addTickets: {
    args: { basketId: BASKET, body: { Tickets: [141745744, 141745745] } },
    sent: { method: 'POST', path: `/rest/v2/Baskets/${BASKET}/Tickets`, body: { Tickets: [141745744, 141745745] } },
  },
  addTicketsV3: {
    args: { basketId: BASKET, performanceId: 688972, body: { AreaId: 811, SeatsCount: 2, Price: 25 } },
    sent: {
      method: 'POST',
      path: `/v3/Baskets/${BASKET}/performances/688972/tickets`,
      body: { AreaId: 811, SeatsCount: 2, Price: 25 },
    },
  },
  getBasket: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}` } },
  getCheckoutOptions: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/CheckoutOptions` } },
  submitOrder: {
    args: {
      basketId: BASKET,
      body: { ...order, SuccessReturnUrl: 'https://theatre.example/ok', FailureReturnUrl: 'https://theatre.example/ko', PaymentGateLanguage: 1 },
    },
    sent: {
      method: 'POST',
      path: `/rest/v2/Baskets/${BASKET}/SubmitOrder`,
      body: { ...order, SuccessReturnUrl: 'https://theatre.example/ok', FailureReturnUrl: 'https://theatre.example/ko', PaymentGateLanguage: 1 },
    },
  },
  submitOrderOnAccount: {
    args: { basketId: BASKET, body: { ...order, ReturnUrl: 'https://theatre.example/done' } },
    sent: {
      method: 'POST',
      path: `/rest/v2/Baskets/${BASKET}/SubmitOrderOnAccount`,
      body: { ...order, ReturnUrl: 'https://theatre.example/done' },
    },
  },
  getSubmittedBasketSummary: {
    args: { basketId: BASKET },
    sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/SubmittedBasketSummary` },
  },
  getAvailableDeliveries: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/AvailableDeliveries` } },
  getBasketDeliveryTypes: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/DeliveryTypes` } },
  getETickets: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/ETickets` } },
  deleteBasketItem: {
    args: { basketId: BASKET, basketItemId: 5 },
    sent: { method: 'DELETE', path: `/rest/v2/Baskets/${BASKET}/BasketItem/5` },
  },
  deleteAllFromBasket: { args: { basketId: BASKET }, sent: { method: 'DELETE', path: `/rest/v2/Baskets/${BASKET}/Tickets` } },
  getPrintAtHomeTickets: { args: { basketId: BASKET }, sent: { method: 'GET', path: `/rest/v2/Baskets/${BASKET}/PrintAtHomeTickets` } },

  getEvents: { args: { type: 1 }, sent: { method: 'GET', path: '/rest/v2/Events', query: { type: '1' } } },
  getEvent: { args: { eventId: 12 }, sent: { method: 'GET', path: '/rest/v2/Events/12' } },
  getEventsPerformances: {
    args: { eventIds: [12, 15], dateFrom: '2026-03-01' },
    sent: { method: 'GET', path: '/rest/v2/Events/12,15/Performances', query: { dateFrom: '2026-03-01' } },
  },
  getEventsAvailableTickets: {
    args: { eventIds: [12, 15], dateTo: '2026-03-02' },
    sent: { method: 'GET', path: '/rest/v2/Events/12,15/AvailableTickets', query: { dateTo: '2026-03-02' } },
  },
  getEventAvailableTickets: {
    args: { eventId: 12, dateFrom: '2026-03-01', dateTo: '2026-03-02' },
    sent: { method: 'GET', path: '/rest/v2/Events/12/AvailableTickets', query: { dateFrom: '2026-03-01', dateTo: '2026-03-02' } },
  },
  getSeatingPlan: { args: { performanceId: 688972 }, sent: { method: 'GET', path: '/rest/v2/Performances/688972/SeatingPlan' } },
  getTicketAvailability: { args: { ticketId: 141745744 }, sent: { method: 'GET', path: '/rest/v2/TicketAvailability/141745744' } },
  getEventPerformances: {
    args: { eventId: 12, dateFrom: '2026-03-01', dateTo: '2026-03-31T23:59:59', minimumTicketsCount: 2 },
    sent: {
      method: 'GET',
      path: '/rest/v2/Events/12/Performances',
      query: { dateFrom: '2026-03-01', dateTo: '2026-03-31T23:59:59', minimumTicketsCount: '2' },
    },
  },
  getPreliminaryBookingInfo: {
    args: { eventId: 12, dateFrom: '2026-03-01', dateTo: '2026-04-15', nbOfTickets: 2, consecutiveSeatsOnly: false },
    sent: {
      method: 'GET',
      path: '/rest/v2/Events/12/PreliminaryBookingInfo',
      query: { dateFrom: '2026-03-01', dateTo: '2026-04-15', nbOfTickets: '2', consecutiveSeatsOnly: 'false' },
    },
  },
  getEventReviews: {
    args: { eventId: 12, order: 0, count: 5, from: 10 },
    sent: { method: 'GET', path: '/rest/v2/Events/12/Reviews', query: { order: '0', count: '5', from: '10' } },
  },

  getVenues: { args: {}, sent: { method: 'GET', path: '/rest/v2/Venues' } },
  getVenue: { args: { venueId: 3 }, sent: { method: 'GET', path: '/rest/v2/Venues/3' } },
  getVenueEvents: { args: { venueId: 3 }, sent: { method: 'GET', path: '/rest/v2/Venues/3/Events' } },

  getPerformance: { args: { performanceId: 77 }, sent: { method: 'GET', path: '/rest/v2/Performances/77' } },
  getAvailableTickets: {
    args: { performanceId: 77, requiredTicketsCount: 2 },
    sent: { method: 'GET', path: '/rest/v2/Performances/77/AvailableTickets', query: { requiredTicketsCount: '2' } },
  },
  getFullAvailability: { args: { performanceId: 77 }, sent: { method: 'GET', path: '/rest/v2/Performances/77/FullAvailability' } },
  getPerformancesByDate: {
    args: { dateFrom: '2026-03-01', dateTo: '2026-04-30T12:00:00' },
    sent: { method: 'GET', path: '/rest/v2/Performances', query: { dateFrom: '2026-03-01', dateTo: '2026-04-30T12:00:00' } },
  },
  getAreasPrices: { args: { performanceId: 77 }, sent: { method: 'GET', path: '/rest/v2/Performances/77/AreasPrices' } },
  validateSeatsSelection: {
    args: { performanceId: 77, body: { TicketIds: [1, 2, 3] } },
    sent: { method: 'POST', path: '/rest/v2/Performances/77/SeatsSelectionValidation', body: { TicketIds: [1, 2, 3] } },
  },

  getCountries: { args: {}, sent: { method: 'GET', path: '/rest/v2/System/Countries' } },
  getUSStates: { args: {}, sent: { method: 'GET', path: '/rest/v2/System/USStates' } },
  getEventTypes: { args: {}, sent: { method: 'GET', path: '/rest/v2/System/EventTypes' } },
  getDeliveryTypes: { args: {}, sent: { method: 'GET', path: '/rest/v2/System/DeliveryTypes' } },
  getTicketPlanPrice: { args: {}, sent: { method: 'GET', path: '/rest/v2/TicketPlanPrice' } },
  getHeartBeat: { args: {}, sent: { method: 'GET', path: '/rest/v2/System/HeartBeat' } },
};

const names = operationList.map((op) => op.name as OperationName);

/** A successful answer of the right shape: the heartbeat is a bare boolean, everything else an object. */
const okBody = (name: OperationName): unknown =>
  name === 'getHeartBeat' ? true : name === 'getAreasPrices' ? { PerformanceId: 77, AreasPrices: [] } : { Success: true };

// ------------------------------------------------------------------ requests

describe('client: what is sent', () => {
  test('a client has one method per operation of the table', () => {
    const { api } = clientWith();
    for (const name of names) assert.equal(typeof api[name], 'function', name);
    assert.equal(api.endpoint, 'https://tickets.example/api/booking');
  });

  for (const name of names) {
    test(`${name}: method, path, query, body and headers`, async () => {
      const sample = samples[name];
      const { api, calls } = clientWith(() => json(200, okBody(name)));
      const controller = new AbortController();
      const result = await callOf(api, name)(sample.args, { signal: controller.signal });
      assert.deepEqual(result, okBody(name));

      assert.equal(calls.length, 1);
      const [sent] = calls;
      assert.ok(sent);
      assert.equal(sent.method, sample.sent.method);
      assert.equal(sent.url.origin + sent.url.pathname, `https://tickets.example/api/booking${sample.sent.path}`);
      assert.deepEqual(Object.fromEntries(sent.url.searchParams), sample.sent.query ?? {});
      assert.equal(sent.url.searchParams.size, Object.keys(sample.sent.query ?? {}).length, 'no repeated query parameter');
      if (sample.sent.body === undefined) {
        assert.equal(sent.body, undefined, 'no body');
        assert.equal(sent.headers.get('Content-Type'), null, 'no Content-Type without a body');
      } else {
        assert.deepEqual(JSON.parse(sent.body ?? 'null'), sample.sent.body);
        assert.equal(sent.headers.get('Content-Type'), 'application/json');
      }
      assert.equal(sent.headers.get('Accept'), 'application/json');
      assert.equal(sent.headers.get('Api-Key'), null, 'the browser never sends an Api-Key');
      assert.equal(sent.signal, controller.signal, 'the caller’s signal reaches fetch');
    });
  }

  test('optional query parameters left out are not sent', async () => {
    const { api, calls } = clientWith();
    await api.getEvents();
    await api.getEventReviews({ eventId: 12 });
    await api.getEventPerformances({ eventId: 12, dateFrom: '2026-03-01' });
    assert.deepEqual(
      calls.map((c) => c.url.pathname + c.url.search),
      ['/api/booking/rest/v2/Events', '/api/booking/rest/v2/Events/12/Reviews', '/api/booking/rest/v2/Events/12/Performances?dateFrom=2026-03-01'],
    );
  });

  test('extra headers of the host are sent; no cookies, but for the list of events to the page\'s own origin', async () => {
    const credentials: (RequestCredentials | undefined)[] = [];
    const fetch = async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      credentials.push(init.credentials);
      assert.equal(new Headers(init.headers).get('X-Widget'), 'stagedoor');
      return json(200, { Venues: [] });
    };
    const api = createApiClient({ endpoint: '/api', fetch, headers: { 'X-Widget': 'stagedoor' } });
    assert.deepEqual(await api.getVenues(), { Venues: [] });
    await api.getBasket({ basketId: BASKET }).catch(() => undefined);
    await api.createBasket().catch(() => undefined);
    // The list asks as a <link rel="preload" as="fetch" crossorigin> does, so such a hint's answer is taken.
    await api.getEvents().catch(() => undefined);
    assert.deepEqual(credentials, ['omit', 'omit', 'omit', 'same-origin']);
  });
});

// ------------------------------------------------------------------ invalid arguments

describe('client: invalid arguments are refused before anything is sent', () => {
  const cases: [OperationName, object, string][] = [
    ['getBasket', { basketId: 'not-a-guid' }, 'basketId'],
    ['getBasket', { basketId: '../../System/HeartBeat' }, 'basketId'],
    ['getBasket', {}, 'basketId'],
    ['getEvent', { eventId: 1.5 }, 'eventId'],
    ['getEvent', { eventId: -1 }, 'eventId'],
    ['getEvent', { eventId: Number.NaN }, 'eventId'],
    ['getEvent', { eventId: '12/Reviews' }, 'eventId'],
    ['deleteBasketItem', { basketId: BASKET, basketItemId: '5?x=1' }, 'basketItemId'],
    ['getAvailableTickets', { performanceId: 77 }, 'requiredTicketsCount'],
    ['getPerformancesByDate', { dateFrom: '2026-02-30', dateTo: '2026-03-10' }, 'dateFrom'],
    ['getPerformancesByDate', { dateFrom: '2026-03-01', dateTo: new Date(0) }, 'dateTo'],
    ['getPreliminaryBookingInfo', { eventId: 12, dateFrom: '2026-03-01', dateTo: '2026-03-02', nbOfTickets: 2, consecutiveSeatsOnly: 'yes' }, 'consecutiveSeatsOnly'],
    ['getEventReviews', { eventId: 12, count: 2.5 }, 'count'],
    ['addTickets', { basketId: BASKET }, 'body'],
    ['validateSeatsSelection', { performanceId: 77, body: 'TicketIds=1' }, 'body'],
  ];
  for (const [name, args, param] of cases) {
    test(`${name}(${JSON.stringify(args)}) names '${param}'`, async () => {
      const { api, calls } = clientWith();
      const error = await rejection(callOf(api, name)(args));
      assert.ok(error instanceof InvalidRequestError, `expected an InvalidRequestError, got ${String(error)}`);
      assert.equal(error.param, param);
      assert.equal(error.operation, name);
      assert.ok(error.message.includes(param), `the message names '${param}': ${error.message}`);
      assert.equal(calls.length, 0, 'nothing was sent');
    });
  }
});

// ------------------------------------------------------------------ documented answers

describe('client: documented error statuses', () => {
  test('204 is NOT_AVAILABLE_YET only for the submitted summary, the e-tickets and the print-at-home tickets; an ApiError elsewhere', async () => {
    const notYet: string[] = [];
    for (const name of names) {
      const { api } = clientWith(() => raw(204, null));
      const result = await callOf(api, name)(samples[name].args).catch((error: unknown) => error);
      if (result === NOT_AVAILABLE_YET) {
        assert.ok(isNotAvailableYet(result));
        notYet.push(name);
      } else {
        assert.ok(result instanceof ApiError, `${name}: ${String(result)}`);
        assert.equal(result.status, 204, name);
      }
    }
    assert.deepEqual(notYet.sort(), ['getETickets', 'getPrintAtHomeTickets', 'getSubmittedBasketSummary']);
  });

  const documented: [number, OperationName[]][] = [
    [400, ['submitOrder', 'submitOrderOnAccount']],
    [403, ['submitOrder', 'submitOrderOnAccount', 'getAvailableDeliveries', 'deleteAllFromBasket']],
    [404, ['getEvent']],
    [502, ['addTickets', 'addTicketsV3']],
  ];
  for (const [status, operationNames] of documented) {
    for (const name of operationNames) {
      test(`${status} from ${name}: an ApiError with the status and the service's Message`, async () => {
        const body = { Message: `Service says ${status}.`, MessageDetail: 'detail for developers' };
        const { api } = clientWith(() => json(status, body));
        const error = await apiError(callOf(api, name)(samples[name].args));
        assert.equal(error.status, status);
        assert.equal(error.operation, name);
        assert.equal(error.serviceMessage, `Service says ${status}.`);
        assert.equal(error.message, `Service says ${status}.`);
        assert.deepEqual(error.body, body);
        assert.equal(error.addResult, null);
      });
    }
  }

  for (const name of ['addTickets', 'addTicketsV3'] as const) {
    test(`409 from ${name}: the parsed add-result (BookableTicketsExceeded, count, basket)`, async () => {
      const addResult = {
        Success: false,
        FailureReason: 8,
        FailureReasonText: 'BookableTicketsExceeded',
        BookableTicketsCount: 2,
        GetBasketContentResult: { BasketId: BASKET, MinExpirationDate: '0001-01-01T00:00:00', DeliveryInformation: null, Items: [], DiscountInformation: null },
      };
      const { api } = clientWith(() => json(409, addResult));
      const error = await apiError(callOf(api, name)(samples[name].args));
      assert.equal(error.status, 409);
      assert.deepEqual(error.addResult, addResult);
      assert.equal(error.addResult?.BookableTicketsCount, 2);
      assert.equal(error.serviceMessage, null);
      assert.ok(error.message.length > 0);
    });
  }

  test('without a Message the error says what the status means, never the raw body', async () => {
    const { api } = clientWith(() => json(403, { Message: '   ', MessageDetail: 'x' }));
    const error = await apiError(api.deleteAllFromBasket({ basketId: BASKET }));
    assert.equal(error.serviceMessage, null);
    assert.equal(error.message, 'This basket can no longer be changed.');
  });
});

describe('client: broken answers are always an ApiError', () => {
  const broken: [label: string, text: string, contentType?: string][] = [
    ['malformed JSON', '{"Message": "half'],
    ['an empty body', ''],
    ['an HTML error page', '<!doctype html><html><body><h1>Bad Gateway</h1></body></html>', 'text/html'],
    ['a null body', 'null'],
    ['a number', '42'],
    ['a string', '"fine"'],
    ['an array', '[]'],
  ];

  for (const [label, text, contentType] of broken) {
    for (const status of [200, 400, 403, 404, 409, 500, 502]) {
      test(`${label} with status ${status}`, async () => {
        for (const name of ['getBasket', 'addTickets'] as const) {
          const { api } = clientWith(() => raw(status, text, contentType));
          const error = await apiError(callOf(api, name)(samples[name].args));
          assert.equal(error.status, status);
          assert.equal(error.serviceMessage, null);
          assert.equal(error.addResult, null);
          assert.ok(error.message.length > 0);
          assert.doesNotMatch(error.message, /</, 'no markup in the message');
        }
      });
    }
  }

  test('the heartbeat is a bare boolean; anything else is an ApiError', async () => {
    for (const value of [true, false]) {
      const { api } = clientWith(() => json(200, value));
      assert.equal(await api.getHeartBeat(), value);
    }
    for (const text of ['null', '1', '{"Up":true}', '"true"', '']) {
      const { api } = clientWith(() => raw(200, text));
      const error = await apiError(api.getHeartBeat());
      assert.equal(error.status, 200, text);
    }
  });
});

// ------------------------------------------------------------------ no answer, aborts

describe('client: network failures and aborts', () => {
  test('a rejected fetch is a NetworkError carrying the cause', async () => {
    const cause = new TypeError('fetch failed');
    const api = createApiClient({ endpoint: ENDPOINT, fetch: () => Promise.reject(cause) });
    const error = await rejection(api.getVenues());
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.operation, 'getVenues');
    assert.equal(error.cause, cause);
  });

  test('an aborted signal rethrows the AbortError itself, unwrapped, before anything is sent', async () => {
    const { api, calls } = clientWith();
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(api.getBasket({ basketId: BASKET }, { signal: controller.signal }));
    assert.equal(error, controller.signal.reason);
    assert.equal((error as Error).name, 'AbortError');
    assert.equal(calls.length, 0);
  });

  test('an abort with a reason of its own (a timeout) is rethrown as given, not as a NetworkError', async () => {
    const { api } = clientWith();
    const controller = new AbortController();
    const reason = new DOMException('Signal timed out.', 'TimeoutError');
    controller.abort(reason);
    assert.equal(await rejection(api.getVenues({}, { signal: controller.signal })), reason);
  });

  test('an abort while the body is read is rethrown unwrapped', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(abort);
      },
    });
    const { api } = clientWith(() => new Response(stream, { status: 200 }));
    const error = await rejection(api.getBasket({ basketId: BASKET }));
    assert.equal(error, abort);
  });
});

// ------------------------------------------------------------------ reshaping and the clock

describe('client: area prices and the server clock', () => {
  const group = { AreaId: 811, AreaName: 'Stalls', Prices: [{ Price: 25, FaceValue: 22.5, AvailableSeatsCount: 40 }] };

  for (const wireName of ['AreasPrices', 'PricesPerArea']) {
    test(`getAreasPrices hands the elements AreasPrices when the wire says ${wireName}`, async () => {
      const { api } = clientWith(() => json(200, { PerformanceId: 77, [wireName]: [group] }));
      assert.deepEqual(await api.getAreasPrices({ performanceId: 77 }), { PerformanceId: 77, AreasPrices: [group] });
    });
  }

  test('getAreasPrices with neither list is an empty list, not a crash', async () => {
    const { api } = clientWith(() => json(200, { PerformanceId: 77 }));
    assert.deepEqual(await api.getAreasPrices({ performanceId: 77 }), { PerformanceId: 77, AreasPrices: [] });
  });

  test('the server clock comes from the Server-Timing clock stamp of an answer, to the millisecond', async () => {
    const server = Date.parse('2026-11-21T11:00:00.437Z');
    const visitor = server - 15 * 60_000; // the visitor's clock is 15 minutes slow
    const clock = new ServerClock(() => visitor);
    const stamp = { Date: 'Sat, 21 Nov 2026 11:00:00 GMT', 'Server-Timing': `db;dur=2, clock;desc="${server}"` };
    const { api } = clientWith(() => json(200, { Success: true }, stamp), clock);
    assert.equal(api.clock, clock);
    assert.equal(clock.synced, false);
    await api.getBasket({ basketId: BASKET });
    assert.equal(clock.synced, true);
    assert.equal(clock.offset, 15 * 60_000);
    assert.equal(clock.now(), server);
  });

  test('without a stamp, the Date header: the second it names, so the server is at most a second on', async () => {
    const server = Date.parse('2026-11-21T11:00:00.437Z');
    const clock = new ServerClock(() => server - 15 * 60_000);
    const { api } = clientWith(() => json(200, { Success: true }, { Date: 'Sat, 21 Nov 2026 11:00:00 GMT' }), clock);
    await api.getBasket({ basketId: BASKET });
    assert.equal(clock.synced, true);
    assert.ok(clock.latest() >= server && clock.latest() < server + 1000);
    assert.equal(clock.now(), Date.parse('2026-11-21T11:00:00Z') + 499.5, 'the middle of that second');
  });

  test('an answer a cache may have kept (max-age) is no reading of the clock: its stamp may be seconds old; a no-store one is', async () => {
    const server = Date.parse('2026-11-21T11:00:00.437Z');
    const clock = new ServerClock(() => server);
    const old = { Date: 'Sat, 21 Nov 2026 10:59:58 GMT', 'Server-Timing': `clock;desc="${server - 2_000}"` };
    let headers: Record<string, string> = { ...old, 'Cache-Control': 'public, max-age=60, stale-while-revalidate=60' };
    let body: unknown = okBody('getEvents');
    const { api } = clientWith(() => json(200, body, headers), clock);
    await api.getEvents();
    assert.equal(clock.synced, false, 'a catalogue answer, perhaps from the browser cache, set the clock');
    headers = { 'Server-Timing': `clock;desc="${server}"`, 'Cache-Control': 'no-store' };
    body = { Success: true };
    await api.getBasket({ basketId: BASKET });
    assert.equal(clock.synced, true);
    assert.equal(clock.now(), server);
  });

  test('an error answer also sets the clock', async () => {
    const clock = new ServerClock(() => Date.parse('2026-11-21T11:10:00Z'));
    const stamp = { Date: 'Sat, 21 Nov 2026 11:00:00 GMT', 'Server-Timing': `clock;desc="${Date.parse('2026-11-21T11:00:00Z')}"` };
    const { api } = clientWith(() => json(409, { Message: 'gone' }, stamp), clock);
    await apiError(api.addTickets(samples.addTickets.args));
    assert.equal(clock.offset, -10 * 60_000);
  });
});
