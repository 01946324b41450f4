/**
 * `stagedoor <command>` (bin/stagedoor.mjs runs this through tsx):
 *
 *   stagedoor proxy --upstream URL [--port 8788] [--host 127.0.0.1] [--prefix /api]
 *                   [--allow-origin URL]... [--allow-on-account]
 *                   [--timeout-ms 10000] [--client-address-header X-Forwarded-For]
 *       The key-holding proxy in front of the real service. The Api-Key comes
 *       from the environment variable STAGEDOOR_API_KEY, never from argv
 *       (where `ps` shows it).
 *   stagedoor sandbox ...     The sandbox on its own (see `stagedoor sandbox --help`).
 *   stagedoor start           `npm start`: the demo pages through Vite (reload on
 *                             change), the proxy at /api and the sandbox as its
 *                             upstream, in one process on 127.0.0.1:$PORT (8080).
 *   stagedoor serve [--dist DIR]
 *                             The same with the built demo pages (dist/demo, from
 *                             `npm run build`) instead of Vite.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAdaptorServer, getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bundleCaching } from './bundle-caching.ts';
import { createProxy } from './proxy/index.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO_HOST = '127.0.0.1';
const KEY_VARIABLE = 'STAGEDOOR_API_KEY';

const USAGE = `Usage:
  stagedoor start                      demo pages (Vite, with reload) + proxy at /api + sandbox, one process
                                       on http://127.0.0.1:$PORT/ (PORT defaults to 8080)
  stagedoor serve [--dist DIR]         the same with the built pages (npm run build) from DIR (dist/demo)
  stagedoor proxy --upstream URL [--port 8788] [--host 127.0.0.1] [--prefix /api]
                  [--allow-origin URL]... [--allow-on-account] [--timeout-ms 10000]
                  [--client-address-header X-Forwarded-For]
                                       the proxy; the service's Api-Key is read from ${KEY_VARIABLE}
  stagedoor sandbox ...                the sandbox alone (stagedoor sandbox --help)`;

/** A mistake in the command line: printed with the usage, exit status 2. */
class UsageError extends Error {}

function parsePort(raw: string, source: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new UsageError(`${source} must be a port number (0-65535), not '${raw}'.`);
  return Number(raw);
}

function parse<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is in use; choose another port.`) : error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}

/** Close cleanly on Ctrl-C or a termination signal. */
function closeOnSignal(server: Server, before: () => Promise<void> = async () => undefined): void {
  const stop = () => {
    server.closeAllConnections();
    void before()
      .catch(() => undefined)
      .finally(() => server.close(() => process.exit(0)));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function runProxy(args: string[]): Promise<void> {
  if (args.some((a) => /^--(api-?key|key)(=|$)/i.test(a))) {
    throw new UsageError(`The Api-Key is never taken from the command line (ps would show it): set ${KEY_VARIABLE} in the environment.`);
  }
  const values = parse(args, {
    upstream: { type: 'string' },
    port: { type: 'string', default: '8788' },
    host: { type: 'string', default: '127.0.0.1' },
    prefix: { type: 'string', default: '/api' },
    'allow-origin': { type: 'string', multiple: true },
    'allow-on-account': { type: 'boolean', default: false },
    'timeout-ms': { type: 'string' },
    'client-address-header': { type: 'string' },
  });
  if (!values.upstream) throw new UsageError('--upstream URL is required (the ticket service, e.g. https://api.example.com).');
  const apiKey = process.env[KEY_VARIABLE]?.trim();
  if (!apiKey) {
    throw new Error(
      `${KEY_VARIABLE} is not set. The proxy reads the ticket service's Api-Key from this environment variable only, e.g.\n` +
        `  ${KEY_VARIABLE}=your-key npx stagedoor proxy --upstream ${values.upstream}`,
    );
  }
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new UsageError('--timeout-ms must be a positive whole number of milliseconds.');
  const port = parsePort(values.port, '--port');
  const proxy = createProxy({
    upstream: values.upstream,
    apiKey,
    prefix: values.prefix,
    allowedOrigins: values['allow-origin'] ?? [],
    allowOnAccount: values['allow-on-account'],
    timeoutMs,
    clientAddressHeader: values['client-address-header'],
  });
  const server = createAdaptorServer({ fetch: proxy.fetch }) as Server;
  const actual = await listenOn(server, port, values.host);
  closeOnSignal(server);
  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  console.log(`Stagedoor proxy: http://${host}:${actual}${values.prefix.replace(/\/+$/, '')}/ -> ${new URL(values.upstream).origin}`);
}

/**
 * `start` (pages through Vite) and `serve` (built pages): one HTTP server, the
 * proxy and the sandbox pages by path, everything else to the page server.
 */
async function runDemo(mode: 'vite' | 'static', args: string[]): Promise<void> {
  const values = parse(args, { port: { type: 'string' }, dist: { type: 'string' } });
  if (mode === 'vite' && values.dist) throw new UsageError('--dist belongs to `stagedoor serve`.');
  const port = values.port !== undefined ? parsePort(values.port, '--port') : parsePort(process.env.PORT ?? '8080', 'PORT');
  const dist = resolve(values.dist ?? join(PROJECT, 'dist/demo'));
  if (mode === 'static' && !existsSync(join(dist, 'index.html'))) {
    throw new Error(`No built demo pages in ${dist}: run \`npm run build\` first (or \`npm start\` to serve them through Vite).`);
  }

  // Requests that arrive before the page server is ready wait for it.
  let dispatch: RequestListener | undefined;
  let markReady = () => undefined as void;
  const ready = new Promise<void>((r) => (markReady = r));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (dispatch) dispatch(req, res);
    else void ready.then(() => dispatch?.(req, res));
  });
  const actual = await listenOn(server, port, DEMO_HOST);
  const origin = `http://${DEMO_HOST}:${actual}`;
  // Loaded here so that `stagedoor proxy` never loads the sandbox.
  const { createDemoSite, isDemoServicePath } = await import('./demo-site.ts');
  const site = createDemoSite({ origin });
  const services = getRequestListener(site.app.fetch);

  let pages: RequestListener;
  let closePages = async () => undefined as void;
  if (mode === 'vite') {
    const { createServer: createViteServer } = await import('vite');
    const vite = await createViteServer({
      configFile: join(PROJECT, 'vite.config.ts'),
      server: { middlewareMode: true, ws: { server } },
    });
    pages = (req, res) => vite.middlewares(req, res);
    closePages = () => vite.close();
  } else {
    const app = new Hono();
    // Content-hashed chunks immutable, the loader revalidated (src/server/bundle-caching.ts).
    app.use('*', bundleCaching());
    app.use('*', serveStatic({ root: dist }));
    app.all('*', (c) => c.text('Not found', 404));
    pages = getRequestListener(app.fetch);
  }
  dispatch = (req, res) => {
    const pathname = new URL(req.url ?? '/', origin).pathname;
    if (isDemoServicePath(pathname)) void services(req, res);
    else void pages(req, res);
  };
  markReady();
  closeOnSignal(server, closePages);
  console.log(`Stagedoor demo: ${origin}/`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'proxy':
      return runProxy(rest);
    case 'sandbox': {
      const { runSandboxCommand } = await import('./sandbox/serve.ts');
      return runSandboxCommand(rest);
    }
    case 'start':
      return runDemo('vite', rest);
    case 'serve':
      return runDemo('static', rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) {
    console.error(`stagedoor: ${text}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`stagedoor: ${text}`);
  process.exit(1);
});
