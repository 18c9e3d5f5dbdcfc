/**
 * The one builder of JSON-RPC error responses: the server, every transport
 * and the HTTP error bodies build theirs here, so the shape (member order
 * `jsonrpc`, `id`, `error`; when the id is left out) is the same on every path.
 */
import type { JsonRpcErrorObject } from "./errors.js";
import type { JsonRpcErrorResponse, JsonRpcId } from "./messages.js";

/**
 * A JSON-RPC error response for the request `id`, or without an `id`
 * member when `id` is `undefined` (a parse error, or an id that could not
 * be read or may not be echoed).
 * @param id - the failed request's id, echoed as given.
 * @param error - the `error` member, sent as given.
 * @internal
 */
export function errorResponse(id: JsonRpcId | undefined, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}
