/**
 * Identifying the client to an authorization server, in the spec's order
 * (client-registration.mdx): a pre-registered client, then a Client ID
 * Metadata Document when the server supports them, then dynamic client
 * registration (RFC 7591). Credentials stay bound to the issuer that gave
 * them (the spec's "Authorization Server Binding").
 *
 * @internal
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { checkUrl, isLoopback, libraryOptions, type OAuthHttp } from "./http.js";
import { isObject } from "../../protocol/guards.js";
import type { OAuthClientRegistration, OAuthStore } from "./store.js";

/** A client the application registered beforehand. Treat `clientSecret` and `privateKey` as secrets. */
export interface PreRegisteredClient {
  /** The id the authorization server issued for this client. */
  clientId: string;
  /** For a confidential client: sent to the token endpoint; omit it for a public client that relies on PKCE alone. */
  clientSecret?: string;
  /**
   * A private key (WebCrypto, not extractable is fine) registered for
   * `private_key_jwt` (RFC 7523 §2.2): the client signs an assertion for
   * the token endpoint instead of sending a secret.
   */
  privateKey?: CryptoKey;
  /** The `kid` of `privateKey`, if the server needs it to find the public key. */
  keyId?: string;
  /** `client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none`; by default chosen from the key, the secret and the server's metadata. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  /** The issuer it is registered with; set it, and the client refuses to present it to any other authorization server. */
  issuer?: string;
}

/** What the client identification needs from the OAuth client's options. @internal */
export interface IdentityConfig {
  client?: PreRegisteredClient;
  clientMetadataUrl?: string;
  /** Dynamic registration's metadata (RFC 7591 §2), or `undefined` when it is not to be used. */
  registration?: Record<string, unknown>;
}

/** A client as the token requests need it. @internal */
export interface ClientIdentity {
  client: oauth.Client;
  authentication: oauth.ClientAuth;
  /** How it was obtained, for progress lines. */
  source: "pre-registered" | "metadata document" | "registered";
}

/**
 * The client to present to `as`.
 *
 * @throws {OAuthError} `no_client` when none of the ways applies, `registration_failed` when registration is refused.
 * @internal
 */
export async function identifyClient(as: oauth.AuthorizationServer, config: IdentityConfig, store: OAuthStore, http: OAuthHttp): Promise<ClientIdentity> {
  const pre = config.client;
  if (pre !== undefined) {
    if (pre.issuer !== undefined && pre.issuer !== as.issuer) {
      throw new OAuthError(
        "no_client",
        `The pre-registered client is registered with ${pre.issuer}, but the MCP server now names the authorization server ${as.issuer}: ` +
          "client credentials are not portable across authorization servers. Register the client there and update client (or its issuer).",
      );
    }
    return identity(as, pre, "pre-registered");
  }
  const stored = await store.getClient(as.issuer);
  const redirect = config.registration?.redirect_uris;
  const wanted = Array.isArray(redirect) && typeof redirect[0] === "string" ? redirect[0] : undefined;
  // A registration for another redirect URI (a CLI's loopback port changes from run to run) would be refused: register anew.
  if (stored !== undefined && (wanted === undefined || stored.redirectUris === undefined || stored.redirectUris.includes(wanted))) {
    return identity(as, stored, "registered");
  }
  if (stored !== undefined) http.log(`oauth: the client registered with ${as.issuer} is for another redirect URI; registering again`);
  if (config.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return identity(as, { clientId: config.clientMetadataUrl, tokenEndpointAuthMethod: "none" }, "metadata document");
  }
  if (as.registration_endpoint !== undefined && config.registration !== undefined) {
    const registration = await register(as, config.registration, http);
    await store.setClient(as.issuer, registration);
    http.log(`oauth: registered a client with ${as.issuer}`);
    return identity(as, registration, "registered");
  }
  throw new OAuthError(
    "no_client",
    `The authorization server ${as.issuer} offers no way for this client to identify itself: it supports neither ` +
      `${config.clientMetadataUrl === undefined ? "" : "client ID metadata documents nor "}dynamic client registration. ` +
      "Register a client with it and pass client: { clientId, clientSecret? }" +
      (config.clientMetadataUrl === undefined ? ", or host a client ID metadata document and pass clientMetadataUrl." : "."),
  );
}

/**
 * The metadata of a dynamic registration request (RFC 7591 §2): the
 * redirect URI, the grant types, and `application_type` ("MCP clients MUST
 * specify an appropriate application_type": native for a loopback or
 * custom-scheme redirect, web otherwise), under the application's own.
 *
 * @internal
 */
export function registrationMetadata(
  grant: "authorization_code" | "client_credentials",
  redirectUrl: string | undefined,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const redirect = redirectUrl === undefined ? undefined : new URL(redirectUrl);
  const native = redirect === undefined || isLoopback(redirect) || !/^https?:$/.test(redirect.protocol);
  return {
    client_name: "mcp-roundtrip client",
    ...(redirectUrl !== undefined ? { redirect_uris: [redirectUrl] } : {}),
    grant_types: grant === "client_credentials" ? ["client_credentials"] : ["authorization_code", "refresh_token"],
    response_types: grant === "client_credentials" ? [] : ["code"],
    application_type: native ? "native" : "web",
    ...extra,
  };
}

