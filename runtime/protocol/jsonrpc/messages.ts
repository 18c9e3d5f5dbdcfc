import type { JsonRpcErrorObject } from "./errors.js";
import { isObject } from "../guards.js";
import type { JsonRpcId } from "../message.js";

// The envelope's own checks live with the classification of incoming messages (protocol/message.ts).
export { isValidRequestId, type JsonRpcId } from "../message.js";

/** A request as it travels: a method, an id, optional object params. */
export interface JsonRpcRequest {
  /** Always `"2.0"`; a message without it is not JSON-RPC and is rejected. */
  jsonrpc: "2.0";
  /** Chosen by the sender and echoed in the response, which is how the two are paired. */
  id: JsonRpcId;
  /** The MCP method, such as `tools/call`. */
  method: string;
  /** The method's arguments; always an object in MCP, never a positional array. */
  params?: Record<string, unknown>;
}

/** A notification: like a request, without an id, never answered. */
export interface JsonRpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The notification method, such as `notifications/progress`. */
  method: string;
  /** The notification's payload; an object when present. */
  params?: Record<string, unknown>;
}

/** A successful response. */
export interface JsonRpcResultResponse {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the request this answers. */
  id: JsonRpcId;
  /** The method's result object (for MCP, possibly an `InputRequiredResult`). */
  result: Record<string, unknown>;
}

/** An error response; `id` is absent only when the request's id could not be read. */
export interface JsonRpcErrorResponse {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id of the failed request; absent after a parse error, when no id could be read. */
  id?: JsonRpcId;
  /** What went wrong: code, message and optional data. */
  error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** Any JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** True for a message with a `method` and an `id`. */
export function isJsonRpcRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && typeof message.method === "string" && "id" in message;
}

/** True for a message with a `method` and no `id`. */
export function isJsonRpcNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && typeof message.method === "string" && !("id" in message);
}

/** True for a response carrying `result` or `error`. */
export function isJsonRpcResponse(message: unknown): message is JsonRpcResponse {
  return isObject(message) && !("method" in message) && ("result" in message || "error" in message);
}

/** True for an error response. */
export function isJsonRpcErrorResponse(message: unknown): message is JsonRpcErrorResponse {
  return isObject(message) && isObject(message.error);
}
