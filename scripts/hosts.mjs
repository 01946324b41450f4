// What host frameworks are told about our elements, derived from
// custom-elements.json (itself generated from the elements' JSDoc), so a new
// attribute or event reaches every host with one `npm run build`:
//
//   hostElements(manifest)     one table: tag, class, module, attributes typed
//                              for hosts (number, boolean, string, or a closed
//                              set of strings), events
//   reactTypes(manifest)       the text of src/react.ts: JSX typing for React
//                              (`IntrinsicElements`), checked by
//                              test/e2e/react.test.ts against staleness
//   wordpressElements(manifest) elements.json inside the WordPress plugin: what
//                              its shortcodes and blocks accept
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementsOf } from './docs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Attributes that are not a host's to set: `state` is the timer's read-only
 * reflection of itself, `embedded` is set by <checkout-form> on the
 * confirmation it renders.
 */
export const INTERNAL_ATTRIBUTES = { 'basket-timer': ['state'], 'booking-confirmation': ['embedded'] };

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'server' ? [] : sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

let aliases;
/** `export type Name = 'a' | 'b';` in src/ (browser code): Name → ['a', 'b']. */
function stringUnionAliases() {
  if (aliases) return aliases;
  aliases = new Map();
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^export type (\w+) =\s*((?:'[^']*'\s*\|?\s*)+);/gm)) {
      aliases.set(m[1], [...m[2].matchAll(/'([^']*)'/g)].map((v) => v[1]));
    }
  }
  return aliases;
}

/**
 * A manifest type text as a host sees the attribute: `number | null` →
 * number, `boolean` → boolean, `string | null` → string, a union of string
 * literals (written out, or through an exported alias such as
 * `SeatPickerMode`) → enum with its values. Anything else stops the build:
 * a host must know how to check the value.
 */
export function attributeType(typeText, where) {
  const parts = String(typeText ?? '')
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p && p !== 'null' && p !== 'undefined');
  if (parts.length === 1 && ['number', 'boolean', 'string'].includes(parts[0])) return { type: parts[0] };
  const unknown = () =>
    new Error(
      `${where}: type '${typeText}' is neither number, boolean, string nor a union of string literals; ` +
        'hosts (React typing, the WordPress plugin) would not know how to check it. Give it one of those types.',
    );
  const values = [];
  for (const part of parts) {
    const literal = /^'([^']*)'$/.exec(part);
    if (literal) values.push(literal[1]);
    else if (stringUnionAliases().has(part)) values.push(...stringUnionAliases().get(part));
    else throw unknown();
  }
  if (values.length) return { type: 'enum', values };
  throw unknown();
}

/** Tag, class and module of every element, with the attributes and events a host may use. */
export function hostElements(manifest) {
  const modules = new Map();
  for (const mod of manifest.modules ?? []) for (const d of mod.declarations ?? []) modules.set(d, mod.path);
  return elementsOf(manifest).map((el) => {
    const internal = INTERNAL_ATTRIBUTES[el.tagName] ?? [];
    return {
      tag: el.tagName,
      className: el.name,
      module: modules.get(el),
      summary: el.summary ?? '',
      /** Holds other elements (a default slot): their events bubble through it. */
      container: (el.slots ?? []).some((slot) => slot.name === ''),
      attributes: (el.attributes ?? [])
        .filter((a) => !internal.includes(a.name))
        .map((a) => ({
          name: a.name,
          property: a.fieldName ?? a.name,
          ...attributeType(a.type?.text, `<${el.tagName}> attribute ${a.name}`),
          ...(a.default !== undefined && a.default !== 'null' ? { default: a.default.replace(/^'(.*)'$/, '$1') } : {}),
          description: (a.description ?? '').replace(/\s*\n\s*/g, ' ').trim(),
        })),
      events: (el.events ?? []).map((e) => ({ name: e.name, description: (e.description ?? '').replace(/\s*\n\s*/g, ' ').trim() })),
    };
  });
}

// ------------------------------------------------------------------ React

