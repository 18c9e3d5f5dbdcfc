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
import { readEventStream } from "./sse-read.js";
import { CLOSED_MESSAGE, eitherSignal, mediaTypeOf, reasonOf, sleep } from "./shared.js";

/** What the lazily loaded event-stream module borrows from the transport's chunk (see `StreamHost.kit`). @internal */
export const STREAM_KIT: StreamKit = Object.freeze({
  HttpTransportError,
  readEventStream,
  mediaTypeOf,
  reasonOf,
  sleep,
  fetchFailure,
  closedMessage: CLOSED_MESSAGE,
});

/**
 * Reads `response`'s event stream to the answer of `message`.
 *
 * @param host - the transport's GET opener, its open readers and the longest event it reads
 * @param resumable - whether a stream that ended early may be resumed now (a 2025 session, not closed)
 * @param shutdown - aborted when the transport closes: ends a resumption's waits
 * @throws HttpTransportError when the stream has no body or ends without the answer
 * @internal
 */
export async function readStreamAnswer(
  response: Response,
  message: JsonRpcRequest,
  options: TransportRequestOptions,
  messages: ServerMessages,
  host: StreamHost,
  resumable: () => boolean,
  shutdown: AbortSignal,
): Promise<JsonRpcResponse> {
  const body = response.body;
  if (!body) throw new HttpTransportError(response.status, `${message.method}: the SSE response had no body.`);
  const serverRequests: Promise<void>[] = [];
  // An answer of ours that cannot reach the server (its session lost there, or undeliverable): stop waiting.
  let lost: HttpTransportError | undefined;
  const control: { stop?: () => void } = {};
  const onLost = (error: HttpTransportError) => {
    lost ??= error;
    control.stop?.();
  };
  const onMessage = (parsed: unknown) => messages.dispatch(parsed, options.onNotification, serverRequests, onLost);
  let answer: JsonRpcResponse | undefined;
  try {
    const outcome = await readEventStream(body, message.id, onMessage, host.streams, host.maxEventChars, control);
    answer = outcome.answer;
    if (answer === undefined && lost !== undefined) throw lost;
    if (answer === undefined && outcome.lastEventId !== undefined && resumable()) {
      const { signal, release } = eitherSignal(shutdown, options.signal);
      try {
        const { resumeForAnswer } = await import("./event-stream.js");
        answer = await resumeForAnswer(host, message.method, message.id, outcome, onMessage, signal);
      } finally {
        release();
      }
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw error;
  }
  await Promise.all(serverRequests);
  if (!answer && lost !== undefined) throw lost;
  if (!answer) {
    throw new HttpTransportError(response.status, `${message.method}: the server closed the SSE stream without a response.`);
  }
  return answer;
}
