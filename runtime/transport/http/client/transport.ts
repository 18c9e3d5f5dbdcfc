/**
 * The client side of Streamable HTTP over `fetch`: one POST per message,
 * JSON or SSE responses, the mirrored headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), and an optional bearer token.
 */
import { JsonRpcErrorCode } from "../../../jsonrpc/errors.js";
import {
  isJsonRpcErrorResponse,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../../jsonrpc/messages.js";
import {
  encodeHeaderValue,
  META_PROTOCOL_VERSION,
  nameSourceOf,
  paramHeadersOf,
  paramHeaderValue,
  type ParamHeader,
} from "../headers.js";
import { SseParser } from "../sse.js";
import type { ClientTransport, TransportRequestOptions } from "../../types.js";

/** Supplies the bearer token for each request; `undefined` sends none. */
export type TokenProvider = () => string | undefined | Promise<string | undefined>;

/** Options of {@link StreamableHttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** The `fetch` to use (for proxies, test doubles, custom agents). Default: global `fetch`. */
  fetch?: typeof fetch;
  /** Extra headers sent on every POST. */
  headers?: Record<string, string>;
  /** A bearer token, or a function returning the current one (called per request). */
  token?: string | TokenProvider;
  /**
   * Protocol version for the `MCP-Protocol-Version` header when a message
   * carries none in `_meta` (2025-era requests after `initialize`).
   */
  protocolVersion?: string;
  /** Receives warnings, such as tools dropped for invalid `x-mcp-header` annotations. Default: `console.warn`. */
  onWarning?: (message: string) => void;
}

/** An HTTP-level failure that carried no JSON-RPC answer (401, 403, 500 with HTML, …). */
export class HttpTransportError extends Error {
  override readonly name: string = "HttpTransportError";
  /** The HTTP status. */
  readonly status: number;
  /** The `WWW-Authenticate` challenge on a 401/403, if any. */
  readonly wwwAuthenticate: string | undefined;

