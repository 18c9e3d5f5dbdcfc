/**
 * "Temporarily unavailable": the answer a server gives when it cannot decide
 * a request right now (its replay store is unreachable) but the request may
 * well succeed if sent again unchanged. It is deliberately not `-32602`: a
 * client that read it as a dead `requestState` would throw its user's
 * answers away and start over. JSON-RPC `-32603` with
 * `data: { reason: "temporarily_unavailable", retryAfterSeconds }`; over
 * HTTP, status 503 with `Retry-After`.
 *
 * No imports: the browser client loads {@link retryAfterOf} in a lazy chunk,
 * and a module it shared with the entry chunk would be split off into a
 * chunk of its own.
 *
 * @module
 */

/** The `data.reason` of a temporarily-unavailable answer. */
export const TEMPORARILY_UNAVAILABLE_REASON = "temporarily_unavailable";

/** The one message such an answer carries. */
export const TEMPORARILY_UNAVAILABLE_MESSAGE = "Temporarily unavailable: send the same request again (same requestState and inputResponses) in a moment";

/** JSON-RPC's internal error, which such an answer carries (`JsonRpcErrorCode.InternalError`). */
const INTERNAL_ERROR = -32603;

/** The longest wait an answer may ask for; a larger one is taken as this. */
const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * How many seconds to wait before sending the same request again, when
 * `error` is a temporarily-unavailable answer; `undefined` for any other error.
 */
export function retryAfterOf(error: { code?: unknown; data?: unknown } | undefined): number | undefined {
  const data = error?.data as { reason?: unknown; retryAfterSeconds?: unknown } | null | undefined;
  if (error?.code !== INTERNAL_ERROR || typeof data !== "object" || data === null || data.reason !== TEMPORARILY_UNAVAILABLE_REASON) return undefined;
  const seconds = data.retryAfterSeconds;
  return typeof seconds === "number" && seconds >= 0 ? Math.min(seconds, MAX_RETRY_AFTER_SECONDS) : 1;
}
