/**
 * `stagedoor sandbox`: serve the sandbox over HTTP with @hono/node-server.
 *
 *   stagedoor sandbox --port 8787 --host 127.0.0.1 --catalogue FILE \
 *     --reservation-minutes 10 --payment-minutes 20 --seed 1
 *
 * Binds to 127.0.0.1 unless told otherwise, and prints the address.
 */
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { answerClientErrors, requestErrorHandler, SERVER_OPTIONS } from '../refusals.ts';
import { createSandbox, loadCatalogue, type Sandbox, type SandboxOptions } from './index.ts';

export const SANDBOX_USAGE = `Usage: stagedoor sandbox [options]

Serves the ticket service interface at http://HOST:PORT/rest/v2/... and /v3/...
(any non-empty Api-Key header is accepted unless --api-key is given).

  --port N                  port (default 8787; 0 picks a free one)
  --host HOST               address to bind (default 127.0.0.1)
  --catalogue FILE          serve this JSON catalogue instead of the generated one
  --seed N                  seed of the generated catalogue and of its sales (default 1)
  --reservation-minutes N   how long added tickets stay reserved (default 10)
  --payment-minutes N       how long a submitted basket waits for payment (default 20)
  --public-url URL          origin used in the URLs the sandbox emits (default: the request's)
  --api-key KEY             accept only this key (repeatable)
  --on-account              allow Submit Order on Account
  --date-to-reading R       a date-only dateTo as 'whole-day' (default: D..D is the day D)
                            or 'midnight' (00:00 of it: D..D+1 is the day D)
  --help                    show this help`;

export interface SandboxServerConfig {
  port: number;
  host: string;
  options: SandboxOptions;
}

/** Parse the command line. Throws an Error with a message for the user on bad input. */
export function parseSandboxArgs(args: string[]): SandboxServerConfig | 'help' {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      catalogue: { type: 'string' },
      seed: { type: 'string' },
      'reservation-minutes': { type: 'string' },
      'payment-minutes': { type: 'string' },
      'public-url': { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'on-account': { type: 'boolean' },
      'date-to-reading': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const number = (name: string, raw: string | undefined, fallback: number, min: number, integer = true): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!raw.trim() || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
      throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min} (got '${raw}').`);
    }
    return n;
  };
  const port = number('port', values.port, 8787, 0);
  if (port > 65535) throw new Error(`--port must be at most 65535 (got '${values.port ?? ''}').`);
  const options: SandboxOptions = {
    seed: number('seed', values.seed, 1, 0),
    reservationMinutes: number('reservation-minutes', values['reservation-minutes'], 10, 0.01, false),
    paymentMinutes: number('payment-minutes', values['payment-minutes'], 20, 0.01, false),
    onAccountEnabled: values['on-account'] ?? false,
  };
  if (values.catalogue) options.catalogue = loadCatalogue(values.catalogue);
  if (values['public-url']) {
    try {
      new URL(values['public-url']);
    } catch {
      throw new Error(`--public-url must be an absolute URL (got '${values['public-url']}').`);
    }
    options.publicUrl = values['public-url'];
  }
  if (values['api-key']?.length) options.apiKeys = values['api-key'];
  const reading = values['date-to-reading'];
  if (reading !== undefined) {
    if (reading !== 'whole-day' && reading !== 'midnight') throw new Error(`--date-to-reading must be 'whole-day' or 'midnight' (got '${reading}').`);
    options.dateToReading = reading;
  }
  return { port, host: values.host ?? '127.0.0.1', options };
}

export interface RunningSandbox {
  url: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** Start a sandbox server and resolve once it listens. */
export function startSandboxServer(config: SandboxServerConfig): Promise<RunningSandbox> {
  const sandbox = createSandbox(config.options);
  // Requests Node or the adapter cannot read are answered in the service's JSON error shape too (../refusals.ts).
  const server = createServer(SERVER_OPTIONS, getRequestListener((request) => sandbox.fetch(request), { errorHandler: requestErrorHandler() }));
  answerClientErrors(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      const info = server.address() as AddressInfo;
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        sandbox,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}

/** `stagedoor sandbox ...`: start, print the address, keep serving. */
export async function runSandboxCommand(args: string[]): Promise<void> {
  let config: SandboxServerConfig | 'help';
  try {
    config = parseSandboxArgs(args);
  } catch (error) {
    console.error(`stagedoor sandbox: ${error instanceof Error ? error.message : String(error)}\n\n${SANDBOX_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (config === 'help') {
    console.log(SANDBOX_USAGE);
    return;
  }
  const running = await startSandboxServer(config);
  const { options } = running.sandbox;
  console.log(`Stagedoor sandbox: ${running.url}/rest/v2/  (and ${running.url}/v3/)`);
  console.log(
    `  seed ${options.seed}, reservations ${options.reservationMinutes} min, payment ${options.paymentMinutes} min, ` +
      `${running.sandbox.catalogue.Events.length} events, ${running.sandbox.catalogue.Performances.length} performances` +
      (options.apiKeys ? '' : '; any non-empty Api-Key header is accepted'),
  );
  console.log(
    options.dateToReading === 'whole-day'
      ? '  a date-only dateTo covers its whole day (dateFrom=D&dateTo=D is the day D); --date-to-reading midnight for the other reading'
      : '  a date-only dateTo is 00:00 of that day (dateFrom=D&dateTo=D+1 is the day D); --date-to-reading whole-day for the other reading',
  );
  const stop = () => {
    void running.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
