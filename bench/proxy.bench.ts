/**
 * `npm run bench -- proxy`: what the proxy adds, side by side in one run with
 * the sandbox called directly, with nginx as a keep-alive reverse proxy (when
 * nginx is installed: Debian's nginx-light; bench/nginx.ts writes its config
 * and starts it on a free loopback port) and with the baseline's proxy
 * (bench/baseline.ts: the last commit before issue 34's work).
 *
 * Every server is its own process on 127.0.0.1, started the way a theatre
 * runs it: the sandbox (`stagedoor sandbox`); nginx in front of it (one
 * worker, its access log on, as shipped: the combined format to a file);
 * our proxy as `stagedoor proxy --upstream URL` with its defaults (one
 * process, Prometheus metrics with the process's own, its JSON access log on
 * stdout) with stdout sent to a file, as a service manager would; and the
 * baseline's the same way. The commands are compiled as the package ships
 * them (built here into node_modules/.cache). autocannon runs in this
 * process; its latencies are taken per response at microsecond resolution
 * (autocannon's own histogram keeps whole milliseconds).
 *
 * - an uncached basket read (GET Baskets/{id}): every request goes through to
 *   the sandbox and back;
 * - a cached catalogue read (GET Events/{id}): our proxy answers it from its
 *   cache; nginx passes it through (it has no cache configured), the sandbox
 *   computes it.
 *
 * The targets are measured in alternation, round after round, so a drift in
 * the machine's load hits them alike. A second table measures latency with
 * one connection (no queueing): the latency the proxy adds to one request.
 * A third takes sockets out: the proxy's own cost per request, in process.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BASELINE_COMMIT, baselineBuild, loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';
import { findNginx, startNginx, type RunningNginx } from './nginx.ts';
import { compiledCli, cpuMs, deployed, percentile, started, type Deployed } from './processes.ts';
import { createProxy } from '../src/server/proxy/index.ts';
import { createSandbox } from '../src/server/sandbox/index.ts';
import { root } from '../scripts/build.mjs';
import { run as runProcess } from '../test/server/cli-helpers.ts';

const CONNECTIONS = 10;
const SECONDS = 3;
const LATENCY_SECONDS = 2;
const WARM_UP_SECONDS = 1;
/** Rounds of alternating runs (PROXY_ROUNDS, default 3); the figures are their medians. */
const ROUNDS = Number(process.env.PROXY_ROUNDS ?? 3);
const KEY = 'bench-key';

interface Measured {
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  bad: number;
  /** CPU time of the serving process(es) per request, µs (NaN when unknown). */
  cpuUs: number;
}

function run(url: string, headers: Record<string, string>, seconds: number, connections = CONNECTIONS, pids: () => number[] = () => []): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const serving = pids();
    const cpuBefore = cpuMs(serving);
    const instance = autocannon({ url, connections, duration: seconds, headers }, (error, result) => {
      if (error) return reject(error);
      const sorted = Float64Array.from(times).sort();
      const cpuUs = serving.length ? ((cpuMs(serving) - cpuBefore) * 1000) / Math.max(1, times.length) : Number.NaN;
      resolve({ rps: result.requests.average, p50: percentile(sorted, 50), p99: percentile(sorted, 99), bad: result.non2xx + result.errors, cpuUs });
    });
    // autocannon's histogram rounds to whole ms; each response's own time is a float in ms.
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
    });
  });
}

/** The median of each figure over the rounds (a round that another job on the machine slowed does not drag it). */
function mean(runs: Measured[]): Measured {
  const mid = (pick: (m: Measured) => number) => {
    const s = runs.map(pick).sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
  };
  return { rps: mid((m) => m.rps), p50: mid((m) => m.p50), p99: mid((m) => m.p99), bad: runs.reduce((sum, m) => sum + m.bad, 0), cpuUs: mid((m) => m.cpuUs) };
}

interface Target {
  name: string;
  /** Base URL; the operation path is appended. */
  base: string;
  headers: Record<string, string>;
  /** The processes that serve it (their CPU time is measured). */
  pids: () => number[];
}

