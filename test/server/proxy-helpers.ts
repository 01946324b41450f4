/**
 * Shared by the proxy tests: servers on 127.0.0.1 (port 0), an upstream that
 * records what reaches it, and a client that keeps every answer so a test can
 * scan them all for the key.
 */
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { matchRoute } from '../../src/api/match.ts';
import { operationList, type OperationRow, type ParamType } from '../../src/api/operations.ts';
import type { AccessLogEntry, ProxyStore } from '../../src/server/proxy/index.ts';
import { freePort } from './servers.ts';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

function closer(server: Server | ServerType): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Serve a Fetch-API handler on 127.0.0.1, on a free port. */
export function listen(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<Listening> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({ url: `http://127.0.0.1:${info.port}`, port: info.port, close: closer(server) });
    });
  });
}

/** Serve a proxy (or any app with a `close`) on 127.0.0.1; closing it closes the server, then the app. */
export async function listenApp(app: { fetch: (request: Request, env: unknown) => Response | Promise<Response>; close(): Promise<void> }): Promise<Listening> {
  const served = await listen(app.fetch);
  return { ...served, close: async () => (await served.close(), await app.close()) };
}

/** A plain Node HTTP server on 127.0.0.1, on a free port: an upstream that writes its answers as it likes. */
export function listenNode(handler: RequestListener): Promise<Listening> {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, port, close: closer(server) });
    });
  });
}

/** A server that accepts requests and never answers them. */
export async function listenHanging(): Promise<Listening & { requests: () => number }> {
  let requests = 0;
  const listening = await listenNode(() => {
    requests++;
  });
  return { ...listening, requests: () => requests };
}

/** A port nothing listens on (bound, then released). */
export const closedPort = freePort;

export interface Received {
  method: string;
  /** Path and query as they reached the upstream. */
  path: string;
  headers: Headers;
  body: string;
  /** What the upstream answered. */
  answer?: { status: number; text: string };
}

/** Wrap an upstream handler so every request it receives, and its answer, is recorded in order. */
export function recording(inner: (request: Request) => Response | Promise<Response>) {
  const received: Received[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = request.body ? await request.clone().text() : '';
    const entry: Received = { method: request.method, path: url.pathname + url.search, headers: request.headers, body };
    received.push(entry);
    const response = await inner(request);
    entry.answer = { status: response.status, text: await response.clone().text() };
    return response;
  };
  return { fetch, received };
}

/** The Date header the stub service sends, to show it passes through. */
export const STUB_DATE = 'Tue, 01 Dec 2026 10:00:00 GMT';

/**
 * A stand-in for the ticket service: answers every table operation with a JSON
 * echo of what it received, plus headers a proxy must not pass on. `override`
 * may answer instead (an error, a slow answer).
 */
export function stubService(override?: (op: OperationRow, request: Request) => Response | Promise<Response> | undefined): Hono {
  const app = new Hono();
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const match = matchRoute(c.req.method, url.pathname);
    if (match.kind !== 'match') return c.json({ Message: 'stub: no such operation' }, 404);
    if (!c.req.header('api-key')) return c.json({ Message: 'stub: Api-Key required' }, 401);
    const overridden = await override?.(match.op, c.req.raw);
    if (overridden) return overridden;
    const text = match.op.body ? await c.req.text() : '';
    return c.json(
      { Operation: match.op.name, Path: url.pathname, Query: url.search, Body: text ? (JSON.parse(text) as unknown) : null },
      200,
      { 'Set-Cookie': 'upstream-session=abc; Path=/', 'X-Upstream-Internal': 'yes', Date: STUB_DATE },
    );
  });
  return app;
}

/** A valid sample value for a parameter type. */
export function sample(type: ParamType): string {
  switch (type) {
    case 'int':
      return '7';
    case 'guid':
      return '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    case 'bool':
      return 'true';
    case 'datetime':
      return '2026-12-01';
    case 'intlist':
      return '7,8';
  }
}

/** A valid request path (relative to the service base) for an operation: every path and query parameter filled. */
export function samplePath(op: OperationRow): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => sample(op.pathParams[name] ?? 'int'));
  const query = new URLSearchParams();
  for (const [name, spec] of Object.entries(op.query)) query.set(name, sample(spec.type));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

export { operationList };

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A client that keeps every answer (for the key scan at the end of a file). */
export function client(base: string, answers: Answer[] = []) {
  async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const response = await fetch(base + path, { method, headers: init.headers, body: init.body });
    const answer = { status: response.status, headers: response.headers, text: await response.text() };
    answers.push(answer);
    return answer;
  }
  return { call, answers };
}

/** A log sink that keeps every entry, and its JSON lines. */
export function logSink() {
  const entries: AccessLogEntry[] = [];
  const lines: string[] = [];
  return {
    entries,
    lines,
    log: (entry: AccessLogEntry) => {
      entries.push(entry);
      lines.push(JSON.stringify(entry));
    },
  };
}

/** A clock tests move by hand. */
export function manualNow(start = Date.UTC(2026, 10, 21, 12, 0, 0)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** The `Message` of a JSON error body in the service's shape; fails when the body is not one. */
export function messageOf(text: string): string {
  const body = JSON.parse(text) as { Message?: unknown };
  assert.equal(typeof body.Message, 'string', `a JSON { Message } body, got ${text}`);
  return String(body.Message);
}

/** A shared store whose every call fails, as when Redis cannot be reached (the proxy must go on without it). */
export function unreachableStore(name = 'unreachable'): ProxyStore {
  const broken = () => Promise.reject(new Error('store unreachable'));
  return {
    name,
    shared: true,
    cache: { get: broken, set: broken },
    orders: { get: broken, set: broken },
    rateLimits: { hit: broken },
    seatHolds: { reserve: broken, settle: broken, held: broken, basket: broken, setBasket: broken },
    flights: { claim: broken, release: broken, wait: async () => undefined },
    ping: broken,
    close: async () => undefined,
  };
}
