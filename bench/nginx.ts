/**
 * nginx as the yardstick for the proxy bench: a keep-alive reverse proxy in
 * front of the same upstream, with a config this file writes into a temp
 * folder, on a free loopback port, one worker (our proxy is one process too),
 * its access log on as nginx ships it (the combined format, a write per
 * request, into the temp folder) unless `accessLog: false`. Started only when
 * an nginx binary is installed (Debian's `nginx-light`: /usr/sbin/nginx);
 * stopped by its pid.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/server/servers.ts';

export interface RunningNginx {
  /** `http://127.0.0.1:PORT/api`: the same prefix as our proxy. */
  url: string;
  version: string;
  /** The worker processes' pids (they do the proxying; the master only supervises). */
  workers(): number[];
  stop(): Promise<void>;
}

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          // Field 4 of stat is the parent pid (after the parenthesised command name).
          return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  }
}

/** The nginx binary, or null when none is installed. */
export function findNginx(): string | null {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

function config(dir: string, port: number, upstream: URL, apiKey: string, accessLog: boolean): string {
  return `daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${accessLog ? `${dir}/access.log combined` : 'off'};
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  upstream service {
    server ${upstream.host};
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    location /api/ {
      proxy_pass http://service/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Cookie "";
      proxy_set_header Api-Key "${apiKey}";
    }
  }
}
`;
}

/** Start nginx in front of `upstream` (an http://host:port base); resolves once it answers. */
export async function startNginx(binary: string, upstream: string, apiKey: string, { accessLog = true }: { accessLog?: boolean } = {}): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-nginx-'));
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, new URL(upstream), apiKey, accessLog));
  const child = spawn(binary, ['-p', dir, '-c', file, '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/api`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    try {
      const response = await fetch(`${url}/rest/v2/System/HeartBeat`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer within 10 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const version = await new Promise<string>((resolve) => {
    const v = spawn(binary, ['-v'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    v.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    v.once('exit', () => resolve(/nginx\/([\d.]+)/.exec(text)?.[1] ?? 'unknown'));
  });
  return {
    url,
    version,
    workers: () => (child.pid === undefined ? [] : childrenOf(child.pid)),
    async stop() {
      // SIGQUIT: graceful shutdown of the master and its worker.
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
