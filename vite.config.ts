/**
 * Vite, as far as the demo pages need it today: `npm start` runs this in
 * middleware mode (dev server with reload) and `vite build` writes the demo
 * pages to dist/demo/, which `stagedoor serve` serves. The library build
 * (npm package and script-tag bundle) is added separately.
 *
 * Demo pages live in demo/ (the root); they load the widget as
 * `<script type="module" src="/src/index.ts">`, which the alias below maps to
 * src/ outside the root (the project folder is allowed). `npm run build`
 * (scripts/build.mjs, inline configs) writes dist/demo/ with the same pages
 * loading the built bundle instead.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const project = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${project}demo`,
  appType: 'mpa',
  server: { fs: { allow: [project] } },
  resolve: { alias: [{ find: /^\/src\//, replacement: `${project}src/` }] },
  build: { outDir: `${project}dist/demo`, emptyOutDir: true },
});
