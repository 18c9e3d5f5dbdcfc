import type { AuthInfo } from "../transport/types.js";

/**
 * The principal string a verified bearer token stands for: compact
 * `JSON.stringify([clientId, issuer ?? null, subject ?? null])`.
 *
 * For ASCII identifiers this is the same string the reference SDK builds, so
 * both bind tokens to the same principal. A verifier must report the same
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
  return JSON.stringify([authInfo.clientId, authInfo.issuer ?? null, authInfo.subject ?? null]);
}