/** Each target warmed up, then measured in alternation for ROUNDS rounds. */
async function measure(targets: Target[], path: string, seconds: number, connections: number): Promise<Map<string, Measured>> {
  for (const t of targets) await run(t.base + path, t.headers, WARM_UP_SECONDS, connections);
  const runs = new Map<string, Measured[]>(targets.map((t) => [t.name, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const t of targets) runs.get(t.name)?.push(await run(t.base + path, t.headers, seconds, connections, t.pids));
  }
  return new Map([...runs].map(([name, r]) => [name, mean(r)]));
}

const ms = (value: number) => value.toFixed(2);
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`;

const IN_PROCESS_REQUESTS = 5000;

/** Mean µs per request over `IN_PROCESS_REQUESTS` sequential requests, after as many to warm up. */
async function microseconds(call: () => Promise<Response>): Promise<number> {
  for (let i = 0; i < IN_PROCESS_REQUESTS; i++) await (await call()).arrayBuffer();
  const start = performance.now();
  for (let i = 0; i < IN_PROCESS_REQUESTS; i++) await (await call()).arrayBuffer();
  return ((performance.now() - start) * 1000) / IN_PROCESS_REQUESTS;
}

async function inProcess(eventPath: string): Promise<BenchTable> {
  const sandbox = createSandbox();
  const proxy = createProxy({ upstream: (request) => sandbox.fetch(request), apiKey: KEY, log: () => undefined });
  const created = await sandbox.fetch(new Request('http://sandbox/rest/v2/Baskets', { method: 'POST', headers: { 'Api-Key': KEY } }));
  const { BasketId } = (await created.json()) as { BasketId: string };
  const rows: (string | number)[][] = [];
  for (const [label, path] of [
    ['GET Baskets/{id} (never cached)', `/rest/v2/Baskets/${BasketId}`],
    ['GET Events/{id} (cached at the proxy)', eventPath],
  ] as const) {
    const direct = await microseconds(() => sandbox.fetch(new Request(`http://sandbox${path}`, { headers: { 'Api-Key': KEY } })));
    const proxied = await microseconds(async () => proxy.fetch(new Request(`http://proxy/api${path}`)));
    rows.push([label, direct.toFixed(0), proxied.toFixed(0), (proxied - direct).toFixed(0)]);
  }
  return {
    title: `Proxy cost per request in process, the sandbox as an in-process upstream as under npm start (no sockets; ${IN_PROCESS_REQUESTS} sequential requests after as many to warm up)`,
    columns: ['request', 'sandbox µs/request', 'proxy + sandbox µs/request', 'proxy adds µs'],
    rows,
    notes: [
      'Access-log records built but not printed. A negative figure: the cached answer costs less than the sandbox computing it.',
      'An in-process upstream goes through a WHATWG Request and Response per call (the edge path); a URL upstream on Node goes through the undici pool instead (the tables above).',
    ],
  };
}

