/**
 * Running the command line as a user does: a child process, its printed lines
 * awaited as events (with a bound, never a sleep), and a clean kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PROJECT = fileURLToPath(new URL('../../', import.meta.url));

export interface Running {
  child: ChildProcess;
  /** Everything printed so far. */
  stdout: () => string;
  stderr: () => string;
  /** The `nth` (default first) line of stdout (or stderr) matching `pattern`, already printed or still to come. */
  line(pattern: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr', nth?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Stop it and everything it started (its process group). */
  stop(): Promise<void>;
}

/** Start `command args` in the project folder (or `cwd`), in its own process group. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd: string = PROJECT): Running {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  // Keep the first MiB of each stream: enough for any line a test awaits, bounded for a benchmark's access log.
  const keep = (buffer: string, chunk: string) => (buffer.length < 1 << 20 ? buffer + chunk : buffer);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out = keep(out, chunk)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err = keep(err, chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let alive = true;
  void exited.then(() => (alive = false));

  function line(pattern: RegExp, timeoutMs = 60_000, stream: 'stdout' | 'stderr' = 'stdout', nth = 1): Promise<RegExpExecArray> {
    const source = stream === 'stdout' ? child.stdout : child.stderr;
    return new Promise((resolve, reject) => {
      const scan = () => {
        // Complete lines only: the last piece may still be arriving.
        let seen = 0;
        for (const l of (stream === 'stdout' ? out : err).split('\n').slice(0, -1)) {
          const m = pattern.exec(l);
          if (m && ++seen === nth) return m;
        }
        return null;
      };
      const finish = (error: Error | null, match?: RegExpExecArray) => {
        clearTimeout(timer);
        source?.off('data', onData);
        child.off('exit', onExit);
        if (match) resolve(match);
        else reject(error ?? new Error('no match'));
      };
      const onData = () => {
        const m = scan();
        if (m) finish(null, m);
      };
      const onExit = (code: number | null) =>
        finish(new Error(`exited (${code}) before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`));
      const timer = setTimeout(
        () => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`)),
        timeoutMs,
      );
      source?.on('data', onData);
      child.once('exit', onExit);
      onData();
    });
  }

  async function stop(): Promise<void> {
    if (!alive || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    await exited;
  }

  return { child, stdout: () => out, stderr: () => err, line, exited, stop };
}

/**
 * The command line from its TypeScript sources (through tsx), so tests run the
 * code as it is now, never a stale build. The compiled command, as `npx
 * stagedoor` runs it from the installed package, is test/e2e/packed.test.ts's.
 */
export function stagedoor(args: string[], env: NodeJS.ProcessEnv = {}): Running {
  return run(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], env);
}
