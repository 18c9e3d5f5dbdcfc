/**
 * A ready `verify` for the `authorization` option: JWT access tokens
 * (RFC 9068) checked with jose against the issuer's JWKS — signature,
 * issuer, audience (RFC 8707: this server's canonical URI), expiry with a
 * clock tolerance. Every failure fails closed; the reason goes to the
 * handler's `onError` as a {@link JwtRejected}, never with the token.
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { isCanonicalBase64url } from "../../state/primitives/base64url.js";
import type { HttpRequestInfo, TokenVerifier } from "../../transport/http/server/policy.js";
import type { AuthInfo } from "../../transport/types.js";
import { discoverJwksUri, secureUrl } from "./discovery.js";
import { JwtRejected } from "./errors.js";

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The issuer identifier tokens must carry in `iss`, compared exactly, e.g. `"https://auth.example.com"`. */
  issuer: string;
  /** Where the issuer's signing keys are. Default: the `jwks_uri` of its metadata document (RFC 8414 / OpenID discovery). */
  jwksUri?: string;
  /** The signing keys themselves, instead of fetching them (tests, pinned keys). */
  jwks?: JSONWebKeySet;
  /**
   * The audience tokens must be issued for (`aud`). Default: the
   * `authorization.resource` of the HTTP handler, which is what the
   * spec requires (RFC 8707 §2). Tokens for any other audience are refused.
   */
  audience?: string | readonly string[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds. Default 5. */
  clockToleranceSeconds?: number;
  /** Signature algorithms accepted. Default: the asymmetric ones (RS*, PS*, ES*, EdDSA); never `none` or a shared secret. */
  algorithms?: readonly string[];
  /** Require this JWT `typ` header, e.g. `"at+jwt"` (RFC 9068 §2.1). Default: not checked. */
  typ?: string;
  /**
   * Scope hierarchies (MCP basic/authorization: a broader scope implies
   * narrower ones): each granted scope also grants the scopes it maps to,
   * transitively, e.g. `{ "files:admin": ["files:write"], "files:write": ["files:read"] }`.
   */
  impliedScopes?: Readonly<Record<string, readonly string[]>>;
  /** `fetch` used for discovery and the JWKS (a Worker's service binding, a proxy). Default: the global one. */
  fetch?: typeof fetch;
  /** Timeout of each discovery or JWKS request, in milliseconds. Default 5,000. */
  timeoutMs?: number;
}

const DEFAULT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

type KeyLookup = Parameters<typeof jwtVerify>[1];

function scopesOf(payload: JWTPayload): string[] {
  // RFC 9068 §2.2.3: `scope`, space-separated; some servers send `scp` as a list.
  const scope = payload.scope ?? payload.scp;
  if (typeof scope === "string") return scope.split(" ").filter((entry) => entry !== "");
  if (Array.isArray(scope)) return scope.filter((entry): entry is string => typeof entry === "string");
  return [];
}

/** The granted scopes plus everything they imply, transitively. */
function expandScopes(granted: string[], implied: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  if (implied === undefined) return granted;
  const all = new Set(granted);
  const queue = [...granted];
  while (queue.length > 0) {
    const scope = queue.pop()!;
    if (!Object.hasOwn(implied, scope)) continue;
    for (const narrower of implied[scope]!) {
      if (all.has(narrower)) continue;
      all.add(narrower);
      queue.push(narrower);
    }
  }
  return [...all];
}

