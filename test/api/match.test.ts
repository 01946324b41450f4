/**
 * Route matching and parameter validation, shared by the proxy and the sandbox:
 * what one accepts, the other accepts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchRoute, validateParams, type RouteMatch } from '../../src/api/match.ts';
import { operationList, operations, type OperationRow } from '../../src/api/operations.ts';

const BASKET = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';

function matched(result: RouteMatch): { op: string; rawPath: Record<string, string> } {
  assert.equal(result.kind, 'match', `expected a match, got ${JSON.stringify(result)}`);
  return result.kind === 'match' ? { op: result.op.name, rawPath: result.rawPath } : { op: '', rawPath: {} };
}

function validate(op: OperationRow, rawPath: Record<string, string>, search = '') {
  return validateParams(op, rawPath, new URLSearchParams(search));
}

describe('matchRoute', () => {
  test('every row matches its own path, filled with sample values', () => {
    const sample: Record<string, string> = { basketId: BASKET, basketItemId: '5', eventId: '12', eventIds: '12,13', venueId: '3', performanceId: '77', ticketId: '9' };
    for (const op of operationList) {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? 'x');
      const m = matched(matchRoute(op.method, path));
      assert.equal(m.op, op.name, `${op.method} ${path}`);
    }
  });

  test('literal segments match case-insensitively; parameters keep their case', () => {
    assert.deepEqual(matched(matchRoute('GET', '/REST/V2/events/12/PERFORMANCES')), {
      op: 'getEventPerformances',
      rawPath: { eventId: '12' },
    });
    assert.deepEqual(matched(matchRoute('GET', `/rest/v2/baskets/${BASKET.toUpperCase()}/checkoutoptions`)), {
      op: 'getCheckoutOptions',
      rawPath: { basketId: BASKET.toUpperCase() },
    });
  });

  test('the v3 add-tickets route in its lowercase /v3/baskets form', () => {
    const expected = { op: 'addTicketsV3', rawPath: { basketId: BASKET, performanceId: '688972' } };
    assert.deepEqual(matched(matchRoute('POST', `/v3/baskets/${BASKET}/performances/688972/tickets`)), expected);
    assert.deepEqual(matched(matchRoute('POST', `/v3/Baskets/${BASKET}/performances/688972/tickets`)), expected);
  });

  test('the method is case-insensitive and a trailing slash is allowed', () => {
    assert.equal(matched(matchRoute('get', '/rest/v2/Venues/')).op, 'getVenues');
  });

  test('one path, two methods: POST adds tickets, DELETE removes them all', () => {
    assert.equal(matched(matchRoute('POST', `/rest/v2/Baskets/${BASKET}/Tickets`)).op, 'addTickets');
    assert.equal(matched(matchRoute('DELETE', `/rest/v2/Baskets/${BASKET}/Tickets`)).op, 'deleteAllFromBasket');
  });

  test('a known path with another method is 405 with the allowed methods', () => {
    const both = matchRoute('GET', `/rest/v2/Baskets/${BASKET}/Tickets`);
    assert.equal(both.kind, 'method-not-allowed');
    assert.deepEqual(both.kind === 'method-not-allowed' ? [...both.allow].sort() : [], ['DELETE', 'POST']);
    assert.deepEqual(matchRoute('PUT', '/rest/v2/Events'), { kind: 'method-not-allowed', allow: ['GET'] });
    assert.deepEqual(matchRoute('DELETE', `/rest/v2/Baskets/${BASKET}`), { kind: 'method-not-allowed', allow: ['GET'] });
  });

  test('an unknown path is 404, not 405', () => {
    for (const path of [
      '/rest/v2/Nothing',
      '/rest/v2/Events/12/Performances/extra',
      '/rest/v3/Events',
      '/v3/Baskets',
      '/Events',
      '',
      '/',
    ]) {
      assert.deepEqual(matchRoute('GET', path), { kind: 'not-found' }, path);
    }
  });

  test('a percent-encoded parameter is decoded; a broken escape is left as written', () => {
    assert.deepEqual(matched(matchRoute('GET', '/rest/v2/Events/a%20b')).rawPath, { eventId: 'a b' });
    assert.deepEqual(matched(matchRoute('GET', '/rest/v2/Events/%E0%A4%A')).rawPath, { eventId: '%E0%A4%A' });
  });
});

describe('validateParams', () => {
  test('valid path and query parameters come back typed', () => {
    const result = validate(
      operations.getPreliminaryBookingInfo,
      { eventId: '12' },
      'dateFrom=2026-03-01&dateTo=2026-03-31T23:59:59&nbOfTickets=2&consecutiveSeatsOnly=TRUE',
    );
    assert.deepEqual(result, {
      ok: true,
      path: { eventId: 12 },
      query: { dateFrom: '2026-03-01', dateTo: '2026-03-31T23:59:59', nbOfTickets: 2, consecutiveSeatsOnly: true },
    });
    assert.deepEqual(validate(operations.getBasket, { basketId: BASKET }), { ok: true, path: { basketId: BASKET }, query: {} });
  });

  test('a bad integer path parameter is refused, naming the parameter', () => {
    for (const raw of ['abc', '12.5', '-1', '1e3', '', '99999999999', '2147483648']) {
      const result = validate(operations.getEvent, { eventId: raw });
      assert.equal(result.ok, false, `eventId ${JSON.stringify(raw)}`);
      if (!result.ok) {
        assert.equal(result.param, 'eventId');
        assert.match(result.message, /'eventId'/);
        assert.match(result.message, /integer/);
      }
    }
    assert.deepEqual(validate(operations.getEvent, { eventId: '2147483647' }), { ok: true, path: { eventId: 2147483647 }, query: {} });
  });

  test('a bad GUID is refused, naming basketId', () => {
    for (const raw of ['not-a-guid', BASKET.slice(1), `${BASKET}0`, `{${BASKET}}`]) {
      const result = validate(operations.deleteBasketItem, { basketId: raw, basketItemId: '5' });
      assert.equal(result.ok, false, raw);
      if (!result.ok) {
        assert.equal(result.param, 'basketId');
        assert.match(result.message, /'basketId'.*GUID/);
      }
    }
    const second = validate(operations.deleteBasketItem, { basketId: BASKET, basketItemId: 'first' });
    assert.equal(second.ok === false && second.param, 'basketItemId');
  });

  test('a bad DateTime or boolean query parameter is refused, naming it', () => {
    const base = { dateFrom: '2026-03-01', dateTo: '2026-03-31', nbOfTickets: '2', consecutiveSeatsOnly: 'false' };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ dateFrom: '2026-02-30' }, 'dateFrom', /date/],
      [{ dateTo: '31/03/2026' }, 'dateTo', /date/],
      [{ dateTo: '2026-03-31T24:00:00' }, 'dateTo', /date/],
      [{ nbOfTickets: 'two' }, 'nbOfTickets', /integer/],
      [{ consecutiveSeatsOnly: 'yes' }, 'consecutiveSeatsOnly', /true or false/],
    ];
    for (const [change, param, expected] of cases) {
      const result = validate(operations.getPreliminaryBookingInfo, { eventId: '12' }, new URLSearchParams({ ...base, ...change }).toString());
      assert.equal(result.ok, false, JSON.stringify(change));
      if (!result.ok) {
        assert.equal(result.param, param);
        assert.match(result.message, new RegExp(`'${param}'`));
        assert.match(result.message, expected);
      }
    }
  });

  test('a missing or empty required query parameter is refused as required', () => {
    for (const search of ['', 'requiredTicketsCount=']) {
      const result = validate(operations.getAvailableTickets, { performanceId: '77' }, search);
      assert.equal(result.ok, false, search);
      if (!result.ok) {
        assert.equal(result.param, 'requiredTicketsCount');
        assert.match(result.message, /'requiredTicketsCount' is required/);
      }
    }
    const oneMissing = validate(operations.getPerformancesByDate, {}, 'dateFrom=2026-03-01');
    assert.equal(oneMissing.ok === false && oneMissing.param, 'dateTo');
  });

  test('optional query parameters may be absent', () => {
    assert.deepEqual(validate(operations.getEventReviews, { eventId: '12' }), { ok: true, path: { eventId: 12 }, query: {} });
  });

  test('query names match case-insensitively and come back in the declared spelling', () => {
    const result = validate(operations.getAvailableTickets, { performanceId: '77' }, 'REQUIREDTICKETSCOUNT=4');
    assert.deepEqual(result, { ok: true, path: { performanceId: 77 }, query: { requiredTicketsCount: 4 } });
  });

  test('undeclared query parameters are dropped', () => {
    const result = validate(operations.getEvents, {}, 'type=2&Api-Key=stolen&callback=x');
    assert.deepEqual(result, { ok: true, path: {}, query: { type: 2 } });
    assert.deepEqual(validate(operations.getVenues, {}, 'type=2'), { ok: true, path: {}, query: {} });
  });
});
