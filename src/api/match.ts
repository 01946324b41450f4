/**
 * Matching a request against the operations table, and validating its
 * parameters. The proxy's allowlist and the sandbox's router both use this, so
 * what one accepts the other accepts.
 *
 * Literal path segments match case-insensitively (the service is an ASP.NET Web
 * API, and the interface itself writes `/v3/Baskets` and `/v3/baskets`).
 *
 * Browser-safe: no DOM, no Node.
 */
import { operationList, type OperationRow, type ParamType } from './operations.ts';
import { isValidDateParam } from './time.ts';

interface CompiledRoute {
  op: OperationRow;
  pattern: RegExp;
  names: string[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The table's paths as patterns, compiled on the first match: only the proxy matches routes, and
 * a module-level compile would run (and be carried) in every browser bundle that builds requests
 * with this module's other functions.
 */
let routes: CompiledRoute[] | undefined;
const compileRoutes = (): CompiledRoute[] => operationList.map((op) => {
  const names: string[] = [];
  const source = op.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        names.push(param[1] as string);
        // A list is a segment with a comma: `Events/1,2/Performances` is the list operation, `Events/1/...` the single one.
        return op.pathParams[param[1] as string] === 'intlist' ? '([^/]*,[^/]*)' : '([^/]+)';
      }
      return escapeRegExp(segment);
    })
    .join('/');
  return { op, names, pattern: new RegExp(`^${source}/?$`, 'i') };
});

export type RouteMatch =
  | { kind: 'match'; op: OperationRow; rawPath: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

/** Which operation a method and pathname (relative to the service base) name. */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const allow: string[] = [];
  // A literal segment beats a parameter: /rest/v2/Baskets/{id}/Tickets (DELETE) vs
  // /rest/v2/Baskets/{id} never overlap, but be explicit about order anyway:
  // the first row whose method matches wins.
  for (const route of (routes ??= compileRoutes())) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.op.method !== method.toUpperCase()) {
      allow.push(route.op.method);
      continue;
    }
    const rawPath: Record<string, string> = {};
    route.names.forEach((name, i) => {
      rawPath[name] = safeDecode(m[i + 1] ?? '');
    });
    return { kind: 'match', op: route.op, rawPath };
  }
  if (allow.length) return { kind: 'method-not-allowed', allow: [...new Set(allow)] };
  return { kind: 'not-found' };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^\d{1,10}$/;
const MAX_INT = 2147483647;
/** Most ids in one `intlist` segment. */
const MAX_LIST = 50;

export type ParamValue = number | string | boolean;

/** Parse one raw parameter value, or say why it is not one. */
export function parseParam(type: ParamType, raw: string): { ok: true; value: ParamValue } | { ok: false; expected: string } {
  switch (type) {
    case 'int': {
      if (!INT.test(raw) || Number(raw) > MAX_INT) return { ok: false, expected: 'a non-negative integer' };
      return { ok: true, value: Number(raw) };
    }
    case 'guid':
      return GUID.test(raw) ? { ok: true, value: raw } : { ok: false, expected: 'a GUID' };
    case 'bool': {
      const v = raw.toLowerCase();
      if (v === 'true' || v === 'false') return { ok: true, value: v === 'true' };
      return { ok: false, expected: 'true or false' };
    }
    case 'intlist': {
      const items = raw.split(',').map((item) => item.trim());
      if (items.length > MAX_LIST || !items.every((item) => INT.test(item) && Number(item) <= MAX_INT)) {
        return { ok: false, expected: `non-negative integers separated by commas (at most ${MAX_LIST})` };
      }
      return { ok: true, value: items.map(Number).join(',') };
    }
    case 'datetime':
      return isValidDateParam(raw)
        ? { ok: true, value: raw }
        : { ok: false, expected: 'a date (yyyy-MM-dd) or date and time (yyyy-MM-ddTHH:mm:ss)' };
  }
}

export type ValidatedRequest =
  | { ok: true; path: Record<string, ParamValue>; query: Record<string, ParamValue> }
  | { ok: false; param: string; message: string };

/**
 * Validate the path and query parameters of a matched operation. Query names
 * match case-insensitively; parameters the operation does not declare are
 * dropped (they are never forwarded).
 */
export function validateParams(op: OperationRow, rawPath: Record<string, string>, search: URLSearchParams): ValidatedRequest {
  const path: Record<string, ParamValue> = {};
  for (const [name, type] of Object.entries(op.pathParams)) {
    const raw = rawPath[name] ?? '';
    const parsed = parseParam(type, raw);
    if (!parsed.ok) return { ok: false, param: name, message: `The path parameter '${name}' must be ${parsed.expected}.` };
    path[name] = parsed.value;
  }
  const lower = new Map<string, string>();
  for (const [k, v] of search) if (!lower.has(k.toLowerCase())) lower.set(k.toLowerCase(), v);
  const query: Record<string, ParamValue> = {};
  for (const [name, spec] of Object.entries(op.query)) {
    const raw = lower.get(name.toLowerCase());
    if (raw === undefined || raw === '') {
      if (spec.required) return { ok: false, param: name, message: `The query parameter '${name}' is required.` };
      continue;
    }
    const parsed = parseParam(spec.type, raw);
    if (!parsed.ok) return { ok: false, param: name, message: `The query parameter '${name}' must be ${parsed.expected}.` };
    query[name] = parsed.value;
  }
  return { ok: true, path, query };
}

/** Path templates split once into literal text (even indexes) and parameter names (odd). */
const templateParts = new Map<string, string[]>();

/** Fill a path template with (already validated) values. */
export function fillPath(template: string, values: Record<string, unknown>): string {
  let parts = templateParts.get(template);
  if (!parts) templateParts.set(template, (parts = template.split(/\{(\w+)\}/)));
  let path = parts[0] ?? '';
  // Commas stay commas (an `intlist` segment, `1,2`), as clients write them.
  for (let i = 1; i < parts.length; i += 2) path += encodeURIComponent(String(values[parts[i] ?? ''])).replace(/%2C/g, ',') + (parts[i + 1] ?? '');
  return path;
}

/** A query string (with leading `?`, or empty) from the declared parameters only, in table order. */
export function buildQuery(op: OperationRow, values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const name of Object.keys(op.query)) {
    const v = values[name];
    if (v === undefined || v === null || v === '') continue;
    params.set(name, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
