/**
 * Where the OAuth client keeps what it obtained: tokens per MCP resource
 * and registered clients per authorization server. An interface, so an app
 * can persist them (a keychain, an encrypted file, a session store); in
 * memory by default.
 */

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** The tokens obtained for one MCP resource. Treat every field as a secret. */
export interface OAuthTokens {
  /** The access token sent as `Authorization: Bearer …`. */
  accessToken: string;
  /** The refresh token, if the authorization server issued one. */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch, if the server said. */
  expiresAt?: number;
  /** The scope the server granted, if it said. */
  scope?: string;
  /** The scope this client asked for (kept so a step-up asks for the union, not for less). */
  requestedScope?: string;
  /** The issuer of the authorization server that issued them: tokens of another issuer are never sent. */
  issuer: string;
  /** The `resource` (RFC 8707) they were requested for; a refresh asks for the same. */
  resource?: string;
}

/** A client registration with one authorization server (dynamic registration's answer). Treat `clientSecret` as a secret. */
export interface OAuthClientRegistration {
  /** The id the authorization server assigned. */
  clientId: string;
  /** Present when the server issued one (a confidential registration). */
  clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  tokenEndpointAuthMethod?: string;
  /** The redirect URIs it was registered with; a client with another redirect URI registers anew. */
  redirectUris?: string[];
}

/**
 * An authorization waiting for the user's return: what checking the response
 * and exchanging its code need. Holds the PKCE verifier: keep it secret.
 */
export interface PendingAuthorization {
  /** The random `state` sent with the request; the response must carry it back, which is how it finds this record. */
  state: string;
  /** The PKCE verifier (RFC 7636) whose challenge the request carried; the code exchange proves possession with it. */
  codeVerifier: string;
  /** The issuer the response must come from (RFC 9207). */
  issuer: string;
  /** The client the request was made as; the code is exchanged as the same client. */
  clientId: string;
  /** The redirect URL of the request, which the code exchange must repeat exactly. */
  redirectUrl: string;
  /** The store key of the MCP endpoint the tokens are for. */
  endpoint: string;
  /** The `resource` (RFC 8707) asked for. */
  resource: string;
  /** The scopes asked for, space-separated, when any were. */
  scope?: string;
  /** When it stops being accepted, in milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Storage for an {@link OAuthClient}. Methods may be sync or async. Tokens
 * are keyed by the MCP endpoint's canonical URL, registrations by the
 * authorization server's issuer; `undefined` deletes.
 */
export interface OAuthStore {
  /** The tokens for `resource`, if any. */
  getTokens(resource: string): Awaitable<OAuthTokens | undefined>;
  /** Keeps (or, with `undefined`, forgets) the tokens for `resource`. */
  setTokens(resource: string, tokens: OAuthTokens | undefined): Awaitable<void>;
  /** This client's registration with `issuer`, if any. */
  getClient(issuer: string): Awaitable<OAuthClientRegistration | undefined>;
  /** Keeps (or forgets) this client's registration with `issuer`. */
  setClient(issuer: string, registration: OAuthClientRegistration | undefined): Awaitable<void>;
  /**
   * Keeps (or forgets) an authorization in progress, by its `state`. Needed
   * only for a full-page redirect (`authorize` resolving with nothing, then
   * `finishAuthorization`); such a store must outlive the page, e.g. on
   * `sessionStorage`.
   */
  setPending?(state: string, pending: PendingAuthorization | undefined): Awaitable<void>;
  /** The authorization in progress with this `state`, if any. */
  getPending?(state: string): Awaitable<PendingAuthorization | undefined>;
}

/**
 * The default {@link OAuthStore}: two maps, gone with the process.
 *
 * @example
 * ```ts
 * const store = new InMemoryOAuthStore();
 * const auth = new OAuthClient({ store, redirectUrl, authorize });
 * ```
 */
export class InMemoryOAuthStore implements OAuthStore {
  readonly #tokens = new Map<string, OAuthTokens>();
  readonly #clients = new Map<string, OAuthClientRegistration>();
  readonly #pending = new Map<string, PendingAuthorization>();

  /** The tokens for `resource`, if any. */
  getTokens(resource: string): OAuthTokens | undefined {
    return this.#tokens.get(resource);
  }

  /** Keeps or forgets the tokens for `resource`. */
  setTokens(resource: string, tokens: OAuthTokens | undefined): void {
    if (tokens === undefined) this.#tokens.delete(resource);
    else this.#tokens.set(resource, { ...tokens });
  }

  /** The registration with `issuer`, if any. */
  getClient(issuer: string): OAuthClientRegistration | undefined {
    return this.#clients.get(issuer);
  }

  /** Keeps or forgets the registration with `issuer`. */
  setClient(issuer: string, registration: OAuthClientRegistration | undefined): void {
    if (registration === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, { ...registration });
  }

  /** Keeps or forgets an authorization in progress. */
  setPending(state: string, pending: PendingAuthorization | undefined): void {
    if (pending === undefined) this.#pending.delete(state);
    else this.#pending.set(state, { ...pending });
  }

  /** The authorization in progress with this `state`, if any. */
  getPending(state: string): PendingAuthorization | undefined {
    return this.#pending.get(state);
  }
}
