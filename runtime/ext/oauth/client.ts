/**
 * `OAuthClient`: the OAuth 2.1 client of an MCP endpoint, plugged into the
 * HTTP transport's `auth` option. On a 401 it reads the challenge,
 * discovers the resource's authorization server, identifies itself, and
 * obtains a token (authorization code with the app's user step, or client
 * credentials); on a 403 `insufficient_scope` it steps up to the union of
 * the scopes; it refreshes expired tokens.
 */
import type * as oauth from "oauth4webapi";
import type { HttpAuthChallenge, HttpClientAuth } from "../../transport/http/client/auth.js";
import { bearerChallenge } from "./challenge.js";
import { checkOAuthClientOptions, type OAuthClientOptions } from "./client-options.js";
import { canonicalResource, discoverAuthorizationServer, discoverResource, type ResourceMetadata } from "./discovery.js";
import { OAuthError } from "./errors.js";
import { beginAuthorization, clientCredentialsGrant, completeAuthorization, refreshGrant, type AuthorizeCallback } from "./grants.js";
import type { OAuthHttp } from "./http.js";
import { identifyClient, registrationMetadata, type ClientIdentity, type IdentityConfig } from "./identity.js";
import { InMemoryOAuthStore, type OAuthStore, type OAuthTokens } from "./store.js";
import { unionScopes } from "./scopes.js";

export type { AuthorizeCallback } from "./grants.js";
export type { OAuthClientOptions } from "./client-options.js";
export type { PreRegisteredClient } from "./identity.js";

/** Refresh this long before the access token's announced expiry. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * An OAuth 2.1 client for one or more MCP endpoints; pass it as the HTTP
 * transport's `auth`.
 *
 * @example
 * ```ts
 * import { OAuthClient } from "mcp-roundtrip/ext/oauth";
 * import { loopbackAuthorization } from "mcp-roundtrip/ext/oauth/node";
 *
 * const loopback = await loopbackAuthorization();
 * const auth = new OAuthClient({ redirectUrl: loopback.redirectUrl, authorize: loopback.authorize, registration: { client_name: "my-cli" } });
 * const client = await Client.connect(new StreamableHttpClientTransport(url, { auth }));
 * ```
 */
export class OAuthClient implements HttpClientAuth {
  readonly #grant: "authorization_code" | "client_credentials";
  readonly #redirectUrl: string | undefined;
  readonly #authorize: AuthorizeCallback | undefined;
  readonly #identity: IdentityConfig;
  readonly #scope: string | undefined;
  readonly #offlineAccess: boolean;
  readonly #store: OAuthStore;
  readonly #http: OAuthHttp;
  /** Authorization server metadata by issuer, as discovered in this process. */
  readonly #servers = new Map<string, oauth.AuthorizationServer>();
  /** One recovery per resource at a time: concurrent refusals wait for the same one. */
  readonly #recovering = new Map<string, Promise<boolean>>();
  /** The scope last asked for per resource, kept across a token's loss so a re-authorization asks for the union. */
  readonly #asked = new Map<string, string>();
  /** How the last recovery per resource got its credentials. */
  readonly #lastRecovery = new Map<string, "refresh" | "grant">();

