/**
 * The token requests, on oauth4webapi: the authorization code grant with
 * PKCE S256, `state`, the `iss` check (RFC 9207) and the `resource`
 * parameter (RFC 8707); refresh; client credentials.
 *
 * @internal
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { checkUrl, libraryOptions, type OAuthHttp } from "./http.js";
import { libraryReason, oauthErrorOf, type ClientIdentity } from "./identity.js";
import type { OAuthTokens, PendingAuthorization } from "./store.js";

/**
 * The user step: show `authorizationUrl` to the user and resolve with the
 * URL the authorization server redirected back to. Resolve with nothing
 * when the page itself navigates away (a full-page redirect): the request
 * then fails with `authorization_pending`, and the page the user comes back
 * to calls `OAuthClient.finishAuthorization(location.href)`.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback whose body returns nothing (not even undefined) must still type-check
export type AuthorizeCallback = (authorizationUrl: URL, options: { signal?: AbortSignal }) => Promise<string | URL | undefined | void>;

/** One authorization request's parameters. @internal */
export interface AuthorizationRequest {
  redirectUrl: string;
  resource: string;
  scope: string | undefined;
}

/** How long a pending authorization is accepted. */
const PENDING_TTL_MS = 10 * 60_000;

/**
 * The authorization URL (PKCE S256, `state`, `resource`, scope) and the
 * record needed to finish it.
 *
 * @throws {OAuthError} `pkce_unsupported`, `invalid_metadata`, `insecure_url`.
 * @internal
 */
export async function beginAuthorization(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  request: AuthorizationRequest,
  endpointKey: string,
  http: OAuthHttp,
): Promise<{ url: URL; pending: PendingAuthorization }> {
  // "If code_challenge_methods_supported is absent, the client MUST refuse to proceed" (authorization code protection).
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    throw new OAuthError(
      "pkce_unsupported",
      `The authorization server ${as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported ` +
        `${as.code_challenge_methods_supported ? `is ${JSON.stringify(as.code_challenge_methods_supported)}` : "is absent"}): ` +
        "refusing to authorize without it. The server's operator must enable PKCE S256.",
    );
  }
  const endpoint = checkUrl(as.authorization_endpoint, "The authorization endpoint", http);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(endpoint.href);
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", identity.client.client_id);
  params.set("redirect_uri", request.redirectUrl);
  params.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  params.set("code_challenge_method", "S256");
  params.set("state", state);
  params.set("resource", request.resource);
  if (request.scope !== undefined) params.set("scope", request.scope);
  http.log(`oauth: asking the user to authorize at ${endpoint.origin}${endpoint.pathname}${request.scope ? ` (scope ${request.scope})` : ""}`);
  const pending: PendingAuthorization = {
    state,
    codeVerifier: verifier,
    issuer: as.issuer,
    clientId: identity.client.client_id,
    redirectUrl: request.redirectUrl,
    endpoint: endpointKey,
    resource: request.resource,
    ...(request.scope !== undefined ? { scope: request.scope } : {}),
    expiresAt: Date.now() + PENDING_TTL_MS,
  };
  return { url, pending };
}

/**
 * Checks the authorization response (`iss`, then `state`, then `error`) and
 * exchanges its code.
 *
 * @throws {OAuthError} `state_mismatch`, `iss_mismatch`, `authorization_denied`, `token_request_failed`.
 * @internal
 */
export async function completeAuthorization(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  returned: string | URL,
  pending: PendingAuthorization,
  http: OAuthHttp,
): Promise<OAuthTokens> {
  let callback: URL;
  try {
    callback = new URL(String(returned));
  } catch {
    throw new OAuthError("authorization_denied", "The authorize callback did not resolve with the redirect URL the authorization server sent the user to.");
  }
  if (Date.now() >= pending.expiresAt) throw new OAuthError("authorization_denied", "The authorization took too long (over 10 minutes): authorize again.");
  let callbackParams: URLSearchParams;
  try {
    // Checks iss (RFC 9207 §2.4, before anything else in the response is acted on), then state, then error.
    callbackParams = oauth.validateAuthResponse(as, identity.client, callback, pending.state);
  } catch (error) {
    throw authorizationResponseError(error, as);
  }
  const tokenEndpoint = checkUrl(as.token_endpoint, "The token endpoint", http);
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      identity.client,
      identity.authentication,
      callbackParams,
      pending.redirectUrl,
      pending.codeVerifier,
      { ...libraryOptions(http, tokenEndpoint), additionalParameters: { resource: pending.resource } },
    );
    return tokensOf(await oauth.processAuthorizationCodeResponse(as, identity.client, response), as, pending.resource, pending.scope, undefined);
  } catch (error) {
    throw new OAuthError("token_request_failed", `Exchanging the authorization code at ${as.issuer} failed: ${libraryReason(error)}`, oauthErrorOf(error));
  }
}

