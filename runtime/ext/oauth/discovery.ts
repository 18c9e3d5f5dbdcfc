/**
 * Discovery: the protected-resource metadata of an MCP endpoint (RFC 9728,
 * with the spec's well-known fallbacks), and the metadata of its
 * authorization server (RFC 8414 and OpenID Connect Discovery, in the
 * spec's order), each validated before anything in it is used.
 *
 * @internal
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { checkUrl, describe, getJson, type OAuthHttp } from "./http.js";
import { isObject } from "../../protocol/guards.js";

/** The fields of protected-resource metadata (RFC 9728 §2) the client uses. @internal */
export interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
}

/**
 * The MCP endpoint without fragment or query: the key tokens are stored
 * under, and the `resource` sent when no metadata names one.
 *
 * @internal
 */
export function canonicalResource(endpoint: URL): string {
  const url = new URL(endpoint.href);
  url.hash = "";
  url.search = "";
  const href = url.href;
  // "SHOULD consistently use the form without the trailing slash" (Canonical Server URI).
  return url.pathname === "/" ? href.slice(0, -1) : href;
}

/**
 * True when the metadata's `resource` covers `endpoint`: the same origin,
 * and a path that is the endpoint's path or one of its parent segments.
 *
 * @internal
 */
export function resourceCovers(resource: string, endpoint: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== endpoint.origin || url.hash !== "") return false;
  const withSlash = (path: string) => (path.endsWith("/") ? path : `${path}/`);
  return withSlash(endpoint.pathname).startsWith(withSlash(url.pathname));
}

/**
 * Where protected-resource metadata is looked for, in the spec's order: the
 * `resource_metadata` of the challenge when there is one; otherwise the
 * well-known URI at the endpoint's path, then at the root.
 *
 * @internal
 */
export function resourceMetadataUrls(endpoint: URL, fromChallenge: string | undefined, http: OAuthHttp): URL[] {
  if (fromChallenge !== undefined) return [checkUrl(fromChallenge, "The resource_metadata URL of the server's WWW-Authenticate challenge", http)];
  const path = endpoint.pathname.replace(/\/$/, "");
  const urls = [];
  if (path !== "") urls.push(new URL(`/.well-known/oauth-protected-resource${path}`, endpoint.origin));
  urls.push(new URL("/.well-known/oauth-protected-resource", endpoint.origin));
  return urls;
}

/**
 * Fetches and validates the protected-resource metadata of `endpoint`.
 *
 * @throws {OAuthError} `discovery_failed` when no location has it, `invalid_metadata` when it is malformed,
 *   `resource_mismatch` when it describes another resource.
 * @internal
 */
export async function discoverResource(endpoint: URL, fromChallenge: string | undefined, http: OAuthHttp): Promise<ResourceMetadata> {
  const tried: string[] = [];
  for (const url of resourceMetadataUrls(endpoint, fromChallenge, http)) {
    const document = await getJson(url, "Protected resource metadata", http);
    if (document.status !== 200) {
      tried.push(`${url.href} (HTTP ${document.status})`);
      continue;
    }
    const metadata = checkResourceMetadata(document.body, url, http);
    if (!resourceCovers(metadata.resource, endpoint)) {
      throw new OAuthError(
        "resource_mismatch",
        `The protected resource metadata at ${url.href} is for ${metadata.resource}, not for the MCP endpoint ${canonicalResource(endpoint)}: ` +
          "refusing to authorize (a token for it could be replayed elsewhere). The server must publish metadata for its own URL.",
      );
    }
    http.log(`oauth: protected resource metadata from ${url.href}`);
    return metadata;
  }
  throw new OAuthError(
    "discovery_failed",
    `The MCP server at ${endpoint.origin} requires authorization but publishes no protected resource metadata (tried ${tried.join(", ")}).`,
  );
}