  constructor(status: number, message: string, wwwAuthenticate?: string) {
    super(message);
    this.status = status;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

const ACCEPT = "application/json, text/event-stream";
const DEFAULT_PROTOCOL_VERSION = "2026-07-28";
const MAX_TOOL_PAGES = 20;
const CLOSED_MESSAGE = "The HTTP transport is closed; connect again to send more requests.";

/** The controller of a request whose caller passed a signal, and the listener tying them. */
interface SignalLink {
  signal: AbortSignal;
  controller: AbortController;
  onAbort: () => void;
}

/** The media type of a `Content-Type` value, lower-cased and without parameters. */
function mediaTypeOf(value: string | null): string {
  if (value === "application/json") return value;
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A {@link ClientTransport} for Streamable HTTP. `Client.connect(url)`
 * creates one; construct it yourself to pass a token or a custom `fetch`.
 *
 * It remembers the `x-mcp-header` annotations of the tools it has seen in
 * `tools/list` results, mirrors those parameters into `Mcp-Param-*` headers,
 * and drops tools whose annotations are invalid, as the spec requires of
 * HTTP clients.
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
  /** Version for the header when a message's `_meta` names none. */
  protocolVersion: string | undefined;
  readonly #fetch: typeof fetch;
  /** Extra headers from the options, or `undefined` when there are none. */
  readonly #headers: Record<string, string> | undefined;
  readonly #token: TokenProvider | undefined;
  readonly #warn: (message: string) => void;
  readonly #toolHeaders = new Map<string, ParamHeader[]>();
  /** Controllers of requests whose caller passed a signal: close() aborts them on the wire. */
  readonly #inFlight = new Set<AbortController>();
  /**
   * Rejecters of requests sent without a signal: close() settles their calls at once.
   * Those requests carry no signal to fetch at all, because fetch
   * implementations tie each signalled request to the signal with listeners
   * and weak references that cost the garbage collector dearly under load.
   */
  readonly #abandon = new Set<(reason: Error) => void>();
  /** Readers of the SSE responses being read: close() cancels them, which closes their connections. */
  readonly #streams = new Set<ReadableStreamDefaultReader<string>>();
  #sessionId: string | undefined;
  #serverRequestHandler: ((request: JsonRpcRequest) => Promise<JsonRpcResponse>) | undefined;
  #closed = false;

  /**
   * @param url - The MCP endpoint.
   * @param options - `fetch`, extra headers, bearer token, warnings sink.
   * @throws {TypeError} for a URL that is not http(s) or options of the wrong type.
   */
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TypeError(`Not a valid URL: "${String(url)}". Pass the server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp.`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new TypeError(`Streamable HTTP needs an http: or https: URL, got "${parsed.protocol}".`);
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") {
      throw new TypeError("No fetch implementation: pass options.fetch on runtimes without a global fetch.");
    }
    const token = options.token;
    if (token !== undefined && typeof token !== "string" && typeof token !== "function") {
      throw new TypeError("token must be a string or a function returning the current token.");
    }
    this.url = parsed;
    this.#fetch = fetchImpl;
    this.#headers = options.headers && Object.keys(options.headers).length > 0 ? { ...options.headers } : undefined;
    this.#token = typeof token === "string" ? () => token : token;
    this.#warn = options.onWarning ?? ((message) => console.warn(message));
    this.protocolVersion = options.protocolVersion;
  }

  /** Answers requests a 2025-era server sends on a response stream; the answer goes back as a POST. */
  setServerRequestHandler(handler: (request: JsonRpcRequest) => Promise<JsonRpcResponse>): void {
    this.#serverRequestHandler = handler;
  }

  /**
   * Sends a request and resolves with the server's response, JSON or SSE.
   *
   * @throws {HttpTransportError} when the server answers with an HTTP error that carries no JSON-RPC response.
   * @throws the signal's reason when `options.signal` aborts.
   */
  async request(message: JsonRpcRequest, options: TransportRequestOptions = {}): Promise<JsonRpcResponse> {
    let response = await this.#requestOnce(message, options);
    if (
      message.method === "tools/call" &&
      isJsonRpcErrorResponse(response) &&
      response.error.code === JsonRpcErrorCode.HeaderMismatch &&
      !this.#toolHeaders.has(String(message.params?.name))
    ) {
      // The server expects Mcp-Param-* headers for a tool we never listed:
      // learn its schema, then retry once (the spec's recovery path).
      if (await this.#refreshTools(message, options)) {
        response = await this.#requestOnce({ ...message }, options);
      }
    }
    return response;
  }

  /**
   * POSTs a notification.
   *
   * @throws {HttpTransportError} when the server refuses it with an HTTP error status.
   */
  async notify(message: JsonRpcNotification): Promise<void> {
    const response = await this.#post(message);
    await response.body?.cancel().catch(() => {});
    if (!response.ok) {
      throw new HttpTransportError(response.status, `The server refused the ${message.method} notification with HTTP ${response.status}.`);
    }
  }

  /**
   * Settles every request in flight with an error and refuses later ones.
   *
   * Requests whose caller passed a `signal` are aborted on the wire, and open
   * SSE response streams are cancelled, which closes their connections. A
   * request sent without a signal whose answer has not started yet is only
   * abandoned: its call rejects now, and the HTTP exchange ends when the
   * server answers (the answer is discarded). Handing every request a signal
   * just for this would cost each one listeners and weak references inside
   * `fetch`; pass `signal` to requests you may need to cut off.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const reason = new Error("The HTTP transport was closed.");
    for (const controller of this.#inFlight) controller.abort(reason);
    this.#inFlight.clear();
    for (const abandon of this.#abandon) abandon(reason);
    this.#abandon.clear();
    for (const reader of this.#streams) reader.cancel(reason).catch(() => {});
    this.#streams.clear();
  }

  async #refreshTools(call: JsonRpcRequest, options: TransportRequestOptions): Promise<boolean> {
    const meta = call.params?._meta;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const params: Record<string, unknown> = {};
      if (isRecord(meta)) params._meta = meta;
      if (cursor) params.cursor = cursor;
      const listed = await this.#requestOnce(
        { jsonrpc: "2.0", id: `${String(call.id)}:tools-refresh:${page}`, method: "tools/list", params },
        { signal: options.signal },
      );
      if (!("result" in listed)) return false;
      const next = listed.result.nextCursor;
      if (typeof next !== "string" || next === "") break;
      cursor = next;
    }
    return this.#toolHeaders.has(String(call.params?.name));
  }

  /**
   * One POST and its answer. The common case (no caller signal, no token
   * provider, a JSON answer) awaits only the fetch and the body: each layer
   * of async function here costs a promise per request.
   */
  #requestOnce(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    if (this.#closed) return Promise.reject(new Error(CLOSED_MESSAGE));
    if (options.signal) return this.#exchange(message, options);
    let abandon!: (reason: Error) => void;
    const abandoned = new Promise<never>((_, reject) => {
      abandon = reject;
    });
    this.#abandon.add(abandon);
    const settle = () => this.#abandon.delete(abandon);
    // The race also handles a late rejection of the exchange once close() has settled the call.
    return Promise.race([this.#exchange(message, options), abandoned]).finally(settle);
  }

  async #exchange(message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    const headers = this.#headersFor(message);
    if (this.#token) await this.#authorize(headers);
    const signal = options.signal;
    const link = signal ? this.#link(signal) : undefined;
    let response: Response;
    try {
      const init: RequestInit = { method: "POST", headers, body: JSON.stringify(message) };
      if (link) init.signal = link.controller.signal;
      response = await this.#fetch(this.url, init);
    } catch (error) {
      if (link) this.#unlink(link);
      throw this.#fetchFailure(error, signal);
    }
    if (this.#closed) {
      // Closed while the answer was on its way: release the connection, report the close.
      if (link) this.#unlink(link);
      await response.body?.cancel().catch(() => {});
      throw new Error("The HTTP transport was closed.");
    }
    try {
      if (message.method === "initialize") {
        const session = response.headers.get("mcp-session-id");
        if (session) this.#sessionId = session;
      }
      let answer: JsonRpcResponse;
      if (response.ok && mediaTypeOf(response.headers.get("content-type")) === "text/event-stream") {
        answer = await this.#readStream(response, message, options);
      } else {
        answer = this.#answerOf(response, message, await response.text());
      }
      if (message.method === "tools/list" && "result" in answer) this.#learnTools(answer);
      return answer;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      if (link) this.#unlink(link);
    }
  }

  /** The headers of one POST, except `authorization`. */
  #headersFor(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): Record<string, string> {
    const headers: Record<string, string> = this.#headers
      ? { ...this.#headers, "content-type": "application/json", accept: ACCEPT }
      : { "content-type": "application/json", accept: ACCEPT };
    if ("method" in message) {
      const params = message.params;
      const meta = isRecord(params) ? params._meta : undefined;
      const version = isRecord(meta) && typeof meta[META_PROTOCOL_VERSION] === "string" ? (meta[META_PROTOCOL_VERSION] as string) : this.protocolVersion;
      if (version && message.method !== "initialize") headers["mcp-protocol-version"] = version;
      else if (!version && message.method !== "initialize" && "id" in message) headers["mcp-protocol-version"] = DEFAULT_PROTOCOL_VERSION;
      headers["mcp-method"] = message.method;
      const name = nameSourceOf(message.method, params);
      if (name !== undefined) headers["mcp-name"] = encodeHeaderValue(name);
      if (message.method === "tools/call" && name !== undefined) {
        const toolHeaders = this.#toolHeaders.get(name);
        if (toolHeaders !== undefined) {
          for (const param of toolHeaders) {
            const value = paramHeaderValue(param, (params as Record<string, unknown>).arguments);
            if (value !== undefined) headers[`mcp-param-${param.header.toLowerCase()}`] = value;
          }
        }
      }
    } else if (this.protocolVersion) {
      headers["mcp-protocol-version"] = this.protocolVersion;
    }
    if (this.#sessionId) headers["mcp-session-id"] = this.#sessionId;
    return headers;
  }

  async #authorize(headers: Record<string, string>): Promise<void> {
    const token = await this.#token!();
    if (token) headers.authorization = `Bearer ${token}`;
  }

  /**
   * A controller for one request whose caller passed a signal, aborted by
   * that signal or by close().
   *
   * @throws the signal's reason when it has already aborted.
   */
  #link(signal: AbortSignal): SignalLink {
    if (signal.aborted) throw signal.reason;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    this.#inFlight.add(controller);
    return { signal, controller, onAbort };
  }

  #unlink(link: SignalLink): void {
    this.#inFlight.delete(link.controller);
    link.signal.removeEventListener("abort", link.onAbort);
  }

