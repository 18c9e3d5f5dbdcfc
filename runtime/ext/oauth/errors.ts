/**
 * The OAuth client's one error class. Its messages name what went wrong and
 * what to do; they never carry a token, a secret, an authorization code or
 * a PKCE verifier, and it never wraps a library error whose `cause` could.
 */

/** What failed, as a stable literal (see {@link OAuthError}). */
export type OAuthErrorCode =
  /** No protected-resource or authorization-server metadata could be fetched. */
  | "discovery_failed"
  /** A metadata document was malformed (not JSON, a required field missing or of the wrong type). */
  | "invalid_metadata"
  /** The authorization server's metadata names another issuer than the one it was fetched for (RFC 8414 §3.3). */
  | "issuer_mismatch"
  /** The protected-resource metadata describes another resource than the MCP endpoint (RFC 9728 §3.3). */
  | "resource_mismatch"
  /** The authorization server does not advertise PKCE with S256. */
  | "pkce_unsupported"
  /** An endpoint uses plain http on a non-loopback host. */
  | "insecure_url"
  /** No way to identify this client to the authorization server (no pre-registration, metadata document or registration endpoint). */
  | "no_client"
  /** Dynamic client registration was refused. */
  | "registration_failed"
  /** The user must authorize, but no `authorize` callback was given. */
  | "interaction_required"
  /** The user was sent to authorize by a full-page redirect: call `finishAuthorization` where they come back. */
  | "authorization_pending"
  /** The authorization response's `state` is not the one sent (a forged or crossed response). */
  | "state_mismatch"
  /** The authorization response's `iss` is missing or names another issuer (RFC 9207). */
  | "iss_mismatch"
  /** The user or the authorization server refused the authorization request. */
  | "authorization_denied"
  /** The token endpoint refused or answered malformed. */
  | "token_request_failed";

/**
 * A failure of the OAuth client: discovery, registration, the user's
 * authorization or a token request.
 *
 * @example
 * ```ts
 * try { await client.listTools(); } catch (error) {
 *   if (error instanceof OAuthError && error.code === "interaction_required") showLoginButton();
 * }
 * ```
 */
export class OAuthError extends Error {
  /** Always `"OAuthError"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "OAuthError" as const;
  /** What failed. */
  readonly code: OAuthErrorCode;
  /** The OAuth `error` code the authorization server answered with (`invalid_grant`, `access_denied`, …), if any. */
  readonly oauthError: string | undefined;

  /**
   * @param code - what failed.
   * @param message - what went wrong and what to do; never a credential.
   * @param oauthError - the server's OAuth `error` code, if it sent one.
   */
  constructor(code: OAuthErrorCode, message: string, oauthError?: string) {
    super(message);
    this.code = code;
    this.oauthError = oauthError;
  }
}
