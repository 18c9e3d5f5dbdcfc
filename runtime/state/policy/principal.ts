import type { AuthInfo } from "../../protocol/context.js";
import { canonicalJson } from "../primitives/canonical-json.js";

/**
 * The principal string a verified bearer token stands for: the compact JSON
 * array `[clientId, issuer ?? null, subject ?? null]`, written the way the
 * reference SDK's JSON writer does (non-ASCII escaped as `\uXXXX`), so a mixed
 * fleet binds tokens to the same principal even for non-ASCII identifiers. A verifier must report the same
 * components on every request: one that sometimes omits the subject changes
 * the principal mid-exchange, and rounds in flight are rejected.
 *
 * @param authInfo - what the transport's token verifier reported.
 * @throws {TypeError} when `authInfo.clientId` is not a string.
 * @example
 * ```ts
 * principalOf({ clientId: "client-123", issuer: "https://as.example", subject: "alice", scopes: [] });
 * // '["client-123","https://as.example","alice"]'
 * ```
 */
export function principalOf(authInfo: Pick<AuthInfo, "clientId" | "issuer" | "subject">): string {
  if (typeof authInfo?.clientId !== "string") {
    throw new TypeError(`principalOf expected authInfo.clientId to be a string, got ${typeof authInfo?.clientId}`);
  }
  return canonicalJson([authInfo.clientId, authInfo.issuer ?? null, authInfo.subject ?? null]);
}
