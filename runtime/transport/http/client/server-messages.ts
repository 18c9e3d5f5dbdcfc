/**
 * Messages a 2025-era server starts, arriving on a response stream or on
 * the GET stream: notifications go to a listener, requests to the handler
 * the client installed, and each request's answer goes back as a POST.
 *
 * @internal
 */
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { ServerRequestHandler } from "../../../protocol/contracts.js";
import type { StreamKit } from "./event-stream.js";

/** Receives one notification. */
export type NotificationListener = (notification: JsonRpcNotification) => void;

/** @internal */
export class ServerMessages {
  /** Answers the server's requests (installed by the client's negotiation). */
  requestHandler: ServerRequestHandler | undefined;
  /** Receives notifications no call listens for. */
  notificationHandler: NotificationListener | undefined;
  readonly #reply: (response: JsonRpcResponse) => Promise<Response>;
  readonly #warn: (message: string) => void;
  readonly #quiet: () => boolean;
  readonly #kit: StreamKit;

  /**
   * @param reply - POSTs an answer to the server.
   * @param quiet - true once undeliverable answers are expected (the transport closed).
   */
  constructor(kit: StreamKit, reply: (response: JsonRpcResponse) => Promise<Response>, warn: (message: string) => void, quiet: () => boolean) {
    this.#kit = kit;
    this.#reply = reply;
    this.#warn = warn;
    this.#quiet = quiet;
  }

  /**
   * Routes one message: a notification to `onNotification` (a call's
   * listener) or else the handler, a request to the request handler (its
   * answer's delivery is pushed to `answers` when given). Responses nobody
   * awaits are dropped.
   */
  dispatch(message: unknown, onNotification: NotificationListener | undefined, answers: Promise<void>[] | undefined, related?: JsonRpcId): void {
    const { isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse, reasonOf } = this.#kit;
    if (isJsonRpcResponse(message)) return;
    if (isJsonRpcNotification(message)) {
      try {
        (onNotification ?? this.notificationHandler)?.(message);
      } catch (error) {
        this.#warn(`A notification handler threw: ${reasonOf(error)}`);
      }
    } else if (isJsonRpcRequest(message)) {
      const answered = this.#answer(message, related);
      answers?.push(answered);
    }
  }

  async #answer(request: JsonRpcRequest, related: JsonRpcId | undefined): Promise<void> {
    const { JsonRpcErrorCode, errorResponse, reasonOf } = this.#kit;
    const handler = this.requestHandler;
    const reply: JsonRpcResponse = handler
      ? await handler(request, { relatedRequestId: related }).catch(() =>
          errorResponse(request.id, { code: JsonRpcErrorCode.InternalError, message: "The client failed to handle the request" }),
        )
      : errorResponse(request.id, { code: JsonRpcErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    try {
      const response = await this.#reply(reply);
      await response.body?.cancel().catch(() => {});
      if (!response.ok) this.#warn(`The server refused the answer to its ${request.method} request with HTTP ${response.status}.`);
    } catch (error) {
      if (!this.#quiet()) this.#warn(`Could not deliver the answer to the server's ${request.method} request: ${reasonOf(error)}`);
    }
  }
}