  /** What a failed fetch is reported as: the caller's abort reason, the close, or an unreachable server. */
  #fetchFailure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted) return signal.reason;
    if (this.#closed) return new Error("The HTTP transport was closed.", { cause: error });
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return new Error(`Could not reach the MCP server at ${this.url.href}: ${cause}`, { cause: error });
  }

  /** POSTs a message whose answer is not read (a notification, or the answer to a server's request). */
  async #post(message: JsonRpcNotification | JsonRpcResponse): Promise<Response> {
    if (this.#closed) throw new Error(CLOSED_MESSAGE);
    const headers = this.#headersFor(message);
    if (this.#token) await this.#authorize(headers);
    try {
      return await this.#fetch(this.url, { method: "POST", headers, body: JSON.stringify(message) });
    } catch (error) {
      throw this.#fetchFailure(error, undefined);
    }
  }

  /** The JSON-RPC answer in a non-stream body `text`, or the HTTP failure it reports. */
  #answerOf(response: Response, message: JsonRpcRequest, text: string): JsonRpcResponse {
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    // Only a refusal carries a challenge worth reading; a 200 skips the header lookup.
    const challenge = response.ok ? undefined : (response.headers.get("www-authenticate") ?? undefined);
    if (response.status === 401 || (response.status === 403 && challenge)) {
      // Authentication failures are the caller's to fix (a token), not a protocol answer.
      throw new HttpTransportError(
        response.status,
        `${message.method} was refused with HTTP ${response.status}: ${
          response.status === 401 ? "the server requires a valid bearer token (pass options.token)" : "the token lacks a required scope"
        }.`,
        challenge,
      );
    }
    if (isJsonRpcResponse(body)) {
      // Some servers answer protocol rejections without an id; it is still this request's answer.
      if (isJsonRpcErrorResponse(body) && (body.id === undefined || body.id === null)) {
        return { jsonrpc: "2.0", id: message.id, error: body.error };
      }
      return body;
    }
    if (!response.ok) {
      throw new HttpTransportError(
        response.status,
        `${message.method} failed with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
        challenge,
      );
    }
    throw new HttpTransportError(response.status, `${message.method}: the server's HTTP ${response.status} answer was not a JSON-RPC response.`);
  }

  async #readStream(response: Response, message: JsonRpcRequest, options: TransportRequestOptions): Promise<JsonRpcResponse> {
    const body = response.body;
    if (!body) throw new HttpTransportError(response.status, `${message.method}: the SSE response had no body.`);
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    this.#streams.add(reader);
    let answer: JsonRpcResponse | undefined;
    const serverRequests: Promise<void>[] = [];
    const parser = new SseParser((event) => {
      if (answer || event.event !== "message") return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        return;
      }
      if (isJsonRpcResponse(parsed)) {
        if (parsed.id === message.id) answer = parsed;
      } else if (isJsonRpcNotification(parsed)) {
        try {
          options.onNotification?.(parsed);
        } catch (error) {
          this.#warn(`A notification handler threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      } else if (isJsonRpcRequest(parsed)) {
        serverRequests.push(this.#answerServerRequest(parsed));
      }
    });
    try {
      while (!answer) {
        const { done, value } = await reader.read();
        if (done) {
          parser.end();
          break;
        }
        parser.push(value);
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw error;
    } finally {
      this.#streams.delete(reader);
      await reader.cancel().catch(() => {});
    }
    await Promise.all(serverRequests);
    if (!answer) {
      throw new HttpTransportError(response.status, `${message.method}: the server closed the SSE stream without a response.`);
    }
    return answer;
  }

  async #answerServerRequest(request: JsonRpcRequest): Promise<void> {
    // 2025-era servers may send requests on the response stream; answer them with a POST.
    const reply: JsonRpcResponse = this.#serverRequestHandler
      ? await this.#serverRequestHandler(request).catch(() => ({
          jsonrpc: "2.0" as const,
          id: request.id,
          error: { code: JsonRpcErrorCode.InternalError, message: "The client failed to handle the request" },
        }))
      : { jsonrpc: "2.0", id: request.id, error: { code: JsonRpcErrorCode.MethodNotFound, message: `Method not found: ${request.method}` } };
    try {
      const response = await this.#post(reply);
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      this.#warn(`Could not deliver the answer to the server's ${request.method} request: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #learnTools(response: JsonRpcResponse & { result: Record<string, unknown> }): void {
    const tools = response.result.tools;
    if (!Array.isArray(tools)) return;
    const kept: unknown[] = [];
    for (const tool of tools) {
      if (!isRecord(tool) || typeof tool.name !== "string") {
        kept.push(tool);
        continue;
      }
      const scan = paramHeadersOf(tool.inputSchema);
      if (!scan.ok) {
        this.#toolHeaders.delete(tool.name);
        this.#warn(`Ignoring tool "${tool.name}": ${scan.reason}.`);
        continue;
      }
      this.#toolHeaders.set(tool.name, scan.headers);
      kept.push(tool);
    }
    response.result.tools = kept;
  }
}
