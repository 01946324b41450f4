/**
 * The operations table checked against our own record of the service's
 * operations, `docs/service-operations.md` (in this repository): every row
 * there is a row of the table with the same method, path, query parameters,
 * body and 204 answers, and every row of the table is written there.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { operationList, operations, type OperationRow, type QueryParamSpec } from '../../src/api/operations.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const recordText = readFileSync(resolve(repoRoot, 'docs', 'service-operations.md'), 'utf8');

interface Recorded {
  name: string;
  area: string;
  method: string;
  path: string;
  query: Record<string, QueryParamSpec>;
  body: boolean;
  noContent: boolean;
}

/** The rows of the table between the markers of docs/service-operations.md. */
function recordedOperations(): Recorded[] {
  const start = recordText.indexOf('<!-- operations:start -->');
  const end = recordText.indexOf('<!-- operations:end -->');
  assert.ok(start >= 0 && end > start, 'docs/service-operations.md lacks its operations markers');
  const lines = recordText.slice(start, end).split('\n').filter((line) => line.startsWith('| `'));
  return lines.map((line) => {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const [name = '', area = '', method = '', path = '', query = '', body = '', noContent = ''] = cells;
    const unquote = (text: string) => text.replace(/^`|`$/g, '');
    const params: Record<string, QueryParamSpec> = {};
    for (const part of query.split(',').map((p) => p.trim()).filter(Boolean)) {
      const m = /^(\w+)(\??):\s*(int|bool|datetime|guid)$/.exec(part);
      assert.ok(m, `docs/service-operations.md, ${name}: cannot read the query parameter "${part}"`);
      params[m[1] as string] = { type: m[3] as QueryParamSpec['type'], required: m[2] !== '?' };
    }
    return { name: unquote(name), area, method: unquote(method), path: unquote(path), query: params, body: body === 'yes', noContent: noContent === 'yes' };
  });
}

const recorded = recordedOperations();
const key = (method: string, path: string) => `${method} ${path.toLowerCase()}`;

describe('operations table', () => {
  test('holds exactly the operations of docs/service-operations.md, once each', () => {
    assert.ok(recorded.length >= 33, `only ${recorded.length} operations read from docs/service-operations.md`);
    assert.deepEqual(operationList.map((op) => op.name).sort(), recorded.map((r) => r.name).sort());
    const names = operationList.map((op) => op.name);
    assert.equal(new Set(names).size, names.length, 'operation names are unique');
    assert.deepEqual(names, Object.keys(operations), 'each row carries its own name');
    const routes = operationList.map((op) => key(op.method, op.path));
    assert.equal(new Set(routes).size, routes.length, 'no two rows share a method and path');
  });

  test("each row's area, method and path are the record's, to the letter", () => {
    const byName = new Map<string, OperationRow>(operationList.map((op) => [op.name, op]));
    for (const r of recorded) {
      const op = byName.get(r.name);
      assert.ok(op, `${r.name} of docs/service-operations.md has no row`);
      assert.deepEqual({ area: op.area, method: op.method, path: op.path }, { area: r.area, method: r.method, path: r.path }, r.name);
    }
  });

  test('query parameters, and which are required, as recorded', () => {
    const byName = new Map<string, OperationRow>(operationList.map((op) => [op.name, op]));
    for (const r of recorded) assert.deepEqual(byName.get(r.name)?.query, r.query, `${r.name}: query parameters`);
  });

  test('bodies and 204 answers as recorded', () => {
    const byName = new Map<string, OperationRow>(operationList.map((op) => [op.name, op]));
    for (const r of recorded) {
      const op = byName.get(r.name);
      assert.equal(op?.body, r.body, `${r.name}: body`);
      assert.equal(op?.noContent, r.noContent, `${r.name}: 204`);
    }
  });

  test('getEvents takes an optional integer type (the interface writes it as /rest/v2/Events?type=)', () => {
    assert.deepEqual(operations.getEvents.query, { type: { type: 'int', required: false } });
  });

  test('path parameters are typed: ids are integers, eventIds a list of them, basketId is a GUID', () => {
    for (const op of operationList) {
      const inTemplate = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      assert.deepEqual(Object.keys(op.pathParams), inTemplate, `${op.name}: path parameters in template order`);
      for (const name of inTemplate) {
        assert.equal(op.pathParams[name], name === 'basketId' ? 'guid' : name === 'eventIds' ? 'intlist' : 'int', `${op.name}: {${name}}`);
      }
    }
    assert.deepEqual(operations.deleteBasketItem.pathParams, { basketId: 'guid', basketItemId: 'int' });
    assert.deepEqual(operations.addTicketsV3.pathParams, { basketId: 'guid', performanceId: 'int' });
  });

  test('the restricted operation, and only GETs are idempotent', () => {
    const restricted = operationList.filter((op) => op.restricted).map((op) => op.name);
    assert.deepEqual(restricted, ['submitOrderOnAccount']);
    for (const op of operationList) assert.equal(op.idempotent, op.method === 'GET', `${op.name}: idempotent`);
  });

  test('the table is frozen', () => {
    assert.ok(Object.isFrozen(operations));
    assert.ok(Object.isFrozen(operationList));
  });
});
