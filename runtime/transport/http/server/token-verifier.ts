/**
 * The bearer-token check an HTTP endpoint delegates to its caller: below
 * both the endpoint's options (policy) and the authorization rules built
 * from them, so neither imports the other for it.
 */
import type { AuthInfo } from "../../types.js";

/** What a token verifier gets to look at besides the token. */
export interface HttpRequestInfo {
  /** The HTTP method (`POST`, `GET`, `DELETE`). */
  method: string;
  /** The full request URL. */
  url: string;
  /** Every request header, e.g. to check a DPoP proof or a client certificate header alongside the token. */
  headers: Headers;
  /** The canonical URI of this server (`authorization.resource`): the audience a token must be issued for. */
  resource?: string;
}

/**
 * Checks a bearer token. Resolve the identity it proves, or `null` when the
 * token is not acceptable; a throw is treated like `null` (fails closed).
 */
export type TokenVerifier = (token: string, request: HttpRequestInfo) => AuthInfo | null | undefined | Promise<AuthInfo | null | undefined>;