function checkResourceMetadata(body: unknown, url: URL, http: OAuthHttp): ResourceMetadata {
  const where = `the protected resource metadata at ${url.href}`;
  if (!isObject(body)) throw new OAuthError("invalid_metadata", `${capital(where)} is ${describe(body)}, not a JSON object.`);
  if (typeof body.resource !== "string" || body.resource === "") {
    throw new OAuthError("invalid_metadata", `${capital(where)} has no "resource" string (got ${describe(body.resource)}).`);
  }
  const servers = body.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new OAuthError("invalid_metadata", `${capital(where)} lists no "authorization_servers" (got ${describe(servers)}): it must name at least one.`);
  }
  for (const server of servers) checkUrl(server, `An authorization server in ${where}`, http);
  const scopes = body.scopes_supported;
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string"))) {
    throw new OAuthError("invalid_metadata", `"scopes_supported" in ${where} must be an array of strings.`);
  }
  return { resource: body.resource, authorization_servers: servers as string[], ...(scopes ? { scopes_supported: scopes as string[] } : {}) };
}

/**
 * The metadata URLs of an issuer, in the spec's priority order: for an
 * issuer with a path, RFC 8414 path insertion, OpenID Connect path
 * insertion, OpenID Connect path appending; without one, RFC 8414 then
 * OpenID Connect.
 *
 * @internal
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, "");
  if (path === "") {
    return [new URL("/.well-known/oauth-authorization-server", issuer.origin), new URL("/.well-known/openid-configuration", issuer.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Fetches and validates the metadata of the authorization server `issuer`.
 * Its `issuer` must be identical to the one it was fetched for (RFC 8414
 * §3.3, OpenID Connect Discovery §4.3); its endpoints must be http(s) URLs.
 *
 * @throws {OAuthError} `discovery_failed`, `invalid_metadata`, `issuer_mismatch`, `insecure_url`.
 * @internal
 */
export async function discoverAuthorizationServer(issuer: string, http: OAuthHttp): Promise<oauth.AuthorizationServer> {
  const issuerUrl = checkUrl(issuer, "The authorization server", http);
  const tried: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const document = await getJson(url, "Authorization server metadata", http);
    if (document.status !== 200) {
      tried.push(`${url.href} (HTTP ${document.status})`);
      continue;
    }
    const body = document.body;
    const where = `The authorization server metadata at ${url.href}`;
    if (!isObject(body)) throw new OAuthError("invalid_metadata", `${where} is ${describe(body)}, not a JSON object.`);
    // The simple string comparison the spec asks for; oauth4webapi's check below compares normalized URLs.
    if (body.issuer !== issuer) {
      throw new OAuthError(
        "issuer_mismatch",
        typeof body.issuer === "string"
          ? `${where} names the issuer ${body.issuer}, not ${issuer} it was fetched for: refusing to use it (RFC 8414 §3.3).`
          : `${where} has no "issuer" string (got ${describe(body.issuer)}).`,
      );
    }
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(issuerUrl, Response.json(body));
    } catch (error) {
      throw new OAuthError("invalid_metadata", `${where} is not valid: ${error instanceof Error ? error.message : String(error)}.`);
    }
    for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
      if (metadata[field] !== undefined) checkUrl(metadata[field], `"${field}" in ${where.toLowerCase()}`, http);
    }
    if (metadata.token_endpoint === undefined) throw new OAuthError("invalid_metadata", `${where} has no "token_endpoint".`);
    for (const field of ["code_challenge_methods_supported", "scopes_supported", "token_endpoint_auth_methods_supported"] as const) {
      const value = metadata[field];
      if (value !== undefined && (!Array.isArray(value) || value.some((item) => typeof item !== "string"))) {
        throw new OAuthError("invalid_metadata", `"${field}" in ${where.toLowerCase()} must be an array of strings.`);
      }
    }
    http.log(`oauth: authorization server metadata from ${url.href}`);
    return metadata;
  }
  throw new OAuthError("discovery_failed", `The authorization server ${issuer} publishes no metadata (tried ${tried.join(", ")}).`);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
