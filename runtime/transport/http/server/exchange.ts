/**
 * The two small interfaces the Streamable HTTP core drives: one HTTP
 * exchange's request side and reply side. The web-standard handler and the
 * `node:http` adapter each implement them.
 */
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import type { AuthInfo, HeldStream, HeldStreamOwner } from "../../../protocol/context.js";
import type { JsonRpcId } from "../../../protocol/jsonrpc/messages.js";
import type { KeptAlive } from "./keep-alive.js";

/** The request side of one HTTP exchange, as the core needs it. */
export interface IncomingHttp {
  method: string;
  /** A header value by lower-case name, or null. */
  header(name: string): string | null;
  /** All headers (built on demand: the node path avoids it on the hot path). */
  headers(): Headers;
  url(): string;
  /**
   * Reads the body, bounded: `onBody` gets its bytes, or `null` when it
   * exceeds `limit` bytes; `onError` gets a failure to read it. Exactly one
   * of them is called, once. Callbacks rather than a promise, so that on
   * `node:http` a body is served in the turn its last chunk arrived; the
   * caller's callbacks catch whatever they run.
   */
  readBody(limit: number, onBody: (body: Uint8Array | null) => void, onError: (error: unknown) => void): void;
  /**
   * Registers `listener` to run once if the client goes away before the
   * response is complete, or at once if it already has (a callback rather
   * than an `AbortSignal`: signals are costly to create per request). The
   * core calls it only when a handler reads its signal or a stream opens;
   * once a stream opens, the watch moves to the stream (see
   * {@link HttpReply.stream}).
   */
  onGone(listener: () => void): void;
}

/**
 * An open SSE response. What the client has not read yet waits in the
 * connection's buffer; a writer that gets ahead of its reader by more than
 * the stream's byte bound is cut instead of buffered without end.
 */
export interface HttpStream {
  /**
   * Queues `text` for the client. When the bytes already waiting plus
   * `text` would exceed the stream's bound (and something is waiting), the
   * connection is closed instead, reported like a client that went away,
   * and `false` is returned; `false` too once the connection is gone.
   */
  write(text: string): boolean;
  /**
   * `undefined` while the reader keeps up; else a promise that resolves
   * once the waiting bytes were flushed (`drain`, or the web stream pulling
   * again) or the connection closed, so a producer that awaits it goes at
   * the reader's pace.
   */
  drained(): Promise<void> | undefined;
  end(): void;
}

/**
 * An SSE answer as the core keeps it: a stream it writes, which the
 * keep-alive list can link (a listen stream's), and which can be handed to
 * the server once it is the only thing of the request still needed (see
 * `RequestContext.holdStream`). It outlives its exchange: it keeps nothing
 * of the request.
 */
export interface SseAnswer extends HttpStream, KeptAlive {
  /**
   * Hands the stream to the server: the client going away is told to
   * `owner` from now on, no longer to the `onClose` it was opened with.
   */
  hold(owner: HeldStreamOwner, filter: unknown, requestId: JsonRpcId, authInfo: AuthInfo | undefined): HeldStream;
}

/** The response side of one HTTP exchange. */
export interface HttpReply {
  /** Sends a complete response; does nothing if the client already closed the connection. */
  send(status: number, headers: Record<string, string>, body: string): void;
  /**
   * Starts a `200` SSE response; `onClose` fires if the client closes it
   * early. `maxBufferedBytes` bounds what may wait for a slow reader (see
   * {@link HttpStream.write}). With `paced: false` no producer waits on
   * {@link HttpStream.drained} (a listen stream's deliveries do not), and
   * an adapter may skip what pacing costs per stream. A watch for the
   * client going away that {@link IncomingHttp.onGone} started moves to
   * the stream, which reports to `onClose` until it is held: pass the
   * same callback to both.
   */
  stream(headers: Record<string, string>, onClose: () => void, maxBufferedBytes: number, paced?: boolean): SseAnswer;
  /**
   * Writing the server's answer failed (the error is reported already): a
   * bare `500` when nothing went out yet; else the adapter ends what it
   * started as best it can. The core calls it itself once the server has
   * the message, so a long-lived answer keeps no failure handler of the
   * adapter's waiting on it.
   */
  failed(): void;
}

/**
 * The headers of every JSON answer. Shared, never modified: an adapter may
 * recognise it by identity to build its own header object cheaply.
 * @internal
 */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });
/** The headers of every SSE answer. @internal */
export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/**
 * A JSON-RPC error response body; the id is echoed only when it is one a
 * response may carry (a string or a number).
 * @internal
 */
export function errorBody(id: unknown, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify(errorResponse(typeof id === "string" || typeof id === "number" ? id : undefined, error));
}

/**
 * Answers with a JSON-RPC error and the HTTP status that goes with it.
 * @param id - echoed in the body when it is a string or a number.
 * @param extra - headers sent besides `content-type`.
 * @internal
 */
export function refuse(reply: HttpReply, status: number, code: number, message: string, id?: unknown, extra?: Record<string, string>): void {
  reply.send(status, extra === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extra }, errorBody(id, code, message));
}
