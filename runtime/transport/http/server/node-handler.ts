/**
 * `toNodeHandler`: the Streamable HTTP endpoint as a Node `(req, res)`
 * handler, for mounting in a framework's own server (Express, Fastify,
 * Koa, a bare `node:http` server). It drives the same core as
 * `createHttpHandler` and `serveHttp`, and takes a body the framework has
 * already parsed (`express.json()`, Fastify's JSON parser).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MessageHandler } from "../../types.js";
import { createEndpoint, serveHttpExchange } from "./handler.js";
import { NodeExchange } from "./node-exchange.js";
import { resolveHttpOptions, type HttpHandlerOptions } from "./policy.js";

const encoder = new TextEncoder();

/** An exchange whose body a framework already read: the bytes come from what it parsed. */
class ParsedBodyExchange extends NodeExchange {
  readonly #body: unknown;

  constructor(request: IncomingMessage, response: ServerResponse, body: unknown) {
    super(request, response, request.url ?? "/", "localhost");
    this.#body = body;
  }

  override readBody(limit: number, onBody: (body: Uint8Array | null) => void, onError: (error: unknown) => void): void {
    const body = this.#body;
    let bytes: Uint8Array;
    if (body instanceof Uint8Array) bytes = body;
    else if (typeof body === "string") bytes = encoder.encode(body);
    else {
      const text = JSON.stringify(body);
      if (text === undefined) return onError(new TypeError("the parsed request body is not JSON (a function or a symbol)"));
      bytes = encoder.encode(text);
    }
    onBody(bytes.byteLength > limit ? null : bytes);
  }
}

/** An exchange whose body some middleware consumed without leaving it parsed: nothing can be read. */
class ConsumedBodyExchange extends NodeExchange {
  override readBody(_limit: number, _onBody: unknown, onError: (error: unknown) => void): void {
    onError(
      new Error(
        "toNodeHandler: another middleware read the request body and left no parsed req.body; mount the MCP handler " +
          "before that middleware, use express.json(), or pass the parsed body as the third argument.",
      ),
    );
  }
}

/** A Node request handler from {@link toNodeHandler}, plus `close()` to end the 2025 sessions it holds. */
export type NodeRequestHandler = ((request: IncomingMessage, response: ServerResponse, body?: unknown) => Promise<void>) & {
  /** Ends every 2025 session this handler holds (their GET streams close; their ids then get `404`). */
  close(): void;
};

/**
 * Creates a Node `(req, res)` handler for an MCP server, to mount in a
 * framework's server on the path of your choosing. It answers every method
 * itself (POST, and GET/DELETE for 2025 sessions, CORS preflights), so
 * route all of them to it. A body the framework already parsed is used as
 * is: `req.body` (`express.json()`), or the third argument (Fastify's
 * `request.body`); otherwise the handler reads the stream itself. Unlike
 * `serveHttp`, it restricts no `Host` by default: the framework's server
 * decides where it listens (set `allowedHosts` behind a loopback bind).
 *
 * @param server - Anything that answers JSON-RPC messages (`Server`, `McpServer`).
 * @param options - Origin/host allow-lists, body limit, bearer verification, session bounds, CORS.
 * @returns `(req, res, body?) => Promise<void>`, which never rejects, with `close()`.
 * @throws {TypeError} when `server` has no `handle` method or an option has the wrong type.
 * @throws {RangeError} for a non-positive `maxBodyBytes`.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use(express.json());
 * app.all("/mcp", toNodeHandler(server, { allowedOrigins: ["https://app.example"] }));
 * ```
 */
export function toNodeHandler(server: MessageHandler, options: HttpHandlerOptions = {}): NodeRequestHandler {
  if (!server || typeof (server as MessageHandler).handle !== "function") {
    throw new TypeError("toNodeHandler needs a server with a handle(message, context) method, such as an McpServer.");
  }
  const resolved = resolveHttpOptions(options);
  const endpoint = createEndpoint(server, resolved);
  const handle = async (request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void> => {
    // Express passes `next` third: a function is never a parsed body.
    const parsed = typeof body === "function" || body === undefined ? (request as { body?: unknown }).body : body;
    const exchange =
      parsed !== undefined && request.readableEnded
        ? new ParsedBodyExchange(request, response, parsed)
        : request.readableEnded && request.method === "POST"
          ? new ConsumedBodyExchange(request, response, request.url ?? "/", "localhost")
          : new NodeExchange(request, response, request.url ?? "/", "localhost");
    // Failures are reported to onError and answered (a 500) by the core itself.
    await serveHttpExchange(endpoint, exchange, exchange);
  };
  return Object.assign(handle, { close: () => endpoint.sessions?.closeAll() });
}
