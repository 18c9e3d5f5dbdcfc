/**
 * Bearer authentication of Streamable HTTP requests: the `Authorization`
 * header, the verifier, required scopes, the `WWW-Authenticate` challenges
 * (RFC 6750 §3, MCP 2026-07-28 basic/authorization "Error Handling"), and
 * the `403` a handler's `insufficient_scope` error becomes.
 */
import type { JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { AuthInfo } from "../../types.js";
import type { ResolvedAuthorization } from "./authorization.js";
import type { IncomingHttp } from "./exchange.js";
import { INSUFFICIENT_SCOPE, missingScopes, SCOPE_TOKEN } from "../../../protocol/scopes.js";

/** The verdict on one request's credentials. */
export type AuthOutcome = { ok: true; authInfo: AuthInfo } | { ok: false; status: number; challenge: string; message: string };

/**
 * A `WWW-Authenticate: Bearer …` value. Parameter values are scope tokens,
 * URLs and fixed texts of ours, none of which holds `"` or `\`; they are
 * stripped anyway so that no value can break out of its quotes.
 */
function challenge(auth: ResolvedAuthorization, params: Record<string, string | undefined>, scope = auth.challengeScope): string {
  const all: Record<string, string | undefined> = { resource_metadata: auth.resourceMetadataUrl, scope, ...params };
  const rendered: string[] = [];
  for (const [key, value] of Object.entries(all)) if (value !== undefined) rendered.push(`${key}="${value.replace(/["\\]/g, "")}"`);
  return rendered.length === 0 ? "Bearer" : `Bearer ${rendered.join(", ")}`;
}

function insufficient(auth: ResolvedAuthorization, needed: readonly string[], missing: readonly string[]): AuthOutcome {
  return {
    ok: false,
    status: 403,
    challenge: challenge(auth, { error: INSUFFICIENT_SCOPE, error_description: "The access token lacks a scope this request needs" }, needed.join(" ")),
    message: `Forbidden: the access token lacks the scope(s) ${missing.join(", ")}; obtain a token with scope "${needed.join(" ")}".`,
  };
}

/** Checks the request's bearer token against the verifier and the required scopes. */
export async function authenticate(auth: ResolvedAuthorization, request: IncomingHttp, onError: (error: unknown) => void): Promise<AuthOutcome> {
  const header = request.header("authorization");
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
  if (!match) {
    return {
      ok: false,
      // RFC 6750 §3.1: a request without credentials gets no error code. Another scheme or a broken
      // Bearer value stays a 401 (not 400), so that any client goes and gets a token.
      status: 401,
      challenge: header ? challenge(auth, { error: "invalid_request", error_description: "Malformed Authorization header" }) : challenge(auth, {}),
      message: header
        ? "Unauthorized: the Authorization header must be `Bearer <token>` with the token in one piece."
        : "Unauthorized: send Authorization: Bearer <token>; the WWW-Authenticate header says where to get one.",
    };
  }
  const invalid: AuthOutcome = {
    ok: false,
    status: 401,
    challenge: challenge(auth, { error: "invalid_token", error_description: "The access token is invalid or expired" }),
    message: "Unauthorized: the access token is invalid or expired; obtain a new one.",
  };
  let authInfo: AuthInfo | null | undefined;
  try {
    const info = { method: request.method, url: request.url(), headers: request.headers() };
    authInfo = await auth.verify(match[1]!, auth.resource === undefined ? info : { ...info, resource: auth.resource });
  } catch (error) {
    // Never log the token itself: only the verifier's failure, with any copy of the token cut out.
    onError(withoutToken(error, match[1]!));
    return invalid;
  }
  if (!authInfo || typeof authInfo.clientId !== "string" || !Array.isArray(authInfo.scopes)) return invalid;
  if (authInfo.expiresAt !== undefined && !(authInfo.expiresAt > Date.now() / 1000)) return invalid;
  const missing = missingScopes(authInfo.scopes, auth.requiredScopes);
  if (missing.length > 0) return insufficient(auth, auth.requiredScopes, missing);
  return { ok: true, authInfo };
}

/**
 * `error`, or when its message or stack quotes the token (a JWT library that
 * writes `invalid token: ${token}`), a copy with the token replaced.
 */
function withoutToken(error: unknown, token: string): unknown {
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
  if (!text.includes(token)) return error;
  const message = (error instanceof Error ? error.message : String(error)).replaceAll(token, "[token]");
  const scrubbed = new Error(`The token verifier failed: ${message}`);
  if (error instanceof Error) scrubbed.name = error.name;
  scrubbed.stack = `${scrubbed.name}: ${scrubbed.message}`;
  return scrubbed;
}

/**
 * When `response` is a JSON-RPC error asking for more scopes (what a tool
 * with `scopes` answers a token without them), the `403` and
 * `WWW-Authenticate` challenge it becomes over HTTP: the scopes the
 * endpoint requires plus those the error names, in one challenge.
 * @internal
 */
export function scopeChallengeOf(auth: ResolvedAuthorization | undefined, response: JsonRpcResponse | undefined): string | undefined {
  if (auth === undefined || response === undefined || !("error" in response)) return undefined;
  const data = response.error.data as { reason?: unknown; scopes?: unknown } | undefined;
  if (typeof data !== "object" || data === null || data.reason !== INSUFFICIENT_SCOPE || !Array.isArray(data.scopes)) return undefined;
  const named = data.scopes.filter((scope): scope is string => typeof scope === "string" && SCOPE_TOKEN.test(scope));
  if (named.length === 0) return undefined;
  const needed = [...new Set([...auth.requiredScopes, ...named])];
  return challenge(auth, { error: INSUFFICIENT_SCOPE, error_description: "The access token lacks a scope this operation needs" }, needed.join(" "));
}
