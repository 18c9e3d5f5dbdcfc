/**
 * Messages a 2025-era server starts, arriving on a response stream or on
 * the GET stream: notifications go to a listener, requests to the handler
 * the client installed, and each request's answer goes back as a POST.
 *
 * @internal
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../../protocol/jsonrpc/messages.js";
import { sessionLostError, type HttpTransportError } from "./errors.js";
import { reasonOf } from "./shared.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";

/** Receives one notification. */
export type NotificationListener = (notification: JsonRpcNotification) => void;

/** @internal */
export class ServerMessages {
  /** Answers the server's requests (installed by the client's negotiation). */
  requestHandler: ((request: JsonRpcRequest) => Promise<JsonRpcResponse>) | undefined;
  /** Receives notifications no call listens for. */
  notificationHandler: NotificationListener | undefined;
  readonly #reply: (response: JsonRpcResponse) => Promise<{ response: Response; sentSession: boolean }>;
  readonly #warn: (message: string) => void;
  readonly #quiet: () => boolean;

  /**
   * @param reply - POSTs an answer to the server; says whether it carried the session id.
   * @param quiet - true once undeliverable answers are expected (the transport closed).
   */
  constructor(reply: (response: JsonRpcResponse) => Promise<{ response: Response; sentSession: boolean }>, warn: (message: string) => void, quiet: () => boolean) {
    this.#reply = reply;
    this.#warn = warn;
    this.#quiet = quiet;
  }

  /**
   * Routes one message: a notification to `onNotification` (a call's
   * listener) or else the handler, a request to the request handler (its
   * answer's delivery is pushed to `answers` when given). Responses nobody
   * awaits are dropped. `onSessionLost` hears when an answer was refused
   * with 404 for the session: the request that asked can then never be
   * answered, so the call whose stream carried it must not wait for it.
   */
  dispatch(
    message: unknown,
    onNotification: NotificationListener | undefined,
    answers: Promise<void>[] | undefined,
    onSessionLost?: (error: HttpTransportError) => void,
  ): void {
    if (isJsonRpcResponse(message)) return;
    if (isJsonRpcNotification(message)) {
      try {
        (onNotification ?? this.notificationHandler)?.(message);
      } catch (error) {
        this.#warn(`A notification handler threw: ${reasonOf(error)}`);
      }
    } else if (isJsonRpcRequest(message)) {
      const answered = this.#answer(message, onSessionLost);
      answers?.push(answered);
    }
  }

  async #answer(request: JsonRpcRequest, onSessionLost: ((error: HttpTransportError) => void) | undefined): Promise<void> {
    const handler = this.requestHandler;
    const reply: JsonRpcResponse = handler
      ? await handler(request).catch(() => errorResponse(request.id, { code: JsonRpcErrorCode.InternalError, message: "The client failed to handle the request" }))
      : errorResponse(request.id, { code: JsonRpcErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    try {
      const { response, sentSession } = await this.#reply(reply);
      await response.body?.cancel().catch(() => {});
      // 404 to the session id: this session is gone where the answer went (2025-11-25 "Session Management" 4), and
      // the call waiting on it would wait for good; it fails as a lost session, which the client renews and resends.
      if (response.status === 404 && sentSession && onSessionLost) onSessionLost(sessionLostError(`The answer to the server's ${request.method} request`));
      else if (!response.ok) this.#warn(`The server refused the answer to its ${request.method} request with HTTP ${response.status}.`);
    } catch (error) {
      if (!this.#quiet()) this.#warn(`Could not deliver the answer to the server's ${request.method} request: ${reasonOf(error)}`);
    }
  }
}