/** The token endpoint authentication method a registration request asks for, from what the server supports. @internal */
function preferredAuthMethod(as: oauth.AuthorizationServer): string {
  const supported = as.token_endpoint_auth_methods_supported;
  if (supported === undefined || supported.includes("none")) return "none";
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "none";
}

async function register(as: oauth.AuthorizationServer, metadata: Record<string, unknown>, http: OAuthHttp): Promise<OAuthClientRegistration> {
  const endpoint = checkUrl(as.registration_endpoint, "The registration endpoint", http);
  const body: Record<string, unknown> = { token_endpoint_auth_method: preferredAuthMethod(as), ...metadata };
  const failed = (reason: string, code?: string) => new OAuthError("registration_failed", `Dynamic client registration with ${as.issuer} failed: ${reason}`, code);
  let response: Response;
  try {
    response = await oauth.dynamicClientRegistrationRequest(as, body as never, libraryOptions(http, endpoint));
  } catch (error) {
    throw failed(libraryReason(error));
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = undefined;
  }
  if (response.status !== 201 && response.status !== 200) {
    const error = isObject(answer) && typeof answer.error === "string" ? answer.error : undefined;
    const description = isObject(answer) && typeof answer.error_description === "string" ? ` (${answer.error_description})` : "";
    throw failed(`HTTP ${response.status}${error ? `, ${error}${description}` : ""}. Pre-register a client and pass client: { clientId }.`, error);
  }
  // Read by hand rather than with processDynamicClientRegistrationResponse: servers commonly omit
  // client_secret_expires_at, which RFC 7591 §3.2.1 requires next to a secret, and that is no reason to fail.
  if (!isObject(answer) || typeof answer.client_id !== "string" || answer.client_id === "") {
    throw failed("the answer carries no client_id.");
  }
  if (answer.client_secret !== undefined && typeof answer.client_secret !== "string") throw failed("its client_secret is not a string.");
  // What this client asked for (the server may echo it normalized): the comparison is with its own redirectUrl.
  const redirectUris = body.redirect_uris;
  return {
    clientId: answer.client_id,
    ...(Array.isArray(redirectUris) && redirectUris.every((uri) => typeof uri === "string") ? { redirectUris: redirectUris as string[] } : {}),
    ...(typeof answer.client_secret === "string" && answer.client_secret !== "" ? { clientSecret: answer.client_secret } : {}),
    ...(typeof answer.token_endpoint_auth_method === "string" ? { tokenEndpointAuthMethod: answer.token_endpoint_auth_method } : {}),
  };
}

function identity(
  as: oauth.AuthorizationServer,
  registration: OAuthClientRegistration & Pick<PreRegisteredClient, "privateKey" | "keyId">,
  source: ClientIdentity["source"],
): ClientIdentity {
  const secret = registration.clientSecret;
  let method = registration.tokenEndpointAuthMethod;
  if (method === undefined && registration.privateKey !== undefined) method = "private_key_jwt";
  if (method === "private_key_jwt") {
    if (registration.privateKey === undefined) {
      throw new OAuthError("no_client", `The client uses private_key_jwt at ${as.issuer}'s token endpoint but has no key: pass client.privateKey.`);
    }
    const key = registration.keyId === undefined ? registration.privateKey : { key: registration.privateKey, kid: registration.keyId };
    return { client: { client_id: registration.clientId }, authentication: oauth.PrivateKeyJwt(key), source };
  }
  if (method === undefined) {
    const supported = as.token_endpoint_auth_methods_supported;
    if (secret === undefined) method = "none";
    // RFC 8414 §2: client_secret_basic is the default when the list is absent.
    else if (supported === undefined || supported.includes("client_secret_basic")) method = "client_secret_basic";
    else if (supported.includes("client_secret_post")) method = "client_secret_post";
    else method = "none";
  }
  let authentication: oauth.ClientAuth;
  if (method === "none") authentication = oauth.None();
  else if (secret === undefined) {
    throw new OAuthError("no_client", `The client uses ${method} at ${as.issuer}'s token endpoint but has no client secret: pass client.clientSecret.`);
  } else if (method === "client_secret_basic") authentication = clientSecretBasic(secret);
  else if (method === "client_secret_post") authentication = oauth.ClientSecretPost(secret);
  else {
    throw new OAuthError(
      "no_client",
      `The token endpoint authentication method ${method} is not supported: use client_secret_basic, client_secret_post, private_key_jwt or none.`,
    );
  }
  return { client: { client_id: registration.clientId }, authentication, source };
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1) with the WHATWG form encoding of
 * id and secret. oauth4webapi's own also percent-encodes `-`, `_`, `.` and
 * `*`, which servers that skip the decoding (many) then fail to match.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const form = (value: string) =>
    encodeURIComponent(value)
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, "+");
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${form(client.client_id)}:${form(secret)}`)}`);
  };
}

/**
 * What went wrong in an oauth4webapi call, without anything it carries in
 * `cause` (response bodies, parameters) that could hold a credential.
 *
 * @internal
 */
export function libraryReason(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    return `the server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ""}.`;
  }
  if (error instanceof OAuthError) return error.message;
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) return `${error.message}.`;
  if (error instanceof Error && error.name === "TypeError") return `${(error.cause as Error | undefined)?.message ?? error.message}.`;
  return "an unexpected error.";
}

/** The OAuth `error` code a server answered with, if the error carries one. @internal */
export function oauthErrorOf(error: unknown): string | undefined {
  return error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError ? error.error : undefined;
}
