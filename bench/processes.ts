/**
 * What the proxy benches share: the command line compiled as the package ships it, a server
 * started as a theatre runs it (its own process, stdout to a file as a service manager keeps it,
 * stopped by its pid), the CPU time processes used (from /proc), and percentiles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer, root } from '../scripts/build.mjs';
import type { Running } from '../test/server/cli-helpers.ts';

/** User + system CPU time of processes, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // utime and stime are fields 14 and 15 of stat: 12 and 13 after the command name.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  return ticks * 10;
}

/** The p-th percentile of values sorted ascending (NaN for none). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The command line compiled into node_modules/.cache/<name> (no tsx): the path of its cli.js. */
export async function compiledCli(name: string): Promise<string> {
  const outDir = join(root, 'node_modules', '.cache', name);
  rmSync(outDir, { recursive: true, force: true });
  await buildServer({ outDir, declarations: false });
  return join(outDir, 'server', 'cli.js');
}

/** The URL in the first line of a started command matching `pattern` (its first group). */
export async function started(cli: Running, pattern: RegExp): Promise<string> {
  const [, url] = await cli.line(pattern, 30_000);
  if (!url) throw new Error(`no URL in the line matching ${pattern}`);
  return url;
}

export interface Deployed {
  child: ChildProcess;
  /** The proxy's base URL, with its prefix (`http://127.0.0.1:P/api`). */
  url: string;
  stop(): Promise<void>;
}

/**
 * `node <cli.js> proxy <args>` (add `--upstream URL --port 0`), stdout (its access log and its
 * first line) into `out` as a service manager would keep it, in its own process group.
 */
export async function deployed(cliJs: string, args: string[], out: string, env: NodeJS.ProcessEnv): Promise<Deployed> {
  const fd = openSync(out, 'a');
  const child = spawn(process.execPath, [cliJs, 'proxy', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, 'pipe'],
    detached: true,
  });
  closeSync(fd);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /^Stagedoor proxy: (http:\/\/127\.0\.0\.1:\d+\/api)\//m.exec(readFileSync(out, 'utf8'))?.[1];
    if (url) {
      return {
        child,
        url,
        async stop() {
          if (child.exitCode !== null || child.pid === undefined) return;
          process.kill(-child.pid, 'SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the proxy did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
