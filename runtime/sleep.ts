/**
 * A wait that a signal can cut short, shared by the client's round backoff
 * and the HTTP transport's reconnection delays.
 *
 * @module
 * @internal
 */

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it
 * aborts. Uses the global `setTimeout`, so fake timers can drive it.
 * @internal
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
