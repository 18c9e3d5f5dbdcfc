import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcErrorObject } from "../protocol/jsonrpc/errors.js";
import type { ServerLogger } from "./types.js";

/** `-32603` with a message the caller may read; the details stay in the log. @internal */
export function internalError(message: string, cause?: unknown): McpError {
  return new McpError(JsonRpcErrorCode.InternalError, message, undefined, cause === undefined ? undefined : { cause });
}

/**
 * Turns whatever a handler threw into the wire error. An `McpError` passes
 * through as the handler chose; anything else is a bug or an outage whose
 * message and stack may hold secrets, so the peer only learns "Internal
 * error" and the logger gets the rest.
 * @internal
 */
export function toErrorObject(error: unknown, method: string, logger: ServerLogger): JsonRpcErrorObject {
  if (error instanceof McpError) {
    // A -32603 the SDK built without a cause (an outputSchema misfit, say) says all in its message: no empty `cause` field.
    if (error.code === JsonRpcErrorCode.InternalError) logger.error(`${method}: ${error.message}`, error.cause === undefined ? undefined : { cause: error.cause });
    return error.toJSON();
  }
  logger.error(`${method}: handler threw; answering -32603`, { error });
  return { code: JsonRpcErrorCode.InternalError, message: "Internal error" };
}
