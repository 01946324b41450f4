/**
 * The public vocabulary (docs/vocabulary.md), checked against the manifest and the source:
 * part names, custom properties and their defaults (each written once, in
 * src/elements/tokens.ts), and events.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, it } from 'node:test';
import { root, type CustomElementsManifest } from '../../scripts/build.mjs';
import { elementsOf, loadTokens, type Tokens } from '../../scripts/docs.mjs';

const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as CustomElementsManifest;
const elements = elementsOf(manifest).filter((e) => e.tagName !== 'booking-provider');
const doc = readFileSync(join(root, 'docs/vocabulary.md'), 'utf8');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
/** The browser code: everything in src/ but the Node server and the generated translations. */
const browserSources = walk(join(root, 'src'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => relative(root, f).split('\\').join('/'))
  .filter((f) => !f.startsWith('src/server/') && !f.startsWith('src/i18n/locales/'))
  .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
const elementSources = browserSources.filter((s) => s.path.startsWith('src/elements/'));
const TOKENS_FILE = 'src/elements/tokens.ts';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Every part attribute written as a plain string in a template: the tag it is on, and its tokens. */
function staticParts(): { path: string; tag: string; tokens: string[] }[] {
  const found: { path: string; tag: string; tokens: string[] }[] = [];
  for (const { path, text } of elementSources) {
    for (const m of text.matchAll(/<([a-z][a-z0-9-]*)\b[^<>]*?\spart="([^"$]*)(?:\$\{[^}]*\}[^"]*)?"/g)) {
      found.push({ path, tag: m[1]!, tokens: m[2]!.trim().split(/\s+/).filter(Boolean) });
    }
    // Parts set from script (the seat map's buttons): setAttribute('part', `seat-button${...}`).
    for (const m of text.matchAll(/setAttribute\('part', `([a-z-]+)/g)) found.push({ path, tag: 'button', tokens: [m[1]!] });
    // Parts built as a token list: const tokens = ['day-button', today ? 'today' : '', ...] before part=${tokens...}.
    for (const m of text.matchAll(/const tokens = \[\s*'([a-z-]+)',([^\]]*)\]/g)) {
      const extra = [...m[2]!.matchAll(/'([a-z-]+)'/g)].map((t) => t[1]!);
      found.push({ path, tag: 'button', tokens: [m[1]!, ...extra] });
    }
    for (const m of text.matchAll(/part=\$\{[^}]*?\?\s*'([^']*)'\s*:\s*'([^']*)'\s*\}/g)) {
      for (const value of [m[1]!, m[2]!]) found.push({ path, tag: '?', tokens: value.split(/\s+/) });
    }
  }
  return found;
}

/**
 * The part tokens the code computes rather than writes: each expression that may stand inside a part
 * attribute without being a choice between literals, and the union of literals that bounds it (TypeScript
 * keeps the expression within its type; this test keeps the type within the vocabulary). Service text
 * (an e-ticket's Type, a name) is never one of them: it maps to a documented token through such a type.
 */
const TIMER = 'src/elements/basket-timer/basket-timer.view.ts';
const CHECKOUT = 'src/elements/checkout-form/checkout-form.view.ts';
const CONFIRMATION = 'src/elements/booking-confirmation/booking-confirmation.view.ts';
const HOLD_LEVEL = { path: 'src/controllers/countdown-controller.ts', declaration: 'export type HoldLevel =' };
const COMPUTED_TOKENS: { path: string; expression: string; bound: { path: string; declaration: string } }[] = [
  { path: TIMER, expression: 'state', bound: HOLD_LEVEL },
  { path: CHECKOUT, expression: 'level', bound: HOLD_LEVEL },
  { path: CHECKOUT, expression: 'message.kind', bound: { path: CHECKOUT, declaration: 'formMessage: { kind:' } },
  { path: CONFIRMATION, expression: "eTicketToken(link.Type) ?? ''", bound: { path: CONFIRMATION, declaration: 'export type ETicketToken =' } },
];

/** The string literals of the union written right after `declaration` in a source file. */
function unionAfter(path: string, declaration: string): string[] {
  const text = readFileSync(join(root, path), 'utf8');
  const at = text.indexOf(declaration);
  assert.ok(at >= 0, `${path}: no "${declaration}"`);
  const union = /^\s*((?:'[^']*'\s*\|\s*)*'[^']*')/.exec(text.slice(at + declaration.length));
  assert.ok(union, `${path}: "${declaration}" is not followed by a union of string literals`);
  return [...union[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
}

/**
 * Every way the browser code sets a part, with the expressions inside it: part="…${…}…" and
 * part=${…} in templates, setAttribute('part', `…`) in script. Anything else that writes a part
 * (a variable given to setAttribute, the part property) is returned with its whole text as the expression.
 */
function partWrites(): { path: string; written: string; expressions: string[] }[] {
  const found: { path: string; written: string; expressions: string[] }[] = [];
  const inside = (value: string) => [...value.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]!.trim());
  for (const { path, text } of browserSources) {
    const before = found.length;
    for (const m of text.matchAll(/\spart="((?:[^"$]|\$(?!\{)|\$\{[^}]*\})*)"/g)) found.push({ path, written: m[0].trim(), expressions: inside(m[1]!) });
    for (const m of text.matchAll(/\spart=\$\{([^}]*)\}/g)) found.push({ path, written: m[0].trim(), expressions: [m[1]!.trim()] });
    // A part attribute these patterns cannot read (braces inside its expression) is not skipped: it fails.
    const attributes = [...text.matchAll(/\spart=/g)].length;
    assert.equal(found.length - before, attributes, `${path}: ${attributes - (found.length - before)} part attribute(s) the scan cannot read`);
    for (const m of text.matchAll(/setAttribute\(\s*['"]part['"]\s*,\s*(`(?:[^`$]|\$\{[^}]*\})*`|'[^']*'|[^)]*)\)/g)) {
      found.push({ path, written: m[0], expressions: m[1]!.startsWith('`') ? inside(m[1]!) : m[1]!.startsWith("'") ? [] : [m[1]!] });
    }
    for (const m of text.matchAll(/\.part\s*(?:=[^=]|\.\s*(?:add|replace|toggle|value)\b)[^;\n]*/g)) found.push({ path, written: m[0], expressions: [m[0]] });
  }
  return found;
}

describe('the public vocabulary (docs/vocabulary.md)', () => {
  let tokens: Tokens;
  before(async () => {
    tokens = await loadTokens();
  });

  describe('parts', () => {
    it('are lower-case words joined by hyphens, and the outer box of every element is base', () => {
      for (const el of elements) {
        const names = (el.cssParts ?? []).map((p) => p.name);
        for (const name of names) assert.match(name, NAME, `<${el.tagName}>: part ${name}`);
        assert.ok(names.includes('base'), `<${el.tagName}> has no base part`);
      }
      for (const { path, text } of elementSources.filter((s) => s.path.endsWith('.component.ts'))) {
        if (/@csspart base\b/.test(text)) assert.match(text, /part="base"/, `${path} documents base but renders none`);
      }
    });

    it('name every button -button, every heading heading or -heading, and never title', () => {
      for (const el of elements) {
        for (const { name } of el.cssParts ?? []) {
          assert.ok(!/(^|-)title$/.test(name), `<${el.tagName}>: ${name}: headings are heading or …-heading`);
          assert.ok(!['retry', 'announcer'].includes(name), `<${el.tagName}>: ${name}: use retry-button / status`);
        }
      }
      const parts = staticParts();
      assert.ok(parts.length > 100, `only ${parts.length} part attributes found: the scan is broken`);
      for (const { path, tag, tokens: [name] } of parts) {
        if (tag === 'button') assert.match(name!, /-button$/, `${path}: <button part="${name}">`);
        if (/^h[1-6]$/.test(tag)) assert.match(name!, /(^|-)heading$/, `${path}: <${tag} part="${name}">`);
        if (tag === 'a') assert.match(name!, /-(link|button)$/, `${path}: <a part="${name}">`);
        if (tag === 'select') assert.match(name!, /^input$|-select$/, `${path}: <select part="${name}">`);
        if (name!.endsWith('-heading') || name === 'heading') assert.match(tag, /^h[1-6]$/, `${path}: <${tag} part="${name}">`);
      }
    });

    it('name every button and every heading', () => {
      for (const { path, text } of elementSources) {
        for (const m of text.matchAll(/<(button|h[1-6])\b/g)) {
          const tag = text.slice(m.index, m.index + 600).split(/>\$\{|<\/(?:button|h[1-6])>|>\s*\n|>[A-Za-z]/)[0]!;
          assert.match(tag, /\spart=/, `${path}: a <${m[1]}> without a part: ${tag.slice(0, 120)}`);
        }
      }
    });

    it('are documented: every part the source writes is in the manifest, and every state token in the document', () => {
      const documented = new Set(elements.flatMap((el) => (el.cssParts ?? []).map((p) => p.name)));
      const states = new Set(
        [...(doc.split('### State tokens')[1]?.split('\n## ')[0] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!),
      );
      assert.ok(states.size > 10, 'docs/vocabulary.md lists no state tokens');
      for (const { path, tokens: [name, ...extra] } of staticParts()) {
        assert.ok(documented.has(name!), `${path}: part ${name} is not documented with @csspart`);
        for (const t of extra) assert.ok(states.has(t) || documented.has(t), `${path}: "${name} ${t}": ${t} is not a state token of docs/vocabulary.md`);
      }
    });

    it('are never built from data: every token inside a part is a literal, or bounded by a union of documented tokens', () => {
      const documented = new Set(elements.flatMap((el) => (el.cssParts ?? []).map((p) => p.name)));
      const states = new Set(
        [...(doc.split('### State tokens')[1]?.split('\n## ')[0] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!),
      );
      const known = (t: string) => states.has(t) || documented.has(t);
      const writes = partWrites();
      assert.ok(writes.filter((w) => w.expressions.length).length >= 10, `only ${writes.length} computed parts found: the scan is broken`);
      const used = new Set<(typeof COMPUTED_TOKENS)[number]>();
      for (const { path, written, expressions } of writes) {
        for (const expression of expressions) {
          // A choice between literals (selected ? ' selected' : ''): its literals are the tokens.
          const choice = /^[^'`]*\?\s*'([^']*)'\s*:\s*'([^']*)'$/.exec(expression);
          if (choice) {
            for (const t of `${choice[1]} ${choice[2]}`.split(/\s+/).filter(Boolean)) assert.ok(known(t), `${path}: ${written}: "${t}" is not in docs/vocabulary.md`);
            continue;
          }
          // A list of literals and such choices, joined (const tokens = ['day-button', today ? 'today' : '', ...]).
          if (expression === 'tokens' && /const tokens = \[[^\]]*\]\s*\.filter\(Boolean\)\s*\.join\(' '\)/.test(browserSources.find((s) => s.path === path)!.text)) {
            const list = /const tokens = \[([^\]]*)\]/.exec(browserSources.find((s) => s.path === path)!.text)![1]!;
            assert.doesNotMatch(list.replace(/'[^']*'/g, "''"), /\$\{|`/, `${path}: ${written}: the token list builds a token`);
            continue;
          }
          const computed = COMPUTED_TOKENS.find((c) => c.path === path && c.expression === expression);
          assert.ok(computed, `${path}: ${written}: \${${expression}} builds a part token from data; map the value to a documented token through a union type, or use a data- attribute`);
          used.add(computed);
          const values = unionAfter(computed.bound.path, computed.bound.declaration);
          for (const t of values.flatMap((v) => v.split(/\s+/)).filter(Boolean)) {
            assert.ok(known(t), `${path}: ${written}: ${computed.bound.declaration} allows "${t}", which is not in docs/vocabulary.md`);
          }
        }
      }
      assert.deepEqual(COMPUTED_TOKENS.filter((c) => !used.has(c)).map((c) => `${c.path}: ${c.expression}`), [], 'an entry of COMPUTED_TOKENS no part uses');
    });

    it('show every failure in one template: error, error-message, retry-button', () => {
      for (const el of elements) {
        const names = (el.cssParts ?? []).map((p) => p.name);
        if (!names.includes('error') && !names.includes('retry-button')) continue;
        for (const part of ['error', 'error-message', 'retry-button']) assert.ok(names.includes(part), `<${el.tagName}> lacks ${part}`);
      }
      const templates = elementSources.filter((s) => /part="error[" ]/.test(s.text)).map((s) => s.path);
      assert.deepEqual(templates, ['src/elements/failure-view.ts'], 'part="error" is rendered outside failure-view.ts');
      const retry = elementSources.filter((s) => />\$\{msg\('Try again'\)\}</.test(s.text)).map((s) => s.path);
      assert.deepEqual(retry, [], 'a "Try again" button written outside failure-view.ts');
    });
  });

  describe('failures', () => {
    it('say each of their sentences in one place (state/failure.ts and the words each context gives it)', () => {
      const written = new Map<string, string[]>();
      for (const { path, text } of browserSources) {
        for (const m of text.matchAll(/msg\('((?:[^'\\]|\\.)+)'\)/g)) written.set(m[1]!, [...(written.get(m[1]!) ?? []), path]);
      }
      const failureSentences = new Set<string>();
      for (const { text } of browserSources) {
        for (const m of text.matchAll(/(toFailure\(|FailureWords = \{|renderFailure\(|loadWords\(|const [a-zA-Z]+ = \(\) => msg\()/g)) {
          for (const s of text.slice(m.index, m.index + 400).matchAll(/msg\('((?:[^'\\]|\\.)+)'\)/g)) failureSentences.add(s[1]!);
        }
      }
      assert.ok(failureSentences.has('We could not reach the box office. Check your connection and try again.'), 'the scan found no failure sentences');
      for (const sentence of failureSentences) {
        const where = written.get(sentence) ?? [];
        if (where.length > 1 && /could not|no longer|went wrong|Too many|did not/.test(sentence)) assert.fail(`"${sentence}" is written ${where.length} times: ${where.join(', ')}`);
      }
    });
  });

  describe('custom properties', () => {
    it('are --booking-* names, each with the default tokens.ts gives it', () => {
      for (const el of elements) {
        for (const p of el.cssProperties ?? []) {
          assert.match(p.name, /^--booking-[a-z0-9]+(-[a-z0-9]+)*$/, `<${el.tagName}>: ${p.name}`);
          const name = p.name.slice('--booking-'.length);
          assert.ok(tokens.TOKEN_NAMES.includes(name as never), `<${el.tagName}>: ${p.name} has no default in ${TOKENS_FILE}`);
          assert.equal(p.default, tokens.documentedDefault(name), `<${el.tagName}>: ${p.name}'s default is not ${TOKENS_FILE}'s`);
        }
      }
    });

    it('used anywhere in the browser code are the tokens, documented by an element or shared', () => {
      const documented = new Set(elements.flatMap((el) => (el.cssProperties ?? []).map((p) => p.name)));
      const shared = [...Object.keys(tokens.PALETTE), 'font', 'radius', 'gap', 'focus'];
      for (const name of tokens.TOKEN_NAMES) {
        assert.ok(documented.has(`--booking-${name}`) || shared.includes(name), `--booking-${name} is in ${TOKENS_FILE} but no element documents it`);
      }
      for (const { path, text } of [...browserSources, { path: 'demo/themed.css', text: readFileSync(join(root, 'demo/themed.css'), 'utf8') }]) {
        for (const m of text.matchAll(/--booking-([a-z0-9]+(?:-[a-z0-9]+)*)(?![a-z0-9-])/g)) {
          assert.ok(tokens.TOKEN_NAMES.includes(m[1] as never), `${path}: --booking-${m[1]} is not a custom property of ${TOKENS_FILE}`);
        }
      }
    });

    it('have every default written once: no colour literal, var() fallback or JSDoc default outside tokens.ts', () => {
      const colour = /#[0-9a-fA-F]{3,8}\b|\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/;
      for (const { path, text } of browserSources) {
        if (path === TOKENS_FILE) continue;
        const code = text.split('\n');
        code.forEach((line, i) => {
          assert.doesNotMatch(line, colour, `${path}:${i + 1}: a colour literal outside ${TOKENS_FILE}: ${line.trim()}`);
          assert.doesNotMatch(line, /var\(--booking-[a-z0-9-]+\s*,/, `${path}:${i + 1}: a default beside its use (use token()): ${line.trim()}`);
          assert.doesNotMatch(line, /@cssprop\s+\[/, `${path}:${i + 1}: a default in JSDoc (it comes from ${TOKENS_FILE}): ${line.trim()}`);
        });
      }
      // And the docs' own tables (outside the generated ones) state no default of their own.
      for (const page of ['README.md', ...readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)]) {
        const text = readFileSync(join(root, page), 'utf8')
          .replace(/<!-- elements:start[\s\S]*?<!-- elements:end -->/, '')
          .replace(/<!-- tokens:start[\s\S]*?<!-- tokens:end -->/, '');
        for (const line of text.split('\n').filter((l) => l.startsWith('|') && l.includes('--booking-'))) {
          assert.doesNotMatch(line, colour, `${page} states a colour default by hand: ${line}`);
        }
      }
    });

    it('keep each colour literal in one place in tokens.ts', () => {
      const text = readFileSync(join(root, TOKENS_FILE), 'utf8');
      const count = new Map<string, number>();
      for (const [, light, dark] of text.matchAll(/^\s*'?[a-z0-9-]+'?: \['(#[0-9a-f]+)', '(#[0-9a-f]+)'\]/gm)) {
        const pair = `${light}/${dark}`;
        count.set(pair, (count.get(pair) ?? 0) + 1);
      }
      assert.ok(count.size > 10, 'no colour pairs read from tokens.ts');
      // Two properties with the same pair are one colour written twice: the second refers to the first (var(--booking-…)).
      assert.deepEqual([...count].filter(([, n]) => n > 1).map(([pair]) => pair), []);
    });
  });

  describe('events', () => {
    it('are booking-* names from src/events.ts, created only by bookingEvent (bubbling, composed)', () => {
      const events = readFileSync(join(root, 'src/events.ts'), 'utf8');
      const declared = [...events.matchAll(/^\s*'(booking-[a-z-]+)':\s*\{/gm)].map((m) => m[1]);
      assert.match(events, /new CustomEvent\(type, \{ detail, bubbles: true, composed: true, cancelable: type === 'booking-navigate' \}\)/);
      for (const el of elements) {
        for (const e of el.events ?? []) {
          assert.match(e.name, /^booking-[a-z]+(-[a-z]+)*$/);
          assert.ok(declared.includes(e.name), `<${el.tagName}> fires ${e.name}, which src/events.ts does not declare`);
        }
      }
      for (const { path, text } of browserSources) {
        if (path !== 'src/events.ts') assert.doesNotMatch(text, /new CustomEvent\(/, `${path} makes an event of its own`);
      }
    });
  });
});
