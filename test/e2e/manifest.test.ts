/**
 * The custom-elements manifest and the element reference (docs/elements.md) generated from it
 * cannot go stale: both are regenerated here and compared with the committed
 * files. The manifest must describe every registered element fully.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { createManifest, manifestText, registrationFiles, root, type CustomElementsManifest } from '../../scripts/build.mjs';
import { elementsOf, loadTokens, REFERENCE_PAGE, TOKENS_PAGE, withReference, withTokens } from '../../scripts/docs.mjs';

const committedText = readFileSync(join(root, 'custom-elements.json'), 'utf8');
/** Event names declared in src/events.ts (the only public events). */
const publicEvents = [...readFileSync(join(root, 'src/events.ts'), 'utf8').matchAll(/^\s*'(booking-[a-z-]+)':\s*\{/gm)].map((m) => m[1]);

describe('custom-elements.json', () => {
  let fresh: CustomElementsManifest;
  before(async () => {
    fresh = await createManifest();
  });

  it('is what the analyzer makes of the current sources (run `npm run build` after changing JSDoc)', () => {
    assert.equal(committedText, manifestText(fresh));
  });

  it('lists every element that src/index.ts registers, under its tag', () => {
    const tags = elementsOf(fresh).map((e) => e.tagName);
    for (const { tag } of registrationFiles()) assert.ok(tags.includes(tag), `<${tag}> is missing from the manifest`);
  });

  it('gives every booking element its attributes, events, parts and custom properties', () => {
    const elements = elementsOf(fresh).filter((e) => e.tagName !== 'booking-provider');
    for (const el of elements) {
      const tag = `<${el.tagName}>`;
      assert.ok(el.summary, `${tag} has no @summary`);
      assert.ok(el.attributes?.some((a) => a.name === 'endpoint'), `${tag} lacks the endpoint attribute`);
      assert.ok(el.events?.length, `${tag} documents no @fires`);
      assert.ok(el.cssParts?.length, `${tag} documents no @csspart`);
      assert.ok(el.cssProperties?.length, `${tag} documents no @cssprop`);
      for (const e of el.events ?? []) assert.ok(publicEvents.includes(e.name), `${tag} fires ${e.name}, which src/events.ts does not declare`);
      for (const p of el.cssProperties ?? []) assert.match(p.name, /^--booking-/, `${tag}: ${p.name} lacks the --booking- prefix`);
      for (const item of [...(el.attributes ?? []), ...(el.cssParts ?? []), ...(el.cssProperties ?? []), ...(el.events ?? [])]) {
        assert.ok(item.description, `${tag}: ${item.name} is undocumented`);
      }
    }
  });

  it('gives the provider its configuration attributes', () => {
    const provider = elementsOf(fresh).find((e) => e.tagName === 'booking-provider');
    const names = provider?.attributes?.map((a) => a.name) ?? [];
    for (const name of ['endpoint', 'currency', 'locale', 'time-zone', 'success-url', 'failure-url']) assert.ok(names.includes(name), `booking-provider lacks ${name}`);
  });

  it('has the docs name every public event and every shared custom property', async () => {
    const page = readFileSync(join(root, REFERENCE_PAGE), 'utf8');
    const events = page.slice(page.indexOf('## Events'), page.indexOf('## Elements'));
    const documented = [...events.matchAll(/^\| `(booking-[a-z-]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(documented, publicEvents, `the events table of ${REFERENCE_PAGE} and src/events.ts differ`);
    const theming = readFileSync(join(root, TOKENS_PAGE), 'utf8');
    const tokens = await loadTokens();
    const shared = [...Object.keys(tokens.PALETTE), 'font', 'radius', 'gap', 'focus'].map((name) => `--booking-${name}`);
    for (const name of shared) assert.ok(theming.includes(`\`${name}\``), `${TOKENS_PAGE} does not name ${name}`);
  });

  it('keeps the element reference (docs/elements.md) and the colour table (docs/theming.md) generated (run `npm run build`)', async () => {
    const page = readFileSync(join(root, REFERENCE_PAGE), 'utf8');
    assert.equal(page, withReference(page, JSON.parse(committedText) as CustomElementsManifest));
    const theming = readFileSync(join(root, TOKENS_PAGE), 'utf8');
    assert.equal(theming, withTokens(theming, await loadTokens()));
  });
});
