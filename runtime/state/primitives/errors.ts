import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { TEMPORARILY_UNAVAILABLE_MESSAGE, TEMPORARILY_UNAVAILABLE_REASON } from "../../protocol/unavailable.js";

/** Why a token was rejected. Logged, never sent to the peer. */
export type RequestStateRejectionReason =
  | "not_a_string"
  | "too_large"
  | "unseal_failed"
  /** Sealed under a key this ring does not hold; the log names its key id. */
  | "unknown_key"
  | "codec_error"
  | "malformed_envelope"
  | "issued_in_future"
  | "expired"
  | "method_mismatch"
  | "target_mismatch"
  | "arguments_mismatch"
  | "audience_mismatch"
  | "principal_missing"
  | "principal_unexpected"
  | "principal_mismatch"
  | "principal_unavailable"
  | "replayed"
  /** The replay store refused the principal: it holds as many live one-time tokens as it may. */
  | "replay_quota_exceeded"
  | "replay_store_error"
  /** Issued before the replay store's memory began (it restarted empty): it may have been spent and forgotten. */
  | "replay_store_reset"
  /** Something the checks rely on (the `now` clock, a digest) threw; rejected rather than let through. */
  | "internal_error";

/** The one message every rejected `requestState` answers with, whatever the cause. */
export const INVALID_REQUEST_STATE_MESSAGE = "Invalid or expired requestState";

/** The `data.reason` every rejected `requestState` carries on the wire. */
export const INVALID_REQUEST_STATE_REASON = "invalid_request_state";

/**
 * The fixed rejection of an incoming `requestState`: JSON-RPC `-32602`,
 * message `"Invalid or expired requestState"`, `data: { reason: "invalid_request_state" }`.
 *
 * The wire form never says which check failed. Custom codecs throw it from
 * `unseal` for any token they did not mint; the optional `detail` goes to the
 * server's log only, never to the peer.
 *
 * @example
 * ```ts
 * const codec = {
 *   seal: (bytes: Uint8Array) => myKms.encrypt(bytes),
 *   unseal(token: string) {
 *     if (!token.startsWith("kms1.")) throw new InvalidRequestState("unknown token format");
 *     return myKms.decrypt(token);
 *   },
 * };
 * ```
 */
export class InvalidRequestState extends McpError {
  /** Always `"InvalidRequestState"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InvalidRequestState" as const;
  /** Why the token was rejected, for the server's log. Never sent to the peer. */
  readonly detail: string | undefined;
  /** Which check refused it, when `RequestStateSecurity` did (for the log and telemetry; never sent to the peer). */
  readonly reason: RequestStateRejectionReason | undefined;

  /**
   * @param detail - the real reason, logged by the server and never sent on the wire.
   * @param options - `cause`, kept for debugging, and `reason`, the check that refused; never sent on the wire.
   */
  constructor(detail?: string, options?: { cause?: unknown; reason?: RequestStateRejectionReason }) {
    super(JsonRpcErrorCode.InvalidParams, INVALID_REQUEST_STATE_MESSAGE, { reason: INVALID_REQUEST_STATE_REASON }, options);
    this.detail = detail;
    this.reason = options?.reason;
  }
}

/**
 * A fresh copy of the fixed rejection as a plain {@link McpError}, so a server
 * answers every failed `requestState` with exactly the same bytes.
 *
 * @param cause - the rejection behind it, kept for the server's own log and telemetry; never on the wire.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof InvalidRequestState) return errorResponse(id, invalidRequestStateError());
 * }
 * ```
 */
export function invalidRequestStateError(cause?: unknown): McpError {
  return new McpError(
    JsonRpcErrorCode.InvalidParams,
    INVALID_REQUEST_STATE_MESSAGE,
    { reason: INVALID_REQUEST_STATE_REASON },
    // The cause stays on this side (telemetry reads the real reason from it); toJSON never writes it.
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Thrown by `RequestStateSecurity.verifyOnce` when the token checked out but
 * its replay store could not be asked whether it was spent (Redis down or
 * timing out). Nothing is accepted: the request is refused, but as
 * "temporarily unavailable" (`-32603`, `data.reason: "temporarily_unavailable"`,
 * HTTP 503 with `Retry-After`), not as a dead token, so the client sends the
 * same round again (this SDK's client does, with backoff) and its user's
 * answers are not lost.
 */
export class RequestStateUnavailable extends McpError {
  /** Always `"RequestStateUnavailable"`. */
  override readonly name = "RequestStateUnavailable" as const;
  /** What failed, for the server's log. Never sent to the peer. */
  readonly detail: string;

  /**
   * @param detail - what failed, logged by the server and never sent on the wire.
   * @param retryAfterSeconds - what the answer tells the client to wait (default 1).
   */
  constructor(detail: string, retryAfterSeconds = 1, options?: { cause?: unknown }) {
    super(JsonRpcErrorCode.InternalError, TEMPORARILY_UNAVAILABLE_MESSAGE, { reason: TEMPORARILY_UNAVAILABLE_REASON, retryAfterSeconds }, options);
    this.detail = detail;
  }
}
