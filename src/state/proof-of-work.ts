/**
 * The waiting room's proof of work (docs/waiting-room.md): a decimal nonce such that
 * SHA-256(`<challenge>:<nonce>`) has at least `bits` leading zero bits. Hashed by the platform's
 * Web Crypto (crypto.subtle, in every browser we support, on https pages and localhost), a batch of
 * digests at a time: each batch's answer comes back as a task, so a tap or a paint waits for one
 * batch at most, never for the whole search. 16 bits takes 65,536 digests on average.
 */

/** Digests asked for at once: each call has a fixed cost (a hop to the thread that hashes), which a larger batch shares out; 4,096 took half the time of 512 in Chromium. */
const BATCH = 4096;

/** How many leading bits of `bytes` are zero. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

/** The first nonce (0, 1, 2, …) that solves `challenge` at `bits`; the signal's abort ends the search. */
export async function solveProof(challenge: string, bits: number, signal?: AbortSignal): Promise<string> {
  const encoder = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    signal?.throwIfAborted();
    const digests = await Promise.all(
      Array.from({ length: BATCH }, (_, i) => crypto.subtle.digest('SHA-256', encoder.encode(`${challenge}:${start + i}`))),
    );
    const found = digests.findIndex((digest) => leadingZeroBits(new Uint8Array(digest)) >= bits);
    if (found >= 0) return String(start + found);
  }
}
