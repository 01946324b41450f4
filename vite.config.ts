/**
 * Vite, as far as the demo pages need it today: `npm start` runs this in
 * middleware mode (dev server with reload) and `vite build` writes the demo
 * pages to dist/demo/, which `stagedoor serve` serves. The library build
 * (npm package and script-tag bundle) is added separately.
 *
 * Demo pages live in demo/ (the root); their modules import the widget's
 * TypeScript from src/ by relative path (`../src/...`), which Vite serves
 * from outside the root because the project folder is allowed below.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const project = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${project}demo`,
  appType: 'mpa',
  server: { fs: { allow: [project] } },
  build: { outDir: `${project}dist/demo`, emptyOutDir: true },
});
