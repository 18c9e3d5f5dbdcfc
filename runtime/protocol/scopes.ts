/**
 * OAuth scopes as both the HTTP layer and the server see them: the scope
 * token grammar, the set check, and the JSON-RPC error that asks for more
 * scopes (which the HTTP handler turns into a `403` challenge).
 */
import { JsonRpcErrorCode, McpError } from "./jsonrpc/errors.js";

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. @internal */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The `data.reason` of a JSON-RPC error that asks for more scopes. @internal */
export const INSUFFICIENT_SCOPE = "insufficient_scope";

/** The scopes of `needed` that `granted` lacks. @internal */
export function missingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  return needed.filter((scope) => !granted.includes(scope));
}

/**
 * The error a request gets when its token lacks scopes: JSON-RPC `-32600`
 * with `data: { reason: "insufficient_scope", scopes }`; over HTTP, a `403`
 * whose `WWW-Authenticate` names the scopes. @internal
 */
export function insufficientScopeError(message: string, scopes: readonly string[]): McpError {
  return new McpError(JsonRpcErrorCode.InvalidRequest, message, { reason: INSUFFICIENT_SCOPE, scopes: [...scopes] });
}
