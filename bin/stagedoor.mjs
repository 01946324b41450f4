#!/usr/bin/env node
// `npx stagedoor <command>`: the compiled command line (dist/lib/server/cli.js,
// shipped in the package, built by `npm run build`). In a checkout of the
// repository that has not been built yet, the TypeScript sources through tsx
// (a development dependency).
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/lib/server/cli.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error('stagedoor: dist/lib/server/cli.js is missing and tsx is not installed: run `npm run build` (or `npm install`) first.');
    process.exit(1);
  }
  register();
  await import('../src/server/cli.ts');
}
