/**
 * The proxy as a Node HTTP server that shuts down without dropping a request:
 * on `drain()` (SIGTERM, SIGINT in `stagedoor proxy`) requests in flight
 * finish; every new one, on any connection, gets 503 with Retry-After and
 * `Connection: close` (a load balancer sends it elsewhere); idle keep-alive
 * connections are closed; once nothing is in flight, or at the latest after
 * `drainTimeoutMs`, the server closes. Node only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { answerClientErrors, requestErrorHandler, SERVER_OPTIONS, type OnRefusal } from '../refusals.ts';

export interface ProxyServerOptions {
  port: number;
  host: string;
  /** The longest a drain waits for requests in flight, ms; then their connections are cut. */
  drainTimeoutMs: number;
  /** Retry-After (seconds) of the 503 sent while draining (default 2). */
  retryAfterSeconds?: number;
  /** Told of every request refused before `fetch` saw it (answered in JSON here): `ProxyApp.refused`. */
  onRefusal?: OnRefusal;
}

export interface ProxyServer {
  readonly server: Server;
  readonly port: number;
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Stop taking requests, let those in flight finish (within the bound), close. Resolves `true` when none was cut off. */
  drain(): Promise<boolean>;
}

const DRAINING_BODY = JSON.stringify({ Message: 'This proxy is shutting down; please try again.' });

export function listenProxy(fetch: (request: Request, env: unknown) => Response | Promise<Response>, options: ProxyServerOptions): Promise<ProxyServer> {
  // A request Node or the adapter cannot read is answered in the JSON shape too, and counted (../refusals.ts).
  const listener = getRequestListener(fetch, { errorHandler: requestErrorHandler(options.onRefusal) });
  let inFlight = 0;
  let draining: Promise<boolean> | null = null;
  let quiet: (() => void) | null = null;
  const retryAfter = String(options.retryAfterSeconds ?? 2);

  // One function for every answer (a response closes once): no closure per request.
  const finished = () => {
    inFlight--;
    if (inFlight === 0) quiet?.();
  };

  const server = createServer(SERVER_OPTIONS, (req, res) => {
    if (draining) {
      options.onRefusal?.(503, 'shutting-down');
      res.writeHead(503, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': retryAfter,
        Connection: 'close',
      });
      res.end(DRAINING_BODY);
      return;
    }
    inFlight++;
    res.on('close', finished);
    void listener(req, res);
  });

  answerClientErrors(server, options.onRefusal);

  function drain(): Promise<boolean> {
    draining ??= new Promise<boolean>((resolve) => {
      // Keep-alive connections with nothing in flight: closed now (a busy one closes after its answer: Connection: close).
      server.closeIdleConnections();
      const finish = (clean: boolean) => {
        clearTimeout(timer);
        quiet = null;
        if (!clean) server.closeAllConnections();
        server.close(() => resolve(clean));
        server.closeAllConnections();
      };
      const timer = setTimeout(() => finish(false), options.drainTimeoutMs);
      if (inFlight === 0) finish(true);
      else quiet = () => finish(true);
    });
    return draining;
  }

  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${options.port} on ${options.host} is in use; choose another port.`) : error);
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        get inFlight() {
          return inFlight;
        },
        drain,
      });
    });
  });
}
