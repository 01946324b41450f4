/**
 * `npm run bench`: runs every `bench/*.bench.ts` in turn and prints each table.
 * A bench file's default export is `async () => BenchTable[]`. Benchmarks are
 * never timed tests: they only measure and print. `npm run bench -- seat` runs
 * only files whose name contains "seat".
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

export function printTable(table: BenchTable): void {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\n### ${table.title}\n`);
  console.log(line(table.columns));
  console.log(`|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`);
  for (const r of table.rows) console.log(line(r.map(String)));
  for (const n of table.notes ?? []) console.log(`\n${n}`);
}

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<BenchTable[]> };
  console.error(`running ${file} ...`);
  for (const table of await mod.default()) printTable(table);
}
