/**
 * One place for failures (src/state/failure.ts): every kind of failure, as the
 * api client really throws it, becomes one typed outcome with a translated
 * sentence, whether trying again may help, and how long the service asked to wait.
 */
import { expect } from '@open-wc/testing';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import { ServerClock } from '../../src/api/time.ts';
import { setLocale } from '../../src/i18n/locale.ts';
import { toFailure, type Failure, type FailureWords } from '../../src/state/failure.ts';

const WORDS: FailureWords = { otherwise: () => 'The shows could not be loaded.' };
const NETWORK = 'We could not reach the box office. Check your connection and try again.';

/** A client whose every answer is `answer()` (or a failed fetch), at a server clock of `now`. */
function client(answer: () => Response | Promise<Response>, now = Date.parse('2026-06-01T12:00:00Z')): ApiClient {
  const clock = new ServerClock(() => now);
  return createApiClient({ endpoint: '/api', clock, fetch: async () => answer() });
}

async function failureOf(api: ApiClient, words: FailureWords = WORDS, signal?: AbortSignal): Promise<Failure> {
  try {
    await api.getEvents(undefined, { signal });
  } catch (error) {
    return toFailure(error, words);
  }
  throw new Error('the call did not fail');
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('failure (state/failure.ts)', () => {
  afterEach(() => setLocale('en'));

  it('says the one network sentence when no answer came, and that trying again may help', async () => {
    const f = await failureOf(client(() => Promise.reject(new TypeError('Failed to fetch'))));
    expect({ kind: f.kind, status: f.status, retryable: f.retryable, retryAfter: f.retryAfter, message: f.message }).to.deep.equal({
      kind: 'network',
      status: null,
      retryable: true,
      retryAfter: null,
      message: NETWORK,
    });
  });

  it("gives a 4xx refusal the service's own message, not worth retrying", async () => {
    const f = await failureOf(client(() => json(400, { Message: 'The date range is too long.' })));
    expect([f.kind, f.status, f.retryable, f.serviceMessage, f.message]).to.deep.equal(['refused', 400, false, 'The date range is too long.', 'The date range is too long.']);
  });

  it("reads 429's Retry-After, as seconds or as an HTTP date on the service's clock", async () => {
    const seconds = await failureOf(client(() => json(429, { Message: 'slow down' }, { 'Retry-After': '30' })));
    expect([seconds.kind, seconds.retryable, seconds.retryAfter]).to.deep.equal(['rate-limited', true, 30]);
    expect(seconds.message).to.equal('Too many attempts. Please wait a moment and try again.');
    const now = Date.parse('2026-06-01T12:00:00Z');
    const date = await failureOf(
      client(() => json(429, {}, { 'Retry-After': new Date(now + 90_000).toUTCString(), Date: new Date(now).toUTCString() }), now),
    );
    expect(date.retryAfter).to.equal(90);
  });

  it('tells 5xx apart: 502/503 unavailable, 504 timeout, 500 server, all worth retrying', async () => {
    const kinds: [number, string][] = [];
    for (const status of [500, 502, 503, 504]) {
      const f = await failureOf(client(() => json(status, {})));
      expect(f.retryable, String(status)).to.equal(true);
      expect(f.message, String(status)).to.equal('The shows could not be loaded.');
      kinds.push([status, f.kind]);
    }
    expect(kinds).to.deep.equal([[500, 'server'], [502, 'unavailable'], [503, 'unavailable'], [504, 'timeout']]);
  });

  it("reads a timeout's abort as a timeout and the caller's own abort as cancelled", async () => {
    const never = () => new Promise<Response>(() => undefined);
    const api = createApiClient({
      endpoint: '/api',
      fetch: (_input, init) =>
        new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))).then(never),
    });
    const timedOut = await failureOf(api, WORDS, AbortSignal.timeout(1));
    expect([timedOut.kind, timedOut.retryable]).to.deep.equal(['timeout', true]);
    const controller = new AbortController();
    const cancelled = failureOf(api, WORDS, controller.signal);
    controller.abort();
    expect((await cancelled).kind).to.equal('cancelled');
  });

  it("uses a context's own sentence for a kind when it has one, else the common one, else its otherwise", async () => {
    const words: FailureWords = { otherwise: () => 'Not shown.', 'not-found': () => 'Sorry, this show is no longer available.' };
    expect((await failureOf(client(() => json(404, {})), words)).message).to.equal('Sorry, this show is no longer available.');
    expect((await failureOf(client(() => json(409, {})), words)).message).to.equal('Not shown.');
    expect(toFailure(new Error('a bug'), words)).to.include({ kind: 'unknown', message: 'Not shown.' });
  });

  it('says its sentence in the language shown when it is read, not when it happened', async () => {
    const f = await failureOf(client(() => Promise.reject(new TypeError('offline'))));
    expect(f.message).to.equal(NETWORK);
    await setLocale('de');
    expect(f.message).to.not.equal(NETWORK);
    expect(f.message).to.match(/Kasse|Verbindung/);
  });
});
