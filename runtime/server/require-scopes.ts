/**
 * Per-operation OAuth scopes on the server: what a tool's `scopes` option
 * and {@link requireScopes} check against the verified token.
 */
import { insufficientScopeError, missingScopes, SCOPE_TOKEN } from "../protocol/scopes.js";
import type { AuthInfo } from "../protocol/context.js";

/**
 * Checks that the caller's verified token carries every scope in `scopes`,
 * and refuses the request otherwise: JSON-RPC `-32600` with
 * `data: { reason: "insufficient_scope", scopes }`, which the HTTP handler
 * answers as `403` with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"` so the client can step up. A request with no verified token
 * (no `authorization` on the transport) is refused too: the check fails closed.
 *
 * @param ctx - the handler's context (its `authInfo` is what is checked).
 * @param scopes - the scopes this operation needs, e.g. `["files:write"]`.
 * @param operation - what is refused, for the message (default "this operation").
 * @throws {McpError} when a scope is missing.
 * @throws {TypeError} when `scopes` is not a list of scope tokens.
 *
 * @example
 * ```ts
 * mcp.tool("delete", {}, (args, ctx) => {
 *   if (args.force) requireScopes(ctx, ["files:admin"], "a forced delete");
 *   …
 * });
 * ```
 */
export function requireScopes(ctx: { readonly authInfo?: AuthInfo | undefined }, scopes: readonly string[], operation = "this operation"): void {
  checkScopes(scopes, "requireScopes");
  if (scopes.length === 0) return;
  const granted = ctx?.authInfo?.scopes;
  if (!Array.isArray(granted)) {
    throw insufficientScopeError(
      `Forbidden: ${operation} needs the scope(s) ${scopes.join(", ")}, and this request carries no verified access token ` +
        "(serve over HTTP with the authorization option).",
      scopes,
    );
  }
  const missing = missingScopes(granted, scopes);
  if (missing.length > 0) {
    throw insufficientScopeError(
      `Forbidden: ${operation} needs the scope(s) ${missing.join(", ")}, which the access token lacks; obtain a token with them.`,
      scopes,
    );
  }
}

/**
 * Checks a list of scope tokens given to the server.
 * @throws {TypeError} naming `where`.
 * @internal
 */
export function checkScopes(scopes: unknown, where: string): asserts scopes is readonly string[] {
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope))) {
    throw new TypeError(`${where}: scopes must be a list of OAuth scope tokens (no spaces or quotes), e.g. ["files:write"], got ${JSON.stringify(scopes)}`);
  }
}
