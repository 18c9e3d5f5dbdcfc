/**
 * The client side of Streamable HTTP over `fetch`: one POST per message,
 * JSON or SSE responses, the mirrored headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), and an optional bearer token.
 * After a fallback to a 2025-era version it also keeps that era's session
 * (`session.ts`) and reads its GET event stream (`event-stream.ts`).
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import { isJsonRpcErrorResponse, type JsonRpcId, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { ClientTransport, TransportRequestOptions } from "../../types.js";
import type { ServerRequestHandler } from "../../../protocol/contracts.js";
import { answerOf } from "./answer.js";
import { ConnectionLost } from "../../../protocol/connection-lost.js";
import type { HttpClientAuth } from "./auth.js";
import { AuthFailure, fetchFailure, HttpTransportError, sessionLostError, socketCut } from "./errors.js";
import type { EventStreamListener, StreamHost } from "./event-stream.js";
import { InFlight } from "./in-flight.js";
import { postHeaders } from "./post-headers.js";
import { HttpSession } from "./session.js";
import { readBoundedText } from "./body.js";
import { checkOptions, type HttpClientTransportOptions, type TokenProvider } from "./options.js";
import { CLOSED_MESSAGE, mediaTypeOf } from "./shared.js";
import { STREAM_KIT, StreamModules } from "./stream-modules.js";
import { ToolHeaders } from "./tool-headers.js";

/**
 * A {@link ClientTransport} for Streamable HTTP. `Client.connect(url)`
 * creates one; construct it yourself to pass a token or a custom `fetch`.
 *
 * It remembers the `x-mcp-header` annotations of the tools it has seen in
 * `tools/list` results, mirrors those parameters into `Mcp-Param-*` headers,
 * and drops tools whose annotations are invalid, as the spec requires of
 * HTTP clients.
 *
 * Against a 2025-era server (once `Client.connect` has fallen back to
 * `initialize`) it speaks that era's transport: the `Mcp-Session-Id` and the
 * agreed `MCP-Protocol-Version` on every message, the GET event stream for
 * server-initiated messages, resumption of broken response streams with
 * `Last-Event-ID`, and DELETE on `close()`.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport("http://127.0.0.1:3000/mcp", {
 *   token: () => tokenStore.current(),
 * });
 * const client = await Client.connect(transport);
 * ```
 */
export class StreamableHttpClientTransport implements ClientTransport {
  /** The endpoint URL. */
  readonly url: URL;
  readonly #fetch: typeof fetch;
  /** Extra headers from the options, or `undefined` when there are none. */
  readonly #headers: Record<string, string> | undefined;
  readonly #token: TokenProvider | undefined;
  readonly #auth: HttpClientAuth | undefined;
  readonly #warn: (message: string) => void;
  readonly #tools: ToolHeaders;
  /** Requests waiting and bodies being read: close() settles them. */
  readonly #inFlight = new InFlight();
  /** The 2025 session: id, agreed version. */
  readonly #session: HttpSession;
  /** Aborted by close(): ends GET streams and the waits between reconnections. */
  readonly #shutdown = new AbortController();
  readonly #streamHost: StreamHost;
  /** The GET stream: `true` while its module loads, the listener once it runs. */
  #listening: EventStreamListener | true | undefined;
  /** The stream modules, loaded with the first event stream, and the handlers the client installed. */
  readonly #streams: StreamModules;
  readonly #maxResponseBytes: number;
  #closed = false;

  /** The endpoint's origin and path: what `Client.connect` remembers this server's era by. */
  get endpointKey(): string {
    return `http ${this.url.origin}${this.url.pathname}`;
  }

