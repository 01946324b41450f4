/**
 * A front server that loses answers, for the browser tests of an add whose answer was lost
 * (test/elements/seat-picker.lost-add.test.ts): a real HTTP server on 127.0.0.1 in front of
 * the real proxy and sandbox (in this process), started as its own process by the test
 * runner's `lossy-front` command (scripts/wtr-lossy-front.mjs) and stopped by its pid.
 *
 *   tsx test/server/lossy-front.ts <page origin>     prints {"url":"http://127.0.0.1:P"}
 *
 * Every request goes on to the proxy (`/api/...`), which lets the page's origin call it
 * (CORS). A fault armed for the next request of a method and path (POST /__lossy/arm with
 * `{ fault, method, path }`, path a RegExp source) lets that request reach the sandbox (so the
 * service really did what it asked) and then breaks the answer: `502` or `504` (an HTML page
 * from the front server, as nginx sends), `garbage` (a 200 that is not JSON), `reset` (the
 * connection cut after the answer's first bytes), `hang` (no answer until the browser gives up; GET /__lossy/held answers
 * once one is held; POST /__lossy/release drops what is armed and held). `forward: false` answers the fault without forwarding the request: a
 * failure that never reached the service.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../src/server/proxy/index.ts';
import { createSandbox } from '../../src/server/sandbox/index.ts';

export type Fault = '502' | '504' | 'garbage' | 'reset' | 'hang';
export interface Armed {
  fault: Fault;
  method: string;
  path: string;
  forward?: boolean;
}

const origin = process.argv[2];
if (!origin) throw new Error('usage: lossy-front.ts <page origin>');
const sandbox = createSandbox({ seed: 1 });
const proxy = createProxy({
  upstream: (request) => sandbox.fetch(request),
  apiKey: 'lossy-front',
  allowedOrigins: [origin],
  rateLimit: false,
  cache: false,
  log: false,
  metrics: false,
  operationalEndpoints: false,
});

const cors = { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Allow-Methods': 'GET, POST' };
let armed: Armed[] = [];
const held = new Set<ServerResponse>();
let heldWaiters: (() => void)[] = [];

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html', ...cors });
  res.end(`<html><head><title>${text}</title></head><body><h1>${text}</h1></body></html>`);
}

async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
  if (path === '/__lossy/arm' && req.method === 'POST') {
    armed.push(JSON.parse((await body(req)).toString()) as Armed);
    return void res.writeHead(204, cors).end();
  }
  if (path === '/__lossy/held') {
    if (!held.size) await new Promise<void>((resolve) => heldWaiters.push(resolve));
    res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
    return void res.end(JSON.stringify({ held: held.size }));
  }
  if (path === '/__lossy/release') {
    // The end of a test: nothing it armed or held outlives it (a browser has six connections per host).
    armed = [];
    for (const hung of held) hung.socket?.destroy();
    return void res.writeHead(204, cors).end();
  }
  page(res, 404, 'Not Found');
}

function lose(req: IncomingMessage, res: ServerResponse, fault: Fault): void {
  switch (fault) {
    case '502':
      return page(res, 502, '502 Bad Gateway');
    case '504':
      return page(res, 504, '504 Gateway Time-out');
    case 'garbage':
      return page(res, 200, 'Welcome');
    case 'reset':
      // Cut after the answer's first bytes: a browser sends a request again by itself when its
      // reused connection drops before any byte came back, which would be a resend, not a loss.
      req.socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n');
      return;
    case 'hang':
      held.add(res);
      res.on('close', () => held.delete(res));
      for (const wake of heldWaiters.splice(0)) wake();
  }
}

const server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/__lossy/')) return control(req, res, url.pathname);
    const at = armed.findIndex((a) => a.method === req.method && new RegExp(a.path).test(url.pathname));
    const fault = at >= 0 ? armed[at] : undefined;
    if (fault) armed = armed.filter((_, i) => i !== at);
    const payload = await body(req);
    if (fault && fault.forward === false) return lose(req, res, fault.fault);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
    const request = new Request(`http://127.0.0.1${url.pathname}${url.search}`, { method: req.method, headers, body: payload.length ? new Uint8Array(payload) : undefined });
    const answer = await proxy.fetch(request);
    const bytes = Buffer.from(await answer.arrayBuffer());
    // The service has done what was asked: only now is its answer lost.
    if (fault) return lose(req, res, fault.fault);
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
    });
    res.writeHead(answer.status, { ...out, 'Content-Length': String(bytes.length) });
    res.end(bytes);
  })().catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) page(res, 500, 'lossy-front failed');
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
