/**
 * The one map from a JSON-RPC error code to the HTTP status of the answer
 * that carries it. The two eras disagree on four codes, so the map takes
 * the era (and, for 2026-07-28, whether the `_meta` envelope was at fault):
 *
 * | code | 2025 (sessions, or a 2025 request answered alone) | 2026-07-28 | 2026-07-28, envelope invalid |
 * |---|---|---|---|
 * | -32700 parse error, -32600 invalid request, -32022 unsupported version | 400 | 400 | 400 |
 * | -32020 header mismatch, -32021 missing client capability | 200 | 400 | 400 |
 * | -32601 method not found | 200 | 404 | 404 |
 * | -32602 invalid params | 200 | 200 | 400 |
 * | anything else | 200 | 200 | 200 |
 *
 * Why: in 2025 only transport-level rejections are 4xx, and a 404 would
 * tell a 2025 client its session is gone, so a method the server lacks is
 * a 200 carrying the error; -32020 and -32021 are 2026-07-28 codes whose
 * HTTP status only that revision names. In 2026-07-28, -32602 is an HTTP
 * 400 only when the per-request `_meta` envelope failed its check; a
 * tool's bad arguments stay an ordinary in-band error.
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";

/** Which column of the table above an answer follows. @internal */
type ErrorStatusRules = "2025" | "2026" | "2026-envelope";

/**
 * HTTP status of an answer carrying JSON-RPC error `code` (see the table
 * in this module's comment); errors a handler produced stay `200`.
 * @internal
 */
function httpStatusOfError(code: number, rules: ErrorStatusRules): number {
  switch (code) {
    case JsonRpcErrorCode.ParseError:
    case JsonRpcErrorCode.InvalidRequest:
    case JsonRpcErrorCode.UnsupportedProtocolVersion:
      return 400;
    case JsonRpcErrorCode.HeaderMismatch:
    case JsonRpcErrorCode.MissingRequiredClientCapability:
      return rules === "2025" ? 200 : 400;
    case JsonRpcErrorCode.MethodNotFound:
      return rules === "2025" ? 200 : 404;
    case JsonRpcErrorCode.InvalidParams:
      return rules === "2026-envelope" ? 400 : 200;
    default:
      return 200;
  }
}

/** {@link httpStatusOfError} under the 2025 rules, as the status callback dispatch takes. @internal */
export const legacyErrorStatus = (code: number): number => httpStatusOfError(code, "2025");

/** {@link httpStatusOfError} under the 2026-07-28 rules, for a request whose `_meta` envelope is complete. @internal */
export const modernStatus = (code: number): number => httpStatusOfError(code, "2026");

/** {@link httpStatusOfError} for a 2026-07-28 request whose `_meta` envelope is incomplete. @internal */
export const envelopeStatus = (code: number): number => httpStatusOfError(code, "2026-envelope");

/**
 * HTTP status for a JSON-RPC error response. Protocol-level rejections get
 * the status the spec names; errors a handler produced stay `200`.
 */
export function statusForError(code: number, envelopeInvalid: boolean): number {
  return httpStatusOfError(code, envelopeInvalid ? "2026-envelope" : "2026");
}
