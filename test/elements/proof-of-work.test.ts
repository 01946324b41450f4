/**
 * The waiting room's proof-of-work search (src/state/proof-of-work.ts) in the browser: the page
 * stays responsive while it runs. A tap, a timer, a paint is a task of the page's; the search must
 * let such a task run between its slices instead of holding the main thread until it finds the
 * answer (Chromium's Web Crypto, which the search used before, settled its digests without ever
 * letting a task in: a whole search was one long task).
 */
import { expect } from '@open-wc/testing';
import { solveProof } from '../../src/state/proof-of-work.ts';

/** Its first solution at 20 bits is nonce 1,229,937: over a million digests to go through. */
const FAR = '1800000000000.r4nd0m.h-m-a-c';

describe('proof of work in the page', () => {
  it('a task of the page runs while the search goes on, and can end it', async () => {
    const search = new AbortController();
    const solving = solveProof(FAR, 20, search.signal);
    // Queued now: it runs at the search's first turn given to the page, and stops the search.
    setTimeout(() => search.abort(), 0);
    const ended = await solving.then(
      (nonce) => `solved (${nonce}) before the page's task ran`,
      (error: unknown) => (error instanceof DOMException ? error.name : String(error)),
    );
    expect(ended).to.equal('AbortError');
  });
});
