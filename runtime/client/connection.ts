import { McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { ClientTransport, TransportRequestOptions } from "../protocol/contracts.js";
import { ClientClosed, InvalidServerResult } from "./errors.js";
import { mergeMeta } from "./meta.js";
import { DEFAULT_TIMING, type RequestTiming, requestWithin, type TimeoutOptions, timingFor } from "./deadline.js";
import type { JsonObject } from "./protocol.js";

/**
 * Sends a request of a 2025 HTTP session through `send`, starting a new
 * session when the server lost the current one (`session-renewal.ts`).
 */
export type SessionSender = (
  message: JsonRpcRequest,
  send: (message: JsonRpcRequest) => Promise<JsonRpcResponse>,
  signal: AbortSignal | undefined,
) => Promise<JsonRpcResponse>;

/**
 * A call's own notification receiver: returns true for a notification it took,
 * which then does not reach the client-wide `onNotification`. @internal
 */
export type CallReceiver = (notification: JsonRpcNotification) => unknown;

/** Which generation of the protocol the server speaks. */
export type ProtocolEra = "modern" | "legacy";

/**
 * One negotiated wire: the transport, the protocol version and the `_meta`
 * envelope every request carries. Shared by `Client` and its session.
 *
 * @internal
 */
export class Connection {
  readonly transport: ClientTransport;
  readonly era: ProtocolEra;
  /** The per-request envelope (modern era); `undefined` for a legacy server, which takes none. */
  readonly envelope: Readonly<JsonObject> | undefined;
  /** The deadline of a request that names none of its own (the client's options). */
  readonly timing: RequestTiming;
  /**
   * Sends the requests of a 2025 session, starting a new one after the
   * server lost the current one (a 404 to its session id): set by the
   * handshake on transports with sessions.
   */
  inSession: SessionSender | undefined;
  #protocolVersion: string;
  private readonly onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  private lastId = 0;
  private closed = false;

  constructor(init: {
    transport: ClientTransport;
    era: ProtocolEra;
    protocolVersion: string;
    envelope: Readonly<JsonObject> | undefined;
    onNotification?: ((notification: JsonRpcNotification) => void) | undefined;
    /** Continue numbering after a previous connection on the same transport. */
    lastId?: number;
    timing?: RequestTiming | undefined;
  }) {
    this.timing = init.timing ?? DEFAULT_TIMING;
    this.transport = init.transport;
    this.era = init.era;
    this.#protocolVersion = init.protocolVersion;
    this.envelope = init.envelope;
    this.onNotification = init.onNotification;
    this.lastId = init.lastId ?? 0;
  }

  /** The protocol version in use (for a legacy server, the one `initialize` agreed). */
  get protocolVersion(): string {
    return this.#protocolVersion;
  }

  /** Records the version a 2025 `initialize` agreed. */
  agree(version: string): void {
    this.#protocolVersion = version;
  }

  /** The id of the last request sent. */
  get lastIssuedId(): number {
    return this.lastId;
  }

  /** A fresh request id (a request sent again gets one). */
  nextId(): number {
    return ++this.lastId;
  }

  /** True after `close()`. */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Sends one request and resolves with its `result` object. Every call gets
   * a fresh id. `params._meta` is filled from the envelope (merged with
   * `ownMeta`). When a 2025 server lost the session, starts a new one and
   * sends the request once more.
   *
   * @throws McpError when the server answered with a JSON-RPC error.
   * @throws InvalidServerResult when the result is not a JSON object.
   * @throws SessionExpired when the server lost the session and the new one failed too.
   * @throws ClientClosed after `close()`.
   * @throws RequestTimeout when no answer came within the deadline, `timeouts` over the client's (the request is then cancelled on the wire).
   */
  async send(
    method: string,
    params: JsonObject,
    signal: AbortSignal | undefined,
    ownMeta?: JsonObject,
    onNotification?: CallReceiver,
    timeouts?: TimeoutOptions,
  ): Promise<JsonObject> {
    const given = timingFor(timeouts, this.timing);
    const timing = given instanceof Promise ? await given : given;
    if (this.closed) throw new ClientClosed();
    const envelope = this.envelope;
    if (envelope !== undefined) params._meta = mergeMeta(envelope, ownMeta);
    else if (ownMeta !== undefined) params._meta = ownMeta;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id: ++this.lastId, method, params };
    let options: TransportRequestOptions | undefined;
    const deliver = both(onNotification, this.onNotification);
    if (signal !== undefined || deliver !== undefined) {
      options = {};
      if (signal !== undefined) options.signal = signal;
      if (deliver !== undefined) options.onNotification = deliver;
    }
    const send = (next: JsonRpcRequest) => requestWithin(this.transport, next, options, timing);
    return resultOf(method, await (this.inSession === undefined ? send(message) : this.inSession(message, send, signal)));
  }

  /** {@link Connection.send} without session renewal: for the handshake itself. */
  async sendDirect(method: string, params: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    if (this.closed) throw new ClientClosed();
    const message: JsonRpcRequest = { jsonrpc: "2.0", id: ++this.lastId, method, params };
    return resultOf(method, await requestWithin(this.transport, message, signal === undefined ? undefined : { signal }, this.timing));
  }

  /** Sends a notification (no id, no answer). */
  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.closed) throw new ClientClosed();
    await this.transport.notify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /** Closes the transport; later requests throw `ClientClosed`. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transport.close();
  }
}

/** The `result` object of a response, or the error it carries. */
function resultOf(method: string, response: JsonRpcResponse): JsonObject {
  if ("error" in response) throw McpError.fromObject(response.error);
  const result: unknown = (response as { result?: unknown }).result;
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new InvalidServerResult(method, "the response's result is not a JSON object.", result);
  }
  return result as JsonObject;
}

/**
 * The per-call receiver first, then the connection's own; either may be absent.
 * A notification the per-call receiver took (it returned true: `onProgress` or
 * `onLog` got it) does not go to the connection's own too, so each is delivered once.
 * A throwing per-call receiver does not stop the connection's own.
 */
function both(
  first: CallReceiver | undefined,
  second: ((notification: JsonRpcNotification) => void) | undefined,
): ((notification: JsonRpcNotification) => void) | undefined {
  return first && second
    ? (notification) => {
        let taken: unknown = false;
        try {
          taken = first(notification);
        } finally {
          if (taken !== true) second(notification);
        }
      }
    : (first ?? second);
}