function rejectionOf(error: unknown): JwtRejected {
  if (error instanceof JwtRejected) return error;
  if (error instanceof errors.JWTExpired) return new JwtRejected("expired", "the token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    const reason =
      error.reason === "missing"
        ? "missing_claim"
        : claim === "iss"
          ? "wrong_issuer"
          : claim === "aud"
            ? "wrong_audience"
            : claim === "nbf" || claim === "iat"
              ? "not_yet_valid"
              : claim === "typ"
                ? "wrong_type"
                : "malformed";
    // jose's message names the claim, never its value or the token.
    return new JwtRejected(reason, error.message);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new JwtRejected("bad_signature", "the signature does not verify");
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new JwtRejected("unknown_key", "no single key of the issuer's JWKS matches the token's kid/alg");
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new JwtRejected("algorithm_not_allowed", error.message);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return new JwtRejected("malformed", error.message);
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return new JwtRejected("jwks_unavailable", error.message);
  const message = error instanceof Error ? error.message : String(error);
  return new JwtRejected("jwks_unavailable", `the issuer's keys could not be fetched: ${message}`);
}

function checkOptions(options: JwtVerifierOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError('jwtVerifier needs options, e.g. { issuer: "https://auth.example.com" }.');
  secureUrl(options.issuer, "jwtVerifier: issuer");
  if (options.jwksUri !== undefined) secureUrl(options.jwksUri, "jwtVerifier: jwksUri");
  if (options.jwks !== undefined && options.jwksUri !== undefined) throw new TypeError("jwtVerifier: pass jwks or jwksUri, not both.");
  if (options.jwks !== undefined && !Array.isArray(options.jwks?.keys)) throw new TypeError("jwtVerifier: jwks must be a JSON Web Key Set { keys: [...] }.");
  const audience = options.audience;
  if (
    audience !== undefined &&
    !(typeof audience === "string" ? audience !== "" : Array.isArray(audience) && audience.length > 0 && audience.every((a) => typeof a === "string" && a !== ""))
  ) {
    throw new TypeError("jwtVerifier: audience must be a non-empty string or list of strings (this server's canonical URI).");
  }
  const tolerance = options.clockToleranceSeconds ?? 5;
  if (typeof tolerance !== "number" || !Number.isFinite(tolerance) || tolerance < 0 || tolerance > 300) {
    throw new RangeError(`jwtVerifier: clockToleranceSeconds must be from 0 to 300, got ${String(tolerance)}.`);
  }
  const implied = options.impliedScopes;
  if (
    implied !== undefined &&
    (typeof implied !== "object" ||
      implied === null ||
      Object.values(implied).some((list) => !Array.isArray(list) || list.some((scope) => typeof scope !== "string")))
  ) {
    throw new TypeError('jwtVerifier: impliedScopes must map a scope to the scopes it implies, e.g. { "files:write": ["files:read"] }.');
  }
  if (options.algorithms !== undefined) {
    if (!Array.isArray(options.algorithms) || options.algorithms.length === 0) throw new TypeError("jwtVerifier: algorithms must be a non-empty list.");
    const weak = options.algorithms.find((alg) => typeof alg !== "string" || alg === "none" || alg.startsWith("HS"));
    if (weak !== undefined)
      throw new TypeError(`jwtVerifier: algorithm ${JSON.stringify(weak)} is not accepted for access tokens; use an asymmetric one such as RS256 or ES256.`);
  }
}

/**
 * Builds a token verifier for JWT access tokens issued by `issuer`.
 *
 * The returned function is the `verify` of the HTTP handler's
 * `authorization` option. It accepts a token only when its signature
 * verifies against the issuer's JWKS (fetched once and cached by jose,
 * refetched on an unknown `kid`), `iss` is `issuer`, `aud` includes the
 * audience (default: `authorization.resource`), `exp` is in the future and
 * `sub` is present. The identity it resolves — `client_id` (or `azp`),
 * `iss`, `sub`, `scope` — is what sealed request state binds to.
 *
 * @param options - issuer, where its keys are, audience, clock tolerance, algorithms.
 * @returns A {@link TokenVerifier}; it rejects with {@link JwtRejected} for any token it refuses.
 * @throws {TypeError} for a missing issuer, an insecure URL, or a weak algorithm.
 * @throws {RangeError} for a clock tolerance outside 0–300 s.
 *
 * @example
 * ```ts
 * const http = await serveHttp(server, {
 *   authorization: {
 *     resource: "https://mcp.example.com/mcp",
 *     authorizationServers: ["https://auth.example.com"],
 *     verify: jwtVerifier({ issuer: "https://auth.example.com" }),
 *   },
 * });
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): (token: string, request: HttpRequestInfo) => Promise<AuthInfo> {
  checkOptions(options);
  const issuer = options.issuer;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 5_000;
  const remote = (url: URL): KeyLookup =>
    createRemoteJWKSet(url, { timeoutDuration: timeoutMs, [customFetch]: (input: string, init: RequestInit) => fetchImpl(input, init) }) as KeyLookup;
  let keys: KeyLookup | undefined =
    options.jwks !== undefined ? (createLocalJWKSet(options.jwks) as KeyLookup) : options.jwksUri !== undefined ? remote(new URL(options.jwksUri)) : undefined;
  let discovering: Promise<KeyLookup> | undefined;
  const keyLookup = async (): Promise<KeyLookup> => {
    if (keys !== undefined) return keys;
    // One discovery at a time; a failed one is retried by the next token, which meanwhile is refused.
    discovering ??= discoverJwksUri(issuer, fetchImpl, timeoutMs).then(
      (url) => (keys = remote(url)),
      (error: unknown) => {
        discovering = undefined;
        throw error;
      },
    );
    return discovering;
  };
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const clockTolerance = options.clockToleranceSeconds ?? 5;

  return async (token: string, request: HttpRequestInfo): Promise<AuthInfo> => {
    const audience = options.audience ?? request?.resource;
    if (audience === undefined) {
      throw new JwtRejected("no_audience_configured", "no audience to check: use jwtVerifier as authorization.verify, or pass its audience option");
    }
    // One token, one spelling: base64url leaves spare bits in a segment's last
    // character, and a decoder that ignores them accepts several spellings of
    // the same signed bytes. Accept only the canonical one.
    if (!token.split(".").every(isCanonicalBase64url)) {
      throw new JwtRejected("malformed", "the token is not three canonical base64url segments");
    }
    let payload: JWTPayload;
    try {
      const lookup = await keyLookup();
      ({ payload } = await jwtVerify(token, lookup, {
        issuer,
        audience: typeof audience === "string" ? audience : [...audience],
        algorithms,
        clockTolerance,
        requiredClaims: ["exp", "sub"],
        ...(options.typ === undefined ? {} : { typ: options.typ }),
      }));
    } catch (error) {
      throw rejectionOf(error);
    }
    if (typeof payload.sub !== "string" || payload.sub === "") throw new JwtRejected("missing_claim", 'the "sub" claim must be a non-empty string');
    const clientId = typeof payload.client_id === "string" ? payload.client_id : typeof payload.azp === "string" ? payload.azp : "";
    const info: AuthInfo = { clientId, issuer, subject: payload.sub, scopes: expandScopes(scopesOf(payload), options.impliedScopes), extra: { claims: payload } };
    if (typeof payload.exp === "number") info.expiresAt = payload.exp + clockTolerance;
    return info;
  };
}
