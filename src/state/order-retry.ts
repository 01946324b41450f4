/**
 * An order sent again when its answer was lost.
 *
 * The service may have taken an order (SubmitOrder, SubmitOrderOnAccount)
 * whose answer never reached the browser: the connection dropped on the way
 * back (no answer: `NetworkError`), the proxy got no answer from the service
 * in time (504) or could not reach it (502), or the proxy was restarting
 * (503). Sending the same order again is safe with the Stagedoor proxy: it
 * answers a repeat with the answer it kept from the accepted order (the same
 * PaymentRedirectUrl), where the service itself would refuse it with 403. So
 * the customer reaches the payment page instead of hearing that the basket is
 * gone. A refusal (400, 403, 409...) is an answer, never sent again.
 */
import { isLostAnswer } from './failure.ts';
export { isLostAnswer };

/** Waits before each new attempt, ms: three more attempts over about five seconds. */
export const ORDER_RETRY_DELAYS_MS: readonly number[] = [500, 1500, 3000];

/** `send()`, and again after each delay while its answer is lost; the last error when every attempt lost it. */
export async function sendUntilAnswered<T>(send: () => Promise<T>, delays: readonly number[] = ORDER_RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !isLostAnswer(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
