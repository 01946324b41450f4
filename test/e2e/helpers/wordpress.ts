/**
 * A real WordPress for one test run: Debian's `wordpress` package (its PHP
 * files, read-only), MariaDB and PHP's built-in web server, all started here
 * in a throwaway directory and stopped by pid. Nothing machine-wide is read
 * or changed, so two runs can go at once:
 *
 * - MariaDB: `mariadb-install-db` into TMP/db, then `mariadbd` on that data
 *   directory with its socket in TMP and no TCP port at all (WordPress
 *   reaches it through the socket).
 * - WordPress: a document root TMP/www made of symlinks to Debian's files,
 *   its own wp-config.php and its own wp-content (plugins, uploads, the
 *   themes asked for). Debian's wp-config.php reads /etc/wordpress/ (one
 *   config per host name, shared by every run on the machine); this one is
 *   never loaded: PHP defines ABSPATH as TMP/www/ before each request
 *   (auto_prepend_file), so wp-load.php finds TMP/www/wp-config.php.
 * - `php -S 127.0.0.1:PORT` on a free port, with a few workers so a page's
 *   scripts and styles load side by side.
 *
 * The site is then installed by WordPress's own installer, over HTTP, like
 * anyone would: see the test.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);

/** Debian's WordPress (WORDPRESS_DIR to use another copy of the same layout). */
export const WORDPRESS_DIR = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';

export interface WordPressSite {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The throwaway directory (www/, db/, logs). */
  dir: string;
  /** WordPress's debug log (PHP notices, warnings and errors), as written so far. */
  debugLog(): string;
  stop(): Promise<void>;
}

/** A program from PATH or the sbin directories (mariadbd lives in /usr/sbin). */
function program(name: string): string {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin']) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`${name} is not installed (Debian: apt-get install mariadb-server php-cli php-mysql php-intl wordpress; .ci/run does it).`);
}

/** Ask until `ready()` says yes; a process that exits meanwhile fails at once, with its output. */
async function waitFor(what: string, ready: () => Promise<boolean>, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} was not ready within ${timeoutMs / 1000} s:\n${output()}`);
}

function stopProcess(child: ChildProcess | undefined, group = false): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        if (group) process.kill(-child.pid!, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      if (group) process.kill(-child.pid!, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text = (text + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (text = (text + d.toString()).slice(-20_000)));
  return () => text;
}

async function startDatabase(dir: string): Promise<{ socket: string; child: ChildProcess }> {
  const data = join(dir, 'db');
  const socket = join(dir, 'db.sock');
  const user = userInfo().username;
  await run(program('mariadb-install-db'), ['--no-defaults', `--datadir=${data}`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db'], {
    cwd: dir,
  });
  const child = spawn(
    program('mariadbd'),
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(dir, 'db.pid')}`,
      `--user=${user}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-flush-log-at-trx-commit=0',
      '--skip-name-resolve',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = collect(child);
  const client = program('mariadb');
  await waitFor(
    'mariadbd',
    () =>
      run(client, ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4']).then(
        () => true,
        () => false,
      ),
    child,
    output,
  );
  return { socket, child };
}

/** TMP/www: Debian's WordPress by symlink, with this run's own config and wp-content. */
function documentRoot(dir: string, socket: string, themes: readonly string[]): { www: string; prepend: string; debugLog: string } {
  const www = join(dir, 'www');
  mkdirSync(join(www, 'wp-content', 'plugins'), { recursive: true });
  mkdirSync(join(www, 'wp-content', 'themes'));
  mkdirSync(join(www, 'wp-content', 'uploads'));
  for (const name of readdirSync(WORDPRESS_DIR)) {
    if (name === 'wp-config.php' || name === 'wp-content') continue;
    symlinkSync(join(WORDPRESS_DIR, name), join(www, name));
  }
  for (const theme of themes) {
    const from = join(WORDPRESS_DIR, 'wp-content', 'themes', theme);
    if (!existsSync(from)) throw new Error(`The ${theme} theme is not installed (Debian: apt-get install wordpress-theme-${theme}; .ci/run does it).`);
    symlinkSync(from, join(www, 'wp-content', 'themes', theme));
  }
  const debugLog = join(dir, 'debug.log');
  const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  writeFileSync(
    join(www, 'wp-config.php'),
    `<?php
