/**
 * The bundle build's minifier of Lit's css`` templates (scripts/build.mjs
 * templateMinifier), run on an element's styles as the build runs it: every
 * declaration keeps its semicolon wherever an expression stands in its value.
 * The plugin's own strategy lost it after an expression that was not the whole
 * value (`gap: 0 ${x};`), and the next declaration ran into it: the built
 * <basket-timer> showed "Seats held for9:59" with no gap and no border.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseLiterals } from '@lit-labs/rollup-plugin-minify-html-literals/lib/parse-literals.js';
import { root, templateMinifier } from '../../scripts/build.mjs';

/** Every css`` template of a module's text (read by the plugin's own parser), its expressions as `__e<n>__`. */
function cssTemplates(text: string): string[] {
  return parseLiterals(text)
    .filter((template) => template.tag === 'css')
    .map((template) => template.parts.map((part, n) => (n === 0 ? part.text : `__e${n - 1}__${part.text}`)).join(''));
}

/** Every module of src/ holding a css`` template. */
function styleModules(dir = join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return styleModules(path);
    return entry.name.endsWith('.ts') && readFileSync(path, 'utf8').includes('css`') ? [path] : [];
  });
}

type Transform = (this: unknown, code: string, id: string) => Promise<{ code: string } | null | undefined>;

describe("the bundle build's css`` minifier", () => {
  let transform: Transform;
  const id = join(root, 'src/elements/example/example.styles.ts');
  const context = {
    warn: (warning: unknown) => assert.fail(`minifier warning: ${String(warning)}`),
    error: (error: unknown) => {
      throw error instanceof Error ? error : new Error(String(error));
    },
  };

  /** The css`` template of a styles module, as the build writes it. */
  async function minified(body: string): Promise<string> {
    const source = `import { css } from 'lit';\nexport const styles = css\`${body}\`;\n`;
    const out = await transform.call(context, source, id);
    const code = out?.code ?? source;
    const template = /css`([^`]*)`/.exec(code)?.[1];
    assert.ok(template !== undefined, `no css template in ${code}`);
    return template;
  }

  before(async () => {
    transform = (await templateMinifier()).transform as unknown as Transform;
  });

  it('keeps the semicolon after an expression that ends a value with text before it', async () => {
    assert.equal(await minified('\n  .timer {\n    gap: 0 ${gap};\n    max-width: 100%;\n  }\n'), '.timer{gap:0 ${gap};max-width:100%}');
  });

  it('keeps it in a shorthand with two expressions, and after one that is the whole value', async () => {
    assert.equal(
      await minified('.panel { border: ${width} solid ${colour}; padding: ${padding}; background: ${surface}; }'),
      '.panel{border:${width} solid ${colour};padding:${padding};background:${surface}}',
    );
  });

  it('keeps expressions inside functions, before units, and in custom properties as they were', async () => {
    assert.equal(
      await minified('.a { width: calc(100% - ${side}); transition: opacity ${ms}ms; --_v: ${v}; font: ${size} / 1.2 ${family}; color: red; }'),
      '.a{width:calc(100% - ${side});transition:opacity ${ms}ms;--_v:${v};font:${size} / 1.2 ${family};color:red}',
    );
  });

  it("minifies every css`` template of the elements to the same rules and declarations as its source", async () => {
    const { defaultStrategy } = (await import('@lit-labs/rollup-plugin-minify-html-literals/lib/strategy.js')) as {
      defaultStrategy: { minifyCSS(css: string, options?: object): string };
    };
    // Both read by the same CSS minifier, expressions as plain names: equal when nothing was lost.
    const meaning = (css: string) => defaultStrategy.minifyCSS(css, { errorRecovery: true });
    const modules = styleModules();
    assert.ok(modules.length >= 10, `the elements' styles are found (${modules.length} modules)`);
    let templates = 0;
    for (const path of modules) {
      const source = readFileSync(path, 'utf8');
      const out = await transform.call(context, source, path);
      const before = cssTemplates(source);
      const after = cssTemplates(out?.code ?? source);
      assert.equal(after.length, before.length, path);
      before.forEach((css, i) => assert.equal(meaning(after[i] ?? ''), meaning(css), `${path}, css\`\` #${i + 1}`));
      templates += before.length;
    }
    assert.ok(templates >= modules.length);
  });

  it('leaves a whole rule given by an expression, and a last declaration without a semicolon, whole', async () => {
    assert.equal(await minified('.a { color: red }\n  ${more}\n'), '.a{color:red}${more}');
    assert.equal(await minified('.a { color: red; margin: 0 ${m} }'), '.a{color:red;margin:0 ${m}}');
  });
});
