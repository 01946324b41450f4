/**
 * Real servers a test or a benchmark starts for itself, on 127.0.0.1 and a
 * free port, stopped by their own pid (never by name: other people on the
 * machine run the same programs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { freePort } from '../e2e/helpers/free-port.ts';

export { freePort };

/** Debian's redis-server (`apt-get install redis-server`; `.ci/run` installs it when missing), or REDIS_SERVER. */
export function redisServerPath(): string {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'redis-server'));
  for (const candidate of [process.env.REDIS_SERVER, '/usr/bin/redis-server', ...onPath]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('redis-server is not installed: `apt-get install redis-server` (or set REDIS_SERVER to its path).');
}

export interface RunningRedis {
  port: number;
  /** `redis://127.0.0.1:PORT` */
  url: string;
  /** Stop it (SIGKILL: gone at once, as when the machine fails). Its data goes with it. */
  stop(): Promise<void>;
  /** Start it again on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: string) => {
      output += chunk;
      if (/Ready to accept connections/.test(output)) {
        child.stdout?.off('data', onData);
        child.off('exit', onExit);
        // Keep draining its output so it never blocks on a full pipe.
        child.stdout?.resume();
        resolve(child);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`redis-server exited (${code}) on port ${port}:\n${output}`));
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', onExit);
  });
}

/** Start a redis-server of our own on a free loopback port, with no persistence. */
export async function startRedis(): Promise<RunningRedis> {
  const binary = redisServerPath();
  let port = 0;
  let child: ChildProcess | undefined;
  // The free port may be taken between asking and binding: try a few.
  for (let attempt = 0; !child; attempt++) {
    port = await freePort();
    try {
      child = await launch(binary, port);
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  const stopChild = async (c: ChildProcess | undefined) => {
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGKILL');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopChild(child),
    async start() {
      await stopChild(child);
      child = await launch(binary, port);
    },
  };
}
