/**
 * The errors of a connection that broke under a request, built when one
 * does (this module loads then; it is handed the error class, so it imports
 * no value from the transport's chunk): the call may have run on the
 * server, so whether to send it again is the caller's decision.
 *
 * @internal
 * @module
 */
import type { ConnectionLost } from "../../../protocol/connection-lost.js";

/** The message of an error, or the value as text (written out: importing shared.ts would split it off the main chunk). */
const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A response stream that broke off before its answer and could not be resumed.
 * @internal
 */
export function brokenStream(Lost: typeof ConnectionLost, method: string, url: URL, cause: unknown): ConnectionLost {
  return new Lost(
    method,
    `${method}: the connection to ${url.href} broke before the answer came (${reasonOf(cause)}), and the server offered ` +
      "no event id to resume the stream from. The request may have run on the server; send it again if that is safe.",
    { cause },
  );
}

/**
 * A connection closed or reset after the request went out, before the answer began.
 * @internal
 */
export function brokenBeforeAnswer(Lost: typeof ConnectionLost, method: string, url: URL, cause: unknown): ConnectionLost {
  const reason = (cause as { cause?: { message?: unknown } } | null)?.cause?.message ?? reasonOf(cause);
  return new Lost(
    method,
    `${method}: the connection to ${url.href} broke before the answer began (${String(reason)}). The request may have ` +
      "reached the server; send it again if that is safe.",
    { cause },
  );
}
