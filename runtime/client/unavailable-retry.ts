/**
 * Sending a round again while the server answers "temporarily unavailable"
 * (its replay store is down: nothing was accepted, nothing spent). The very
 * same round goes again, same answers and `requestState`, after the wait
 * the server asked for (jittered, so a crowd of clients does not return in
 * step), until the caller's budget of waiting is used up. The user is not
 * asked again. Loaded only when such an answer arrives.
 *
 * @internal
 * @module
 */
import { retryAfterOf } from "../protocol/unavailable.js";

/**
 * @param first - the "temporarily unavailable" error the first try got
 * @param limitMs - the most time to spend waiting, in total
 * @param again - sends the same round once more
 * @param sleep - the loop's own pause (passed in: importing it here would split it out of the entry chunk)
 * @throws the last "temporarily unavailable" error once `limitMs` is used up; any other error at once
 */
export async function sendAgainWhileUnavailable<T>(
  first: unknown,
  limitMs: number,
  again: () => Promise<T>,
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<T> {
  let error = first;
  for (let waited = 0; ; ) {
    const retryAfter = retryAfterOf(error as { code?: unknown; data?: unknown });
    if (retryAfter === undefined || waited >= limitMs) throw error;
    const wait = Math.min(limitMs - waited, Math.max(100, retryAfter * 1000) * (0.8 + Math.random() * 0.4));
    waited += wait;
    await sleep(wait, signal);
    try {
      return await again();
    } catch (next) {
      error = next;
    }
  }
}
