/**
 * Every message in the source has a translation in every language, and the
 * language modules the widget loads are built from the translations in xliff/.
 *
 * The messages are extracted afresh from src/ (`lit-localize extract`, into a
 * copy of xliff/ in a temporary folder), so a `msg()` added without running
 * `npm run i18n:extract` fails here just as one left untranslated does; the
 * modules are built afresh from that copy (`lit-localize build`) and compared
 * with the committed src/i18n/locales/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { root } from '../../scripts/build.mjs';

interface Unit {
  id: string;
  source: string;
  target: string | null;
  sourcePlaceholders: string[];
  targetPlaceholders: string[];
}

const config = JSON.parse(readFileSync(join(root, 'lit-localize.json'), 'utf8')) as {
  targetLocales: string[];
  inputFiles: string[];
  interchange: { xliffDir: string };
  output: { outputDir: string; localeCodesModule: string };
};

/** A trans-unit's text, placeholders written as their source expressions. */
function text(node: Element | null): { text: string; placeholders: string[] } {
  if (!node) return { text: '', placeholders: [] };
  let out = '';
  const placeholders: string[] = [];
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) out += child.nodeValue ?? '';
    else if (child.nodeType === 1) {
      const x = child as Element;
      const equiv = x.getAttribute('equiv-text') ?? `{${x.getAttribute('id')}}`;
      placeholders.push(equiv);
      out += equiv;
    }
  }
  return { text: out, placeholders: placeholders.sort() };
}

function readUnits(file: string): Unit[] {
  const doc = new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml');
  return Array.from(doc.getElementsByTagName('trans-unit')).map((unit) => {
    const source = text(unit.getElementsByTagName('source')[0] ?? null);
    const targetNode = unit.getElementsByTagName('target')[0] ?? null;
    const target = text(targetNode);
    return {
      id: unit.getAttribute('id') ?? '',
      source: source.text,
      target: targetNode ? target.text : null,
      sourcePlaceholders: source.placeholders,
      targetPlaceholders: target.placeholders,
    };
  });
}

function litLocalize(command: 'extract' | 'build', configFile: string): void {
  const bin = join(root, 'node_modules', '.bin', 'lit-localize');
  const r = spawnSync(bin, [`--config=${configFile}`, command], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lit-localize ${command} failed:\n${r.stdout}${r.stderr}`);
}

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('translations', () => {
  it("imports msg, str and localized from src/i18n/msg.ts, never from '@lit/localize' (its index carries the runtime only non-English visitors need)", () => {
    const generated = join(root, config.output.outputDir);
    const offenders = sources(join(root, 'src'))
      .filter((f) => !f.startsWith(generated))
      .filter((f) => /^\s*(import|export)\b[^;]*\bfrom\s*['"]@lit\/localize['"]/m.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(root.length + 1));
    assert.deepEqual(offenders, [], `import from src/i18n/msg.ts instead in: ${offenders.join(', ')}`);
  });


  let dir: string;
  const fresh = new Map<string, Unit[]>();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'stagedoor-i18n-'));
    cpSync(join(root, config.interchange.xliffDir), join(dir, 'xliff'), { recursive: true });
    const abs = (p: string) => (p.startsWith('!') ? `!${join(root, p.slice(1))}` : join(root, p));
    const copy = {
      ...config,
      tsConfig: join(root, 'tsconfig.json'),
      inputFiles: config.inputFiles.map(abs),
      interchange: { ...config.interchange, xliffDir: join(dir, 'xliff') },
      output: { ...config.output, outputDir: join(dir, 'locales'), localeCodesModule: join(dir, 'locale-codes.ts') },
    };
    const configFile = join(dir, 'lit-localize.json');
    writeFileSync(configFile, JSON.stringify(copy, null, 2));
    litLocalize('extract', configFile);
    litLocalize('build', configFile);
    for (const locale of config.targetLocales) fresh.set(locale, readUnits(join(dir, 'xliff', `${locale}.xlf`)));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has a target language file for each of the nine payment-gate languages but English (the source)', () => {
    assert.deepEqual([...config.targetLocales].sort(), ['da', 'de', 'es', 'fr', 'it', 'nb', 'nl', 'sv']);
    assert.ok((fresh.get('de')?.length ?? 0) > 250, 'the messages were extracted from src/');
  });

  it('translates every message of the source into every language (run `npm run i18n:extract`, translate in xliff/, `npm run i18n:build`)', () => {
    const report: string[] = [];
    for (const [locale, units] of fresh) {
      const missing = units.filter((u) => u.target === null || !u.target.trim());
      if (missing.length) {
        report.push(`xliff/${locale}.xlf: ${missing.length} message(s) without a translation:`);
        for (const u of missing) report.push(`  ${u.id}  "${u.source}"`);
      }
    }
    assert.equal(report.length, 0, `\n${report.join('\n')}\n`);
  });

  it('keeps every placeholder of the source in every translation, none lost and none invented', () => {
    const report: string[] = [];
    for (const [locale, units] of fresh) {
      for (const u of units) {
        if (u.target === null) continue;
        if (JSON.stringify(u.sourcePlaceholders) !== JSON.stringify(u.targetPlaceholders)) {
          report.push(`xliff/${locale}.xlf ${u.id}: "${u.source}" → "${u.target}"`);
        }
      }
    }
    assert.equal(report.length, 0, `\n${report.join('\n')}\n`);
  });

  it('has the committed xliff/ files as `npm run i18n:extract` writes them (no message added or removed without it)', () => {
    for (const locale of config.targetLocales) {
      const committed = readFileSync(join(root, config.interchange.xliffDir, `${locale}.xlf`), 'utf8');
      const extracted = readFileSync(join(dir, 'xliff', `${locale}.xlf`), 'utf8');
      assert.equal(committed, extracted, `xliff/${locale}.xlf is stale: run \`npm run i18n:extract\``);
    }
  });

  it('has the committed language modules as `npm run i18n:build` makes them from xliff/', () => {
    const built = readdirSync(join(dir, 'locales')).sort();
    assert.deepEqual(built, config.targetLocales.map((l) => `${l}.ts`).sort());
    for (const name of built) {
      const committed = readFileSync(join(root, config.output.outputDir, name), 'utf8');
      assert.equal(committed, readFileSync(join(dir, 'locales', name), 'utf8'), `${config.output.outputDir}/${name} is stale: run \`npm run i18n:build\``);
    }
    assert.equal(
      readFileSync(join(root, config.output.localeCodesModule), 'utf8'),
      readFileSync(join(dir, 'locale-codes.ts'), 'utf8'),
      `${config.output.localeCodesModule} is stale: run \`npm run i18n:build\``,
    );
  });
});
