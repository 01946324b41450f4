/**
 * The React example: `npm run example:react` serves it with reload, the
 * proxy at /api and the sandbox behind it (no key, no network), on one
 * origin; `vite build examples/react` writes it to examples/react/dist/ and
 * `vite preview examples/react` serves that the same way.
 *
 * `stagedoor` resolves to this repository's sources here. In your own app,
 * `npm install stagedoor` and drop the alias: the imports stay the same.
 */
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import react from '@vitejs/plugin-react';
import { defineConfig, type Connect, type Plugin } from 'vite';

const project = fileURLToPath(new URL('../../', import.meta.url));

/** The proxy (/api) and the sandbox's pages (/sandbox/: payment, images, e-tickets), as `npm start` mounts them. */
function sandboxBehindProxy(): Plugin {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let isServicePath: (pathname: string) => boolean = () => false;
  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (!handle || !isServicePath(pathname)) return next();
    handle(req, res);
  };
  /** The site is created on the first request, for the origin the browser uses (the sandbox writes absolute payment URLs). */
  const start = async (origin: string) => {
    const [{ getRequestListener }, { createDemoSite, isDemoServicePath }] = await Promise.all([
      import('@hono/node-server'),
      import('../../src/server/demo-site.ts'),
    ]);
    const site = createDemoSite({ origin, log: false });
    isServicePath = isDemoServicePath;
    handle = getRequestListener(site.app.fetch);
  };
  const lazily: Connect.NextHandleFunction = (req, res, next) => {
    if (handle) return middleware(req, res, next);
    start(`http://${req.headers.host ?? '127.0.0.1'}`).then(() => middleware(req, res, next), next);
  };
  return {
    name: 'stagedoor-sandbox',
    configureServer: (server) => void server.middlewares.use(lazily),
    configurePreviewServer: (server) => void server.middlewares.use(lazily),
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), sandboxBehindProxy()],
  resolve: {
    alias: [
      { find: /^stagedoor$/, replacement: `${project}src/exports.ts` },
      { find: /^stagedoor\/define$/, replacement: `${project}src/index.ts` },
      { find: /^stagedoor\/react$/, replacement: `${project}src/react.ts` },
    ],
  },
  server: { fs: { allow: [project] } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
