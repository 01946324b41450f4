// Security invariant: service HTML reaches the DOM only through src/sanitize.ts.
// No other browser source may use unsafeHTML, innerHTML or outerHTML writes, insertAdjacentHTML
// or document.write (a new use belongs in the sanitizer, reviewed there).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const ALLOWED = new Set(['sanitize.ts']);
const RAW_HTML = /\bunsafeHTML\b|\bunsafe-html\b|\.(?:inner|outer)HTML\s*=|insertAdjacentHTML|document\.write/;

function browserSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'server' ? [] : browserSources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

test('only src/sanitize.ts writes raw HTML into the page', () => {
  const files = browserSources(SRC);
  assert.ok(files.some((f) => f.endsWith('sanitize.ts')), 'src/sanitize.ts is missing');
  const offenders = files.filter((f) => !ALLOWED.has(relative(SRC, f)) && RAW_HTML.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders.map((f) => relative(SRC, f)), []);
});

test('src/sanitize.ts loads DOMPurify lazily, never with a static import', () => {
  const source = readFileSync(join(SRC, 'sanitize.ts'), 'utf8');
  assert.match(source, /import\('dompurify'\)/);
  assert.doesNotMatch(source, /^import\s+(?!type\b)[^;]*from\s+'dompurify'/m);
});