  /**
   * @throws {TypeError} for options of the wrong type, a `redirectUrl` that is neither https nor loopback http,
   *   a missing `redirectUrl` next to `authorize`, a
   *   `client_credentials` grant without `client`, or a `clientMetadataUrl` that is not an https URL with a path.
   */
  constructor(options: OAuthClientOptions = {}) {
    const { grant, redirectUrl } = checkOAuthClientOptions(options);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.#grant = grant;
    this.#redirectUrl = redirectUrl;
    this.#authorize = options.authorize;
    this.#scope = options.scope === undefined ? undefined : unionScopes(typeof options.scope === "string" ? options.scope : options.scope.join(" "));
    this.#offlineAccess = options.offlineAccess !== false;
    this.#store = options.store ?? new InMemoryOAuthStore();
    this.#http = { fetch: fetchImpl, allowInsecureHttp: options.allowInsecureHttp === true, log: options.onLog ?? (() => {}) };
    this.#identity = {
      ...(options.client ? { client: { ...options.client } } : {}),
      ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
      ...(options.registration === false ? {} : { registration: registrationMetadata(grant, redirectUrl, options.registration ?? {}) }),
    };
  }

  /**
   * The `Authorization` value for a request to `endpoint`: the stored
   * access token, refreshed first when it has expired and can be.
   */
  async authorization(endpoint: URL): Promise<string | undefined> {
    const resource = canonicalResource(endpoint);
    const tokens = await this.#store.getTokens(resource);
    if (tokens === undefined) return undefined;
    if (tokens.expiresAt === undefined || Date.now() < tokens.expiresAt - EXPIRY_MARGIN_MS) return `Bearer ${tokens.accessToken}`;
    const as = this.#servers.get(tokens.issuer);
    // Expired: refresh here when the server is known; otherwise the 401 that follows takes the full path.
    if (tokens.refreshToken !== undefined && as !== undefined) {
      const refreshed = await this.#refresh(as, tokens, resource).catch(() => undefined);
      if (refreshed) return `Bearer ${refreshed.accessToken}`;
    }
    return undefined;
  }

  /** Recovers from a 401 or 403 of `challenge.endpoint`; resolves true when there are new credentials to retry with. */
  unauthorized(challenge: HttpAuthChallenge): Promise<boolean> {
    const resource = canonicalResource(challenge.endpoint);
    const running = this.#recovering.get(resource);
    if (running) return running;
    const recovery = this.#recover(challenge, resource).finally(() => this.#recovering.delete(resource));
    this.#recovering.set(resource, recovery);
    return recovery;
  }

  /**
   * Finishes an authorization begun by a full-page redirect (the `authorize`
   * callback resolved with nothing): checks the response the user came back
   * with (`iss`, `state`, `error`), exchanges its code and stores the tokens.
   * Retry the MCP call afterwards. Each pending authorization finishes once.
   *
   * @param callbackUrl - the URL the authorization server redirected to, query included (`location.href`).
   * @throws {OAuthError} `state_mismatch` when no authorization with its `state` is pending; `iss_mismatch`,
   *   `authorization_denied`, `token_request_failed` as for any authorization.
   * @example
   * ```ts
   * if (location.search.includes("state=")) await auth.finishAuthorization(location.href);
   * ```
   */
  async finishAuthorization(callbackUrl: string | URL): Promise<void> {
    let state: string | null = null;
    try {
      state = new URL(String(callbackUrl)).searchParams.get("state");
    } catch {
      throw new TypeError("finishAuthorization needs the absolute URL the user came back to, query included.");
    }
    const pending = state === null ? undefined : await this.#store.getPending?.(state);
    if (state === null || pending === undefined) {
      throw new OAuthError(
        "state_mismatch",
        "No authorization with this response's state is pending (it was finished already, belongs to another client, or is forged): authorize again.",
      );
    }
    await this.#store.setPending!(state, undefined);
    const as = await this.#server(pending.issuer);
    const identity = await identifyClient(as, this.#identity, this.#store, this.#http);
    if (identity.client.client_id !== pending.clientId) {
      throw new OAuthError("no_client", `The client registered with ${as.issuer} changed since the authorization began: authorize again.`);
    }
    const tokens = await completeAuthorization(as, identity, callbackUrl, pending, this.#http);
    if (pending.scope !== undefined) this.#asked.set(pending.endpoint, pending.scope);
    this.#lastRecovery.set(pending.endpoint, "grant");
    await this.#store.setTokens(pending.endpoint, tokens);
    this.#http.log(`oauth: token obtained from ${as.issuer} (${identity.source} client${tokens.scope ? `, scope ${tokens.scope}` : ""})`);
  }

  /** Forgets the tokens of `endpoint` (a sign-out); registrations stay. */
  async forget(endpoint: string | URL): Promise<void> {
    const resource = canonicalResource(new URL(String(endpoint)));
    this.#asked.delete(resource);
    await this.#store.setTokens(resource, undefined);
  }

  async #recover(challenge: HttpAuthChallenge, resource: string): Promise<boolean> {
    const params = bearerChallenge(challenge.wwwAuthenticate);
    if (challenge.status === 403 && params?.error !== "insufficient_scope") return false;
    // A token just obtained by a grant and refused at once will be refused again: the refusal is final.
    // One just refreshed may be worth a new authorization.
    if (challenge.status === 401 && challenge.attempt > 0 && this.#lastRecovery.get(resource) !== "refresh") return false;
    const http = this.#http;
    http.log(`oauth: HTTP ${challenge.status} from ${resource}${params?.error ? ` (${params.error})` : ""}`);
    const metadata = await discoverResource(challenge.endpoint, params?.resource_metadata, http);
    let tokens = await this.#store.getTokens(resource);
    const as = await this.#chooseServer(metadata.authorization_servers, tokens?.issuer);
    if (tokens !== undefined && tokens.issuer !== as.issuer) {
      // The resource moved to another authorization server: its tokens are never sent there.
      http.log(`oauth: the authorization server changed to ${as.issuer}; dropping the tokens of ${tokens.issuer}`);
      await this.#store.setTokens(resource, undefined);
      tokens = undefined;
    }
    const audience = metadata.resource;
    if (challenge.status === 401 && challenge.attempt === 0 && tokens?.refreshToken !== undefined) {
      try {
        await this.#refresh(as, tokens, resource, audience);
        this.#lastRecovery.set(resource, "refresh");
        return true;
      } catch (error) {
        if (!(error instanceof OAuthError) || error.oauthError !== "invalid_grant") throw error;
        http.log("oauth: the refresh token was refused (invalid_grant: expired or revoked); authorizing again");
        await this.#store.setTokens(resource, undefined);
        return this.#obtain(as, metadata, params, resource, audience, tokens.requestedScope, challenge.signal, "The refresh token was refused (expired or revoked)");
      }
    }
    return this.#obtain(as, metadata, params, resource, audience, tokens?.requestedScope, challenge.signal);
  }

  /** A new token: the scope chosen, then the grant. */
  async #obtain(
    as: oauth.AuthorizationServer,
    metadata: ResourceMetadata,
    params: Record<string, string> | undefined,
    resource: string,
    audience: string,
    priorScope: string | undefined,
    signal: AbortSignal | undefined,
    why?: string,
  ): Promise<boolean> {
    // Scope selection: the challenge's scope, else the resource's scopes_supported, else none; on
    // re-authorization, the union with what was asked before (Step-Up Authorization Flow, 2).
    const base = params?.scope ?? metadata.scopes_supported?.join(" ");
    let scope = unionScopes(this.#asked.get(resource) ?? priorScope, this.#scope, base);
    if (
      scope !== undefined &&
      this.#grant === "authorization_code" &&
      this.#offlineAccess &&
      as.scopes_supported?.includes("offline_access") &&
      !scope.split(" ").includes("offline_access")
    ) {
      scope = `${scope} offline_access`;
    }
    const identity = await identifyClient(as, this.#identity, this.#store, this.#http);
    let tokens: OAuthTokens;
    if (this.#grant === "client_credentials") {
      tokens = await clientCredentialsGrant(as, identity, scope, audience, this.#http);
    } else {
      if (this.#authorize === undefined || this.#redirectUrl === undefined) {
        throw new OAuthError(
          "interaction_required",
          `${why ? `${why}, and the` : "The"} MCP server ${resource} needs a user to authorize at ${as.issuer}, but this OAuthClient has no ` +
            "authorize callback: pass redirectUrl and authorize (loopbackAuthorization() from mcp-roundtrip/ext/oauth/node for a CLI).",
        );
      }
      const { url, pending } = await beginAuthorization(as, identity, { redirectUrl: this.#redirectUrl, resource: audience, scope }, resource, this.#http);
      const returned = await this.#authorize(url, signal ? { signal } : {});
      if (returned === undefined || returned === null) {
        // A full-page redirect: the page the user comes back to finishes it.
        if (this.#store.setPending === undefined || this.#store.getPending === undefined) {
          throw new OAuthError(
            "authorization_pending",
            "The authorize callback resolved with no redirect URL, but the store cannot keep the authorization until the user comes back: " +
              "give OAuthClient a store with setPending and getPending that outlives the page (e.g. on sessionStorage), or resolve with the redirect URL.",
          );
        }
        await this.#store.setPending(pending.state, pending);
        throw new OAuthError(
          "authorization_pending",
          `The user was sent to authorize at ${as.issuer}: call finishAuthorization(<the URL they come back to>), then retry.`,
        );
      }
      tokens = await completeAuthorization(as, identity, returned, pending, this.#http);
    }
    if (scope !== undefined) this.#asked.set(resource, scope);
    this.#lastRecovery.set(resource, "grant");
    await this.#store.setTokens(resource, tokens);
    this.#http.log(`oauth: token obtained from ${as.issuer} (${identity.source} client${tokens.scope ? `, scope ${tokens.scope}` : ""})`);
    return true;
  }

  async #refresh(as: oauth.AuthorizationServer, tokens: OAuthTokens, resource: string, audience = tokens.resource ?? resource): Promise<OAuthTokens> {
    const identity: ClientIdentity = await identifyClient(as, this.#identity, this.#store, this.#http);
    const refreshed = await refreshGrant(as, identity, tokens, audience, this.#http);
    await this.#store.setTokens(resource, refreshed);
    this.#http.log(`oauth: access token refreshed at ${as.issuer}`);
    return refreshed;
  }

  /**
   * The authorization server to use of those the resource lists (RFC 9728
   * §7.6 leaves the choice to the client): the one the stored tokens or the
   * pre-registered client belong to, if listed, else the first; one that
   * cannot be reached gives way to the next.
   */
  async #chooseServer(listed: readonly string[], tokenIssuer: string | undefined): Promise<oauth.AuthorizationServer> {
    const preferred = [tokenIssuer, this.#identity.client?.issuer].filter((issuer) => issuer !== undefined && listed.includes(issuer));
    const order = [...new Set([...preferred, ...listed])] as string[];
    for (const [index, issuer] of order.entries()) {
      try {
        return await this.#server(issuer);
      } catch (error) {
        if (!(error instanceof OAuthError) || error.code !== "discovery_failed" || index === order.length - 1) throw error;
        this.#http.log(`oauth: ${error.message} Trying the next authorization server.`);
      }
    }
    throw new OAuthError("discovery_failed", "The protected resource metadata lists no authorization server.");
  }

  async #server(issuer: string): Promise<oauth.AuthorizationServer> {
    // Discovered afresh on each recovery: the metadata may have changed (keys, endpoints, migration).
    const as = await discoverAuthorizationServer(issuer, this.#http);
    this.#servers.set(as.issuer, as);
    return as;
  }
}
