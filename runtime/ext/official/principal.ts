import { principalOf } from "../../state/index.js";
import type { OfficialAuthInfo } from "./types.js";

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * The principal an official-SDK `AuthInfo` stands for, written exactly as
 * {@link principalOf} writes ours, so a token bound by either SDK's server
 * binds the same caller: `clientId` → `clientId`, `extra.iss` → `issuer`,
 * `extra.sub` → `subject` (the JWT / RFC 7662 claim names; absent → `null`).
 * Nothing else of their `AuthInfo` (`token`, `scopes`, `expiresAt`,
 * `resource`) takes part: a refreshed token for the same caller keeps its
 * rounds valid.
 *
 * A missing identity never binds as someone else: an empty or non-string
 * `clientId`, or an `iss`/`sub` that is present but not a non-empty string,
 * is an error rather than a shorter (shared) principal.
 *
 * @param authInfo - `ctx.http.authInfo` as their bearer-auth helpers or your verifier set it.
 * @throws {TypeError} for a malformed identity (see above).
 * @example
 * ```ts
 * principalOfOfficialAuthInfo({ token: "…", clientId: "client-123", scopes: [], extra: { iss: "https://as.example", sub: "alice" } });
 * // '["client-123","https://as.example","alice"]', the same as
 * principalOf({ clientId: "client-123", issuer: "https://as.example", subject: "alice", scopes: [] });
 * ```
 */
export function principalOfOfficialAuthInfo(authInfo: OfficialAuthInfo): string {
  if (typeof authInfo !== "object" || authInfo === null) {
    throw new TypeError(`principalOfOfficialAuthInfo expected an AuthInfo object, got ${describe(authInfo)}`);
  }
  if (typeof authInfo.clientId !== "string" || authInfo.clientId === "") {
    throw new TypeError(`principalOfOfficialAuthInfo expected authInfo.clientId to be a non-empty string, got ${describe(authInfo.clientId)}`);
  }
  const extra = authInfo.extra;
  if (extra !== undefined && (typeof extra !== "object" || extra === null)) {
    throw new TypeError(`principalOfOfficialAuthInfo expected authInfo.extra to be an object, got ${describe(extra)}`);
  }
  return principalOf({ clientId: authInfo.clientId, issuer: claim(extra, "iss"), subject: claim(extra, "sub") });
}

function claim(extra: Record<string, unknown> | undefined, name: "iss" | "sub"): string | undefined {
  const value = extra?.[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`principalOfOfficialAuthInfo expected authInfo.extra.${name} to be a non-empty string when present, got ${describe(value)}`);
  }
  return value;
}