export default async function proxyBench(): Promise<BenchTable[]> {
  const loadBefore = loadNote('at the start of the run');
  // The command line as the package ships it: compiled, no tsx.
  const cliJs = await compiledCli('stagedoor-bench');
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runProcess(process.execPath, [cliJs, ...args], env);
  const baseline = await baselineBuild();
  const compiledBaseline = join(root, 'node_modules', '.cache', 'stagedoor-bench-baseline');
  rmSync(compiledBaseline, { recursive: true, force: true });
  await baseline.buildServer({ outDir: compiledBaseline, declarations: false });
  const asShipped = (cli: string, upstream: string, out: string) => deployed(cli, ['--upstream', upstream, '--port', '0'], out, { STAGEDOOR_API_KEY: KEY });
  const logs = mkdtempSync(join(tmpdir(), 'stagedoor-bench-'));
  const sandboxCli = cli(['sandbox', '--port', '0']);
  let proxyCli: Deployed | undefined;
  let baselineCli: Deployed | undefined;
  let nginx: RunningNginx | undefined;
  try {
    const sandbox = await started(sandboxCli, /^Stagedoor sandbox: (http:\/\/127\.0\.0\.1:\d+)\//);
    // As a theatre runs it: `stagedoor proxy --upstream URL`, every other option its default (the access log on stdout).
    proxyCli = await asShipped(cliJs, sandbox, join(logs, 'proxy.out'));
    baselineCli = await asShipped(join(compiledBaseline, 'server', 'cli.js'), sandbox, join(logs, 'baseline.out'));
    const proxy = proxyCli.url;
    const nginxBinary = findNginx();
    if (nginxBinary) nginx = await startNginx(nginxBinary, sandbox, KEY);

    const created = await fetch(`${proxy}/rest/v2/Baskets`, { method: 'POST' });
    const { BasketId } = (await created.json()) as { BasketId: string };
    const events = (await (await fetch(`${proxy}/rest/v2/Events`)).json()) as { Events: { EventId: number }[] };
    const eventPath = `/rest/v2/Events/${events.Events[0]?.EventId ?? 0}`;
    const requests: [string, string][] = [
      ['uncached basket read: GET Baskets/{id}', `/rest/v2/Baskets/${BasketId}`],
      ['cached catalogue read: GET Events/{id}', eventPath],
    ];
    const pidOf = (cli: { child: ChildProcess }) => () => (cli.child.pid === undefined ? [] : [cli.child.pid]);
    const targets: Target[] = [
      { name: 'sandbox direct', base: sandbox, headers: { 'Api-Key': KEY }, pids: pidOf(sandboxCli) },
      ...(nginx ? [{ name: `nginx ${nginx.version}`, base: nginx.url, headers: {}, pids: () => nginx?.workers() ?? [] }] : []),
      { name: `our proxy ${BASELINE_COMMIT}`, base: baselineCli.url, headers: {}, pids: pidOf(baselineCli) },
      { name: 'our proxy', base: proxy, headers: {}, pids: pidOf(proxyCli) },
    ];

    const loaded: (string | number)[][] = [];
    const single: (string | number)[][] = [];
    const summary: string[] = [];
    for (const [label, path] of requests) {
      const m = await measure(targets, path, SECONDS, CONNECTIONS);
      const l = await measure(targets, path, LATENCY_SECONDS, 1);
      const direct = m.get('sandbox direct');
      const directOne = l.get('sandbox direct');
      for (const t of targets) {
        const r = m.get(t.name);
        const one = l.get(t.name);
        if (!r || !one || !direct || !directOne) continue;
        loaded.push([label, t.name, Math.round(r.rps), (r.rps / direct.rps).toFixed(2), ms(r.p50), ms(r.p99), Number.isNaN(r.cpuUs) ? '' : Math.round(r.cpuUs), r.bad]);
        single.push([label, t.name, Math.round(one.rps), ms(one.p50), ms(one.p99), t.name === 'sandbox direct' ? '' : signed(one.p50 - directOne.p50), one.bad]);
      }
      const yardstick = nginx ? m.get(`nginx ${nginx.version}`) : undefined;
      for (const name of [`our proxy ${BASELINE_COMMIT}`, 'our proxy']) {
        const ours = m.get(name);
        const oursOne = l.get(name);
        if (ours && yardstick && oursOne && directOne) {
          summary.push(
            `${label}: ${name} ${(ours.rps / yardstick.rps).toFixed(2)}× nginx's req/s; adds ${ms(oursOne.p50 - directOne.p50)} ms p50 over direct with one connection, ` +
              `${ms(ours.p50 - (direct?.p50 ?? 0))} ms with ${CONNECTIONS}.`,
          );
        }
      }
    }
    const machine = `${loadBefore} ${loadNote('at the end of the run')} The load generator shares the CPUs.`;
    return [
      {
        title: `Proxy under load (autocannon, ${CONNECTIONS} connections, medians of ${ROUNDS} alternating runs of ${SECONDS} s after ${WARM_UP_SECONDS} s warm-up, 127.0.0.1)`,
        columns: ['request', 'through', 'req/s', '× direct', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx + errors'],
        rows: loaded,
        notes: [
          ...(nginx ? [] : ['nginx is not installed (apt-get install nginx-light): no yardstick column.']),
          'Goals (issues 12, 24): uncached req/s at least 0.5× nginx (both with their access logs on); added p50 over direct at most 1 ms; cached reads at least nginx’s uncached req/s.',
          `Both proxies run as \`stagedoor proxy --upstream URL\` with the defaults (metrics, the JSON access log on stdout, here into a file); nginx logs each request to a file (combined format). "our proxy ${BASELINE_COMMIT}": the baseline's command line, built from its sources.`,
          'CPU µs/req: user + system CPU time of the serving process per request (the sandbox for direct, the nginx worker, our proxy process; not the sandbox behind them): what a request costs, whatever else loads the machine.',
          ...summary,
          machine,
        ],
      },
      {
        title: `Latency with one connection (no queueing; ${ROUNDS} alternating runs of ${LATENCY_SECONDS} s)`,
        columns: ['request', 'through', 'req/s', 'p50 ms', 'p99 ms', 'p50 added over direct ms', 'non-2xx + errors'],
        rows: single,
      },
      await inProcess(eventPath),
    ];
  } finally {
    await proxyCli?.stop();
    await baselineCli?.stop();
    await nginx?.stop();
    await sandboxCli.stop();
    rmSync(logs, { recursive: true, force: true });
  }
}