/** The first paragraph of a JSDoc text, on one line. */
const firstParagraph = (text) => text.split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ').trim();
const pascal = (tag) => tag.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());

/** src/react.ts: the JSX typing of every tag for React 19 hosts. */
export function reactTypes(manifest) {
  const elements = hostElements(manifest);
  // Every public event bubbles: a container (<booking-provider>) hears those of the elements inside it.
  const bubbling = [...new Map(elements.flatMap((el) => el.events).map((e) => [e.name, e.name])).keys()].sort();
  const imports = elements
    .map((el) => `import type { ${el.className} } from './${el.module.replace(/^src\//, '')}';`)
    .sort();
  const blocks = elements.map((el) => {
    const lines = [`/** \`<${el.tag}>\` in JSX: ${firstParagraph(el.summary).replace(/\*\//g, '*\\/')} */`, `export interface ${pascal(el.tag)}JSXProps {`];
    for (const a of el.attributes) {
      const doc = a.description.replace(/\*\//g, '*\\/');
      lines.push(`  /** ${doc} (property) */`);
      lines.push(`  ${a.property}?: ${el.className}['${a.property}'];`);
      if (a.name !== a.property) {
        lines.push(`  /** ${doc} (attribute) */`);
        lines.push(`  '${a.name}'?: AttributeValue<${el.className}['${a.property}']>;`);
      }
    }
    const events = el.container
      ? bubbling.map((name) => ({ name, description: `\`${name}\` from an element inside it (events bubble).` }))
      : el.events;
    for (const e of events) {
      lines.push(`  /** ${e.description.replace(/\*\//g, '*\\/')} */`);
      lines.push(`  'on${e.name}'?: (event: BookingEvent<'${e.name}'>) => void;`);
    }
    lines.push('}');
    return lines.join('\n');
  });
  const entries = elements.map(
    (el) => `  '${el.tag}': React.DetailedHTMLProps<React.HTMLAttributes<${el.className}>, ${el.className}> & ${pascal(el.tag)}JSXProps;`,
  );
  return `/**
 * JSX typing of the Stagedoor elements for React 19 hosts (generated by
 * scripts/hosts.mjs from custom-elements.json: run \`npm run build\`; do not edit).
 *
 *     import 'stagedoor/define';            // registers the elements
 *     import type {} from 'stagedoor/react'; // types them in JSX
 *
 *     <seat-picker performanceId={1042} onbooking-basket-change={(e) => e.detail.basket} />
 *
 * React 19 sets a prop as a property when the element has one (so register the
 * elements before rendering), otherwise as an attribute, and listens to
 * \`on<event-name>\` props as DOM events. Every property, attribute and event
 * is typed. TypeScript checks the NAMES of camelCase props; a hyphenated name
 * it does not know (\`performance-idd\`) is not an error in any JSX (the
 * language lets \`data-*\`-like names through), so prefer the property names.
 */
import type * as React from 'react';
import type { BookingEvent } from './events.ts';
${imports.join('\n')}

/** An attribute's value as JSX may write it: numbers also as numeric strings, no null. */
export type AttributeValue<T> = T extends number ? T | \`\${number}\` : T extends boolean ? boolean : Exclude<T, null | undefined>;

${blocks.join('\n\n')}

/** Every Stagedoor tag with its props; spread into another JSX runtime's IntrinsicElements if yours is not React. */
export interface StagedoorIntrinsicElements {
${entries.join('\n')}
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements extends StagedoorIntrinsicElements {}
  }
}
`;
}

// ------------------------------------------------------------------ WordPress

/** The elements table the WordPress plugin reads (wordpress/stagedoor/elements.json in the zip). */
export function wordpressElements(manifest) {
  return {
    generated: 'by scripts/hosts.mjs from custom-elements.json; do not edit',
    elements: hostElements(manifest).map(({ className, module, events, container, summary, ...el }) => ({
      ...el,
      summary: firstParagraph(summary),
      title: className.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ (\w)/g, (_, c) => ` ${c.toLowerCase()}`),
    })),
  };
}
