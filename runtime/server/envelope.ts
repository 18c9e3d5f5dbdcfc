/**
 * The first look at a message `Server.handle` receives: is it a JSON-RPC
 * 2.0 object, a request, a notification or a stray response, and which
 * revision does a request speak. Everything after this sees a request whose
 * envelope is sound.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { claimsModern } from "../protocol/era.js";
import type { RequestContext } from "../protocol/context.js";
import { isObject } from "../protocol/guards.js";
import { readableId } from "../protocol/jsonrpc/ids.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";

function invalidRequest(detail: string): McpError {
  return new McpError(JsonRpcErrorCode.InvalidRequest, `Invalid Request: ${detail}`);
}

/**
 * What one incoming message is, once its envelope has been checked:
 * answered already (`refused`: a broken envelope, answered with `-32600`),
 * nothing to answer (`response`: 2026-07-28 servers send no requests, so a
 * response matches nothing), a notification, or a request of either era.
 *
 * @internal
 */
export type ClassifiedMessage =
  | { readonly kind: "refused"; readonly response: JsonRpcResponse }
  | { readonly kind: "response" }
  | { readonly kind: "notification"; readonly method: string; readonly message: Record<string, unknown> }
  | { readonly kind: "request"; readonly era: "modern" | "legacy"; readonly id: JsonRpcId; readonly method: string; readonly message: Record<string, unknown> };

/**
 * Checks the JSON-RPC envelope of one decoded message and says what it is.
 *
 * @param message - one decoded JSON value from a transport
 * @param context - what the transport knows about the caller (the protocol version header)
 * @internal
 */
export function classifyMessage(message: unknown, context: RequestContext | undefined): ClassifiedMessage {
  if (!isObject(message)) {
    return { kind: "refused", response: errorResponse(undefined, invalidRequest("expected one JSON-RPC 2.0 message object").toJSON()) };
  }
  const method = message.method;
  if (typeof method !== "string") {
    // A response: 2026-07-28 servers send no requests, so there is nothing to match it to.
    if ("result" in message || "error" in message) return { kind: "response" };
    return { kind: "refused", response: errorResponse(readableId(message), invalidRequest('"method" must be a string').toJSON()) };
  }
  if (!("id" in message)) return { kind: "notification", method, message };
  const id = readableId(message);
  if (id === undefined) {
    return {
      kind: "refused",
      response: errorResponse(undefined, invalidRequest('"id" must be a string or a safe integer (MCP forbids null, fractions and integers beyond 2^53)').toJSON()),
    };
  }
  if (message.jsonrpc !== "2.0") {
    return { kind: "refused", response: errorResponse(id, invalidRequest('"jsonrpc" must be "2.0"').toJSON()) };
  }
  // Per message, as the versioning page says: the 2026 envelope makes a request modern; anything else
  // (initialize first of all) is 2025-era. server/discover exists only in 2026, so it always takes that path.
  const era = method === "server/discover" || claimsModern(message, context?.protocolVersionHeader) ? "modern" : "legacy";
  return { kind: "request", era, id, method, message };
}
