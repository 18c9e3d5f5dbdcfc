/**
 * Bearer authentication of Streamable HTTP requests: the `Authorization`
 * header, the verifier hook, required scopes and the `WWW-Authenticate`
 * challenge.
 */
import type { AuthInfo } from "../../types.js";
import type { IncomingHttp } from "./exchange.js";
import type { ResolvedHttpOptions } from "./policy.js";

/** The verdict on one request's credentials. */
export type AuthOutcome =
  | { ok: true; authInfo: AuthInfo }
  | { ok: false; status: number; challenge: string; message: string };

function challenge(options: ResolvedHttpOptions, params: Record<string, string>): string {
  const all: Record<string, string> = { ...params };
  if (options.resourceMetadataUrl) all.resource_metadata = options.resourceMetadataUrl;
  const rendered = Object.entries(all).map(([key, value]) => `${key}="${value.replace(/["\\]/g, "")}"`);
  return rendered.length === 0 ? "Bearer" : `Bearer ${rendered.join(", ")}`;
}

/** Checks the request's bearer token against the verifier and the required scopes. */
export async function authenticate(options: ResolvedHttpOptions, request: IncomingHttp): Promise<AuthOutcome> {
  const header = request.header("authorization");
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
  if (!match) {
    return {
      ok: false,
      status: 401,
      challenge: header ? challenge(options, { error: "invalid_request", error_description: "Malformed Authorization header" }) : challenge(options, {}),
      message: "Unauthorized: send Authorization: Bearer <token>.",
    };
  }
  const invalid: AuthOutcome = {
    ok: false,
    status: 401,
    challenge: challenge(options, { error: "invalid_token", error_description: "The access token is invalid or expired" }),
    message: "Unauthorized: the access token is invalid or expired.",
  };
  let authInfo: AuthInfo | null | undefined;
  try {
    authInfo = await options.verifyToken!(match[1]!, {
      method: request.method,
      url: request.url(),
      headers: request.headers(),
    });
  } catch (error) {
    // Never log the token itself: only the verifier's failure.
    options.onError(error);
    return invalid;
  }
  if (!authInfo || typeof authInfo.clientId !== "string" || !Array.isArray(authInfo.scopes)) return invalid;
  if (authInfo.expiresAt !== undefined && !(authInfo.expiresAt > Date.now() / 1000)) return invalid;
  const missing = options.requiredScopes.filter((scope) => !authInfo!.scopes.includes(scope));
  if (missing.length > 0) {
    return {
      ok: false,
      status: 403,
      challenge: challenge(options, { error: "insufficient_scope", scope: options.requiredScopes.join(" ") }),
      message: `Forbidden: the access token lacks the scope(s) ${missing.join(", ")}.`,
    };
  }
  return { ok: true, authInfo };
}

