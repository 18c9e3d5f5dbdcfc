/**
 * Reading a POST's SSE response to the JSON-RPC answer it carries: the
 * messages the server sends before the answer are dispatched as they come,
 * and a 2025-era stream that ends early after giving an event id is resumed
 * with GET and `Last-Event-ID` (by the lazily loaded `event-stream.ts`, which
 * borrows its helpers from here rather than importing them).
 *
 * @internal
 * @module
 */
import type { JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { TransportRequestOptions } from "../../types.js";
import { fetchFailure, HttpTransportError } from "./errors.js";
import type { StreamHost, StreamKit } from "./event-stream.js";
import type { ServerMessages } from "./server-messages.js";
import { readEventStream, type StreamReaders } from "./sse-read.js";
import { ConnectionLost } from "../../../protocol/connection-lost.js";
import { CLOSED_MESSAGE, eitherSignal, mediaTypeOf, reasonOf, sleep } from "./shared.js";

/** What the lazily loaded event-stream module borrows from the transport's chunk (see `StreamHost.kit`). @internal */
export const STREAM_KIT: StreamKit = Object.freeze({
  HttpTransportError,
  readEventStream,
  mediaTypeOf,
  reasonOf,
  sleep,
  fetchFailure,
  ConnectionLost,
  closedMessage: CLOSED_MESSAGE,
});

/**
 * Reads `response`'s event stream to the answer of `message`.
 *
 * @param host - the transport's GET opener, its open readers and the longest event it reads
 * @param readers - where the body's reader registers, so `close()` and `cancel(id)` can stop it
 * @param resumable - whether a stream that ended early may be resumed now (a 2025 session, not closed, the call still wanted)
 * @param shutdown - aborted when the transport closes: ends a resumption's waits
 * @throws HttpTransportError when the stream has no body or ends without the answer
 * @throws ConnectionLost when the connection broke off before the answer and could not be resumed
 * @internal
 */
export async function readStreamAnswer(
  response: Response,
  message: JsonRpcRequest,
  options: TransportRequestOptions,
  messages: ServerMessages,
  host: StreamHost,
  readers: StreamReaders,
  resumable: () => boolean,
  shutdown: AbortSignal,
): Promise<JsonRpcResponse> {
  const body = response.body;
  if (!body) throw new HttpTransportError(response.status, `${message.method}: the SSE response had no body.`);
  const serverRequests: Promise<void>[] = [];
  const onMessage = (parsed: unknown) => messages.dispatch(parsed, options.onNotification, serverRequests, message.id);
  let answer: JsonRpcResponse | undefined;
  try {
    const outcome = await readEventStream(body, message.id, onMessage, readers, host.maxEventChars);
    answer = outcome.answer;
    if (answer === undefined && outcome.lastEventId !== undefined && resumable()) {
      const { signal, release } = eitherSignal(shutdown, options.signal);
      try {
        const { resumeForAnswer } = await import("./event-stream.js");
        answer = await resumeForAnswer(host, message.method, message.id, outcome, onMessage, signal);
      } finally {
        release();
      }
    } else if (answer === undefined && outcome.broken !== undefined) {
      throw (await import("./lost.js")).brokenStream(ConnectionLost, message.method, host.url, outcome.broken);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw error;
  }
  await Promise.all(serverRequests);
  if (!answer) {
    throw new HttpTransportError(response.status, `${message.method}: the server closed the SSE stream without a response.`);
  }
  return answer;
}
