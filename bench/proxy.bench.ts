/**
 * Proxy throughput and added latency, against calling the sandbox directly,
 * measured in one run: the sandbox (`stagedoor sandbox`) and the proxy
 * (`stagedoor proxy`, access log on) each in its own process on 127.0.0.1,
 * autocannon in this one, bounded in time and connections.
 *
 * - a cached GET (System/Countries, Events): the proxy answers from its cache;
 * - an uncached GET (a basket's detail, never cached): every request goes
 *   through the proxy to the sandbox and back.
 *
 * A second table takes sockets and scheduling out: the proxy's own cost per
 * request, in process, with the sandbox as its in-process upstream.
 */
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import type { BenchTable } from './index.ts';
import { createProxy } from '../src/server/proxy/index.ts';
import { createSandbox } from '../src/server/sandbox/index.ts';
import { stagedoor, type Running } from '../test/server/cli-helpers.ts';

const CONNECTIONS = 10;
const SECONDS = 3;
const WARM_UP_SECONDS = 1;
/** Direct and proxied runs alternate this many times, so drifting machine load hits both alike. */
const ROUNDS = 2;
const KEY = 'bench-key';

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function run(url: string, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

/** The mean of the rounds (p50/p99 included), and every bad answer. */
function mean(runs: Measured[]): Measured {
  const avg = (pick: (m: Measured) => number) => runs.reduce((sum, m) => sum + pick(m), 0) / runs.length;
  return { rps: avg((m) => m.rps), p50: avg((m) => m.p50), p99: avg((m) => m.p99), bad: runs.reduce((sum, m) => sum + m.bad, 0) };
}

/** Warm both up, then alternate direct and proxied runs. */
async function compare(direct: string, proxied: string): Promise<{ direct: Measured; proxied: Measured }> {
  const key = { 'Api-Key': KEY };
  await run(direct, key, WARM_UP_SECONDS);
  await run(proxied, {}, WARM_UP_SECONDS);
  const d: Measured[] = [];
  const p: Measured[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    d.push(await run(direct, key, SECONDS));
    p.push(await run(proxied, {}, SECONDS));
  }
  return { direct: mean(d), proxied: mean(p) };
}

const ms = (m: Measured) => `${m.p50.toFixed(1)} / ${m.p99.toFixed(1)}`;

async function started(cli: Running, pattern: RegExp): Promise<string> {
  const [, url] = await cli.line(pattern, 30_000);
  if (!url) throw new Error(`no URL in the line matching ${pattern}`);
  return url;
}

const IN_PROCESS_REQUESTS = 5000;

/** Mean µs per request over `IN_PROCESS_REQUESTS` sequential requests, after as many to warm up. */
async function microseconds(call: () => Promise<Response>): Promise<number> {
  for (let i = 0; i < IN_PROCESS_REQUESTS; i++) await (await call()).arrayBuffer();
  const start = performance.now();
  for (let i = 0; i < IN_PROCESS_REQUESTS; i++) await (await call()).arrayBuffer();
  return ((performance.now() - start) * 1000) / IN_PROCESS_REQUESTS;
}

async function inProcess(): Promise<BenchTable> {
  const sandbox = createSandbox();
  const proxy = createProxy({ upstream: (request) => sandbox.fetch(request), apiKey: KEY, log: () => undefined });
  const created = await sandbox.fetch(new Request('http://sandbox/rest/v2/Baskets', { method: 'POST', headers: { 'Api-Key': KEY } }));
  const { BasketId } = (await created.json()) as { BasketId: string };
  const rows: (string | number)[][] = [];
  for (const [label, path] of [
    ['GET System/Countries (cached at the proxy)', '/rest/v2/System/Countries'],
    ['GET Baskets/{id} (never cached)', `/rest/v2/Baskets/${BasketId}`],
  ] as const) {
    const direct = await microseconds(() => sandbox.fetch(new Request(`http://sandbox${path}`, { headers: { 'Api-Key': KEY } })));
    const proxied = await microseconds(async () => proxy.fetch(new Request(`http://proxy/api${path}`)));
    rows.push([label, direct.toFixed(0), proxied.toFixed(0), (proxied - direct).toFixed(0)]);
  }
  return {
    title: `Proxy cost per request in process (no sockets; ${IN_PROCESS_REQUESTS} sequential requests after as many to warm up)`,
    columns: ['request', 'sandbox µs/request', 'proxy + sandbox µs/request', 'proxy adds µs'],
    rows,
    notes: ['Access-log records built but not printed. A negative figure: the cached answer costs less than the sandbox computing it.'],
  };
}

export default async function proxyBench(): Promise<BenchTable[]> {
  const tables = [await inProcess()];
  const sandboxCli = stagedoor(['sandbox', '--port', '0']);
  let proxyCli: Running | undefined;
  try {
    const sandbox = await started(sandboxCli, /^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//);
    proxyCli = stagedoor(['proxy', '--upstream', sandbox, '--port', '0'], { STAGEDOOR_API_KEY: KEY });
    const proxy = await started(proxyCli, /^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//);

    const created = await fetch(`${proxy}/rest/v2/Baskets`, { method: 'POST' });
    const { BasketId } = (await created.json()) as { BasketId: string };
    const targets: [string, string][] = [
      ['GET System/Countries (cached at the proxy)', '/rest/v2/System/Countries'],
      ['GET Events (cached at the proxy)', '/rest/v2/Events'],
      ['GET Baskets/{id} (never cached)', `/rest/v2/Baskets/${BasketId}`],
    ];
    const rows: (string | number)[][] = [];
    for (const [label, path] of targets) {
      const { direct, proxied } = await compare(sandbox + path, proxy + path);
      rows.push([label, Math.round(direct.rps), Math.round(proxied.rps), (proxied.rps / direct.rps).toFixed(2), ms(direct), ms(proxied), direct.bad + proxied.bad]);
    }
    return [
      ...tables,
      {
        title: `Proxy vs sandbox direct (autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating runs of ${SECONDS} s each after ${WARM_UP_SECONDS} s warm-up, 127.0.0.1)`,
        columns: ['request', 'direct req/s', 'via proxy req/s', 'proxy/direct', 'direct p50 / p99 ms', 'via proxy p50 / p99 ms', 'non-2xx + errors'],
        rows,
        notes: [
          'Sandbox and proxy run as separate processes (the CLI commands), the proxy with its JSON access log on stdout; figures are the mean of the runs.',
          'A ratio above 1: the proxy answered from its cache faster than the sandbox computes the answer; below 1: the cost of the extra hop',
          "(the proxy's upstream client is the runtime's fetch; on a machine with few cores all three processes share them).",
          `Machine: ${availableParallelism()} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end of the run.`,
        ],
      },
    ];
  } finally {
    await proxyCli?.stop();
    await sandboxCli.stop();
  }
}
