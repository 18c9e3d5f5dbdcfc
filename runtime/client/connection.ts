import { McpError } from "../jsonrpc/errors.js";
import type { JsonRpcNotification, JsonRpcRequest } from "../jsonrpc/messages.js";
import type { ClientTransport, TransportRequestOptions } from "../transport/types.js";
import { ClientClosed, InvalidServerResult } from "./errors.js";
import { mergeMeta } from "./meta.js";
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
  readonly protocolVersion: string;
  /** The per-request envelope (modern era); `undefined` for a legacy server, which takes none. */
  readonly envelope: Readonly<JsonObject> | undefined;
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
  }) {
    this.transport = init.transport;
    this.era = init.era;
    this.protocolVersion = init.protocolVersion;
    this.envelope = init.envelope;
    this.onNotification = init.onNotification;
    this.lastId = init.lastId ?? 0;
  }

  /** The id of the last request sent. */
  get lastIssuedId(): number {
    return this.lastId;
  }

  /**
   * Sends one request and resolves with its `result` object. Every call gets
   * a fresh id. `params._meta` is filled from the envelope (merged with
   * `ownMeta`).
   *
   * @throws McpError when the server answered with a JSON-RPC error.
   * @throws InvalidServerResult when the result is not a JSON object.
   * @throws ClientClosed after `close()`.
   */
  async send(
    method: string,
    params: JsonObject,
    signal: AbortSignal | undefined,
    ownMeta?: JsonObject,
  ): Promise<JsonObject> {
    if (this.closed) throw new ClientClosed();
    const envelope = this.envelope;
    if (envelope !== undefined) params._meta = mergeMeta(envelope, ownMeta);
    else if (ownMeta !== undefined) params._meta = ownMeta;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id: ++this.lastId, method, params };
    let options: TransportRequestOptions | undefined;
    if (signal !== undefined || this.onNotification !== undefined) {
      options = {};
      if (signal !== undefined) options.signal = signal;
      if (this.onNotification !== undefined) options.onNotification = this.onNotification;
    }
    const response = await this.transport.request(message, options);
    if ("error" in response) throw McpError.fromObject(response.error);
    const result: unknown = (response as { result?: unknown }).result;
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      throw new InvalidServerResult(method, "the response's result is not a JSON object.", result);
    }
    return result as JsonObject;
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
