/**
 * The transport's side of its lazily loaded stream modules (SSE answers,
 * the 2025 GET stream, the dispatch of server messages): the kit they
 * borrow from this chunk, and the dispatcher, built with the first event
 * stream and handed the handlers the client installed before it. Part of
 * the transport's chunk, so a client whose server answers in JSON loads
 * none of the stream modules.
 *
 * @internal
 * @module
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import { isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse, type JsonRpcNotification, type JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import type { ServerRequestHandler } from "../../../protocol/contracts.js";
import { ConnectionLost } from "../../../protocol/connection-lost.js";
import { fetchFailure, HttpTransportError, sessionLostError } from "./errors.js";
import type { StreamKit } from "./event-stream.js";
import type { ServerMessages } from "./server-messages.js";
import { CLOSED_MESSAGE, eitherSignal, mediaTypeOf, reasonOf, sleep } from "./shared.js";

/**
 * What the lazily loaded stream modules borrow from this chunk: handed
 * over, never imported, so a splitting bundler keeps all of it here (see
 * `StreamHost.kit`).
 * @internal
 */
export const STREAM_KIT: StreamKit = Object.freeze({
  HttpTransportError,
  JsonRpcErrorCode,
  errorResponse,
  eitherSignal,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  mediaTypeOf,
  reasonOf,
  sleep,
  sessionLostError,
  fetchFailure,
  ConnectionLost,
  closedMessage: CLOSED_MESSAGE,
});

/** The stream-reading module's reader, and the dispatcher of server messages. @internal */
export interface LoadedStreams {
  readonly readStreamAnswer: typeof import("./sse-response.js").readStreamAnswer;
  readonly messages: ServerMessages;
}

/** @internal */
export class StreamModules {
  /** Dispatches what the server sends on event streams; built with the first stream, its module loaded with it. */
  #messages: ServerMessages | undefined;
  /** The handlers the client installed, kept here until (and after) `#messages` exists. */
  #requestHandler: ServerRequestHandler | undefined;
  #notificationHandler: ((notification: JsonRpcNotification) => void) | undefined;

  /**
   * @param post - POSTs an answer to the server; says whether it carried the session id.
   * @param quiet - true once undeliverable answers are expected (the transport closed).
   */
  constructor(
    private readonly post: (response: JsonRpcResponse) => Promise<{ response: Response; sentSession: boolean }>,
    private readonly warn: (message: string) => void,
    private readonly quiet: () => boolean,
  ) {}

  /** The stream-reading module, and the dispatcher of server messages built from it on first use. */
  async load(): Promise<LoadedStreams> {
    const { readStreamAnswer, ServerMessages } = await import("./sse-response.js");
    if (this.#messages === undefined) {
      this.#messages = new ServerMessages(STREAM_KIT, this.post, this.warn, this.quiet);
      this.#messages.requestHandler = this.#requestHandler;
      this.#messages.notificationHandler = this.#notificationHandler;
    }
    return { readStreamAnswer, messages: this.#messages };
  }

  /** Answers the server's requests. */
  setRequestHandler(handler: ServerRequestHandler): void {
    this.#requestHandler = handler;
    if (this.#messages !== undefined) this.#messages.requestHandler = handler;
  }

  /** Receives notifications no call listens for. */
  setNotificationHandler(handler: (notification: JsonRpcNotification) => void): void {
    this.#notificationHandler = handler;
    if (this.#messages !== undefined) this.#messages.notificationHandler = handler;
  }
}
