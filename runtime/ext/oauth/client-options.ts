/**
 * What an {@link OAuthClient} is configured with, and the checks its
 * constructor runs on it: each wrong option is refused with the form it
 * must take.
 *
 * @module
 */
import type { AuthorizeCallback } from "./grants.js";
import { isLoopback } from "./http.js";
import type { PreRegisteredClient } from "./identity.js";
import type { InMemoryOAuthStore, OAuthStore } from "./store.js";

/** Options of {@link OAuthClient}. */
export interface OAuthClientOptions {
  /**
   * `"authorization_code"` (default): a user authorizes, through `authorize`.
   * `"client_credentials"`: the client acts on its own behalf with `client`'s credentials.
   */
  grant?: "authorization_code" | "client_credentials";
  /** Where the authorization server sends the user back (registered with it). Required for the authorization code grant. */
  redirectUrl?: string | URL;
  /**
   * The user step: open `authorizationUrl` (a browser, a popup, a printed
   * link) and resolve with the URL the user was redirected back to, query
   * included. `mcp-roundtrip/ext/oauth/node`'s `loopbackAuthorization()`
   * provides one for CLIs. Without it, a needed authorization fails with
   * `OAuthError` `interaction_required`.
   */
  authorize?: AuthorizeCallback;
  /** A client registered beforehand (used first, per the spec's order). Required for `client_credentials`. */
  client?: PreRegisteredClient;
  /** The https URL of this client's Client ID Metadata Document, used as `client_id` where the authorization server supports them. */
  clientMetadataUrl?: string;
  /**
   * Dynamic client registration (RFC 7591), the last resort: extra client
   * metadata for the request (`client_name`, `application_type`, …), or
   * `false` to never register. `redirect_uris`, `grant_types` and
   * `application_type` (native for a loopback redirect, else web) are filled in.
   */
  registration?: Record<string, unknown> | false;
  /** Scopes to ask for on top of what the server's challenge or metadata names. */
  scope?: string | readonly string[];
  /** Ask for a refresh token with `offline_access` when the authorization server lists it (default true). */
  offlineAccess?: boolean;
  /** Token and registration storage (default: a new {@link InMemoryOAuthStore}). */
  store?: OAuthStore;
  /** The `fetch` for discovery, registration and token requests (default: global `fetch`). */
  fetch?: typeof fetch;
  /** Allow plain http to non-loopback hosts (test setups only; default false). */
  allowInsecureHttp?: boolean;
  /** Receives progress lines (which server, which step); they never hold a token, secret or code. */
  onLog?: (line: string) => void;
}

/**
 * Checks the options of `new OAuthClient(…)`.
 *
 * @returns the grant (defaulted) and the redirect URL in its normal form
 * @throws {TypeError} naming the wrong option and the form it must take
 * @internal
 */
export function checkOAuthClientOptions(options: OAuthClientOptions): { grant: "authorization_code" | "client_credentials"; redirectUrl: string | undefined } {
  const grant = options.grant ?? "authorization_code";
  if (grant !== "authorization_code" && grant !== "client_credentials") {
    throw new TypeError(`grant must be "authorization_code" or "client_credentials", got ${JSON.stringify(grant)}.`);
  }
  if (options.authorize !== undefined && typeof options.authorize !== "function") throw new TypeError("authorize must be a function.");
  let redirectUrl: string | undefined;
  if (options.redirectUrl !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(String(options.redirectUrl));
    } catch {
      throw new TypeError("redirectUrl must be an absolute URL, e.g. http://127.0.0.1:8765/callback.");
    }
    // "All redirect URIs MUST be either localhost or use HTTPS" (security considerations, communication security).
    if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && (isLoopback(parsed) || options.allowInsecureHttp === true))) {
      throw new TypeError(`redirectUrl must use https, or http on a loopback host (127.0.0.1, [::1], localhost); got a ${parsed.protocol} URL.`);
    }
    redirectUrl = parsed.href;
  }
  if (grant === "authorization_code" && options.authorize !== undefined && redirectUrl === undefined) {
    throw new TypeError("authorize needs a redirectUrl: the address the authorization server sends the user back to.");
  }
  if (grant === "client_credentials" && options.client === undefined) {
    throw new TypeError("The client_credentials grant needs client: { clientId, clientSecret or privateKey } registered with the authorization server.");
  }
  if (options.client !== undefined && (typeof options.client !== "object" || typeof options.client.clientId !== "string" || options.client.clientId === "")) {
    throw new TypeError("client must be { clientId: string, clientSecret?: string }.");
  }
  if (options.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    // "The client_id URL MUST use the "https" scheme and contain a path component."
    if (url?.protocol !== "https:" || url.pathname === "/") {
      throw new TypeError("clientMetadataUrl must be an https URL with a path, e.g. https://app.example.com/oauth/client.json.");
    }
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new TypeError("fetch must be a function.");
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new TypeError("fetch must be a function.");
  return { grant, redirectUrl };
}