  /**
   * @param url - The MCP endpoint.
   * @param options - `fetch`, extra headers, bearer token, warnings sink.
   * @throws {TypeError} for a URL that is not http(s) or options of the wrong type.
   */
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    const { parsed, fetchImpl, token, auth, maxResponseBytes } = checkOptions(url, options);
    this.#maxResponseBytes = maxResponseBytes;
    this.url = parsed;
    // Called detached, never as a method of this transport: a browser's fetch
    // throws "Illegal invocation" when `this` is anything but the window.
    this.#fetch = ((input: RequestInfo | URL, init?: RequestInit) => fetchImpl(input, init)) as typeof fetch;
    this.#headers = options.headers && Object.keys(options.headers).length > 0 ? { ...options.headers } : undefined;
    this.#token = typeof token === "string" ? () => token : token;
    this.#auth = auth;
    this.#warn = options.onWarning ?? ((message) => console.warn(message));
    this.#tools = new ToolHeaders(this.#warn);
    this.#session = new HttpSession(options.protocolVersion);
    this.#streamHost = {
      url: this.url,
      fetch: this.#fetch,
      session: this.#session,
      baseHeaders: () => this.#baseHeaders(),
      closed: () => this.#closed,
      streams: this.#inFlight.streams,
      warn: this.#warn,
      maxEventChars: maxResponseBytes,
      kit: STREAM_KIT,
    };
    this.#streams = new StreamModules(
      (reply) => this.#post(reply),
      this.#warn,
      () => this.#closed,
    );
  }

  /** Version for the header when a message's `_meta` names none (the version `initialize` agreed). */
  get protocolVersion(): string | undefined {
    return this.#session.version;
  }
  /** Set by the client once `initialize` agreed a 2025 version; a 2026 client leaves it unset. */
  set protocolVersion(version: string | undefined) {
    this.#session.agree(version);
  }

  /** The `Mcp-Session-Id` a 2025-era server assigned, while the session lasts. Treat it as a credential. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  /**
   * Sends `version` as `MCP-Protocol-Version` on every later message whose
   * `_meta` names none; a 2025-era version also turns on that era's session
   * behaviour (resumable streams, the GET stream, DELETE on close).
   */
  useProtocolVersion(version: string): void {
    this.#session.agree(version);
  }

  /**
   * Opens the 2025 GET event stream, if not open yet, and keeps it open:
   * server-initiated requests and notifications arriving on it go to the
   * same handlers as those on response streams. Does nothing before a
   * 2025-era version is agreed, after `close()`, or if the server answered a
   * previous attempt with 405 (it offers no stream).
   *
   * @returns a promise that settles (never rejects) once the server answered the first GET.
   */
  async openEventStream(): Promise<void> {
    if (this.#closed || !this.#session.legacy || this.#listening !== undefined) return;
    this.#listening = true;
    const [{ EventStreamListener }, { messages }] = await Promise.all([import("./event-stream.js"), this.#streams.load()]);
    // A reset or a close while the module loaded cancels the opening.
    if (this.#closed || this.#listening !== true) return;
    const listener = new EventStreamListener(this.#streamHost, (message) => messages.dispatch(message, undefined, undefined));
    this.#listening = listener;
    await listener.start();
  }

  /** Forgets a session the server lost (stops its GET stream), so the next `initialize` starts a new one. */
  resetSession(): void {
    this.#stopListening();
    this.#session.forget();
  }

  /** Answers requests a 2025-era server sends on a response stream or the GET stream; the answer goes back as a POST. */
  setServerRequestHandler(handler: ServerRequestHandler): void {
    this.#streams.setRequestHandler(handler);
  }

  /** Receives notifications that belong to no request (the GET stream, or a call sent without a listener). */
  setNotificationHandler(handler: (notification: JsonRpcNotification) => void): void {
    this.#streams.setNotificationHandler(handler);
  }

  /**
   * Sends a request and resolves with the server's response, JSON or SSE.
   *
   * @throws {HttpTransportError} when the server answers with an HTTP error that carries no JSON-RPC response
   *   (`sessionLost` is set when it answered 404 to this client's 2025 session).
   * @throws the signal's reason when `options.signal` aborts.
   */
  async request(message: JsonRpcRequest, options: TransportRequestOptions = {}): Promise<JsonRpcResponse> {
    const response = await this.#requestOnce(message, options);
    const refused = message.method === "tools/call" && isJsonRpcErrorResponse(response) && response.error.code === JsonRpcErrorCode.HeaderMismatch;
    if (!refused || this.#session.legacy || this.#tools.knows(String(message.params?.name))) return response;
    const { recover } = await import("./tool-refresh.js");
    return recover(this.#tools, message, response, (next, own) => this.#requestOnce(next, own ? options : { signal: options.signal }));
  }

  /**
   * Cancels a request in flight (its deadline passed): closes its response
   * stream, or aborts its POST when it has a signal, and fails its call with
   * `reason`; in a 2025 session also POSTs `notifications/cancelled`. A
   * 2026-07-28 request whose JSON answer has not started, sent without a
   * signal, is only abandoned: its connection ends when the server answers.
   */
  cancel(id: JsonRpcId, reason: Error): void {
    if (this.#inFlight.cancel(id, reason)) this.#cancelInSession(id, reason);
  }

  /** Tells a 2025 session's server that the client gave up on request `id` (best effort). */
  #cancelInSession(id: JsonRpcId, reason: unknown): void {
    if (!this.#session.legacy || this.#session.id === undefined || this.#closed) return;
    void import("./cancel-notice.js").then((notice) => notice.sendCancel((message) => this.#post(message), id, reason));
  }

  /** POSTs a notification. @throws {HttpTransportError} when the server refuses it with an HTTP error status. */
  async notify(message: JsonRpcNotification): Promise<void> {
    const { response, sentSession } = await this.#post(message);
    await response.body?.cancel().catch(() => {});
    if (response.status === 404 && sentSession) throw sessionLostError(`The ${message.method} notification`);
    if (!response.ok) {
      throw new HttpTransportError(response.status, `The server refused the ${message.method} notification with HTTP ${response.status}.`);
    }
  }

  /**
   * Settles every request in flight with an error and refuses later ones;
   * with a 2025 session open, also stops its GET stream and ends the session
   * with DELETE (bounded; a server that refuses or ignores it is fine).
   *
   * Requests sent with a `signal` are aborted on the wire, and open SSE
   * response streams are cancelled, which closes their connections. A
   * request without a signal whose answer has not started is only abandoned
   * (its answer discarded): a signal per request would cost each one
   * listeners and weak references inside `fetch`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const reason = new Error("The HTTP transport was closed.");
    this.#stopListening();
    if (!this.#shutdown.signal.aborted) this.#shutdown.abort(reason);
    this.#inFlight.settle(reason);
    if (this.#session.id !== undefined) {
      const headers = await this.#baseHeaders().catch(() => undefined);
      if (headers) await this.#session.end(this.#fetch, this.url, headers);
    }
  }

  #stopListening(): void {
    if (this.#listening !== undefined && this.#listening !== true) this.#listening.stop();
    this.#listening = undefined;
  }

  /**
   * One POST and its answer. The common case (no caller signal, no token
   * provider, a JSON answer) awaits only the fetch and the body: each layer
   * of async function here costs a promise per request.
   */
  #requestOnce(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    if (this.#closed) return Promise.reject(new Error(CLOSED_MESSAGE));
    if (options.signal) return this.#exchange(message, options);
    return this.#inFlight.guard(message.id, this.#exchange(message, options));
  }

  async #exchange(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    const headers = postHeaders(message, this.#headers, this.#session, this.#tools);
    if (this.#token) await this.#authorize(headers);
    const signal = options.signal;
    const link = signal ? this.#inFlight.link(signal, message.id, () => this.#cancelInSession(message.id, signal.reason)) : undefined;
    let response: Response;
    try {
      response = await this.#send(message, headers, link?.controller.signal);
    } catch (error) {
      if (link) this.#inFlight.unlink(link);
      if (!socketCut(error) || signal?.aborted || this.#closed) throw fetchFailure(error, signal, this.#closed, this.url);
      throw (await import("./lost.js")).brokenBeforeAnswer(ConnectionLost, message.method, this.url, error);
    }
    if (this.#closed) {
      // Closed while the answer was on its way: release the connection, report the close.
      if (link) this.#inFlight.unlink(link);
      await response.body?.cancel().catch(() => {});
      throw new Error("The HTTP transport was closed.");
    }
    try {
      if (message.method === "initialize") {
        const warning = this.#session.adopt(response);
        if (warning !== undefined) this.#warn(warning);
      }
      let answer: JsonRpcResponse;
      if (response.ok && mediaTypeOf(response.headers.get("content-type")) === "text/event-stream") {
        const { readStreamAnswer, messages } = await this.#streams.load();
        answer = await readStreamAnswer(
          response,
          message,
          options,
          messages,
          this.#streamHost,
          this.#inFlight.readersOf(message.id),
          () => this.#session.legacy && !this.#closed && this.#inFlight.has(message.id),
          this.#shutdown.signal,
        );
      } else {
        const text = await readBoundedText(response, this.#maxResponseBytes, message.method);
        const read = answerOf(response, message, text, headers["mcp-session-id"] !== undefined, this.url);
        answer = read instanceof Promise ? await read : read;
      }
      if (message.method === "tools/list" && "result" in answer && !this.#session.legacy) await this.#tools.learn(answer.result);
      return answer;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      if (link) this.#inFlight.unlink(link);
    }
  }

  /** The extra headers and the bearer token: what every GET and DELETE carries too. */
  async #baseHeaders(): Promise<Record<string, string>> {
    const headers: Record<string, string> = this.#headers ? { ...this.#headers } : {};
    if (this.#token || this.#auth) await this.#authorize(headers);
    return headers;
  }

  async #authorize(headers: Record<string, string>): Promise<void> {
    if (this.#auth) {
      const value = await this.#auth.authorization(this.url);
      if (value) headers.authorization = value;
      return;
    }
    const token = await this.#token!();
    if (token) headers.authorization = `Bearer ${token}`;
  }

  /** One POST of `message`, through `auth` when it is set; `signal` aborts it on the wire. */
  #send(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Response> {
    const init: RequestInit = { method: "POST", headers, body: JSON.stringify(message) };
    if (signal) init.signal = signal;
    return this.#auth ? this.#fetchAuthorized(init, headers, this.#auth) : this.#fetch(this.url, init);
  }

  /** A fetch with `auth`'s credentials and its recovery from refusals; its module loads with the first such request. */
  async #fetchAuthorized(init: RequestInit, headers: Record<string, string>, auth: HttpClientAuth): Promise<Response> {
    const { fetchAuthorized } = await import("./auth.js");
    return fetchAuthorized(this.#fetch, this.url, init, headers, auth, AuthFailure);
  }

  /** POSTs a message whose answer is not read (a notification, or the answer to a server's request). */
  async #post(message: JsonRpcNotification | JsonRpcResponse): Promise<{ response: Response; sentSession: boolean }> {
    if (this.#closed) throw new Error(CLOSED_MESSAGE);
    const headers = postHeaders(message, this.#headers, this.#session, this.#tools);
    if (this.#token) await this.#authorize(headers);
    try {
      const response = await this.#send(message, headers, undefined);
      return { response, sentSession: headers["mcp-session-id"] !== undefined };
    } catch (error) {
      throw fetchFailure(error, undefined, this.#closed, this.url);
    }
  }
}
