/**
 * Test helper: a front server that loses answers, before the real proxy and sandbox
 * (test/server/lossy-front.ts, a process of its own on 127.0.0.1 started through the runner's
 * `lossy-front` command). A fault armed for the next request of a method and path lets it
 * reach the sandbox and then breaks its answer (or, `forward: false`, never forwards it).
 */
import { executeServerCommand } from '@web/test-runner-commands';

export type Fault = '502' | '504' | 'garbage' | 'reset' | 'hang';

export interface LossyFront {
  /** The proxy's endpoint behind the front server (`http://127.0.0.1:P/api`). */
  endpoint: string;
  /** Lose the answer of the next `method` request whose path matches `path`. */
  arm(fault: Fault, method: string, path: RegExp, options?: { forward?: boolean }): Promise<void>;
  /** Resolves once a `hang` holds a request (the service has done what it asked). */
  held(): Promise<void>;
  /** Forget what is armed and cut what is held (the end of a test). */
  release(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLossyFront(): Promise<LossyFront> {
  const { url, pid } = await executeServerCommand<{ url: string; pid: number }, Record<string, unknown>>('lossy-front', { action: 'start', origin: location.origin });
  return {
    endpoint: `${url}/api`,
    async arm(fault, method, path, options = {}) {
      await fetch(`${url}/__lossy/arm`, { method: 'POST', body: JSON.stringify({ fault, method, path: path.source, ...options }) });
    },
    async held() {
      await fetch(`${url}/__lossy/held`);
    },
    async release() {
      await fetch(`${url}/__lossy/release`, { method: 'POST' });
    },
    async stop() {
      await executeServerCommand('lossy-front', { action: 'stop', pid });
    },
  };
}
