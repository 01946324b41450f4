/**
 * Seat maps side by side: <seat-picker>, seatchart and
 * @alisaitteke/seatmap-canvas render the same generated venue (1,000; 5,000;
 * 20,000 seats, 20% unavailable, two price bands; bench/seatmap/venue.ts).
 *
 * Each library gets its own page, built with esbuild (minified, one JS and one
 * CSS file; ours with the bundle's compile hint, see compiledOnLoad) into a
 * temporary directory, served gzip-compressed on 127.0.0.1,
 * and driven by playwright-core in one headless Chromium. Per library and
 * size, over RUNS fresh page loads (medians):
 * - first paint: from the render call to the first painted frame (double rAF);
 * - click → frame: a press and release on an available seat in view, sent
 *   back to back over CDP (Input.dispatchMouseEvent, no pause between them),
 *   timed from the pointerdown's event.timeStamp to the end of the first frame
 *   in which the library reports the seat chosen (harness.ts armClickTimer);
 *   seatmap-canvas first gets one untimed click that zooms it to its seat
 *   level, where clicks choose seats;
 * - JS heap after render (CDP Runtime.getHeapUsage after a forced GC);
 * - gzip bytes loaded by the page (HTML, JS, CSS as served).
 * Nothing here asserts a time: it measures and prints.
 */
import { build, type Metafile } from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { COMPILE_HINT } from '../scripts/build.mjs';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { BASELINE_COMMIT, baselineCheckout, loadNote } from './baseline.ts';
import type { BenchTable } from './index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const RUNS = Number(process.env.SEATMAP_RUNS ?? 5);
const SIZES = [1000, 5000, 20000];
/** Ours (this build, and the baseline's sources: bench/baseline.ts) and the peers. `root`: the checkout it is built from. */
const LIBRARIES: { name: string; entry: string; ours?: boolean; root?: () => string }[] = [
  { name: 'seat-picker', entry: 'seat-picker.page.ts', ours: true },
  { name: `seat-picker ${BASELINE_COMMIT}`, entry: 'seat-picker.page.ts', ours: true, root: () => baselineCheckout() },
  { name: 'seatchart', entry: 'seatchart.page.ts' },
  { name: 'seatmap-canvas', entry: 'seatmap-canvas.page.ts' },
];
/** A library's page and file names (no spaces). */
const fileName = (name: string) => name.replace(/\s+/g, '-');
const RENDER_TIMEOUT = 60_000;

interface Sample {
  paint: number;
  click: number;
  frames: number;
  heap: number;
  bytes: number;
  selected: boolean;
}

async function buildPages(out: string): Promise<void> {
  for (const lib of LIBRARIES) {
    const from = lib.root?.() ?? root;
    const name = fileName(lib.name);
    const { metafile } = await build({
      entryPoints: { [name]: join(from, 'bench', 'seatmap', lib.entry) },
      bundle: true,
      minify: true,
      format: 'esm',
      // Lazy parts (locales, DOMPurify, later views) stay chunks loaded on demand, as in the real bundle.
      splitting: true,
      chunkNames: `${name}-chunk-[hash]`,
      target: 'es2022',
      outdir: out,
      tsconfig: join(from, 'tsconfig.json'),
      define: { 'process.env.NODE_ENV': '"production"' },
      conditions: ['production'],
      logLevel: 'error',
      metafile: true,
    });
    if (lib.ours) compiledOnLoad(out, name, metafile);
    const css = readdirSync(out).includes(`${name}.css`) ? `<link rel="stylesheet" href="${name}.css">` : '';
    const page = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${lib.name}</title>${css}</head>` +
      `<body style="margin:0;font-family:system-ui,sans-serif"><script type="module" src="${name}.js"></script></body></html>`;
    writeFileSync(join(out, `${name}.html`), page);
  }
}

/**
 * Our page as the bundle ships it: scripts/build.mjs marks an element's chunk, the core and the
 * shared chunk `//# allFunctionsCalledOnLoad` (Chromium compiles them as they stream in, not at
 * their first call). Here the page's entry and every chunk it imports statically (what loads
 * with the picker) get the same mark; chunks loaded on demand do not, as in the bundle. (The
 * bundle's seat-words chunk, the seat map's data and words, is not marked; esbuild puts that
 * code with the rest.) Before this, the page was built unmarked: the bench measured a picker
 * compiled function by function, which no visitor's Chromium does.
 */
function compiledOnLoad(out: string, name: string, metafile: Metafile): void {
  const outputs = metafile.outputs;
  const path = (file: string) => Object.keys(outputs).find((key) => key.endsWith(`/${file}`) || key === file);
  const seen = new Set<string>();
  const visit = (key: string | undefined): void => {
    if (!key || seen.has(key)) return;
    seen.add(key);
    for (const i of outputs[key]?.imports ?? []) if (i.kind === 'import-statement') visit(path(i.path.replace(/^.*\//, '')));
  };
  visit(path(`${name}.js`));
  for (const key of seen) {
    const file = join(out, key.replace(/^.*\//, ''));
    writeFileSync(file, `${COMPILE_HINT}${readFileSync(file, 'utf8')}`);
  }
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** A static server that sends gzip and counts the compressed bytes it sent. */
function serve(dir: string): Promise<{ server: Server; url: string; bytes: () => number; reset: () => void }> {
  const cache = new Map<string, Buffer>();
  let sent = 0;
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0]?.replace(/^\/+/, '') ?? '';
    if (!/^[\w.-]+$/.test(name)) return void res.writeHead(404).end();
    let body = cache.get(name);
    if (!body) {
      try {
        body = gzipSync(readFileSync(join(dir, name)), { level: 9 });
      } catch {
        return void res.writeHead(404).end();
      }
      cache.set(name, body);
    }
    sent += body.length;
    res.writeHead(200, { 'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream', 'Content-Encoding': 'gzip', 'Cache-Control': 'no-store' });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, bytes: () => sent, reset: () => (sent = 0) });
    });
  });
}

