/**
 * Requests refused below our own code, answered in our error shape anyway.
 *
 * Two layers answer before a Hono app sees a request, and by default they
 * answer with no body and no content type:
 * - Node's HTTP parser (a `clientError`): a request line or header it cannot
 *   read (400), headers over its limit, e.g. a 17 KB Cookie (431), a request
 *   too slow to arrive (408);
 * - @hono/node-server, building the Fetch-API Request: a backslash in the
 *   path, a Host header that is not a host, an absolute URL it refuses (400).
 * Node also answers three requests by itself unless told otherwise: an
 * HTTP/1.1 request without a Host header (an empty 400: `SERVER_OPTIONS`
 * leaves it to the adapter, whose 400 is ours), a CONNECT (authority-form,
 * `CONNECT host:443`: the connection closed with no answer) and an `Expect`
 * other than `100-continue` (an empty 417).
 * Here all answer `{"Message": ...}` as JSON, with `Connection: close` for
 * those the connection cannot be read on after, and each is reported to
 * `onRefusal` (the proxy counts it in its metrics and access log). Node only.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The headers of a refusal written as a response. */
const REFUSAL_HEADERS = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** Why a request was refused before our code: a fixed set (a metrics label). */
export type RefusalReason =
  | 'malformed-request'
  | 'headers-too-large'
  | 'request-timeout'
  | 'unreadable-url'
  | 'connect-method'
  | 'expectation-failed'
  | 'shutting-down';

/** For `createServer`: a request without Host goes on to the adapter, which refuses it in JSON (400), where Node sends an empty 400. */
export const SERVER_OPTIONS: ServerOptions = { requireHostHeader: false };

/** The methods our servers answer (a CONNECT's 405 names them). */
const ALLOWED_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

export type OnRefusal = (status: number, reason: RefusalReason) => void;

interface ClientRefusal {
  status: number;
  reason: RefusalReason;
  message: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

/** What a parser error means for the client. */
export function clientRefusal(code: string | undefined): ClientRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'headers-too-large', message: 'The request headers are larger than this server accepts (a cookie too large?).' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'request-timeout', message: 'The request did not arrive in time.' };
    default:
      return { status: 400, reason: 'malformed-request', message: 'The request could not be read as HTTP.' };
  }
}

/** The bytes of a complete JSON refusal (the connection closes after it). `extra`: more header lines, each ending in CRLF. */
function rawResponse(status: number, message: string, extra = ''): string {
  const body = JSON.stringify({ Message: message });
  return (
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
    extra +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answer Node's client errors on `server` in the JSON shape (instead of its
 * bare `HTTP/1.1 400 Bad Request`). As Node does: only on a connection that
 * has written nothing yet and is still writable; a reset connection is just
 * closed.
 */
export function answerClientErrors(server: Server, onRefusal?: OnRefusal): void {
  const report = (status: number, reason: RefusalReason) => {
    try {
      onRefusal?.(status, reason);
    } catch {
      // Counting must not stop the answer.
    }
  };
  /** The refusal written on the socket, which then closes (at the latest 5 s on, if the client never reads). */
  const refuse = (socket: Socket, status: number, reason: RefusalReason, message: string, extra?: string) => {
    report(status, reason);
    socket.end(rawResponse(status, message, extra));
    socket.setTimeout(5000, () => socket.destroy());
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const refusal = clientRefusal(error.code);
    refuse(socket, refusal.status, refusal.reason, refusal.message);
  });
  // Without a listener Node closes a CONNECT's connection with no answer at all.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    refuse(socket, 405, 'connect-method', 'This server does not accept CONNECT: it is no tunnel.', `Allow: ${ALLOWED_METHODS}\r\n`);
  });
  // Without a listener Node answers an Expect it does not know with an empty 417.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    report(417, 'expectation-failed');
    const expected = String(request.headers.expect ?? '').slice(0, 80);
    response.writeHead(417, { ...REFUSAL_HEADERS, Connection: 'close' });
    response.end(JSON.stringify({ Message: `This server cannot meet the expectation '${expected}'; only 100-continue is understood.` }));
  });
}

/**
 * The `errorHandler` for @hono/node-server's `getRequestListener` / `serve`:
 * the request could not become a Fetch-API Request (a backslash in the path,
 * a bad Host), 400 in the JSON shape; anything else thrown synchronously by
 * the handler, 500 in the same shape.
 */
export function requestErrorHandler(onRefusal?: OnRefusal): (error: unknown) => Response {
  return (error) => {
    const named = error instanceof Error && error.name === 'RequestError';
    const status = named ? 400 : 500;
    if (named) {
      try {
        onRefusal?.(400, 'unreadable-url');
      } catch {
        // Counting must not stop the answer.
      }
    }
    const message = named ? `The request's address could not be read (${error.message.slice(0, 80)}).` : 'The server could not handle this request.';
    return new Response(JSON.stringify({ Message: message }), { status, headers: REFUSAL_HEADERS });
  };
}
