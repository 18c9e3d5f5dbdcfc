/**
 * Reading a POST's non-stream answer: the JSON-RPC response it carries. A
 * refusal, a lost 2025 session or a body that is no JSON-RPC answer (a
 * server error page) is read by `answer-failure.ts`, loaded then.
 *
 * @internal
 */
import { isJsonRpcErrorResponse, isJsonRpcResponse, type JsonRpcRequest, type JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { HttpTransportError, sessionLostError } from "./errors.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import type { FailureKit } from "./answer-failure.js";

/** What the failure module borrows from this chunk (handed over, so it imports none of it). */
const FAILURE_KIT: FailureKit = Object.freeze({ HttpTransportError, sessionLostError, isJsonRpcErrorResponse, isJsonRpcResponse });

/**
 * The JSON-RPC answer in a non-stream body `text`.
 *
 * @param sentSession - whether the POST carried an `Mcp-Session-Id`.
 * @param url - the endpoint, named when the failure may be a wrong address.
 * @returns the answer, or a promise of it when the body is no plain JSON-RPC answer (its reading loads then)
 * @throws HttpTransportError for 401 and 403 (whatever the body), for a 404 to a session, and for any error status without a JSON-RPC body.
 * @internal
 */
export function answerOf(response: Response, message: JsonRpcRequest, text: string, sentSession: boolean, url: URL): JsonRpcResponse | Promise<JsonRpcResponse> {
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const { status } = response;
  // Refusals of the caller, and a 404 or 400 to a session, are read whatever the body says.
  const suspect = status === 401 || status === 403 || (sentSession && (status === 404 || status === 400));
  if (!suspect && isJsonRpcResponse(body)) return withId(body, message);
  return import("./answer-failure.js").then((failure) => withId(failure.answerOrFailure(FAILURE_KIT, response, message, body, sentSession, url), message));
}

/** `answer`, with `message`'s id when it came without one: some servers answer protocol rejections so, and it is still this request's answer. */
function withId(answer: JsonRpcResponse, message: JsonRpcRequest): JsonRpcResponse {
  return isJsonRpcErrorResponse(answer) && (answer.id === undefined || answer.id === null) ? errorResponse(message.id, answer.error) : answer;
}
