/**
 * The `authorization` option of the Streamable HTTP server: an MCP server
 * as an OAuth 2.1 protected resource (MCP 2026-07-28 basic/authorization).
 * It checks the option once and derives what the exchange needs: the
 * protected-resource metadata document (RFC 9728 §2) and the well-known
 * paths it is served at (RFC 9728 §3.1, path-aware), and the scopes the
 * `WWW-Authenticate` challenge names.
 */
import type { TokenVerifier } from "./token-verifier.js";
import { SCOPE_TOKEN } from "../../../protocol/scopes.js";

/** The `authorization` option of `createHttpHandler`, `serveHttp` and `toNodeHandler`. */
export interface AuthorizationOptions {
  /**
   * The canonical URI of this MCP server (RFC 8707 §2), e.g.
   * `"https://mcp.example.com/mcp"`: the `resource` of the metadata
   * document, the audience access tokens must be issued for, and where the
   * well-known metadata path is derived from. `https`, or `http` on a
   * loopback host; no fragment.
   */
  resource: string;
  /** Issuer identifiers of the authorization servers whose tokens this server accepts (at least one). */
  authorizationServers: readonly string[];
  /** Scopes the metadata document lists (`scopes_supported`): the minimal set for basic use. */
  scopesSupported?: readonly string[];
  /**
   * Checks a bearer token: resolve the identity it proves, or `null`. A throw
   * is treated like `null` (fails closed). `jwtVerifier` from
   * `mcp-roundtrip/ext/jwt` is a ready one for JWT access tokens.
   */
  verify: TokenVerifier;
  /**
   * Scopes every request's token must carry; a token lacking one gets `403`
   * `insufficient_scope`. They are also the `scope` a `401` challenge names
   * (default there: `scopesSupported`). Per-tool scopes go on the tool.
   */
  requiredScopes?: readonly string[];
  /** A human-readable name of this server, published as `resource_name`. */
  resourceName?: string;
  /** Further RFC 9728 metadata fields, e.g. `{ resource_documentation: "https://…" }`; they cannot replace the fields above. */
  metadata?: Record<string, unknown>;
}

/** The `authorization` option, checked and derived once per handler. @internal */
export interface ResolvedAuthorization {
  verify: TokenVerifier;
  requiredScopes: readonly string[];
  /** The `scope` a `401` challenge names, space-separated, if any. */
  challengeScope: string | undefined;
  /** Where the metadata document is, advertised as `resource_metadata`. */
  resourceMetadataUrl: string | undefined;
  /** The canonical resource URI (absent for the deprecated `verifyToken` form). */
  resource: string | undefined;
  /** Request paths answered with the metadata document. */
  metadataPaths: ReadonlySet<string>;
  /** The metadata document, serialised once. */
  metadataBody: string | undefined;
}

/** RFC 9728 §3.1: the well-known suffix of protected-resource metadata. */
const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function httpsUrl(value: unknown, what: string, example: string): URL {
  if (typeof value !== "string") throw new TypeError(`${what} must be a URL string such as "${example}", got ${typeof value}.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} must be an absolute URL such as "${example}", got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    throw new TypeError(`${what} must use https (http only on a loopback host), got ${JSON.stringify(value)}.`);
  }
  if (url.hash !== "" || value.includes("#")) throw new TypeError(`${what} must not have a fragment, got ${JSON.stringify(value)}.`);
  return url;
}

/**
 * Checks a list of OAuth scope tokens.
 * @throws {TypeError} when it is not an array of scope tokens.
 * @internal
 */
export function scopeList(value: unknown, what: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((scope) => typeof scope !== "string" || !SCOPE_TOKEN.test(scope))) {
    throw new TypeError(`${what} must be a list of OAuth scope tokens (no spaces or quotes), e.g. ["files:read"], got ${JSON.stringify(value)}.`);
  }
  return [...value];
}

/**
 * Checks the `authorization` option and derives the metadata document and
 * its well-known paths.
 *
 * @throws {TypeError} for a missing or malformed field, saying which and what it takes.
 * @internal
 */
export function resolveAuthorization(options: AuthorizationOptions): ResolvedAuthorization {
  if (typeof options !== "object" || options === null) {
    throw new TypeError('authorization must be an object { resource, authorizationServers, verify }, e.g. { resource: "https://mcp.example.com/mcp", … }.');
  }
  const resourceUrl = httpsUrl(options.resource, "authorization.resource", "https://mcp.example.com/mcp");
  const servers = options.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) {
    throw new TypeError('authorization.authorizationServers must list at least one issuer, e.g. ["https://auth.example.com"].');
  }
  for (const issuer of servers) {
    const url = httpsUrl(issuer, "each of authorization.authorizationServers", "https://auth.example.com");
    if (url.search !== "") throw new TypeError(`an issuer identifier has no query (RFC 8414 §2), got ${JSON.stringify(issuer)}.`);
  }
  if (typeof options.verify !== "function") {
    throw new TypeError("authorization.verify must be a function (token, request) => AuthInfo | null, such as jwtVerifier(…) from mcp-roundtrip/ext/jwt.");
  }
  const scopesSupported = options.scopesSupported === undefined ? undefined : scopeList(options.scopesSupported, "authorization.scopesSupported");
  const requiredScopes = scopeList(options.requiredScopes, "authorization.requiredScopes");
  if (options.resourceName !== undefined && typeof options.resourceName !== "string") {
    throw new TypeError("authorization.resourceName must be a string.");
  }
  const extra = options.metadata ?? {};
  if (typeof extra !== "object" || extra === null || Array.isArray(extra)) {
    throw new TypeError('authorization.metadata must be an object of further RFC 9728 fields, e.g. { resource_documentation: "https://…" }.');
  }

  // RFC 9728 §3.1: the well-known suffix goes between the host and the resource's path.
  const path = resourceUrl.pathname.replace(/\/+$/, "");
  const primary = `${RESOURCE_METADATA_PATH}${path}`;
  const document: Record<string, unknown> = {
    ...extra,
    resource: options.resource,
    authorization_servers: [...servers],
    bearer_methods_supported: ["header"],
  };
  if (scopesSupported !== undefined) document.scopes_supported = scopesSupported;
  if (options.resourceName !== undefined) document.resource_name = options.resourceName;
  const challenge = requiredScopes.length > 0 ? requiredScopes : (scopesSupported ?? []);
  return {
    verify: options.verify,
    requiredScopes,
    challengeScope: challenge.length > 0 ? challenge.join(" ") : undefined,
    resourceMetadataUrl: `${resourceUrl.origin}${primary}`,
    resource: options.resource,
    // The root document too: the spec's second discovery location for clients that try it.
    metadataPaths: new Set([primary, RESOURCE_METADATA_PATH]),
    metadataBody: JSON.stringify(document),
  };
}

/**
 * The deprecated bearer options (`verifyToken`, `requiredScopes`,
 * `resourceMetadataUrl`) in the same shape, with no metadata document.
 * @internal
 */
export function legacyAuthorization(verify: TokenVerifier, requiredScopes: readonly string[], resourceMetadataUrl: string | undefined): ResolvedAuthorization {
  return {
    verify,
    requiredScopes,
    // As before `authorization` existed: the 401 names no scope, only the 403 does.
    challengeScope: undefined,
    resourceMetadataUrl,
    resource: undefined,
    metadataPaths: new Set(),
    metadataBody: undefined,
  };
}
