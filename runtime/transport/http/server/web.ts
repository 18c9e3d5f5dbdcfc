/**
 * The web-standard face of the Streamable HTTP server: a
 * `(Request) => Promise<Response>` handler for any runtime with fetch types.
 */
import type { MessageHandler } from "../../types.js";
import { readBounded } from "../../../protocol/message.js";
import type { HttpReply, IncomingHttp, SseAnswer } from "./exchange.js";
import { createEndpoint, serveHttpExchange, type HttpEndpoint } from "./handler.js";
import { resolveHttpOptions, type HttpHandlerOptions } from "./policy.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import { PacedWebSseStream, SSE_QUEUING, WebSseStream } from "./web-stream.js";

/** The URL of the last request, whose string the next request to the same URL keeps instead of its own. */
let lastUrl = "";

/**
 * One exchange of the web handler, both sides in one object whose methods
 * live on the prototype. Only what the exchange needs is kept, never the
 * Request itself (a Request pins its whole fetch machinery: streams,
 * signals, headers lists); an SSE answer is an object of its own
 * ({@link WebSseStream}), which keeps nothing of the exchange, so a listen
 * stream that stays open for hours does not keep the exchange either.
 */
class WebExchange implements IncomingHttp, HttpReply {
  readonly method: string;
  readonly #headers: Headers;
  readonly #signal: AbortSignal;
  readonly #url: string;
  #body: ReadableStream<Uint8Array> | null;
  #resolve: ((response: Response) => void) | undefined;
  /** The watch {@link onGone} put on the signal, until a stream takes it over. */
  #goneListener: (() => void) | undefined;

  constructor(request: Request, resolve: (response: Response) => void) {
    this.method = request.method;
    this.#headers = request.headers;
    this.#signal = request.signal;
    // Every request to one endpoint has the same URL: one string kept, not a copy per open stream.
    const url = request.url;
    this.#url = url === lastUrl ? lastUrl : (lastUrl = url);
    this.#body = request.body;
    this.#resolve = resolve;
  }

  header(name: string): string | null {
    return this.#headers.get(name);
  }

  headers(): Headers {
    return this.#headers;
  }

  url(): string {
    return this.#url;
  }

  onGone(listener: () => void): void {
    if (this.#signal.aborted) listener();
    else {
      this.#goneListener = listener;
      this.#signal.addEventListener("abort", listener, { once: true });
    }
  }

  readBody(limit: number, onBody: (body: Uint8Array | null) => void, onError: (error: unknown) => void): void {
    const stream = this.#body;
    this.#body = null;
    if (stream === null) onBody(new Uint8Array(0));
    else readBounded(stream, limit).then(onBody, onError);
  }

  send(status: number, headers: Record<string, string>, body: string): void {
    this.#answer(new Response(status === 202 || body === "" ? null : body, { status, headers }));
  }

  stream(headers: Record<string, string>, onClose: () => void, maxBufferedBytes: number, paced = true): SseAnswer {
    const stream = paced ? new PacedWebSseStream(onClose, maxBufferedBytes) : new WebSseStream(onClose, maxBufferedBytes);
    // The watch moves to the stream, which is the signal's listener itself: the signal, which the runtime keeps
    // for as long as it may abort it, then reaches the stream alone, not this exchange and what it answers. The
    // stream does not keep the signal either (a signal with its listener tables is most of an idle stream's
    // cost): one nobody else keeps can never abort, and the runtime cancelling the body ends the stream then.
    const watching = this.#goneListener;
    if (watching !== undefined) {
      this.#goneListener = undefined;
      this.#signal.removeEventListener("abort", watching);
      this.#signal.addEventListener("abort", stream, { once: true });
    }
    // The strategy is shared, the source is the stream itself: no closures per stream.
    this.#answer(new Response(new ReadableStream<Uint8Array>(stream, SSE_QUEUING), { status: 200, headers }));
    return stream;
  }

  /** The exchange itself failed (reported already): a bare 500, unless an answer went out. */
  failed(): void {
    this.#answer(
      new Response(JSON.stringify(errorResponse(undefined, { code: -32603, message: "Internal error" })), {
        status: 500,
        headers: { "content-type": "application/json" },
      }),
    );
  }

  /** Resolves the handler's promise once; the resolver is dropped with it. */
  #answer(response: Response): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.(response);
  }
}

/**
 * Serves one exchange and resolves with its Response; a failure of the
 * exchange itself becomes a 500. The promise handed back is the caller's
 * alone: nothing the exchange keeps for as long as a listen stream lasts
 * (its pending serve, the failure handler) reaches it, the Response it
 * resolved with, or the Request.
 */
function answer(endpoint: HttpEndpoint, request: Request): Promise<Response> {
  return new Promise<Response>((resolve) => {
    const exchange = new WebExchange(request, resolve);
    // Its failures are reported and answered (a 500) by the core itself, which keeps only the exchange for them.
    void serveHttpExchange(endpoint, exchange, exchange);
  });
}

/** A web-standard request handler, plus `close()` to end the 2025 sessions it holds. */
export type HttpRequestHandler = ((request: Request) => Promise<Response>) & {
  /**
   * Ends every 2025 session this handler holds (their GET streams close; their ids then get `404`)
   * and every `subscriptions/listen` stream of its server, with the graceful result (new ones are refused).
   */
  close(): void;
};

/**
 * Creates a web-standard Streamable HTTP handler for an MCP server. Every
 * 2026-07-28 request is answered on its own (any instance can take any
 * request). A 2025 client gets a session, held in this handler's memory,
 * when the server holds sessions (`legacy: "sessions"`, the default): its
 * `initialize` returns an `Mcp-Session-Id`, a GET opens the session's event
 * stream, DELETE ends it.
 *
 * With `authorization`, requests for the protected-resource metadata
 * document's well-known paths (`/.well-known/oauth-protected-resource…`)
 * are answered too, so mount the handler where those paths reach it.
 *
 * @param server - Anything that answers JSON-RPC messages (`Server`, `McpServer`).
 * @param options - Origin/host allow-lists, body limit, authorization, session bounds.
 * @returns `(request) => Promise<Response>`, which never rejects, with `close()`.
 * @throws {TypeError} when `server` has no `handle` method or an option has the wrong type.
 * @throws {RangeError} for a non-positive `maxBodyBytes`.
 *
 * @example
 * ```ts
 * const handler = createHttpHandler(server, { allowedOrigins: ["https://app.example"] });
 * Deno.serve((request) => handler(request));
 * ```
 */
export function createHttpHandler(server: MessageHandler, options: HttpHandlerOptions = {}): HttpRequestHandler {
  if (!server || typeof (server as MessageHandler).handle !== "function") {
    throw new TypeError("createHttpHandler needs a server with a handle(message, context) method, such as an McpServer.");
  }
  const resolved = resolveHttpOptions(options);
  const endpoint = createEndpoint(server, resolved);
  const handle = (request: Request) => answer(endpoint, request);
  const close = (): void => {
    endpoint.sessions?.closeAll();
    (server as { closeSubscriptions?: (reason: string, final: boolean) => unknown }).closeSubscriptions?.("The server is shutting down; listen again.", true);
  };
  return Object.assign(handle, { close });
}
