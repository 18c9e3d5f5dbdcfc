/**
 * The in-process client transport: a `Client` on one side, a server's
 * `handle` on the other, no serialisation. `Client.connect(server)` opens
 * one by itself (loaded on first use); import it from `mcp-roundtrip/server`
 * to pass options such as `authInfo`. Not exported by `mcp-roundtrip/client`:
 * a module that entry exported and the connect table loaded lazily would be
 * split by a bundler into a chunk every browser client loads.
 *
 * @packageDocumentation
 */
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { ServerRequestHandler } from "../protocol/contracts.js";
import {
  isSessionHost,
  type AuthInfo,
  type ClientTransport,
  type MessageHandler,
  type RequestContext,
  type ServerSession,
  type TransportRequestOptions,
} from "./types.js";

/** Options of {@link InMemoryClientTransport}. */
export interface InMemoryTransportOptions {
  /**
   * The identity every request is made as, as if a transport had verified a
   * bearer token; lets in-process tests exercise principal binding.
   */
  authInfo?: AuthInfo;
  /** Receives what a 2025 session sends outside any request (list-changed, resource-updated notifications). */
  onNotification?: (notification: JsonRpcNotification) => void;
}

/**
 * A `ClientTransport` that hands each message straight to a
 * `MessageHandler` (`Server`, `McpServer`) in the same process.
 *
 * Messages are passed as objects, never serialised: that is what makes
 * in-process calls cheap. The flip side is aliasing: the server sees the
 * very objects the client built, so neither side may mutate what it
 * received.
 *
 * A 2026 server asks for input by returning `input_required`. When the
 * client opens with `initialize` (a client pinned to a 2025 version) and the
 * server holds sessions, the transport opens one: the server's requests then
 * reach the handler installed with `setServerRequestHandler`.
 */
export class InMemoryClientTransport implements ClientTransport {
  private readonly handler: MessageHandler;
  private readonly authInfo: AuthInfo | undefined;
  private readonly onNotification: ((notification: JsonRpcNotification) => void) | undefined;
  private serverRequestHandler: ServerRequestHandler | undefined;
  private session: ServerSession | undefined;
  private closed = false;

  /**
   * @param handler the server side.
   * @throws TypeError when `handler` has no `handle` method.
   */
  constructor(handler: MessageHandler, options: InMemoryTransportOptions = {}) {
    if (typeof handler !== "object" || handler === null || typeof handler.handle !== "function") {
      throw new TypeError("InMemoryClientTransport needs a MessageHandler: an object with handle(message, context), such as a Server.");
    }
    this.handler = handler;
    this.authInfo = options.authInfo;
    this.onNotification = options.onNotification;
  }

  /** Answers the requests a 2025 session sends (input requests of any kind, `ping`). */
  setServerRequestHandler(handler: ServerRequestHandler): void {
    this.serverRequestHandler = handler;
  }

  /**
   * Hands `message` to the handler and resolves with its response.
   *
   * @throws Error when the transport is closed or the handler gave no response.
   * @throws the signal's reason when `options.signal` aborts first.
   */
  async request(message: JsonRpcRequest, options?: TransportRequestOptions): Promise<JsonRpcResponse> {
    if (this.closed) throw new Error("The in-memory transport is closed; connect again to send more requests.");
    const signal = options?.signal;
    signal?.throwIfAborted();
    if (message.method === "initialize" && this.session === undefined && isSessionHost(this.handler) && this.handler.legacy === "sessions") {
      this.session = this.handler.openSession({ send: (outgoing) => this.fromServer(outgoing, undefined) });
    }
    const context = this.contextFor(options, message.id);
    const answer = (this.session ?? this.handler).handle(message, context);
    const response = signal === undefined ? await answer : await raceAbort(answer, signal);
    if (response === undefined) {
      throw new Error(`The server gave no response to request ${JSON.stringify(message.id)} (${message.method}).`);
    }
    return response;
  }

  /** Hands a notification to the handler. */
  async notify(message: JsonRpcNotification): Promise<void> {
    if (this.closed) throw new Error("The in-memory transport is closed; connect again to send more notifications.");
    await (this.session ?? this.handler).handle(message, this.authInfo === undefined ? undefined : { authInfo: this.authInfo });
  }

  /** Marks the transport closed; the handler itself is left alone (it may serve others). */
  async close(): Promise<void> {
    this.closed = true;
    this.session?.close("The client closed the in-memory transport.");
  }

  private contextFor(options: TransportRequestOptions | undefined, id: JsonRpcId): RequestContext | undefined {
    if (options === undefined && this.authInfo === undefined && this.session === undefined) return undefined;
    const context: RequestContext = {};
    if (this.authInfo !== undefined) context.authInfo = this.authInfo;
    if (options?.signal !== undefined) context.signal = options.signal;
    const onNotification = options?.onNotification;
    if (onNotification !== undefined) context.sendNotification = (notification) => onNotification(notification);
    if (this.session !== undefined) context.sendRelated = (outgoing) => this.fromServer(outgoing, onNotification, id);
    return context;
  }

  /** A message a 2025 session started: a request goes to the client's handler and its answer back to the session. */
  private fromServer(message: JsonRpcRequest | JsonRpcNotification, onNotification: ((n: JsonRpcNotification) => void) | undefined, related?: JsonRpcId): void {
    if (!("id" in message)) {
      (onNotification ?? this.onNotification)?.(message);
      return;
    }
    const request = message;
    const handler = this.serverRequestHandler;
    // Written out rather than built by protocol/jsonrpc/responses.ts: the browser client loads this module lazily and
    // its main chunk uses that builder, so importing it here would split the builder into a chunk of its own that
    // every browser client then loads (test/bundle counts the chunks).
    const answer: Promise<JsonRpcResponse> = handler
      ? handler(request, related === undefined ? undefined : { relatedRequestId: related }).catch(() => ({
          jsonrpc: "2.0",
          id: request.id,
          error: { code: -32603, message: "The client failed to handle the request" },
        }))
      : Promise.resolve({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } });
    void answer.then((response) => this.session?.handle(response));
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The handler runs synchronously up to its first await, and may abort the signal in that time.
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
