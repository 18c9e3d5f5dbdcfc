/**
 * The HTTP client's error, shared by the POST exchange, the 2025 session and
 * the GET event stream.
 */

/** An HTTP-level failure that carried no JSON-RPC answer (401, 403, 500 with HTML, a lost session, …). */
export class HttpTransportError extends Error {
  /** `"HttpTransportError"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name: string = "HttpTransportError";
  /** The HTTP status. */
  readonly status: number;
  /** The `WWW-Authenticate` challenge on a 401/403, if any. */
  readonly wwwAuthenticate: string | undefined;
  /**
   * True when the server answered 404 to a request carrying this client's
   * 2025 `Mcp-Session-Id`: the session ended on the server, and the
   * 2025-11-25 transport requires a new `initialize` (the client does that
   * once, transparently).
   */
  readonly sessionLost: boolean;

  constructor(status: number, message: string, wwwAuthenticate?: string, options?: { sessionLost?: boolean; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.wwwAuthenticate = wwwAuthenticate;
    this.sessionLost = options?.sessionLost === true;
  }
}

/** The error for an HTTP 404 on a request that carried the session id `what` names. */
export function sessionLostError(what: string): HttpTransportError {
  return new HttpTransportError(
    404,
    `${what} was refused with HTTP 404: the server no longer knows this client's 2025 session (it expired, ` + `was closed, or the server restarted).`,
    undefined,
    { sessionLost: true },
  );
}

/**
 * Carries what `auth` threw out of the authorized fetch, so the transport
 * reports it as it is and not as an unreachable server.
 *
 * @internal
 */
export class AuthFailure {
  constructor(readonly error: unknown) {}
}

/**
 * True when fetch failed because the connection was closed or reset after
 * it connected, before the answer began (undici's `UND_ERR_SOCKET`): the
 * request may have reached the server.
 * @internal
 */
export function socketCut(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } } | null)?.cause?.code === "UND_ERR_SOCKET";
}

/**
 * What a failed fetch is reported as: the error an auth provider threw, the
 * caller's abort reason, the close, or an unreachable server.
 *
 * @param closed - whether the transport was closed meanwhile
 * @param url - the endpoint, named in the unreachable-server message
 * @internal
 */
export function fetchFailure(error: unknown, signal: AbortSignal | undefined, closed: boolean, url: URL): unknown {
  if (error instanceof AuthFailure) return error.error;
  if (signal?.aborted) return signal.reason;
  if (closed) return new Error("The HTTP transport was closed.", { cause: error });
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new Error(`Could not reach the MCP server at ${url.href}: ${cause}`, { cause: error });
}