// This test run's WordPress (test/e2e/helpers/wordpress.ts): its own database socket and wp-content.
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', ${php(`localhost:${socket}`)} );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'WP_CONTENT_DIR', ${php(join(www, 'wp-content'))} );
define( 'WP_DEFAULT_THEME', ${php(themes[0] ?? 'twentytwentythree')} );
define( 'FS_METHOD', 'direct' );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_DISPLAY', false );
define( 'WP_DEBUG_LOG', ${php(debugLog)} );
// A closed network: no update checks, feeds or cron calls to wordpress.org.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_AUTO_UPDATE_CORE', false );
define( 'DISABLE_WP_CRON', true );
$table_prefix = 'wp_';
require_once ABSPATH . 'wp-settings.php';
`,
  );
  const prepend = join(dir, 'prepend.php');
  writeFileSync(prepend, `<?php\n// Before every request: this run's document root is WordPress's ABSPATH, so its wp-config.php is the one loaded.\nif ( ! defined( 'ABSPATH' ) ) {\n\tdefine( 'ABSPATH', ${php(`${www}/`)} );\n}\n`);
  return { www, prepend, debugLog };
}

async function startPhp(www: string, prepend: string): Promise<{ origin: string; child: ChildProcess }> {
  let lastError: unknown;
  // A free port can be taken between asking and binding: try another.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const child = spawn(program('php'), ['-d', `auto_prepend_file=${prepend}`, '-d', 'upload_max_filesize=16M', '-d', 'post_max_size=16M', '-S', `127.0.0.1:${port}`, '-t', www], {
      cwd: www,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: the workers stop with it
    });
    const output = collect(child);
    const origin = `http://127.0.0.1:${port}`;
    try {
      await waitFor(
        'php -S',
        () => fetch(`${origin}/wp-admin/install.php`, { redirect: 'manual' }).then((r) => r.status < 500, () => false),
        child,
        output,
        30_000,
      );
      return { origin, child };
    } catch (error) {
      lastError = error;
      await stopProcess(child, true);
    }
  }
  throw lastError;
}

/** MariaDB and WordPress (not yet installed: its installer is the first page) in a fresh temporary directory. */
export async function startWordPress({ themes = ['twentytwentyone'] }: { themes?: readonly string[] } = {}): Promise<WordPressSite> {
  if (!existsSync(join(WORDPRESS_DIR, 'wp-settings.php'))) {
    throw new Error(`No WordPress in ${WORDPRESS_DIR} (Debian: apt-get install wordpress; .ci/run does it).`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'stagedoor-wp-'));
  let database: Awaited<ReturnType<typeof startDatabase>> | undefined;
  let php: Awaited<ReturnType<typeof startPhp>> | undefined;
  // If this process ends without stop() (an uncaught error), the servers it started end with it.
  const killNow = () => {
    for (const [child, group] of [[php?.child, true], [database?.child, false]] as const) {
      if (!child?.pid || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        process.kill(group ? -child.pid : child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', killNow);
  const stop = async () => {
    process.off('exit', killNow);
    await stopProcess(php?.child, true);
    await stopProcess(database?.child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    database = await startDatabase(dir);
    const root = documentRoot(dir, database.socket, themes);
    php = await startPhp(root.www, root.prepend);
    return {
      origin: php.origin,
      dir,
      debugLog: () => (existsSync(root.debugLog) ? readFileSync(root.debugLog, 'utf8') : ''),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Whether the PHP that serves WordPress here has the intl extension (NumberFormatter: prices as the widget formats them). */
export async function phpHasIntl(): Promise<boolean> {
  const { stdout } = await run(program('php'), ['-r', "echo class_exists('NumberFormatter') ? 'yes' : 'no';"]);
  return stdout.trim() === 'yes';
}
