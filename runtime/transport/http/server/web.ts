/**
 * The web-standard face of the Streamable HTTP server: a
 * `(Request) => Promise<Response>` handler for any runtime with fetch types.
 */
import type { MessageHandler } from "../../types.js";
import { readBounded } from "../../../protocol/message.js";
import type { HttpReply, HttpStream, IncomingHttp } from "./exchange.js";
import { createEndpoint, serveHttpExchange, type HttpEndpoint } from "./handler.js";
import { resolveHttpOptions, type HttpHandlerOptions } from "./policy.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";

const encoder = new TextEncoder();
/** The URL of the last request, whose string the next request to the same URL keeps instead of its own. */
let lastUrl = "";

/**
 * One exchange of the web handler, both sides (and an SSE answer's stream
 * source) in one object whose methods live on the prototype: a listen
 * stream holds its exchange for hours, so a request allocates no closures
 * for it. Only what the exchange needs is
 * kept, never the Request itself (a Request pins its whole fetch machinery:
 * streams, signals, headers lists).
 */
class WebExchange implements IncomingHttp, HttpReply, HttpStream, UnderlyingDefaultSource<Uint8Array> {
  readonly method: string;
  /** The Request's headers; once the answer is a stream, a flat copy (name, value, …) of them instead. */
  #headers: Headers | string[];
  readonly #signal: AbortSignal;
  readonly #url: string;
  #body: ReadableStream<Uint8Array> | null;
  #resolve: ((response: Response) => void) | undefined;
  // An SSE answer is this same object, the source of its ReadableStream: one object per open stream, not two.
  #onClose: (() => void) | undefined;
  #bound = 0;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = false;
  #drain: { promise: Promise<void>; resolve: () => void } | undefined;
  /**
   * @internal The ReadableStream's source: set to {@link pullOf} on a paced
   * stream only; an unpaced one (a listen stream) then pays for no pull
   * callback of the runtime's per stream.
   */
  pull: (() => void) | undefined = undefined;

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
    const headers = this.#headers;
    if (!Array.isArray(headers)) return headers.get(name);
    const lower = name.toLowerCase(); // Headers iterate with lower-case names
    for (let i = 0; i < headers.length; i += 2) if (headers[i] === lower) return headers[i + 1]!;
    return null;
  }

  headers(): Headers {
    const headers = this.#headers;
    if (!Array.isArray(headers)) return headers;
    const rebuilt = new Headers();
    for (let i = 0; i < headers.length; i += 2) rebuilt.append(headers[i]!, headers[i + 1]!);
    return rebuilt;
  }

  url(): string {
    return this.#url;
  }

  onGone(listener: () => void): void {
    if (this.#signal.aborted) listener();
    else this.#signal.addEventListener("abort", listener, { once: true });
  }

  readBody(limit: number): Promise<Uint8Array | null> {
    const stream = this.#body;
    this.#body = null;
    return stream ? readBounded(stream, limit) : Promise.resolve(new Uint8Array(0));
  }

  send(status: number, headers: Record<string, string>, body: string): void {
    this.#answer(new Response(status === 202 || body === "" ? null : body, { status, headers }));
  }

  stream(headers: Record<string, string>, onClose: () => void, maxBufferedBytes: number, paced = true): HttpStream {
    // A stream may stay open for hours: the Request's Headers (a list, a map, an object per entry) give way to one array.
    const held = this.#headers;
    if (!Array.isArray(held)) {
      const flat: string[] = [];
      for (const [name, value] of held) flat.push(name, value);
      this.#headers = flat.slice(); // exactly as long as it needs: a pushed-to array keeps room to grow
    }
    this.#onClose = onClose;
    this.#bound = maxBufferedBytes;
    this.#open = true;
    if (paced) this.pull = pullOf;
    // This exchange's own methods are the stream's source, and the strategy is shared: no closures per stream.
    this.#answer(new Response(new ReadableStream<Uint8Array>(this, SSE_QUEUING), { status: 200, headers }));
    return this;
  }

  /** @internal The ReadableStream's source: it hands over its controller. */
  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#controller = controller;
  }

  /** The reader wants more (the ReadableStream pulled): a waiting producer may go on. */
  pulled(): void {
    this.#drained();
  }

  /** @internal The ReadableStream's source: the reader cancelled. */
  cancel(): void {
    this.#closed();
    this.#onClose?.();
  }

  /**
   * Queues an SSE event with backpressure: the queue counts bytes
   * (`desiredSize`), and a write that would leave more than the bound
   * queued errors the stream (the runtime drops the connection) instead.
   */
  write(text: string): boolean {
    const controller = this.#controller;
    if (!this.#open || controller === undefined) return false;
    const bytes = encoder.encode(text);
    const waiting = WEB_STREAM_HIGH_WATER_MARK - (controller.desiredSize ?? 0);
    if (waiting > 0 && waiting + bytes.byteLength > this.#bound) {
      this.#closed();
      controller.error(new Error(`The client read too slowly: more than ${this.#bound} bytes waited (maxStreamBufferBytes).`));
      this.#onClose?.();
      return false;
    }
    controller.enqueue(bytes);
    return true;
  }

  /** `undefined` while the reader keeps up (or nothing paces the stream); else a promise for its next pull (or the stream's end). */
  drained(): Promise<void> | undefined {
    if (!this.#open || this.pull === undefined || (this.#controller?.desiredSize ?? 0) > 0) return undefined;
    if (this.#drain === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#drain = { promise, resolve };
    }
    return this.#drain.promise;
  }

  end(): void {
    if (!this.#open) return;
    this.#closed();
    this.#controller?.close();
  }

  #closed(): void {
    this.#open = false;
    this.#drained();
  }

  #drained(): void {
    const drain = this.#drain;
    this.#drain = undefined;
    drain?.resolve();
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
function answer(endpoint: HttpEndpoint, request: Request, onError: (error: unknown) => void): Promise<Response> {
  return new Promise<Response>((resolve) => serve(endpoint, new WebExchange(request, resolve), onError));
}

/** Starts serving `exchange`; the failure handler closes over the exchange and `onError` only. */
function serve(endpoint: HttpEndpoint, exchange: WebExchange, onError: (error: unknown) => void): void {
  serveHttpExchange(endpoint, exchange, exchange).catch((error: unknown) => {
    onError(error);
    exchange.failed();
  });
}

/** A paced stream's pull: one function for every stream, called on its exchange. */
function pullOf(this: WebExchange): void {
  this.pulled();
}

/** Bytes a web SSE stream queues before a producer that awaits `drained()` waits for the reader. */
const WEB_STREAM_HIGH_WATER_MARK = 64 * 1024;
/** Every SSE stream's queuing strategy: it counts bytes. */
const SSE_QUEUING: QueuingStrategy<Uint8Array> = { highWaterMark: WEB_STREAM_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength };

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
  const handle = (request: Request) => answer(endpoint, request, resolved.onError);
  const close = (): void => {
    endpoint.sessions?.closeAll();
    (server as { closeSubscriptions?: (reason: string, final: boolean) => unknown }).closeSubscriptions?.("The server is shutting down; listen again.", true);
  };
  return Object.assign(handle, { close });
}
