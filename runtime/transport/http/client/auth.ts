/**
 * The HTTP client's hook for authorization schemes that can recover from a
 * refusal (OAuth in `mcp-roundtrip/ext/oauth`, or your own): the credentials of
 * each request, and what to do when the server answers 401 or 403.
 */

/** A refusal the server sent: what {@link HttpClientAuth.unauthorized} is asked to fix. */
export interface HttpAuthChallenge {
  /** 401 (no or bad credentials) or 403 (for example `insufficient_scope`). */
  readonly status: 401 | 403;
  /** The `WWW-Authenticate` header, if the server sent one. */
  readonly wwwAuthenticate: string | undefined;
  /** The MCP endpoint that refused. */
  readonly endpoint: URL;
  /** How many times this request was already retried after a refusal (0 on the first). */
  readonly attempt: number;
  /** The request's abort signal, if it has one. */
  readonly signal?: AbortSignal;
}

/**
 * Authorizes the requests of a {@link StreamableHttpClientTransport}: the
 * `Authorization` value of each request, and the recovery from a refusal.
 * `mcp-roundtrip/ext/oauth`'s `OAuthClient` implements it.
 */
export interface HttpClientAuth {
  /** The `Authorization` header value for a request to `endpoint` (e.g. `"Bearer …"`), or `undefined` to send none. */
  authorization(endpoint: URL): string | undefined | Promise<string | undefined>;
  /**
   * The server refused a request with 401 or 403: obtain new credentials and
   * resolve `true` to send the request again, `false` to give up (the caller
   * then sees the refusal as an `HttpTransportError`). A rejection fails the
   * request with that error.
   */
  unauthorized(challenge: HttpAuthChallenge): Promise<boolean>;
}

/** How many times one request is sent again after a refusal before the refusal is final (the spec: "no more than a few times"). */
const MAX_AUTH_RETRIES = 3;

/**
 * Sends one request with `auth`'s credentials; on a 401 or 403 lets `auth`
 * recover and sends it again, at most {@link MAX_AUTH_RETRIES} times.
 *
 * Loaded by the transport on its first request with `auth`, so a client
 * without OAuth never carries it; it imports nothing.
 *
 * @param headers - the request's headers; `authorization` is set (or removed) per attempt.
 * @param AuthFailure - the transport's wrapper for what `auth` throws
 * @throws what `auth` threw, wrapped in `AuthFailure`; what `fetch` throws, as it is.
 * @internal
 */
export async function fetchAuthorized(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit,
  headers: Record<string, string>,
  auth: HttpClientAuth,
  AuthFailure: new (error: unknown) => unknown,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let value: string | undefined;
    try {
      value = await auth.authorization(url);
    } catch (error) {
      throw new AuthFailure(error);
    }
    if (value) headers.authorization = value;
    else delete headers.authorization;
    const response = await fetchImpl(url, { ...init, headers });
    const status = response.status;
    if ((status !== 401 && status !== 403) || attempt >= MAX_AUTH_RETRIES) return response;
    const challenge: HttpAuthChallenge = {
      status,
      wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
      endpoint: url,
      attempt,
      ...(init.signal ? { signal: init.signal } : {}),
    };
    let retry: boolean;
    try {
      retry = await auth.unauthorized(challenge);
    } catch (error) {
      await response.body?.cancel().catch(() => {});
      throw new AuthFailure(error);
    }
    if (!retry) return response;
    await response.body?.cancel().catch(() => {});
  }
}
