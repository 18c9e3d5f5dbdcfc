import { McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { ClientTransport, TransportRequestOptions } from "../protocol/contracts.js";
import { ClientClosed, InvalidServerResult, SessionExpired } from "./errors.js";
import { mergeMeta } from "./meta.js";
import { DEFAULT_TIMING, type RequestTiming, requestWithin, type TimeoutOptions, timingFor } from "./deadline.js";
import type { JsonObject } from "./protocol.js";

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
   * Starts a new 2025 session after the server lost the current one (a 404
   * to its session id): set by the handshake on transports with sessions.
   */
  renewSession: (() => Promise<void>) | undefined;
  #protocolVersion: string;
  private readonly onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  private lastId = 0;
  private closed = false;
  /** Counts renewed sessions, so a request sent before a renewal just retries instead of renewing again. */
  #generation = 0;
  #renewing: Promise<void> | undefined;

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
    onNotification?: (notification: JsonRpcNotification) => void,
    timeouts?: TimeoutOptions,
  ): Promise<JsonObject> {
    let timing = timingFor(timeouts, this.timing);
    if (timing instanceof Promise) timing = await timing;
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
    const response =
      this.renewSession === undefined ? await requestWithin(this.transport, message, options, timing) : await this.#inSession(message, options, timing);
    return resultOf(method, response);
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

  /**
   * A request in a 2025 HTTP session: "When a client receives HTTP 404 in
   * response to a request containing an MCP-Session-Id, it MUST start a new
   * session" (2025-11-25 transports, "Session Management" 4). Once per
   * request, so a server that keeps losing sessions gets a clear error, not a loop.
   */
  async #inSession(message: JsonRpcRequest, options: TransportRequestOptions | undefined, timing: RequestTiming): Promise<JsonRpcResponse> {
    const generation = this.#generation;
    try {
      return await requestWithin(this.transport, message, options, timing);
    } catch (error) {
      if (!isSessionLost(error)) throw error;
      try {
        await this.#renew(generation);
      } catch (failure) {
        options?.signal?.throwIfAborted();
        if (failure instanceof ClientClosed) throw failure;
        throw new SessionExpired(
          `The server lost this client's session (HTTP 404 to its Mcp-Session-Id), and starting a new one failed: ` +
            `${failure instanceof Error ? failure.message : String(failure)} Connect again with Client.connect once the server is reachable.`,
          { cause: failure },
        );
      }
      try {
        return await requestWithin(this.transport, { ...message, id: ++this.lastId }, options, timing);
      } catch (again) {
        if (!isSessionLost(again)) throw again;
        throw new SessionExpired(
          `The server lost this client's session (HTTP 404 to its Mcp-Session-Id); a new session was started, and the server ` +
            `lost that one at once too. It may be restarting, or run several instances behind a load balancer that does not ` +
            `keep a session on one instance. Connect again with Client.connect once the server is stable.`,
          { cause: again },
        );
      }
    }
  }

  /** One renewal at a time; a request that went out before the last renewal only needs to be resent. */
  #renew(seen: number): Promise<void> {
    if (seen !== this.#generation) return Promise.resolve();
    if (this.closed) return Promise.reject(new ClientClosed());
    this.#renewing ??= this.renewSession!()
      .then(() => {
        this.#generation++;
      })
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
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

/** The transport's verdict that the server ended the session (by shape, so no HTTP module is needed here). */
function isSessionLost(error: unknown): boolean {
  return (error as { sessionLost?: unknown } | null)?.sessionLost === true;
}

/** The per-call receiver first, then the connection's own; either may be absent. A throwing receiver does not stop the other. */
function both(
  first: ((notification: JsonRpcNotification) => void) | undefined,
  second: ((notification: JsonRpcNotification) => void) | undefined,
): ((notification: JsonRpcNotification) => void) | undefined {
  return first && second
    ? (notification) => {
        try {
          first(notification);
        } finally {
          second(notification);
        }
      }
    : (first ?? second);
}
