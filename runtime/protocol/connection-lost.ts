/**
 * The error of a wire that broke under a request: thrown by transports,
 * named by the client, so it lives on the floor both import.
 *
 * @module
 */

/**
 * The connection carrying a request broke before its answer arrived (an
 * HTTP response stream cut mid-call, a socket reset, a stdio server process
 * that exited) and could not be resumed: the server offered no event ids to
 * resume from, or resuming failed. The request may or may not have run on the server; sending it
 * again is the caller's decision (`retryable` says it is safe to try).
 */
export class ConnectionLost extends Error {
  /** Always `"ConnectionLost"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "ConnectionLost" as const;
  /** True: the connection failed, not the request; it may be sent again (mind tools that are not idempotent). */
  readonly retryable = true as const;
  /** The request's method. */
  readonly method: string;

  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.method = method;
  }
}
