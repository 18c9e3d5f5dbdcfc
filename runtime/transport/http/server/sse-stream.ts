/**
 * What both adapters' SSE answers share (the web stream and the
 * `node:http` one extend it): the client going away reported to whoever
 * owns the stream now, the keep-alive link, and the held-stream side the
 * server writes through once a listen request is handed over
 * (`RequestContext.holdStream`). One object per open stream: an idle listen
 * stream keeps this and its runtime's own stream objects, nothing else.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import type { AuthInfo, HeldStream, HeldStreamOwner } from "../../../protocol/context.js";
import { sseEvent } from "../sse.js";
import type { SseAnswer } from "./exchange.js";
import { leaveKeepAlive, type KeptAlive } from "./keep-alive.js";

/** The answer written for a request the server answered with nothing. @internal */
export function noAnswer(id: JsonRpcId): JsonRpcResponse {
  return errorResponse(id, { code: JsonRpcErrorCode.InternalError, message: "Internal error: the server produced no response" });
}

/** @internal */
export abstract class SseStream implements SseAnswer, HeldStream {
  alivePrev: KeptAlive | undefined = undefined;
  aliveNext: KeptAlive | undefined = undefined;
  /** Told when the client goes away: the exchange's callback until the stream is held, then the server's owner. */
  #goneTo: (() => void) | HeldStreamOwner;
  /** The client went away: nothing more reaches it. */
  #gone = false;
  // What the server keeps of a held listen stream, here rather than in an object of its own (set by hold()).
  requestId: JsonRpcId = 0;
  authInfo: AuthInfo | undefined = undefined;
  filter: unknown = undefined;

  constructor(onClose: () => void) {
    this.#goneTo = onClose;
  }

  /** Queues `text`; see {@link HttpStream.write}. */
  abstract write(text: string): boolean;
  abstract drained(): Promise<void> | undefined;
  /** Ends the response (the runtime's side of {@link end}). */
  protected abstract close(): void;

  get owner(): HeldStreamOwner {
    const goneTo = this.#goneTo;
    if (typeof goneTo === "function") throw new TypeError("the stream is not held");
    return goneTo;
  }

  hold(owner: HeldStreamOwner, filter: unknown, requestId: JsonRpcId, authInfo: AuthInfo | undefined): HeldStream {
    this.#goneTo = owner;
    this.filter = filter;
    this.requestId = requestId;
    this.authInfo = authInfo;
    return this;
  }

  end(): void {
    leaveKeepAlive(this);
    this.close();
  }

  /** An SSE comment line, which no client treats as a message: a proxy sees traffic. */
  keepAlive(): void {
    this.write(": keepalive\n\n");
  }

  send(notification: JsonRpcNotification): boolean {
    return this.write(sseEvent(notification));
  }

  finish(response: JsonRpcResponse | undefined): void {
    if (!this.#gone) this.write(sseEvent(response ?? noAnswer(this.requestId)));
    this.end();
  }

  /**
   * The client went away (it cancelled the stream, closed the connection or
   * its request's signal aborted, or it read too slowly): tell the owner.
   * Called by the adapter, maybe more than once; each owner acts once.
   */
  protected clientGone(): void {
    this.#gone = true;
    leaveKeepAlive(this);
    const goneTo = this.#goneTo;
    if (typeof goneTo === "function") goneTo();
    else goneTo.gone(this);
  }

  /** A watch on the request's `AbortSignal` (the stream itself is the listener: no function per stream). */
  handleEvent(): void {
    this.clientGone();
  }
}
