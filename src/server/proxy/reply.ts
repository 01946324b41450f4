/**
 * What the proxy sends back, before it becomes a Response: the proxy's own
 * JSON errors, the upstream's answer made safe (JSON only, the key redacted in
 * every common encoding (key-redaction.ts), no upstream header but Date and
 * Retry-After, and those only in their shapes (answer-headers.ts)), and the Response
 * itself, built with plain header objects (the fast path of @hono/node-server).
 * Edge-safe.
 */
import { utf8Text } from '../json-body.ts';
import { httpDate, retryAfter } from './answer-headers.ts';
import type { UpstreamResult } from './upstream.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Why the proxy answered for the upstream: `timeout` (504), `unreachable`/`bad-answer` (502), `internal` (500). */
export type ReplyError = 'timeout' | 'unreachable' | 'bad-answer' | 'internal';

export interface Reply {
  status: number;
  /** Text from the upstream or the proxy; bytes from the cache. */
  body: string | Uint8Array<ArrayBuffer> | null;
  contentType: string;
  /** The upstream's Date, or null to use the proxy's clock. */
  date: string | null;
  retryAfter?: string | null;
  /** Seconds since the answer was stored (cache hits). */
  age?: number;
  upstreamStatus?: number;
  error?: ReplyError;
  retried?: boolean;
}

export function message(status: number, text: string, extra: Partial<Reply> = {}): Reply {
  return { status, body: JSON.stringify({ Message: text }), contentType: JSON_TYPE, date: null, ...extra };
}

function isJsonType(contentType: string | null): boolean {
  return contentType !== null && /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function unreadable(status: number, date: string | null, retried: boolean): Reply {
  return message(502, 'The booking service sent an answer that could not be read.', { date, upstreamStatus: status, retried, error: 'bad-answer' });
}

/**
 * Turn what the upstream did into what the browser gets. `redact` removes the key from a body
 * that echoes it. (Object literals, no spreads: this runs for every request, and V8 copies a
 * spread object far more slowly than it builds a literal.)
 */
export function replyFrom(result: UpstreamResult, redact: (text: string) => string): Reply {
  if (result.kind !== 'answer') {
    return result.kind === 'timeout'
      ? message(504, 'The booking service did not answer in time.', { error: 'timeout', retried: result.retried })
      : message(502, 'The booking service could not be reached.', { error: 'unreachable', retried: result.retried });
  }
  const { status, retried } = result;
  const date = httpDate(result.date);
  if (status < 200 || (status >= 300 && status < 400)) return unreadable(status, date, retried);
  if (status === 204 || status === 205) return { status, body: null, contentType: JSON_TYPE, date, upstreamStatus: status, retried };
  const body = redact(result.body);
  // Digits or a date as the proxy writes it: only a key of digits could hide there.
  const wait = retryAfter(result.retryAfter);
  const waitSafe = wait !== null && redact(wait) === wait ? wait : null;
  const json = isJsonType(result.contentType) ? body.trim() !== '' : parsesAsJson(body);
  if (json) {
    // Always labelled JSON: an upstream's text/html label on a JSON body would let markup run on the proxy's origin.
    return { status, body, contentType: JSON_TYPE, date, retryAfter: waitSafe, upstreamStatus: status, retried };
  }
  if (status < 300) return unreadable(status, date, retried);
  // An error page that is not JSON (a gateway's HTML): keep the status, give the service's shape.
  return message(status, `The booking service answered ${status}.`, { date, upstreamStatus: status, retried, retryAfter: waitSafe });
}

/**
 * Bodies from this size (UTF-16 units or bytes) may be sent gzip'd: a seat map's availability is
 * about 170 KB of JSON, a tenth of that gzip'd, and on a phone's slow network its download was
 * most of the wait for the map. Below it, compressing costs more than it saves.
 */
export const COMPRESS_FROM = 1024;

/** Whether an Accept-Encoding header accepts gzip (named, or `*`, with a q above 0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (coding === 'gzip') return allowed;
    if (coding === '*') star = allowed;
  }
  return star;
}

/**
 * Whether a reply's body may be sent compressed (large enough): its Response then says `Vary:
 * Accept-Encoding` whether or not this client takes gzip, so no cache mixes the two.
 */
export function compressible(reply: Reply): boolean {
  return reply.body !== null && (typeof reply.body === 'string' ? reply.body.length : reply.body.byteLength) >= COMPRESS_FROM;
}

/** The gzip'd bytes of a body the cache holds (the same bytes object while it is kept): compressed once. */
const zipped = new WeakMap<Uint8Array, Promise<Uint8Array>>();

const gzipStream = (body: string | Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> =>
  new Blob([body]).stream().pipeThrough(new CompressionStream('gzip'));

/** A body gzip'd: a cached one from its kept compression, made on its first use; text each time. */
function gzipped(body: string | Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  if (typeof body === 'string') return gzipStream(body);
  let bytes = zipped.get(body);
  if (!bytes) {
    bytes = new Response(gzipStream(body)).arrayBuffer().then((b) => new Uint8Array(b));
    zipped.set(body, bytes);
    bytes.catch(() => zipped.delete(body));
  }
  const ready = bytes;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      controller.enqueue(await ready);
      controller.close();
    },
  });
}

/**
 * The Response for a reply. `date` is the proxy's clock, used when the reply carries no upstream Date.
 * `gzip`: send the body gzip'd (through the platform's CompressionStream, on Node and the edge alike).
 */
export function toResponse(reply: Reply, cacheControl: string, date: () => string, extra?: Record<string, string>, status = reply.status, gzip = false): Response {
  const headers: Record<string, string> = {
    'Cache-Control': cacheControl,
    Date: reply.date ?? date(),
    'X-Content-Type-Options': 'nosniff',
  };
  if (reply.body !== null) headers['Content-Type'] = reply.contentType;
  if (reply.retryAfter) headers['Retry-After'] = reply.retryAfter;
  if (reply.age !== undefined) headers.Age = String(reply.age);
  if (extra) Object.assign(headers, extra);
  if (gzip && reply.body !== null) {
    headers['Content-Encoding'] = 'gzip';
    // `encodeBody: 'manual'`: Cloudflare Workers would otherwise gzip the body again for this header
    // (other runtimes ignore the option).
    const init = { status, headers, encodeBody: 'manual' } as ResponseInit;
    return new Response(gzipped(reply.body), init);
  }
  return new Response(reply.body, { status, headers });
}

/** The request body as text, at most `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<{ ok: true; text: string } | { ok: false; reply: Reply }> {
  const tooLarge = (): { ok: false; reply: Reply } => ({
    ok: false,
    reply: message(413, `The request body is larger than the limit of ${limit} bytes.`),
  });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return tooLarge();
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = utf8Text(bytes);
  return text === null ? { ok: false, reply: message(400, 'The request body must be JSON (UTF-8).') } : { ok: true, text };
}
