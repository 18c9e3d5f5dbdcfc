/**
 * Messages a 2025-era server starts, arriving on a response stream or on
 * the GET stream: notifications go to a listener, requests to the handler
 * the client installed, and each request's answer goes back as a POST.
 *
 * @internal
 */
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { ServerRequestHandler } from "../../../protocol/contracts.js";
import type { HttpTransportError } from "./errors.js";
import type { StreamKit } from "./event-stream.js";

/**
 * Waits before sending an answer again after a failure that may not have
 * reached the server (no response, or a proxy's 502/503/504); a server
 * ignores an answer it already has.
 */
const ANSWER_RETRY_MS = [100, 400];
const RETRIED_STATUSES = new Set([502, 503, 504]);

/** Receives one notification. */
export type NotificationListener = (notification: JsonRpcNotification) => void;

/** @internal */
export class ServerMessages {
  /** Answers the server's requests (installed by the client's negotiation). */
  requestHandler: ServerRequestHandler | undefined;
  /** Receives notifications no call listens for. */
  notificationHandler: NotificationListener | undefined;
  readonly #reply: (response: JsonRpcResponse) => Promise<{ response: Response; sentSession: boolean }>;
  readonly #warn: (message: string) => void;
  readonly #quiet: () => boolean;
  readonly #kit: StreamKit;

  /**
   * @param reply - POSTs an answer to the server; says whether it carried the session id.
   * @param quiet - true once undeliverable answers are expected (the transport closed).
   */
  constructor(
    kit: StreamKit,
    reply: (response: JsonRpcResponse) => Promise<{ response: Response; sentSession: boolean }>,
    warn: (message: string) => void,
    quiet: () => boolean,
  ) {
    this.#kit = kit;
    this.#reply = reply;
    this.#warn = warn;
    this.#quiet = quiet;
  }

  /**
   * Routes one message: a notification to `onNotification` (a call's
   * listener) or else the handler, a request to the request handler (its
   * answer's delivery is pushed to `answers` when given). Responses nobody
   * awaits are dropped. `onUnanswerable` hears when an answer cannot reach
   * the server that asked (refused with 404 for the session, or undelivered
   * after two more tries): the call whose stream carried the request would
   * wait for good, so it fails with that error instead.
   */
  dispatch(
    message: unknown,
    onNotification: NotificationListener | undefined,
    answers: Promise<void>[] | undefined,
    related?: JsonRpcId,
    onUnanswerable?: (error: HttpTransportError) => void,
  ): void {
    const { isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse, reasonOf } = this.#kit;
    if (isJsonRpcResponse(message)) return;
    if (isJsonRpcNotification(message)) {
      try {
        (onNotification ?? this.notificationHandler)?.(message);
      } catch (error) {
        this.#warn(`A notification handler threw: ${reasonOf(error)}`);
      }
    } else if (isJsonRpcRequest(message)) {
      const answered = this.#answer(message, related, onUnanswerable);
      answers?.push(answered);
    }
  }

  async #answer(request: JsonRpcRequest, related: JsonRpcId | undefined, onUnanswerable: ((error: HttpTransportError) => void) | undefined): Promise<void> {
    const { HttpTransportError, JsonRpcErrorCode, errorResponse, reasonOf, sessionLostError, sleep } = this.#kit;
    const handler = this.requestHandler;
    const reply: JsonRpcResponse = handler
      ? await handler(request, { relatedRequestId: related }).catch(() =>
          errorResponse(request.id, { code: JsonRpcErrorCode.InternalError, message: "The client failed to handle the request" }),
        )
      : errorResponse(request.id, { code: JsonRpcErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      let status = 0;
      try {
        const { response, sentSession } = await this.#reply(reply);
        await response.body?.cancel().catch(() => {});
        if (response.ok) return;
        // 404 to the session id: this session is gone where the answer went (2025-11-25 "Session Management" 4), and
        // the call waiting on it would wait for good; it fails as a lost session, which the client renews and resends.
        if (response.status === 404 && sentSession && onUnanswerable)
          return onUnanswerable(sessionLostError(`The answer to the server's ${request.method} request`));
        if (!RETRIED_STATUSES.has(response.status))
          return this.#warn(`The server refused the answer to its ${request.method} request with HTTP ${response.status}.`);
        failure = `HTTP ${response.status}`;
        status = response.status;
      } catch (error) {
        if (this.#quiet()) return;
        failure = reasonOf(error);
      }
      if (attempt === ANSWER_RETRY_MS.length) {
        const message = `Could not deliver the answer to the server's ${request.method} request (${failure}, 3 tries)`;
        this.#warn(`${message}.`);
        // Without its answer the server never finishes the call: fail it rather than wait.
        onUnanswerable?.(new HttpTransportError(status, `${message}: the call cannot complete; send it again.`));
        return;
      }
      await sleep(ANSWER_RETRY_MS[attempt]!, undefined);
    }
  }
}