async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

async function sample(page: Page, url: string, size: number, counter: { bytes: () => number; reset: () => void }): Promise<Sample> {
  counter.reset();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => 'seatBench' in window);
  const paint = await page.evaluate((n) => window.seatBench.render(n), size);
  const bytes = counter.bytes();
  const heap = await heapUsed(page);
  const first = await page.evaluate(() => window.seatBench.prepareClick?.() ?? null);
  if (first) {
    await page.mouse.click(first.x, first.y);
    await page.waitForTimeout(1500); // its zoom animation (600 ms by default) has ended
  }
  const target = await page.evaluate(() => window.seatBench.target());
  let click = Number.NaN;
  let frames = Number.NaN;
  let selected = false;
  if (target) {
    await page.mouse.move(target.x, target.y); // hover effects happen before the timed press
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.evaluate(() => (window as unknown as { armClickTimer: () => void }).armClickTimer());
    const cdp = await page.context().newCDPSession(page);
    const mouse = { x: target.x, y: target.y, button: 'left', buttons: 1, clickCount: 1 } as const;
    await Promise.all([
      cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...mouse }),
      cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...mouse, buttons: 0 }),
    ]);
    await cdp.detach();
    ({ ms: click, frames } = await page.evaluate(() => window.clickFrame));
    selected = (await page.evaluate(() => window.seatBench.selected())) > 0;
  }
  return { paint, click, frames, heap, bytes, selected };
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const mb = (x: number) => (x / 1048576).toFixed(1);
const kb = (x: number) => (x / 1024).toFixed(1);

export default async function seatmapBench(): Promise<BenchTable[]> {
  const out = mkdtempSync(join(tmpdir(), 'stagedoor-seatmap-'));
  const browser = await chromium.launch(chromiumLaunchOptions());
  const { server, url, bytes, reset } = await (async () => {
    await buildPages(out);
    return serve(out);
  })();
  const results = new Map<string, Sample[]>();
  const loadBefore = loadNote('before the run');
  try {
    for (const size of SIZES) {
      for (const lib of LIBRARIES) results.set(`${lib.name}:${size}`, []);
      // Round after round, every library once per round (in turn, the order reversed every other
      // round): a change in the machine's load hits them alike.
      for (let i = 0; i < RUNS; i++) {
        for (const lib of i % 2 ? [...LIBRARIES].reverse() : LIBRARIES) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          const page = await context.newPage();
          page.setDefaultTimeout(RENDER_TIMEOUT);
          try {
            results.get(`${lib.name}:${size}`)?.push(await sample(page, `${url}/${fileName(lib.name)}.html`, size, { bytes, reset }));
          } catch (error) {
            console.error(`seatmap bench: ${lib.name} at ${size} seats, run ${i + 1}: ${(error as Error).message.split('\n')[0]}`);
          } finally {
            await context.close();
          }
        }
      }
      console.error(`  ${size} seats: ${RUNS} rounds`);
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }

  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const size of SIZES) {
    const best = (key: keyof Sample, libs: string[]) => Math.min(...libs.map((l) => median((results.get(`${l}:${size}`) ?? []).map((s) => Number(s[key])))).filter(Number.isFinite));
    for (const lib of LIBRARIES) {
      const s = results.get(`${lib.name}:${size}`) ?? [];
      const paint = median(s.map((x) => x.paint));
      const peers = LIBRARIES.filter((l) => !l.ours).map((l) => l.name);
      const ratio = lib.ours ? `${(best('paint', peers) / paint).toFixed(1)}x` : '';
      rows.push([
        size.toLocaleString('en-GB'),
        lib.name,
        ms(paint),
        ratio,
        ms(median(s.map((x) => x.click))),
        s.length ? `${s.filter((x) => x.frames === 1).length}/${s.length}` : 'n/a',
        s.length ? `${s.filter((x) => x.selected).length}/${s.length}` : 'n/a',
        s.length ? mb(median(s.map((x) => x.heap))) : 'n/a',
        s.length ? kb(median(s.map((x) => x.bytes))) : 'n/a',
        s.length,
      ]);
    }
  }
  notes.push(
    `Medians of ${RUNS} fresh page loads per cell, headless Chromium (${process.env.CHROME_PATH ?? '/usr/bin/chromium'}), viewport 1280×800, --disable-gpu.`,
    `${loadBefore} ${loadNote('after the run')} Other work on the machine inflates every figure: compare rows of one run.`,
    `"seat-picker ${BASELINE_COMMIT}": the same page built from the baseline's sources (bench/baseline.ts), measured in the same rounds.`,
    '"vs best peer": the best peer\'s first paint divided by <seat-picker>\'s (issue 34\'s goals: at least 6x at 5,000 seats, where 10x is below the bench\'s two-frame floor, and at least 10x at 20,000).',
    '"next frame": in how many runs the click was answered in the first frame that began after the press (the goal: a click answered within one frame).',
    '"selected": in how many runs the click actually selected a seat (a click that only zooms or does nothing still counts its frame).',
    'Every library starts from the venue as objects in memory: <seat-picker> through an in-page fake api (FullAvailability), the peers through their options/data.',
  );
  return [
    {
      title: 'Seat map: render and click, side by side',
      columns: ['seats', 'library', 'first paint ms', 'vs best peer', 'click → frame ms', 'next frame', 'selected', 'JS heap MB', 'gzip KB loaded', 'runs'],
      rows,
      notes,
    },
  ];
}
