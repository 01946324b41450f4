/**
 * The docs a newcomer reads stay true: a README short enough to read with the
 * two commands at its top, every page in docs/ reachable from it, every link
 * between the pages landing on a file and an anchor that exist, and the
 * architecture's "where does X live" table naming only paths that exist and
 * every folder directly under src/.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { root } from '../../scripts/build.mjs';
import { headingAnchor } from '../../src/server/docs-site.ts';

const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const markdownFiles = ['README.md', ...pages];

/** Markdown outside fenced code blocks (a link-like text in an example is not a link). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors a page offers: GitHub's, from its headings, and its explicit `<a id>`s. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} (.+)$/gm)) anchors.add(headingAnchor(m[1] as string, seen));
  for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1] as string);
  return anchors;
}

describe('the README and docs/', () => {
  test('the README is a few hundred lines at most, with the two commands at its top', () => {
    const readme = read('README.md');
    const lines = readme.split('\n');
    assert.ok(lines.length <= 300, `README.md has ${lines.length} lines`);
    const top = lines.slice(0, 10).join('\n');
    assert.match(top, /^npm install && npm start\b/m);
    assert.match(top, /^npm test\b/m);
    assert.match(readme, /^## Put it on a page$/m);
  });

  test('every page of docs/ is linked from the README', () => {
    const readme = read('README.md');
    for (const page of pages) assert.ok(readme.includes(`](${page})`) || readme.includes(`](${page}#`), `README.md does not link ${page}`);
  });

  test('every relative link lands on a file in the repository, and on an anchor that page has', () => {
    for (const file of markdownFiles) {
      const text = read(file);
      for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1] as string;
        if (/^[a-z]+:/i.test(href)) continue;
        const [path = '', anchor] = href.split('#');
        const target = path ? resolve(root, dirname(file), path) : join(root, file);
        const inside = relative(root, target);
        assert.ok(!inside.startsWith('..'), `${file}: ${href} points outside the repository`);
        assert.ok(existsSync(target), `${file}: ${href} points to a file that does not exist`);
        if (anchor) {
          assert.ok(target.endsWith('.md'), `${file}: ${href} has an anchor in a file that is not markdown`);
          assert.ok(anchorsOf(readFileSync(target, 'utf8')).has(anchor), `${file}: ${href}: no such anchor`);
        }
      }
    }
  });
});

describe('docs/architecture.md, "Where does X live"', () => {
  const text = read('docs/architecture.md');
  const start = text.indexOf('## Where does X live');
  const table = text.slice(start, text.indexOf('\n## ', start + 1));
  const rows = table.split('\n').filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| What |'));
  const named = rows.flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string));

  test('has rows', () => {
    assert.ok(start >= 0, 'docs/architecture.md has no "Where does X live" section');
    assert.ok(rows.length >= 10, `only ${rows.length} rows`);
  });

  test('every path it names exists', () => {
    for (const path of named) {
      assert.ok(existsSync(join(root, path)), `${path} is named but does not exist`);
      if (path.endsWith('/')) assert.ok(statSync(join(root, path)).isDirectory(), `${path} is not a folder`);
    }
  });

  test('names every folder directly under src/', () => {
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src/${d.name}/`);
    for (const folder of folders) assert.ok(named.includes(folder), `${folder} is not in the table`);
  });
});
