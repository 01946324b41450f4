/**
 * The docs pages beside the demo: `stagedoor start` and `stagedoor serve`
 * answer `/docs/` with the package's README.md and `/docs/<page>.md` with
 * `docs/<page>.md`, rendered to HTML (marked, GitHub's flavour), so a newcomer
 * reads them in the browser next to the demo they describe. Links between the
 * pages work as they do on GitHub (the README's `docs/x.md` becomes `x.md`,
 * headings carry GitHub's anchors), and the screenshots are served when the
 * folder has them (a checkout does; the npm package ships the pages without
 * them, and the browser shows their alt text). Node only.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { Marked, type Tokens } from 'marked';

export const DOCS_PATH = '/docs';

/** Whether a request path is one of the docs pages (or their screenshots). */
export function isDocsPath(pathname: string): boolean {
  return pathname === DOCS_PATH || pathname.startsWith(`${DOCS_PATH}/`);
}

/**
 * GitHub's anchor for a heading's markdown: an explicit `<a id>` dropped, lower
 * case, anything but letters, digits, spaces, `-` and `_` removed (code marks,
 * the brackets of a `<tag>`), spaces to `-`. `seen` numbers repeats as GitHub does (`x`, `x-1`, `x-2`).
 */
export function headingAnchor(text: string, seen: Map<string, number> = new Map()): string {
  const base = text
    .replace(/<a\s[^>]*><\/a>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count ? `${base}-${count}` : base;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

const STYLE = `
:root { color-scheme: light dark; font: 16px/1.55 system-ui, sans-serif; }
body { margin: 0; }
header { display: flex; gap: 1.25rem; align-items: baseline; padding: .75rem 1.25rem; border-bottom: 1px solid #8884; }
header a { font-weight: 600; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; }
code, pre { font: .9em/1.45 ui-monospace, monospace; }
pre { overflow-x: auto; padding: .75rem; border: 1px solid #8884; border-radius: 6px; }
:not(pre) > code { padding: .1em .3em; border-radius: 4px; background: #8882; }
table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1rem 0; }
th, td { border: 1px solid #8886; padding: .3rem .55rem; vertical-align: top; text-align: left; }
img { max-width: 100%; }
`;

/** One markdown page as a whole HTML document. `rewriteDocsLinks`: the README's `docs/x.md` links, seen from /docs/. */
export function renderPage(markdown: string, { rewriteDocsLinks = false } = {}): string {
  const seen = new Map<string, number>();
  let title = 'Stagedoor';
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (rewriteDocsLinks && (token.type === 'link' || token.type === 'image')) {
        const link = token as Tokens.Link | Tokens.Image;
        if (link.href.startsWith('docs/')) link.href = link.href.slice('docs/'.length);
      }
    },
    renderer: {
      heading({ tokens, depth, text }) {
        if (depth === 1 && title === 'Stagedoor') title = `${text.replace(/`/g, '')} · Stagedoor`;
        return `<h${depth} id="${escapeHtml(headingAnchor(text, seen))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="${DOCS_PATH}/">Stagedoor docs</a><a href="/">The demo</a></header>
<main>
${body}</main>
</body>
</html>
`;
}

/** The docs pages of the package in `packageDir` (its README.md and docs/). */
export function createDocsSite(packageDir: string): Hono {
  const app = new Hono();
  const html = (text: string, status: 200 | 404 = 200) =>
    new Response(text, {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
    });
  const notFound = () => html(renderPage('# Not found\n\nNo such page: see [the docs](./).'), 404);
  const readText = (path: string) => readFile(path, 'utf8').catch(() => undefined);

  app.get(DOCS_PATH, (c) => c.redirect(`${DOCS_PATH}/`, 301));
  app.get(`${DOCS_PATH}/`, async () => {
    const readme = await readText(join(packageDir, 'README.md'));
    return readme === undefined ? notFound() : html(renderPage(readme, { rewriteDocsLinks: true }));
  });
  // Names are matched whole, so nothing outside the docs folder can be asked for.
  app.get(`${DOCS_PATH}/:page{[a-z0-9-]+\\.md}`, async (c) => {
    const text = await readText(join(packageDir, 'docs', c.req.param('page')));
    return text === undefined ? notFound() : html(renderPage(text));
  });
  app.get(`${DOCS_PATH}/screenshots/:image{[a-z0-9-]+\\.png}`, async (c) => {
    const bytes = await readFile(join(packageDir, 'docs', 'screenshots', c.req.param('image'))).catch(() => undefined);
    if (bytes === undefined) return notFound();
    return new Response(new Uint8Array(bytes), { headers: { 'content-type': 'image/png', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' } });
  });
  app.all('*', () => notFound());
  return app;
}
