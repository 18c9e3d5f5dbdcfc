/**
 * Reading a POST's SSE response to the JSON-RPC answer it carries: the
 * messages the server sends before the answer are dispatched as they come,
 * and a 2025-era stream that ends early after giving an event id is resumed
 * with GET and `Last-Event-ID` (by the lazily loaded `event-stream.ts`).
 * Loaded by the transport with the first event stream it reads (a POST
 * answered as SSE, or a 2025 session's GET stream), with the dispatcher of
 * server messages: a client whose server answers in JSON never loads it. It
 * imports nothing from the transport's chunk; what it shares comes in the
 * host's kit.
 *
 * @internal
 * @module
 */
import type { JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { TransportRequestOptions } from "../../types.js";
import type { StreamHost } from "./event-stream.js";
import { ServerMessages } from "./server-messages.js";
import { readEventStream, type StreamReaders } from "./sse-read.js";

export { ServerMessages };

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
  const { HttpTransportError, eitherSignal } = host.kit;
  const body = response.body;
  if (!body) throw new HttpTransportError(response.status, `${message.method}: the SSE response had no body.`);
  const serverRequests: Promise<void>[] = [];
  // An answer of ours that cannot reach the server (its session lost there, or undeliverable): stop waiting.
  let lost: InstanceType<typeof HttpTransportError> | undefined;
  const control: { stop?: () => void } = {};
  const onLost = (error: InstanceType<typeof HttpTransportError>) => {
    lost ??= error;
    control.stop?.();
  };
  const onMessage = (parsed: unknown) => messages.dispatch(parsed, options.onNotification, serverRequests, message.id, onLost);
  let answer: JsonRpcResponse | undefined;
  try {
    const outcome = await readEventStream(host.kit, body, message.id, onMessage, readers, host.maxEventChars, control);
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
    } else if (answer === undefined && outcome.broken !== undefined) {
      throw (await import("./lost.js")).brokenStream(host.kit.ConnectionLost, message.method, host.url, outcome.broken);
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
