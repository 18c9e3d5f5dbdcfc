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

function incomingFromRequest(request: Request): IncomingHttp {
  // Only what the exchange needs is kept, never the Request itself: a listen stream may hold its
  // context for hours, and a Request pins its whole fetch machinery (streams, signals, headers lists).
  const { method, headers, signal, url } = request;
  let body = request.body;
  return {
    method,
    header: (name) => headers.get(name),
    headers: () => headers,
    url: () => url,
    onGone(listener) {
      if (signal.aborted) listener();
      else signal.addEventListener("abort", listener, { once: true });
    },
    readBody(limit) {
      const stream = body;
      body = null;
      return stream ? readBounded(stream, limit) : Promise.resolve(new Uint8Array(0));
    },
  };
}

/** Serves one exchange and resolves with its Response; a failure of the exchange itself becomes a 500. */
function answer(endpoint: HttpEndpoint, incoming: IncomingHttp, onError: (error: unknown) => void): Promise<Response> {
  return new Promise<Response>((resolve) => {
    serveHttpExchange(endpoint, incoming, replyToPromise(resolve)).catch((error: unknown) => {
      onError(error);
      resolve(
        new Response(JSON.stringify(errorResponse(undefined, { code: -32603, message: "Internal error" })), {
          status: 500,
          headers: { "content-type": "application/json" },
        }),
      );
    });
  });
}

function replyToPromise(resolve: (response: Response) => void): HttpReply {
  return {
    send(status, headers, body) {
      resolve(new Response(status === 202 || body === "" ? null : body, { status, headers }));
    },
    stream(headers, onClose, maxBufferedBytes): HttpStream {
      const stream = new WebSseStream(onClose, maxBufferedBytes);
      resolve(new Response(stream.body, { status: 200, headers }));
      return stream;
    },
  };
}

/** Bytes a web SSE stream queues before a producer that awaits `drained()` waits for the reader. */
const WEB_STREAM_HIGH_WATER_MARK = 64 * 1024;

/**
 * An SSE answer as a web `ReadableStream` that honours backpressure: its
 * queue counts bytes (`desiredSize`), `drained()` waits for the consumer to
 * pull again, and a write that would leave more than the bound queued
 * errors the stream (the runtime drops the connection) instead.
 */
class WebSseStream implements HttpStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly #onClose: () => void;
  readonly #bound: number;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #drain: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(onClose: () => void, bound: number) {
    this.#onClose = onClose;
    this.#bound = bound;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#drained(),
        cancel: () => {
          this.#closed();
          onClose();
        },
      },
      { highWaterMark: WEB_STREAM_HIGH_WATER_MARK, size: (chunk) => chunk.byteLength },
    );
  }

  write(text: string): boolean {
    if (!this.#open) return false;
    const bytes = encoder.encode(text);
    const waiting = WEB_STREAM_HIGH_WATER_MARK - (this.#controller.desiredSize ?? 0);
    if (waiting > 0 && waiting + bytes.byteLength > this.#bound) {
      this.#closed();
      this.#controller.error(new Error(`The client read too slowly: more than ${this.#bound} bytes waited (maxStreamBufferBytes).`));
      this.#onClose();
      return false;
    }
    this.#controller.enqueue(bytes);
    return true;
  }

  drained(): Promise<void> | undefined {
    if (!this.#open || (this.#controller.desiredSize ?? 0) > 0) return undefined;
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
    this.#controller.close();
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
  // The closures of a pending exchange must not share a scope with `request` (see incomingFromRequest).
  const handle = (request: Request) => answer(endpoint, incomingFromRequest(request), resolved.onError);
  const close = (): void => {
    endpoint.sessions?.closeAll();
    (server as { closeSubscriptions?: (reason: string, final: boolean) => unknown }).closeSubscriptions?.("The server is shutting down; listen again.", true);
  };
  return Object.assign(handle, { close });
}
