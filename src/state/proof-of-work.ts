/**
 * The waiting room's proof of work (docs/waiting-room.md): a decimal nonce such that
 * SHA-256(`<challenge>:<nonce>`) has at least `bits` leading zero bits. 16 bits takes 65,536
 * digests on average.
 *
 * Hashed in JavaScript (@noble/hashes), not by Web Crypto: each `crypto.subtle.digest` call has a
 * fixed cost (a hop to another thread and a promise) far above hashing ~90 bytes, and it exists
 * only in a secure context. Here `<challenge>:` is hashed once; for each nonce that state is
 * copied and only the nonce's digits hashed after it, into buffers made once (nothing allocated per
 * nonce). The search runs in slices of about SLICE_MS, each followed by a task of its own, so a tap
 * or a paint waits for one slice at most, never for the whole search.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** How long one slice of the search may run before the page's other tasks get their turn (well under a 50 ms long task, on a slow phone too). */
const SLICE_MS = 10;
/** Nonces tried between looks at the clock. */
const CHECK_EVERY = 256;

/** How many leading bits of `bytes` are zero. */
export function leadingZeroBits(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte) return i * 8 + Math.clz32(byte) - 24;
  }
  return bytes.length * 8;
}

/** Writes `n`'s decimal digits (ASCII) at the start of `into`; returns how many. */
function writeDigits(into: Uint8Array, n: number): number {
  let length = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) length++;
  for (let i = length - 1, rest = n; i >= 0; i--, rest = Math.floor(rest / 10)) into[i] = 48 + (rest % 10);
  return length;
}

/** Resolves in a task of its own, after the tasks already waiting: a message, which (unlike a nested setTimeout) is neither clamped to 4 ms nor held by a test's fake timers. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/** The first nonce (0, 1, 2, …) that solves `challenge` at `bits`; the signal's abort ends the search. */
export async function solveProof(challenge: string, bits: number, signal?: AbortSignal): Promise<string> {
  const prefix = sha256.create().update(new TextEncoder().encode(`${challenge}:`));
  const hash = sha256.create();
  const digest = new Uint8Array(32);
  const digits = new Uint8Array(20);
  const ofLength = Array.from({ length: digits.length + 1 }, (_, n) => digits.subarray(0, n));
  for (let nonce = 0; ; await nextTask()) {
    signal?.throwIfAborted();
    const until = performance.now() + SLICE_MS;
    do {
      for (const end = nonce + CHECK_EVERY; nonce < end; nonce++) {
        prefix._cloneInto(hash).update(ofLength[writeDigits(digits, nonce)]!).digestInto(digest);
        if (leadingZeroBits(digest) >= bits) return String(nonce);
      }
    } while (performance.now() < until);
  }
}
