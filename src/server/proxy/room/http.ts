/**
 * The room's own HTTP endpoints, as Replies the proxy sends:
 * - `POST {prefix}/stagedoor/room/{id}` (join and poll);
 * - `GET /stagedoor/rooms`, `PUT|PATCH|DELETE /stagedoor/rooms/{id}` outside the prefix, only with
 *   an admin secret (else they do not exist: 404), `Authorization: Bearer <secret>` (401 otherwise).
 * Edge-safe.
 */
import { parseJsonText } from '../../json-body.ts';
import { headerOf } from '../incoming.ts';
import { JSON_TYPE, message, readBody, type Reply } from '../reply.ts';
import { QUEUE_ID_HEADER, queueIdOf } from '../seat-caps.ts';
import { parseRoomConfig, patchRoomConfig, ROOM_ID, RoomConfigError, roomConfigJson } from './config.ts';
import type { Rooms } from './index.ts';

const encoder = new TextEncoder();
/** Room bodies are small: a config, a proof. */
const BODY_LIMIT = 4096;

const JOIN = /^\/stagedoor\/room\/([^/]*)$/;
const ADMIN = /^\/stagedoor\/rooms(?:\/([^/]*))?$/;

export function isJoinPath(relative: string): boolean {
  return JOIN.test(relative);
}

export function isAdminPath(pathname: string): boolean {
  return ADMIN.test(pathname);
}

function json(status: number, body: unknown, extra: Partial<Reply> = {}): Reply {
  return { status, body: JSON.stringify(body), contentType: JSON_TYPE, date: null, ...extra };
}

/** A JSON object body (empty: `{}`), or the refusal. */
async function objectBody(request: Request, env: unknown): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; reply: Reply }> {
  const read = await readBody(request, BODY_LIMIT);
  if (!read.ok) return read;
  if (read.text.trim() === '') return { ok: true, value: {} };
  // Only application/json: a cross-site page cannot send it without a CORS preflight.
  const type = (headerOf(request, env, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, reply: message(415, 'The request body must be sent as application/json.') };
  const parsed = parseJsonText(read.text);
  if (!parsed.ok) return { ok: false, reply: message(400, parsed.message) };
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return { ok: false, reply: message(400, 'The request body must be a JSON object.') };
  return { ok: true, value: parsed.value as Record<string, unknown> };
}

/** Join or poll: `relative` is the path under the prefix. */
export async function joinRequest(rooms: Rooms, request: Request, env: unknown, relative: string): Promise<{ reply: Reply; headers?: Record<string, string> }> {
  const id = JOIN.exec(relative)?.[1] ?? '';
  if (request.method !== 'POST') return { reply: message(405, 'The waiting room is joined with POST.'), headers: { Allow: 'POST' } };
  if (!ROOM_ID.test(id)) return { reply: message(404, `There is no waiting room '${id.slice(0, 40)}'.`) };
  const queueId = queueIdOf(headerOf(request, env, QUEUE_ID_HEADER));
  if (!queueId) return { reply: message(400, `The ${QUEUE_ID_HEADER} header is required: 1 to 128 letters, digits, '-', '_', '.' or ':'.`) };
  const body = await objectBody(request, env);
  if (!body.ok) return { reply: body.reply };
  return { reply: await rooms.join(id, queueId, body.value) };
}

/** Equal in constant time: both sides hashed first, so neither length nor content shows in the timing. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([given, expected].map(async (s) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(s)))));
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= a![i]! ^ b![i]!;
  return diff === 0;
}

/** The operator's endpoint; null when there is none (no admin secret): the proxy's 404. */
export async function adminRequest(rooms: Rooms, request: Request, env: unknown, pathname: string, now: number): Promise<{ reply: Reply; headers?: Record<string, string> } | null> {
  if (!rooms.adminSecret) return null;
  const authorization = headerOf(request, env, 'authorization') ?? '';
  const bearer = /^Bearer (.+)$/.exec(authorization)?.[1] ?? '';
  if (!(await sameSecret(bearer, rooms.adminSecret))) {
    return { reply: message(401, 'The rooms endpoint needs Authorization: Bearer <the room admin secret>.'), headers: { 'WWW-Authenticate': 'Bearer' } };
  }
  const id = ADMIN.exec(pathname)?.[1];
  const { store } = rooms;
  try {
    if (id === undefined) {
      if (request.method !== 'GET') return { reply: message(405, 'The rooms list is read with GET.'), headers: { Allow: 'GET' } };
      const list = await store.list();
      const shown = await Promise.all(list.map(async (config) => ({ ...roomConfigJson(config), stats: await store.stats(config.id, now) })));
      return { reply: json(200, { rooms: shown }) };
    }
    if (!ROOM_ID.test(id)) return { reply: message(400, `A room id is 1 to 40 of a-z, 0-9 and '-', starting with a letter or digit.`) };
    if (request.method === 'GET') {
      const config = await store.get(id);
      if (!config) return { reply: message(404, `There is no waiting room '${id}'.`) };
      return { reply: json(200, { ...roomConfigJson(config), stats: await store.stats(id, now) }) };
    }
    if (request.method === 'DELETE') {
      await store.delete(id);
      rooms.invalidate();
      return { reply: json(200, { id, state: 'closed' }) };
    }
    if (request.method !== 'PUT' && request.method !== 'PATCH') return { reply: message(405, `A room is read with GET, set with PUT or PATCH, closed with DELETE.`), headers: { Allow: 'GET, PUT, PATCH, DELETE' } };
    const body = await objectBody(request, env);
    if (!body.ok) return { reply: body.reply };
    let config;
    if (request.method === 'PUT') config = parseRoomConfig(body.value, id);
    else {
      const current = await store.get(id);
      if (!current) return { reply: message(404, `There is no waiting room '${id}'.`) };
      config = patchRoomConfig(current, body.value);
    }
    if (config.state === 'closed') await store.delete(id);
    else await store.put(config);
    rooms.invalidate();
    return { reply: json(200, roomConfigJson(config)) };
  } catch (error) {
    if (error instanceof RoomConfigError) return { reply: message(400, error.message) };
    return { reply: json(503, { Message: 'The rooms store does not answer; try again shortly.', retrySeconds: 5 }, { retryAfter: '5' }) };
  }
}
