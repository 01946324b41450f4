/**
 * The widget's proof-of-work solver (src/state/proof-of-work.ts) against the proxy's verifier, over
 * the real handler: a room asking for `bits` gives a challenge, the solver's nonce joins, a nonce that
 * does not solve it is refused with a fresh challenge. docs/waiting-room.md, "Proof of work".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leadingZeroBits } from '../../src/server/proxy/room/pass.ts';
import { solveProof } from '../../src/state/proof-of-work.ts';
import { open, room, roomWorld, visit } from './room-harness.ts';

/** The first nonce whose digest (by Web Crypto, independently of the solver) falls short of `bits`. */
async function unsolving(challenge: string, bits: number): Promise<string> {
  for (let nonce = 0; ; nonce++) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${challenge}:${nonce}`)));
    if (leadingZeroBits(digest) < bits) return String(nonce);
  }
}

for (const bits of [1, 8, 12, 16]) {
  test(`a ${bits}-bit proof: the solver's nonce is accepted by the proxy; a wrong one is refused`, async () => {
    const proxy = roomWorld().proxy();
    await open(proxy, room({ proofBits: bits }));
    const asked = await visit(proxy, 'solver');
    assert.equal(asked.body.status, 'proof');
    const { challenge } = asked.body.proof as { challenge: string; bits: number };
    assert.deepEqual(asked.body.proof, { challenge, bits });

    const wrong = await visit(proxy, 'solver', 'hot-show', { proof: { challenge, nonce: await unsolving(challenge, bits) } });
    assert.equal(wrong.status, 200);
    assert.equal(wrong.body.status, 'proof', 'a nonce that does not solve it gets no place, but a challenge');

    const nonce = await solveProof(challenge, bits);
    const joined = await visit(proxy, 'solver', 'hot-show', { proof: { challenge, nonce } });
    assert.equal(joined.body.status, 'before', JSON.stringify(joined.body));
    assert.equal((await visit(proxy, 'solver')).body.status, 'before', 'it has a place: its polls need no proof');
  });
}
