/**
 * Waiting, shared by the client's round backoff, the HTTP transport's
 * reconnection delays and the server's after-the-answer work.
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

/**
 * Runs `run` on the next turn of the event loop, after the I/O callbacks
 * already queued (`setImmediate` where there is one): by then a transport
 * has written the answer it was handed.
 * @internal
 */
export const nextTurn: (run: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (run) => void (globalThis as unknown as { setImmediate(run: () => void): unknown }).setImmediate(run)
    : (run) => void setTimeout(run, 0);
