/**
 * What a POST's non-stream answer that is no plain JSON-RPC response means
 * (credentials, a lost 2025 session, a server error page): loaded the first
 * time one arrives, so its messages stay out of the browser entry. Handed
 * what it shares with the transport's chunk ({@link FailureKit}).
 *
 * @internal
 * @module
 */
import type { isJsonRpcErrorResponse, isJsonRpcResponse, JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { HttpTransportError, sessionLostError } from "./errors.js";

/** What this module borrows from the transport's chunk. @internal */
export interface FailureKit {
  readonly HttpTransportError: typeof HttpTransportError;
  readonly sessionLostError: typeof sessionLostError;
  readonly isJsonRpcErrorResponse: typeof isJsonRpcErrorResponse;
  readonly isJsonRpcResponse: typeof isJsonRpcResponse;
}

/** How a 400 says the session id names no session. */
const SESSION_GONE = /\b(no valid|invalid|unknown|expired)\b.*\bsession\b|\bsession\b.*\b(not found|expired|unknown)\b/i;

/**
 * The JSON-RPC answer `body` is after all (a 400 to a session that is still
 * there, an error status with a JSON-RPC error), or the failure it reports.
 *
 * @throws HttpTransportError for 401 and 403 (whatever the body), for a 404 to a session, and for any error status without a JSON-RPC body.
 * @internal
 */
export function answerOrFailure(
  { HttpTransportError, sessionLostError, isJsonRpcErrorResponse, isJsonRpcResponse }: FailureKit,
  response: Response,
  message: JsonRpcRequest,
  body: unknown,
  sentSession: boolean,
  url: URL,
): JsonRpcResponse {
  // Only a refusal carries a challenge worth reading; a 200 skips the header lookup.
  const challenge = response.ok ? undefined : (response.headers.get("www-authenticate") ?? undefined);
  if (response.status === 401 || response.status === 403) {
    // Refusals of the caller (a token, a scope, an Origin or Host) are theirs to fix, never a protocol answer,
    // so they never reach version negotiation as JSON-RPC errors either, whatever the body says.
    const said = isJsonRpcErrorResponse(body) ? ` (${body.error.message})` : "";
    const reason =
      response.status === 401
        ? "the server requires a valid bearer token (pass options.token, or options.auth for OAuth)"
        : challenge
          ? "the token lacks a required scope"
          : "the server refused this client: check the token, and the Origin and Host the server accepts";
    throw new HttpTransportError(response.status, `${message.method} was refused with HTTP ${response.status}: ${reason}${said}.`, challenge);
  }
  // "MUST respond to requests containing that session ID with HTTP 404" (2025-11-25 transports,
  // "Session Management" 3): whatever the body says, the session is gone.
  if (response.status === 404 && sentSession) throw sessionLostError(message.method);
  // Servers built on the older SDK's README wiring (server-everything among them) answer an id they no longer
  // hold with 400 "No valid session ID provided": the session is just as gone, so renew it the same way.
  if (response.status === 400 && sentSession && isJsonRpcErrorResponse(body) && SESSION_GONE.test(body.error.message)) {
    throw sessionLostError(message.method);
  }
  if (isJsonRpcResponse(body)) return body;
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    const advice = response.status === 404 ? " Check the URL." : "";
    throw new HttpTransportError(response.status, `${message.method} to ${url.href} failed with ${status}.${advice}`, challenge);
  }
  throw new HttpTransportError(response.status, `${message.method}: the HTTP ${response.status} answer of ${url.href} was not a JSON-RPC response.`);
}
