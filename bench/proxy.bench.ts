/**
 * Proxy throughput and added latency, against calling the sandbox directly,
 * measured in one run: the sandbox (`stagedoor sandbox`) and the proxy
 * (`stagedoor proxy`, access log on) each in its own process on 127.0.0.1,
 * autocannon in this one, bounded in time and connections.
 *
 * - a cached GET (System/Countries, Events): the proxy answers from its cache;
 * - an uncached GET (a basket's detail, never cached): every request goes
 *   through the proxy to the sandbox and back.
 */
import autocannon from 'autocannon';
import type { BenchTable } from './index.ts';
import { stagedoor, type Running } from '../test/server/cli-helpers.ts';

const CONNECTIONS = 10;
const SECONDS = 3;
const WARM_UP_SECONDS = 1;
const KEY = 'bench-key';

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

async function started(cli: Running, pattern: RegExp): Promise<string> {
  const [, url] = await cli.line(pattern, 30_000);
  if (!url) throw new Error(`no URL in the line matching ${pattern}`);
  return url;
}

export default async function proxyBench(): Promise<BenchTable[]> {
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
      const direct = await measure(sandbox + path, { 'Api-Key': KEY });
      const proxied = await measure(proxy + path, {});
      rows.push([
        label,
        Math.round(direct.rps),
        Math.round(proxied.rps),
        (proxied.rps / direct.rps).toFixed(2),
        `${direct.p50} / ${direct.p99}`,
        `${proxied.p50} / ${proxied.p99}`,
        direct.bad + proxied.bad,
      ]);
    }
    return [
      {
        title: `Proxy vs sandbox direct (autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run after ${WARM_UP_SECONDS} s warm-up, 127.0.0.1)`,
        columns: ['request', 'direct req/s', 'via proxy req/s', 'proxy/direct', 'direct p50 / p99 ms', 'via proxy p50 / p99 ms', 'non-2xx + errors'],
        rows,
        notes: [
          'Sandbox and proxy run as separate processes (the CLI commands), the proxy with its JSON access log on stdout;',
          'a ratio above 1 means the proxy answered faster than the sandbox itself (its cache); below 1 is the cost of the extra hop.',
        ],
      },
    ];
  } finally {
    await proxyCli?.stop();
    await sandboxCli.stop();
  }
}
