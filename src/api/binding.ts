/**
 * The service's JSON binding rules, in one place: an already-parsed JSON value
 * (a request body) → the typed request the service's model would hold.
 *
 * The service is an ASP.NET Web API v2; its JSON model binder is Json.NET. What
 * Json.NET accepts, a client may send, and real clients do (camelCase names,
 * ticket ids as strings, `"true"` for a boolean). The rules, as Json.NET applies
 * them to the service's request classes:
 *
 * - property names match case-insensitively (`email`, `EMAIL` and `Email` are one
 *   field; when a body spells one field twice, the later one wins, as Json.NET
 *   assigns in document order); properties the class does not have are ignored;
 * - an integer field takes a JSON integer, a number with no fraction, or a string
 *   of digits (`"123"`, sign and surrounding spaces allowed), within Int32; a
 *   decimal field a number or a numeric string, within .NET's decimal;
 * - a boolean field takes `true`/`false`, the strings `"true"`/`"false"` (any
 *   case) or an integer within Int64 (0 is false);
 * - a string field takes a string, or a number (written as the number's text);
 * - an enumeration (PaymentGateLanguage) takes its number (within Int32), a
 *   numeric string or its name in any case (`"German"`);
 * - a Guid takes the 32 hex digits with or without dashes, braces or parentheses;
 * - a list takes a JSON array of its element type, of at most 100 items (no
 *   basket takes more tickets in one request; a longer list is refused here
 *   rather than sent on for the service to walk);
 * - a missing property, or `null`, stays at its default: absent here (the
 *   consumer applies the default: 0, false, null, English), and an empty string
 *   for a number is "no value", as Json.NET reads it for a nullable number.
 *
 * Anything else is a 400 naming the field (`Tickets[1]`, `BestSeats.Price`).
 * So is a property named `__proto__`, `constructor` or `prototype` in an object
 * the binder reads: no request class has one, and such a name is only ever a
 * probe for prototype pollution in whatever reads the body next.
 *
 * The result is a fresh object holding only the typed, PascalCase fields the
 * service knows: the sandbox's handlers read it, and the proxy forwards it
 * (never the client's own bytes). One service rule beyond Json.NET: Submit
 * Order's BasketId may be left out (the path names the basket; it is filled
 * in), but a different one is refused.
 *
 * Raw bytes → JSON value (size and depth limits) is the caller's; this module
 * is a pure function over an already-parsed value.
 *
 * Browser-safe: no DOM, no Node.
 */
import type { OperationName } from './operations.ts';
import type { ParamValue } from './match.ts';
import { Language } from './types.ts';

type FieldType =
  | 'int'
  | 'decimal'
  | 'bool'
  | 'string'
  | 'guid'
  | { enum: Readonly<Record<string, number>> }
  | { list: FieldType }
  | { object: Schema };

type Schema = Readonly<Record<string, FieldType>>;

const BEST_SEATS: Schema = { PerformanceId: 'int', AreaId: 'int', SeatsCount: 'int', Price: 'decimal' };

const ORDER_FIELDS: Schema = {
  BasketId: 'guid',
  Email: 'string',
  Name: 'string',
  LastName: 'string',
  AddressLine1: 'string',
  AddressLine2: 'string',
  CompanyName: 'string',
  City: 'string',
  Country: 'int',
  Zip: 'string',
  Phone: 'string',
  Mobile: 'string',
  StateCode: 'string',
  DeliveryType: 'int',
  RequireTicketPlan: 'bool',
  SendConfirmationEmail: 'bool',
  TransactionReference: 'string',
};

/** The request class of every operation that takes a body (a test checks none is missing). */
export const BODY_SCHEMAS: Readonly<Partial<Record<OperationName, Schema>>> = {
  addTickets: { Tickets: { list: 'int' }, BestSeats: { object: BEST_SEATS } },
  // Our own v3 design (upstream-facts.md): TicketIds, or AreaId, SeatsCount and Price.
  addTicketsV3: { TicketIds: { list: 'int' }, AreaId: 'int', SeatsCount: 'int', Price: 'decimal' },
  submitOrder: { ...ORDER_FIELDS, SuccessReturnUrl: 'string', FailureReturnUrl: 'string', PaymentGateLanguage: { enum: Language } },
  submitOrderOnAccount: { ...ORDER_FIELDS, ReturnUrl: 'string' },
  validateSeatsSelection: { TicketIds: { list: 'int' } },
};

export type BindResult = { ok: true; value: Record<string, unknown> } | { ok: false; field: string; message: string };

const MIN_INT = -2147483648;
const MAX_INT = 2147483647;
/** Int64's bounds as doubles (a boolean takes an integer Json.NET reads as a long). */
const MAX_LONG = 9223372036854775807;
/** .NET decimal's largest magnitude, 2^96 - 1. */
const MAX_DECIMAL = 79228162514264337593543950335;
/** The most items a list may hold. */
export const MAX_LIST_ITEMS = 100;
/** Names no request class has, that reach into an object's prototype in JavaScript. */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const GUID_HEX = /^[0-9a-f]{32}$/i;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class BindError {
  constructor(
    readonly field: string,
    readonly expected: string,
  ) {}
}

