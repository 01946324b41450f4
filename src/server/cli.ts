/**
 * `stagedoor <command>`. For now: `start`, a placeholder page until the
 * sandbox and proxy land.
 */
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8080);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Stagedoor</title><h1>Stagedoor</h1><p>The demo arrives with the sandbox and the proxy.</p>');
});
server.listen(port, '127.0.0.1', () => {
  console.log(`Stagedoor demo: http://127.0.0.1:${port}/`);
});
