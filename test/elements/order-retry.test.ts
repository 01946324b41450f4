/**
 * An order sent again while its answer is lost (src/state/order-retry.ts):
 * which failures mean "lost" (no answer, 502, 503, 504) and which are answers
 * (a refusal is never sent again), with a controlled clock.
 */
import { expect } from '@open-wc/testing';
import sinon from 'sinon';
import { ORDER_RETRY_DELAYS_MS, isLostAnswer, sendUntilAnswered } from '../../src/state/order-retry.ts';
import { apiError, networkError } from './helpers/fake-api.ts';

describe('sendUntilAnswered', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => clock.restore());

  it('sends an order whose answer was lost again after a pause, and returns the answer', async () => {
    let calls = 0;
    const send = async () => {
      calls += 1;
      if (calls === 1) throw networkError('submitOrder');
      return 'https://pay.example/p';
    };
    const result = sendUntilAnswered(send);
    await clock.tickAsync(0);
    expect(calls).to.equal(1);
    await clock.tickAsync((ORDER_RETRY_DELAYS_MS[0] ?? 0) - 1);
    expect(calls).to.equal(1, 'not before the pause');
    await clock.tickAsync(1);
    expect(await result).to.equal('https://pay.example/p');
    expect(calls).to.equal(2);
  });

  it('treats 502, 503 and 504 from the proxy as lost answers, and a refusal as an answer', () => {
    expect(isLostAnswer(networkError('submitOrder'))).to.equal(true);
    for (const status of [502, 503, 504]) expect(isLostAnswer(apiError('submitOrder', status))).to.equal(true, String(status));
    for (const status of [400, 403, 404, 409, 429, 500]) expect(isLostAnswer(apiError('submitOrder', status))).to.equal(false, String(status));
    expect(isLostAnswer(new Error('a bug'))).to.equal(false);
  });

  it('never sends a refused order again', async () => {
    let calls = 0;
    const refused = apiError('submitOrder', 403);
    const outcome = sendUntilAnswered(async () => {
      calls += 1;
      throw refused;
    }).catch((error: unknown) => error);
    await clock.tickAsync(10_000);
    expect(await outcome).to.equal(refused);
    expect(calls).to.equal(1);
  });

  it('gives up after the last pause with the last error', async () => {
    let calls = 0;
    const outcome = sendUntilAnswered(async () => {
      calls += 1;
      throw apiError('submitOrder', 504);
    }).catch((error: unknown) => error);
    await clock.tickAsync(ORDER_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    const error = (await outcome) as { status?: number };
    expect(error.status).to.equal(504);
    expect(calls).to.equal(ORDER_RETRY_DELAYS_MS.length + 1);
  });
});