/** A value for one field, or `undefined` for "no value" (the default). Throws BindError. */
function bindValue(type: FieldType, value: unknown, field: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof type === 'object') {
    if ('list' in type) {
      if (!Array.isArray(value)) throw new BindError(field, 'a list (a JSON array)');
      if (value.length > MAX_LIST_ITEMS) throw new BindError(field, `a list of at most ${MAX_LIST_ITEMS} items (it has ${value.length})`);
      return value.map((item, i) => {
        const bound = bindValue(type.list, item, `${field}[${i}]`);
        if (bound === undefined) throw new BindError(`${field}[${i}]`, describe(type.list));
        return bound;
      });
    }
    if ('object' in type) {
      if (!isObject(value)) throw new BindError(field, 'an object');
      return bindObject(type.object, value, `${field}.`);
    }
    return bindEnum(type.enum, value, field);
  }
  switch (type) {
    case 'int': {
      if (value === '') return undefined;
      const n = typeof value === 'number' ? value : typeof value === 'string' && INT_TEXT.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < MIN_INT || n > MAX_INT) throw new BindError(field, describe(type));
      return n;
    }
    case 'decimal': {
      if (value === '') return undefined;
      const n = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL_TEXT.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw new BindError(field, describe(type));
      if (Math.abs(n) > MAX_DECIMAL) throw new BindError(field, 'a number a .NET decimal holds (at most 79228162514264337593543950335 either way)');
      return n;
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_LONG) return value !== 0;
      const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (text === 'true' || text === 'false') return text === 'true';
      throw new BindError(field, describe(type));
    }
    case 'string': {
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      throw new BindError(field, describe(type));
    }
    case 'guid': {
      const hex = typeof value === 'string' ? value.trim().replace(/^\{(.*)\}$|^\((.*)\)$/, '$1$2') : '';
      const digits = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(hex) ? hex.replace(/-/g, '') : hex;
      if (!GUID_HEX.test(digits)) throw new BindError(field, describe(type));
      return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
    }
  }
}

function bindEnum(values: Readonly<Record<string, number>>, value: unknown, field: string): number | undefined {
  if (value === '') return undefined;
  const inRange = (n: number) => Number.isInteger(n) && n >= MIN_INT && n <= MAX_INT;
  if (typeof value === 'number' && inRange(value)) return value;
  if (typeof value === 'string') {
    if (INT_TEXT.test(value) && inRange(Number(value))) return Number(value);
    const name = Object.keys(values).find((k) => k.toLowerCase() === value.trim().toLowerCase());
    if (name !== undefined) return values[name];
  }
  throw new BindError(field, `one of ${Object.entries(values).map(([k, v]) => `${v} (${k})`).join(', ')}`);
}

function describe(type: FieldType): string {
  if (typeof type === 'object') return 'list' in type ? 'a list' : 'object' in type ? 'an object' : 'an enumeration value';
  return {
    int: 'a whole number (a number or a string of digits)',
    decimal: 'a number (or a numeric string)',
    bool: 'true or false',
    string: 'a string',
    guid: 'a GUID',
  }[type];
}

/** The schema's fields found in `body` whatever their case, typed; the later spelling of a field wins. */
function bindObject(schema: Schema, body: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const names = new Map(Object.keys(schema).map((name) => [name.toLowerCase(), name]));
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(body)) {
    if (PROTOTYPE_NAMES.has(key)) throw new BindError(`${prefix}${key}`, 'left out: no request of the service has it');
    const name = names.get(key.toLowerCase());
    if (name === undefined) continue; // not a property of the request class: ignored, never forwarded
    const bound = bindValue(schema[name] as FieldType, raw, `${prefix}${name}`);
    if (bound === undefined) delete out[name];
    else out[name] = bound;
  }
  return out;
}

/**
 * Bind the parsed body of operation `operation` (path parameters already
 * validated) to its typed request, or say which field is wrong and why.
 */
export function bindBody(operation: string, body: unknown, path: Readonly<Record<string, ParamValue>> = {}): BindResult {
  const schema = BODY_SCHEMAS[operation as OperationName];
  if (!schema) return { ok: false, field: '', message: `${operation} takes no request body.` };
  if (!isObject(body)) return { ok: false, field: '', message: 'The request body must be a JSON object.' };
  let value: Record<string, unknown>;
  try {
    value = bindObject(schema, body, '');
  } catch (error) {
    if (!(error instanceof BindError)) throw error;
    return { ok: false, field: error.field, message: `The field '${error.field}' must be ${error.expected}.` };
  }
  if ('BasketId' in schema && typeof path.basketId === 'string') {
    // The path names the basket: a body without BasketId means that one; a different one is refused.
    const named = value.BasketId;
    if (named === undefined) value.BasketId = path.basketId;
    else if (String(named).toLowerCase() !== path.basketId.toLowerCase()) {
      return { ok: false, field: 'BasketId', message: `The field 'BasketId' must be the basket of the request path (${path.basketId}).` };
    }
  }
  return { ok: true, value };
}
