/** Why a JWT access token was refused, as the server's log sees it. */
export type JwtRejectionReason =
  | "malformed"
  | "bad_signature"
  | "unknown_key"
  | "algorithm_not_allowed"
  | "expired"
  | "not_yet_valid"
  | "wrong_issuer"
  | "wrong_audience"
  | "wrong_type"
  | "missing_claim"
  | "jwks_unavailable"
  | "no_audience_configured";

/**
 * A JWT access token was refused. The client only ever gets the fixed
 * `401 invalid_token`; this error, with the real reason, goes to the HTTP
 * handler's `onError`. It never holds the token, and no claim values
 * beyond the name of the claim that failed.
 */
export class JwtRejected extends Error {
  /** Always `"JwtRejected"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "JwtRejected" as const;
  /** The category of the failure. */
  readonly reason: JwtRejectionReason;

  constructor(reason: JwtRejectionReason, detail: string) {
    super(`JWT access token rejected (${reason}): ${detail}`);
    this.reason = reason;
  }
}
