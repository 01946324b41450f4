/**
 * What the proxy reads from a request, the cheap way when it can: under
 * @hono/node-server the env holds Node's IncomingMessage, whose headers are
 * already parsed into a plain object (lower-case names), and whose socket has
 * the client's address; reading `request.headers` instead builds a Headers
 * object from them first. Elsewhere (edge runtimes), the Request itself.
 * Edge-safe.
 */

interface NodeBindings {
  incoming?: { headers?: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: unknown } };
}

function incomingOf(env: unknown): NodeBindings['incoming'] {
  return typeof env === 'object' && env !== null ? (env as NodeBindings).incoming : undefined;
}

/** A request header, or null. Node's parsed headers have lower-case names: `name` is looked up in lower case. */
export function headerOf(request: Request, env: unknown, name: string): string | null {
  const headers = incomingOf(env)?.headers;
  if (!headers) return request.headers.get(name);
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The client's Accept-Encoding. On Cloudflare Workers the request's own header is the edge's
 * (it decodes for the client itself); what the client sent is `request.cf.clientAcceptEncoding`.
 */
export function clientAcceptEncoding(request: Request, env: unknown): string | null {
  const cf = (request as { cf?: unknown }).cf;
  if (typeof cf === 'object' && cf !== null) {
    const sent = (cf as { clientAcceptEncoding?: unknown }).clientAcceptEncoding;
    return typeof sent === 'string' ? sent : null;
  }
  return headerOf(request, env, 'accept-encoding');
}

/** The connection's address under @hono/node-server. */
export function socketAddress(env: unknown): string | undefined {
  const address = incomingOf(env)?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}
