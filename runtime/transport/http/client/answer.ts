/**
 * Reading a POST's non-stream answer: the JSON-RPC response it carries, or
 * the HTTP failure it reports (credentials, a lost 2025 session, a server
 * error page).
 *
 * @internal
 */
import { isJsonRpcErrorResponse, isJsonRpcResponse, type JsonRpcRequest, type JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { HttpTransportError, sessionLostError } from "./errors.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";

/** How a 400 says the session id names no session. */
const SESSION_GONE = /\b(no valid|invalid|unknown|expired)\b.*\bsession\b|\bsession\b.*\b(not found|expired|unknown)\b/i;

/**
 * The JSON-RPC answer in a non-stream body `text`.
 *
 * @param sentSession - whether the POST carried an `Mcp-Session-Id`.
 * @param url - the endpoint, named when the failure may be a wrong address.
 * @throws HttpTransportError for 401 and 403 (whatever the body), for a 404 to a session, and for any error status without a JSON-RPC body.
 * @internal
 */
export function answerOf(response: Response, message: JsonRpcRequest, text: string, sentSession: boolean, url: URL): JsonRpcResponse {
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
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
  if (isJsonRpcResponse(body)) {
    // Some servers answer protocol rejections without an id; it is still this request's answer.
    if (isJsonRpcErrorResponse(body) && (body.id === undefined || body.id === null)) {
      return errorResponse(message.id, body.error);
    }
    return body;
  }
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    const advice = response.status === 404 ? " Check the URL." : "";
    throw new HttpTransportError(response.status, `${message.method} to ${url.href} failed with ${status}.${advice}`, challenge);
  }
  throw new HttpTransportError(response.status, `${message.method}: the HTTP ${response.status} answer of ${url.href} was not a JSON-RPC response.`);
}