function authorizationResponseError(error: unknown, as: oauth.AuthorizationServer): OAuthError {
  if (error instanceof oauth.AuthorizationResponseError) {
    return new OAuthError(
      "authorization_denied",
      `The authorization was refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}. Ask the user to authorize again.`,
      error.error,
    );
  }
  const message = error instanceof Error ? error.message : "";
  if (message.includes('"iss"')) {
    return new OAuthError(
      "iss_mismatch",
      `The authorization response ${message.includes("missing") ? "lacks the iss parameter the authorization server advertises" : "names another issuer"} ` +
        `than ${as.issuer} (RFC 9207): it may come from a mix-up attack; the code was not used. Authorize again.`,
    );
  }
  if (message.includes('"state"')) {
    return new OAuthError(
      "state_mismatch",
      "The authorization response's state does not match the request's (a forged, replayed or crossed response): the code was not used. Authorize again.",
    );
  }
  return new OAuthError("authorization_denied", `The authorization response is not usable: ${libraryReason(error)}`);
}

/**
 * Exchanges a refresh token. The old refresh token is kept when the answer
 * carries no new one (RFC 6749 §6).
 *
 * @throws {OAuthError} `token_request_failed`, with `oauthError` `invalid_grant` for an expired or revoked refresh token.
 * @internal
 */
export async function refreshGrant(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  tokens: OAuthTokens,
  resource: string,
  http: OAuthHttp,
): Promise<OAuthTokens> {
  const tokenEndpoint = checkUrl(as.token_endpoint, "The token endpoint", http);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, identity.client, identity.authentication, tokens.refreshToken!, {
      ...libraryOptions(http, tokenEndpoint),
      additionalParameters: { resource },
    });
    return tokensOf(await oauth.processRefreshTokenResponse(as, identity.client, response), as, resource, tokens.requestedScope, tokens.refreshToken);
  } catch (error) {
    throw new OAuthError("token_request_failed", `Refreshing the access token at ${as.issuer} failed: ${libraryReason(error)}`, oauthErrorOf(error));
  }
}

/**
 * The client credentials grant, for a client acting on its own behalf.
 *
 * @throws {OAuthError} `token_request_failed`.
 * @internal
 */
export async function clientCredentialsGrant(
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  scope: string | undefined,
  resource: string,
  http: OAuthHttp,
): Promise<OAuthTokens> {
  const tokenEndpoint = checkUrl(as.token_endpoint, "The token endpoint", http);
  const parameters: Record<string, string> = { resource };
  if (scope !== undefined) parameters.scope = scope;
  try {
    const response = await oauth.clientCredentialsGrantRequest(as, identity.client, identity.authentication, parameters, libraryOptions(http, tokenEndpoint));
    return tokensOf(await oauth.processClientCredentialsResponse(as, identity.client, response), as, resource, scope, undefined);
  } catch (error) {
    throw new OAuthError("token_request_failed", `The client credentials grant at ${as.issuer} failed: ${libraryReason(error)}`, oauthErrorOf(error));
  }
}

function tokensOf(
  answer: oauth.TokenEndpointResponse,
  as: oauth.AuthorizationServer,
  resource: string,
  requestedScope: string | undefined,
  previousRefresh: string | undefined,
): OAuthTokens {
  if (answer.token_type !== "bearer") {
    throw new OAuthError("token_request_failed", `The token endpoint issued a ${answer.token_type} token; this client sends only Bearer tokens.`);
  }
  const refreshToken = answer.refresh_token ?? previousRefresh;
  return {
    accessToken: answer.access_token,
    issuer: as.issuer,
    resource,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(answer.expires_in !== undefined ? { expiresAt: Date.now() + answer.expires_in * 1000 } : {}),
    ...(answer.scope !== undefined ? { scope: answer.scope } : {}),
    ...(requestedScope !== undefined ? { requestedScope } : {}),
  };
}
