/** `npm start`'s command (demo pages, proxy at /api, sandbox in-process) on a free port, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const START_TIMEOUT = 90_000;

/** The elements of the demo page's booking flow, in order. */
export const DEMO_FLOW_TAGS = ['event-list', 'performance-calendar', 'seat-picker', 'checkout-form'];

/** Start `npm start`'s command on a free port; resolve with the URL it prints. */
export function startDemo(port: number): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/server/cli.ts', 'start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the whole tree stops with it
    });
    let output = '';
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`npm start printed no URL within ${START_TIMEOUT / 1000} s. Output:\n${output}`));
    }, START_TIMEOUT);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(https?:\/\/(?:127\.0\.0\.1|localhost):\d+\/\S*)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing a URL. Output:\n${output}`));
    });
  });
}

export function stop(child: ChildProcess | undefined): void {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

