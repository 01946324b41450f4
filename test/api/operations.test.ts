/**
 * The operations table checked against the interface text itself
 * (`../shared/spec/service-interface.md`, beside the repository clone): every
 * row is written there, and everything written there is a row. The five rows
 * whose source is the service's DTO library are not in that text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { operationList as allRows, operations, type QueryParamSpec } from '../../src/api/operations.ts';

/** The rows the interface document describes (the DTO-library rows are checked in compat-operations.test.ts). */
const operationList = allRows.filter((op) => op.source === 'interface');

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const interfaceText = readFileSync(resolve(repoRoot, '..', 'shared', 'spec', 'service-interface.md'), 'utf8');

/** `METHOD /path` of every operation the interface writes, query strings split off. */
function interfaceOperations(): { method: string; path: string; query: string[] }[] {
  const found = [...interfaceText.matchAll(/\b(GET|POST|DELETE) (\/(?:rest\/v2|v3)\/[^\s|`)]+)/g)];
  return found.map((m) => {
    const written = (m[2] as string).replace(/[.,;:]+$/, '');
    const [path = '', search = ''] = written.split('?');
    const query = search ? search.split('&').map((pair) => pair.split('=')[0] as string) : [];
    return { method: m[1] as string, path, query };
  });
}

const key = (method: string, path: string) => `${method} ${path.toLowerCase()}`;

describe('operations table', () => {
  test('holds exactly the 33 operations of the interface', () => {
    assert.equal(operationList.length, 33);
    assert.equal(Object.keys(operations).length, 38, '33 from the interface and 5 from the DTO library');
    const names = operationList.map((op) => op.name);
    assert.equal(new Set(names).size, 33, 'operation names are unique');
    assert.deepEqual(allRows.map((op) => op.name), Object.keys(operations), 'each row carries its own name');
    const routes = operationList.map((op) => key(op.method, op.path));
    assert.equal(new Set(routes).size, 33, 'no two rows share a method and path');
  });

  test('counts per area: 13 Baskets, 5 Events, 3 Venues, 6 Performances, 6 System', () => {
    const counts: Record<string, number> = {};
    for (const op of operationList) counts[op.area] = (counts[op.area] ?? 0) + 1;
    assert.deepEqual(counts, { Baskets: 13, Events: 5, Venues: 3, Performances: 6, System: 6 });
  });

  test("each row's METHOD path is written verbatim in the interface", () => {
    for (const op of operationList) {
      const escaped = `${op.method} ${op.path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // The path must end where the interface's path ends (a query string may follow).
      const written = new RegExp(`${escaped}(?=[\\s.,|)?]|$)`);
      assert.match(interfaceText, written, `${op.name}: "${op.method} ${op.path}" is not in the interface`);
    }
  });

  test('every operation the interface writes is a row of the table', () => {
    const written = interfaceOperations();
    assert.ok(written.length >= 33, `only ${written.length} operations found in the interface text`);
    const rows = new Map(operationList.map((op) => [key(op.method, op.path), op]));
    for (const { method, path, query } of written) {
      const op = rows.get(key(method, path));
      assert.ok(op, `"${method} ${path}" from the interface has no row`);
      for (const name of query) assert.ok(name in op.query, `${op.name}: query parameter '${name}' of the interface is not declared`);
    }
    const covered = new Set(written.map(({ method, path }) => key(method, path)));
    assert.equal(covered.size, 33, 'the interface names 33 distinct operations');
  });

  test('/rest/v2/Events?type= is getEvents with an optional integer type', () => {
    const byType = interfaceOperations().find((w) => w.query.includes('type'));
    assert.deepEqual(byType && { method: byType.method, path: byType.path }, { method: 'GET', path: '/rest/v2/Events' });
    assert.deepEqual(operations.getEvents.query, { type: { type: 'int', required: false } });
  });

  test('path parameters are typed: ids are integers, basketId is a GUID', () => {
    for (const op of operationList) {
      const inTemplate = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      assert.deepEqual(Object.keys(op.pathParams), inTemplate, `${op.name}: path parameters in template order`);
      for (const name of inTemplate) {
        assert.equal(op.pathParams[name], name === 'basketId' ? 'guid' : 'int', `${op.name}: {${name}}`);
      }
    }
    assert.deepEqual(operations.deleteBasketItem.pathParams, { basketId: 'guid', basketItemId: 'int' });
    assert.deepEqual(operations.addTicketsV3.pathParams, { basketId: 'guid', performanceId: 'int' });
  });

  test('query parameters and which are required, as the interface lists them', () => {
    const req = (type: QueryParamSpec['type']) => ({ type, required: true });
    const opt = (type: QueryParamSpec['type']) => ({ type, required: false });
    const expected: Record<string, Record<string, QueryParamSpec>> = {
      getEvents: { type: opt('int') },
      getEventPerformances: { dateFrom: opt('datetime'), dateTo: opt('datetime'), minimumTicketsCount: opt('int') },
      getPreliminaryBookingInfo: {
        dateFrom: req('datetime'),
        dateTo: req('datetime'),
        nbOfTickets: req('int'),
        consecutiveSeatsOnly: req('bool'),
      },
      getEventReviews: { order: opt('int'), count: opt('int'), from: opt('int') },
      getAvailableTickets: { requiredTicketsCount: req('int') },
      getPerformancesByDate: { dateFrom: req('datetime'), dateTo: req('datetime') },
    };
    for (const op of operationList) assert.deepEqual(op.query, expected[op.name] ?? {}, `${op.name}: query parameters`);
  });

  test('bodies, 204 answers and the restricted operation', () => {
    const withBody = operationList.filter((op) => op.body).map((op) => op.name).sort();
    assert.deepEqual(withBody, ['addTickets', 'addTicketsV3', 'submitOrder', 'submitOrderOnAccount', 'validateSeatsSelection']);
    for (const op of operationList) assert.equal(op.body, op.method === 'POST' && op.name !== 'createBasket', `${op.name}: body`);
    const noContent = operationList.filter((op) => op.noContent).map((op) => op.name).sort();
    assert.deepEqual(noContent, ['getETickets', 'getSubmittedBasketSummary']);
    assert.ok(operations.getPrintAtHomeTickets.noContent, 'PrintAtHomeTickets: 204 until booked, as ETickets');
    const restricted = operationList.filter((op) => op.restricted).map((op) => op.name);
    assert.deepEqual(restricted, ['submitOrderOnAccount']);
    for (const op of operationList) assert.equal(op.idempotent, op.method === 'GET', `${op.name}: idempotent`);
  });

  test('the table is frozen', () => {
    assert.ok(Object.isFrozen(operations));
    assert.ok(Object.isFrozen(allRows));
  });
});
