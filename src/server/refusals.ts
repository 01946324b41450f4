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
 * Here both answer `{"Message": ...}` as JSON, with `Connection: close` for
 * the first (the connection cannot be read on), and each is reported to
 * `onRefusal` (the proxy counts it in its metrics and access log). Node only.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Why a request was refused before our code: a fixed set (a metrics label). */
export type RefusalReason = 'malformed-request' | 'headers-too-large' | 'request-timeout' | 'unreadable-url' | 'shutting-down';

export type OnRefusal = (status: number, reason: RefusalReason) => void;

interface ClientRefusal {
  status: number;
  reason: RefusalReason;
  message: string;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

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

/** The bytes of a complete JSON refusal (the connection closes after it). */
function rawResponse(status: number, message: string): string {
  const body = JSON.stringify({ Message: message });
  return (
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
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
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const refusal = clientRefusal(error.code);
    try {
      onRefusal?.(refusal.status, refusal.reason);
    } catch {
      // Counting must not stop the answer.
    }
    socket.end(rawResponse(refusal.status, refusal.message));
    // If the client never reads, the socket still goes.
    socket.setTimeout(5000, () => socket.destroy());
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
    return new Response(JSON.stringify({ Message: message }), {
      status,
      headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    });
  };
}
