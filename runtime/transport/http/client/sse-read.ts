/**
 * Reading a Server-Sent Events body on the client: the response of a POST,
 * or a GET stream. Kept apart from `event-stream.ts` because every SSE
 * response needs it, while only 2025-era sessions need the GET streams.
 *
 * @internal
 */
import type { isJsonRpcResponse, JsonRpcId, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { SseParser } from "../sse.js";

/** A reader of a decoded SSE body, tracked so `close()` can cancel it. */
export type StreamReader = ReadableStreamDefaultReader<string>;

/** Where a reader is registered while it reads (the transport's set, and the request's own entry). */
export interface StreamReaders {
  add(reader: StreamReader): unknown;
  delete(reader: StreamReader): unknown;
}

/** What one SSE body delivered before it ended (or before the awaited answer). */
export interface StreamOutcome {
  /** The response to the awaited request, if it came. */
  answer: JsonRpcResponse | undefined;
  /** The stream's last event id (`Last-Event-ID` to resume from), if it sent any. */
  lastEventId: string | undefined;
  /** The server's last `retry`, in milliseconds. */
  retryMs: number | undefined;
  /** True when at least one event arrived, even an empty priming one. */
  received: boolean;
  /** Why the body broke off (the connection was cut or reset), when it did not end normally. */
  broken?: unknown;
}

/**
 * Reads `body` to its end, or until the response for `awaitedId` arrives,
 * handing every other JSON-RPC message to `onMessage`. Events that are not
 * `message` events, and data that is not JSON (the empty priming event),
 * are skipped; their `id` and `retry` still count. `control.stop`, set here,
 * ends the reading early.
 */
export async function readEventStream(
  // The transport's guard, handed over (the stream kit's): importing it would split it out of the transport's chunk.
  kit: { readonly isJsonRpcResponse: typeof isJsonRpcResponse },
  body: NonNullable<Response["body"]>,
  awaitedId: JsonRpcId | undefined,
  onMessage: (message: unknown) => void,
  streams: StreamReaders,
  maxEventChars = Number.POSITIVE_INFINITY,
  control?: { stop?: () => void },
): Promise<StreamOutcome> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  streams.add(reader);
  // The caller may stop reading early (the answer can no longer come): the pending read then ends as done.
  if (control) control.stop = () => void reader.cancel().catch(() => {});
  let answer: JsonRpcResponse | undefined;
  let received = false;
  const parser = new SseParser((event) => {
    received = true;
    if (answer || event.event !== "message") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.data);
    } catch {
      return;
    }
    if (awaitedId !== undefined && kit.isJsonRpcResponse(parsed) && parsed.id === awaitedId) answer = parsed;
    else onMessage(parsed);
  }, maxEventChars);
  let broken: unknown;
  try {
    while (!answer) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // The connection was cut or reset mid-stream: what arrived so far (the last event id) still counts.
        broken = error ?? new Error("the stream broke off");
        break;
      }
      const { done, value } = chunk;
      if (done) {
        parser.end();
        break;
      }
      parser.push(value);
    }
  } finally {
    streams.delete(reader);
    await reader.cancel().catch(() => {});
  }
  // An id line is seen by the parser even when its event never dispatches.
  const outcome: StreamOutcome = { answer, lastEventId: parser.lastEventId, retryMs: parser.retry, received: received || parser.lastEventId !== undefined };
  if (broken !== undefined) outcome.broken = broken;
  return outcome;
}
