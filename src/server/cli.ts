/**
 * `stagedoor <command>` (bin/stagedoor.mjs runs the compiled dist/lib/server/cli.js,
 * or this file through tsx in a checkout that has not been built):
 *
 *   stagedoor proxy --upstream URL ...
 *                             The key-holding proxy in front of the real service
 *                             (proxy/command.ts; `stagedoor help` lists its options).
 *   stagedoor room open|pause|resume|rate|close|status ...
 *                             A running proxy's waiting rooms (room-command.ts).
 *   stagedoor sandbox ...     The sandbox on its own (see `stagedoor sandbox --help`).
 *   stagedoor start           `npm start`: the demo pages through Vite (reload on
 *                             change), the proxy at /api and the sandbox as its
 *                             upstream, and the docs pages at /docs/ (docs-site.ts),
 *                             in one process on 127.0.0.1:$PORT (8080); one show
 *                             behind a waiting room that opens a minute after start.
 *   stagedoor serve [--dist DIR]
 *                             The same with the built demo pages (dist/demo, from
 *                             `npm run build`) instead of Vite.
 *   stagedoor first-list --proxy URL
 *                             Prints the block a page may carry for its <event-list>'s
 *                             first cards (first-list.ts); with --cards the cards too (first-cards.ts).
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bundleCaching } from './bundle-caching.ts';
import { packageRoot } from './package-root.ts';
import { answerClientErrors, requestErrorHandler, SERVER_OPTIONS } from './refusals.ts';
import { PROXY_USAGE, UsageError, parsePort, runProxyCommand } from './proxy/command.ts';
import { ROOM_USAGE } from './room-command.ts';
import { FIRST_LIST_USAGE, runFirstListCommand } from './first-list.ts';

const DEMO_HOST = '127.0.0.1';

const USAGE = `Usage:
  stagedoor start                      demo pages (Vite, with reload) + proxy at /api + sandbox + docs at /docs/,
                                       one process on http://127.0.0.1:$PORT/ (PORT defaults to 8080)
  stagedoor serve [--dist DIR]         the same with the built pages (npm run build) from DIR (dist/demo)
${PROXY_USAGE}
${ROOM_USAGE}
  stagedoor sandbox ...                the sandbox alone (stagedoor sandbox --help)
${FIRST_LIST_USAGE}`;

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

/**
 * `start` (pages through Vite) and `serve` (built pages): one HTTP server, the
 * proxy and the sandbox pages by path, everything else to the page server.
 */
async function runDemo(mode: 'vite' | 'static', args: string[]): Promise<void> {
  const values = parse(args, { port: { type: 'string' }, dist: { type: 'string' } });
  if (mode === 'vite' && values.dist) throw new UsageError('--dist belongs to `stagedoor serve`.');
  const port = values.port !== undefined ? parsePort(values.port, '--port') : parsePort(process.env.PORT ?? '8080', 'PORT');
  // The package's folder: the repository, or node_modules/stagedoor when installed.
  const project = packageRoot(import.meta.url);
  const dist = resolve(values.dist ?? join(project, 'dist/demo'));
  if (mode === 'static' && !existsSync(join(dist, 'index.html'))) {
    throw new Error(`No built demo pages in ${dist}: run \`npm run build\` first (or \`npm start\` to serve them through Vite).`);
  }

  // Requests that arrive before the page server is ready wait for it.
  let dispatch: RequestListener | undefined;
  let markReady = () => undefined as void;
  const ready = new Promise<void>((r) => (markReady = r));
  const server = createServer(SERVER_OPTIONS, (req: IncomingMessage, res: ServerResponse) => {
    if (dispatch) dispatch(req, res);
    else void ready.then(() => dispatch?.(req, res));
  });
  const actual = await listenOn(server, port, DEMO_HOST);
  const origin = `http://${DEMO_HOST}:${actual}`;
  // Loaded here so that `stagedoor proxy` never loads the sandbox.
  const { createDemoSite, isDemoServicePath, DEMO_ON_SALE } = await import('./demo-site.ts');
  const site = createDemoSite({ origin });
  const onRefusal = (status: number, reason: string) => site.proxy.refused(status, reason);
  answerClientErrors(server, onRefusal);
  const errorHandler = requestErrorHandler(onRefusal);
  const services = getRequestListener(site.app.fetch, { errorHandler });
  // The docs pages beside the demo, from the package's README.md and docs/.
  const { createDocsSite, isDocsPath, DOCS_PATH } = await import('./docs-site.ts');
  const docs = getRequestListener(createDocsSite(project).fetch, { errorHandler });

  let pages: RequestListener;
  let closePages = async () => undefined as void;
  if (mode === 'vite') {
    const { createServer: createViteServer } = await import('vite').catch(() => {
      throw new Error('`stagedoor start` runs the demo from the sources through Vite, which only a checkout of the repository has: use `stagedoor serve`.');
    });
    const vite = await createViteServer({
      configFile: join(project, 'vite.config.ts'),
      server: { middlewareMode: true, ws: { server } },
    });
    pages = (req, res) => vite.middlewares(req, res);
    closePages = () => vite.close();
  } else {
    const app = new Hono();
    // Content-hashed chunks immutable, the loader revalidated (src/server/bundle-caching.ts).
    app.use('*', bundleCaching());
    // The bundle's files brotli- or gzip-compressed when the browser accepts it, from the copies the
    // build wrote beside them (scripts/build.mjs, precompressBundle).
    app.use('*', serveStatic({ root: dist, precompressed: true }));
    app.all('*', (c) => c.text('Not found', 404));
    pages = getRequestListener(app.fetch, { errorHandler });
  }
  dispatch = (req, res) => {
    const pathname = new URL(req.url ?? '/', origin).pathname;
    if (isDemoServicePath(pathname)) void services(req, res);
    else if (isDocsPath(pathname)) void docs(req, res);
    else void pages(req, res);
  };
  markReady();
  closeOnSignal(server, closePages);
  console.log(`Stagedoor demo: ${origin}/`);
  console.log(`Stagedoor docs: ${origin}${DOCS_PATH}/`);
  if (site.room) {
    const at = new Date(site.room.opensAt).toLocaleTimeString('en-GB');
    console.log(
      `Stagedoor demo on-sale: ${site.room.show} goes on sale at ${at}, a minute from now, behind a waiting room ` +
        `(${DEMO_ON_SALE.crowd} simulated visitors in its pre-queue, ${DEMO_ON_SALE.ratePerMinute} admitted a minute): ` +
        `open the show to see the countdown, your place and your admission (docs/waiting-room.md).`,
    );
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'proxy':
      return runProxyCommand(rest);
    case 'room': {
      const { runRoomCommand } = await import('./room-command.ts');
      return runRoomCommand(rest);
    }
    case 'sandbox': {
      const { runSandboxCommand } = await import('./sandbox/serve.ts');
      return runSandboxCommand(rest);
    }
    case 'first-list':
      return runFirstListCommand(rest);
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
