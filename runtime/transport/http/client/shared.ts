/**
 * Small helpers the HTTP client's modules share (POST exchange, 2025
 * session, GET event stream).
 *
 * @internal
 */

/** The `Accept` of every POST: a server may answer JSON or an SSE stream. */
export const ACCEPT_POST = "application/json, text/event-stream";

/** What a request sent after `close()` is told. */
export const CLOSED_MESSAGE = "The HTTP transport is closed; connect again to send more requests.";

export { mediaTypeOf } from "../../../protocol/message.js";

/** The message of an error, or the value as text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export { sleep } from "../../../protocol/sleep.js";

/**
 * A signal that aborts when either input does (`AbortSignal.any` is missing
 * before Node 20.3), and the function that unties it again.
 */
export function eitherSignal(a: AbortSignal, b: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  if (b === undefined) return { signal: a, release: () => {} };
  const controller = new AbortController();
  const onA = () => controller.abort(a.reason);
  const onB = () => controller.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  else {
    a.addEventListener("abort", onA, { once: true });
    b.addEventListener("abort", onB, { once: true });
  }
  return {
    signal: controller.signal,
    release: () => {
      a.removeEventListener("abort", onA);
      b.removeEventListener("abort", onB);
    },
  };
}
