// `executeServerCommand('lossy-front', { action: 'start', origin })` starts test/server/lossy-front.ts
// (a front server on 127.0.0.1 that loses answers, before the real proxy and sandbox) as a process of
// its own and answers `{ url, pid }`; `{ action: 'stop', pid }` stops that process by its pid. A
// process still running when the runner exits is stopped then.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const running = new Map();
process.once('exit', () => {
  for (const child of running.values()) child.kill();
});

function start(origin) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/lossy-front.ts', origin], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`lossy-front exited (${code}) before it listened`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      running.set(child.pid, child);
      child.removeAllListeners('exit');
      child.once('exit', () => running.delete(child.pid));
      resolve({ ...JSON.parse(line), pid: child.pid });
    });
  });
}

export const lossyFrontPlugin = {
  name: 'stagedoor-lossy-front',
  async executeCommand({ command, payload }) {
    if (command !== 'lossy-front') return undefined;
    if (payload.action === 'start') return start(payload.origin);
    const child = running.get(payload.pid);
    if (!child) return false;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(payload.pid);
    await exited;
    return true;
  },
};
