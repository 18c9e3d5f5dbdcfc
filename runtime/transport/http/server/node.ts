/**
 * `node:http` binding of the Streamable HTTP handler. It drives the same
 * core as the web-standard handler straight from `IncomingMessage` /
 * `ServerResponse`, without building `Request`/`Response` objects.
 */
import type { Server as NodeHttpServer } from "node:http";
import { createEndpoint, serveHttpExchange } from "./handler.js";
import { NodeExchange } from "./node-exchange.js";
import { isLoopbackHost, resolveHttpOptions, type HttpHandlerOptions, type ResolvedHttpOptions } from "./policy.js";
import type { MessageHandler } from "../../types.js";

/** Options of {@link serveHttp}: where to listen, plus every handler option. */
export interface ServeHttpOptions extends HttpHandlerOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port to bind; `0` (the default) picks a free one. */
  port?: number;
  /** Path of the MCP endpoint; other paths get `404`. Default `/mcp`. */
  path?: string;
  /** How long a client may take to send its request headers, in milliseconds; then `408`. Default 10 s. */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, in milliseconds; then `408`. Default 30 s. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in milliseconds. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Most connections open at once; more are refused at accept. Default 10,000. */
  maxConnections?: number;
  /** Largest request header block, in bytes; larger gets `431`. Default 16 KiB. */
  maxHeaderBytes?: number;
}

const LIMIT_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  maxHeaderBytes: 16 * 1024,
} as const;

function limitOf(options: ServeHttpOptions, name: keyof typeof LIMIT_DEFAULTS): number {
  const value = options[name] ?? LIMIT_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${String(value)}.`);
  return value;
}

/** The status line a malformed or too slow request gets before the connection closes. */
function clientErrorStatus(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ERR_HTTP_HEADERS_TIMEOUT") return "408 Request Timeout";
  if (code === "HPE_HEADER_OVERFLOW") return "431 Request Header Fields Too Large";
  return "400 Bad Request";
}

/** A running server from {@link serveHttp}. */
export interface HttpServerHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  host: string;
  port: number;
  /** The underlying `node:http` server. */
  server: NodeHttpServer;
  /** Stops accepting connections, ends open ones and every 2025 session, and resolves once closed. */
  close(): Promise<void>;
}

/**
 * Serves an MCP server over Streamable HTTP on `node:http`.
 *
 * Binds to `127.0.0.1` unless told otherwise; on a loopback address the
 * `Host` header is restricted to loopback names by default, so DNS
 * rebinding is refused with `403`.
 *
 * @param server - Anything that answers JSON-RPC messages (`Server`, `McpServer`).
 * @param options - `host`, `port`, `path`, and every {@link HttpHandlerOptions} option.
 * @returns A handle with the endpoint `url` and `close()`.
 * @throws {TypeError} when `server` has no `handle` method or an option has the wrong type.
 * @throws {RangeError} for an invalid port or body limit.
 *
 * @example
 * ```ts
 * const http = await serveHttp(server, { port: 3000 });
 * console.error(`MCP endpoint: ${http.url}`);
 * ```
 */
export async function serveHttp(server: MessageHandler, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  if (!server || typeof (server as MessageHandler).handle !== "function") {
    throw new TypeError("serveHttp needs a server with a handle(message, context) method, such as an McpServer.");
  }
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  const path = options.path ?? "/mcp";
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${String(port)}.`);
  }
  if (!path.startsWith("/")) throw new TypeError(`path must start with "/", got "${path}".`);
  const loopback = isLoopbackHost(host);
  const resolved: ResolvedHttpOptions = resolveHttpOptions({
    ...options,
    allowedHosts: options.allowedHosts ?? (loopback ? ["localhost", "127.0.0.1", "[::1]"] : undefined),
  });

  const limits = {
    headersTimeout: limitOf(options, "headersTimeoutMs"),
    requestTimeout: limitOf(options, "requestTimeoutMs"),
    keepAliveTimeout: limitOf(options, "keepAliveTimeoutMs"),
    maxConnections: limitOf(options, "maxConnections"),
    maxHeaderSize: limitOf(options, "maxHeaderBytes"),
  };
  if (limits.headersTimeout > limits.requestTimeout) {
    throw new RangeError(`headersTimeoutMs (${limits.headersTimeout}) must not exceed requestTimeoutMs (${limits.requestTimeout}).`);
  }
  const endpoint = createEndpoint(server, resolved);
  const { createServer } = await import("node:http");
  let fallbackOrigin = `${host}:${port}`;
  const httpServer = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      requestTimeout: limits.requestTimeout,
      headersTimeout: limits.headersTimeout,
      // Node enforces both timeouts only when it sweeps its connections; its default sweep is every 30 s.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeout / 2))),
    },
    (request, response) => {
    const url = request.url ?? "/";
    const query = url.indexOf("?");
    const requestPath = query === -1 ? url : url.slice(0, query);
    if (requestPath !== path) {
      const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: `Not Found: the MCP endpoint is ${path}.` } });
      response.writeHead(404, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
      response.end(body);
      return;
    }
    const exchange = new NodeExchange(request, response, path, fallbackOrigin);
    serveHttpExchange(endpoint, exchange, exchange).catch((error: unknown) => {
      resolved.onError(error);
      if (!response.headersSent) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } }));
      } else {
        response.destroy();
      }
    });
    },
  );
  httpServer.keepAliveTimeout = limits.keepAliveTimeout;
  httpServer.maxConnections = limits.maxConnections;
  httpServer.on("clientError", (error, socket) => {
    if (socket.writable) socket.end(`HTTP/1.1 ${clientErrorStatus(error)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const address = httpServer.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  fallbackOrigin = `${host}:${boundPort}`;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${boundPort}${path}`,
    host,
    port: boundPort,
    server: httpServer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        endpoint.sessions?.closeAll();
        httpServer.close((error) => (error ? reject(error) : resolve()));
        httpServer.closeAllConnections();
      }),
  };
}
