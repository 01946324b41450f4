/**
 * The room's signatures, all HMAC-SHA256 with the secret every proxy shares, through Web Crypto
 * (crypto.subtle), so the proxy keeps running on the edge runtimes; `subtle.verify` compares in
 * constant time.
 *
 * - The pass: `<roomId>.<expiresAtMs in base 36>.<base64url(HMAC("stagedoor-pass\n" + roomId + "\n" + queueId + "\n" + expiresAtMs))>`,
 *   checked by its signature alone (a store that is down never turns a pass away).
 * - The proof-of-work challenge: `<expiresAtMs>.<random>.<base64url(HMAC("stagedoor-proof\n" + roomId + "\n" + queueId + "\n" + expiresAtMs + "\n" + random))>`,
 *   stateless, valid two minutes; solved by a decimal nonce such that SHA-256(`<challenge>:<nonce>`)
 *   has at least `bits` leading zero bits.
 */

const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null; // 32 bytes
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '=');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export type PassCheck = { ok: true; expiresAt: number } | { ok: false; reason: 'expired' | 'invalid' | 'other-room'; expiresAt?: number };

/** How long a proof-of-work challenge may be answered. */
export const CHALLENGE_MS = 2 * 60_000;

export class RoomSigner {
  readonly #key: Promise<CryptoKey>;

  constructor(secret: string) {
    if (encoder.encode(secret).byteLength < 32) throw new Error('The room secret (STAGEDOOR_ROOM_SECRET) must be at least 32 bytes; every proxy shares the same one.');
    this.#key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async #sign(text: string): Promise<string> {
    return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, encoder.encode(text))));
  }

  async #verify(signature: string, text: string): Promise<boolean> {
    const bytes = fromBase64url(signature);
    return bytes !== null && crypto.subtle.verify('HMAC', await this.#key, bytes, encoder.encode(text));
  }

  async pass(roomId: string, queueId: string, expiresAt: number): Promise<string> {
    return `${roomId}.${expiresAt.toString(36)}.${await this.#sign(`stagedoor-pass\n${roomId}\n${queueId}\n${expiresAt}`)}`;
  }

  /** Check a pass for `roomId` and the visitor `queueId` at `now`. */
  async checkPass(token: string, roomId: string, queueId: string, now: number): Promise<PassCheck> {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^[0-9a-z]{1,12}$/.test(parts[1] ?? '')) return { ok: false, reason: 'invalid' };
    const [room = '', expiry = '', signature = ''] = parts;
    const expiresAt = parseInt(expiry, 36);
    if (room !== roomId) return { ok: false, reason: 'other-room' };
    if (!(await this.#verify(signature, `stagedoor-pass\n${roomId}\n${queueId}\n${expiresAt}`))) return { ok: false, reason: 'invalid', expiresAt };
    if (expiresAt <= now) return { ok: false, reason: 'expired', expiresAt };
    return { ok: true, expiresAt };
  }

  /** Whether `token` is a genuine pass of `roomId` for `queueId` (expired or not). */
  async signedFor(token: string, roomId: string, queueId: string): Promise<boolean> {
    const [room, expiry = '', signature = ''] = token.split('.');
    return room === roomId && this.#verify(signature, `stagedoor-pass\n${roomId}\n${queueId}\n${parseInt(expiry, 36)}`);
  }

  async challenge(roomId: string, queueId: string, now: number): Promise<string> {
    const expiresAt = now + CHALLENGE_MS;
    const random = base64url(crypto.getRandomValues(new Uint8Array(12)));
    return `${expiresAt}.${random}.${await this.#sign(`stagedoor-proof\n${roomId}\n${queueId}\n${expiresAt}\n${random}`)}`;
  }

  /** Whether `proof` solves an unexpired challenge given to `queueId` for `roomId` with at least `bits`. */
  async checkProof(proof: unknown, roomId: string, queueId: string, bits: number, now: number): Promise<boolean> {
    if (typeof proof !== 'object' || proof === null) return false;
    const { challenge, nonce } = proof as { challenge?: unknown; nonce?: unknown };
    if (typeof challenge !== 'string' || typeof nonce !== 'string' || !/^\d{1,20}$/.test(nonce) || challenge.length > 200) return false;
    const [expiry = '', random = '', signature = '', ...rest] = challenge.split('.');
    const expiresAt = Number(expiry);
    if (rest.length || !/^\d{1,16}$/.test(expiry) || expiresAt <= now || expiresAt > now + CHALLENGE_MS) return false;
    if (!(await this.#verify(signature, `stagedoor-proof\n${roomId}\n${queueId}\n${expiresAt}\n${random}`))) return false;
    return leadingZeroBits(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`${challenge}:${nonce}`)))) >= bits;
  }
}

export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
