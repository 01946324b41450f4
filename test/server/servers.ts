/**
 * Real servers a test or a benchmark starts for itself, on 127.0.0.1 and a
 * free port, stopped by their own pid (never by name: other people on the
 * machine run the same programs).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
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
  /** Freeze it (SIGSTOP to its pid): it keeps its data but answers nothing, as a hung server. */
  pause(): void;
  /** Let a paused one run again (SIGCONT). */
  resume(): void;
}

function launch(binary: string, port: number, extra: string[] = [], cwd?: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd,
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
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopChild(child),
    async start() {
      await stopChild(child);
      child = await launch(binary, port);
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}

async function stopChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGKILL');
  await exited;
}

export interface RunningRedisCluster {
  /** `redis://127.0.0.1:PORT` of each master. */
  urls: string[];
  stop(): Promise<void>;
}

/**
 * A three-master Redis Cluster of our own on free loopback ports (each node in its own temporary
 * folder for its nodes.conf), its slots assigned by `redis-cli --cluster create`; resolves once
 * `cluster info` says `cluster_state:ok` on every node.
 */
export async function startRedisCluster(): Promise<RunningRedisCluster> {
  const binary = redisServerPath();
  const cli = join(dirname(binary), 'redis-cli');
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(children.map((c) => stopChild(c)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const cwd = mkdtempSync(join(dir, `node${i}-`));
      children.push(await launch(binary, port, ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'], cwd));
      ports.push(port);
    }
    const run = promisify(execFile);
    await run(cli, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    // The nodes agree on the slots a moment after create returns: ask until each says so (bounded).
    for (const port of ports) {
      for (let attempt = 0; ; attempt++) {
        const { stdout } = await run(cli, ['-p', String(port), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        if (attempt > 2000) throw new Error(`the cluster node on ${port} never became ok:\n${stdout}`);
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: ports.map((p) => `redis://127.0.0.1:${p}`), stop };
}

/** Debian's nginx (`apt-get install nginx-light`; `.ci/run` installs it when missing), or NGINX_PATH. */
export function nginxPath(): string {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('nginx is not installed: `apt-get install nginx-light` (or set NGINX_PATH to its path).');
}

export interface RunningNginx {
  /** Its error log so far (on stderr). */
  log(): string;
  /** Stop it (SIGQUIT: its worker finishes, then the master exits) and wait for it. */
  stop(): Promise<void>;
}

/**
 * Start nginx in the foreground with the `http { ... }` block given, in `dir` (its pid file and
 * temp folders there, access log off, error log on stderr). Resolves once its worker has started:
 * every `listen` socket is bound by then.
 */
export function startNginx(dir: string, http: string): Promise<RunningNginx> {
  const file = join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${join(dir, name)};`).join('\n');
  writeFileSync(
    file,
    `daemon off;\nworker_processes 1;\npid ${join(dir, 'nginx.pid')};\nerror_log stderr notice;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n${temp}\n${http}\n}\n`,
  );
  const child = spawn(nginxPath(), ['-p', dir, '-c', file, '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`nginx exited (${code}):\n${output}`));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (/start worker process \d+/.test(output)) {
        child.off('exit', onExit);
        resolve({
          log: () => output,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
            await exited;
          },
        });
      }
    });
    child.once('exit', onExit);
  });
}
