/**
 * `node:http` binding of the Streamable HTTP handler. It drives the same
 * core as the web-standard handler straight from `IncomingMessage` /
 * `ServerResponse`, without building `Request`/`Response` objects.
 */
import type { IncomingMessage, Server as NodeHttpServer, ServerResponse } from "node:http";
import { JSON_HEADERS, type HttpReply, type HttpStream, type IncomingHttp } from "./exchange.js";
import { createEndpoint, serveHttpExchange } from "./handler.js";
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

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

function readNodeBody(request: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        settled = true;
        cleanup();
        // Stop buffering; the 413 response closes the connection.
        request.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/**
 * One exchange on `node:http`, both sides of it in one object whose methods
 * live on the prototype, so a request allocates no closures for them.
 */
class NodeExchange implements IncomingHttp, HttpReply {
  readonly method: string;
  private readonly request: IncomingMessage;
  private readonly response: ServerResponse;
  private readonly fallbackOrigin: string;
  private readonly path: string;

  constructor(request: IncomingMessage, response: ServerResponse, path: string, fallbackOrigin: string) {
    this.method = request.method ?? "GET";
    this.request = request;
    this.response = response;
    this.path = path;
    this.fallbackOrigin = fallbackOrigin;
  }

  header(name: string): string | null {
    return headerOf(this.request, name);
  }

  headers(): Headers {
    return headersOf(this.request);
  }

  url(): string {
    return `http://${this.request.headers.host ?? this.fallbackOrigin}${this.request.url ?? this.path}`;
  }

  readBody(limit: number): Promise<Uint8Array | null> {
    return readNodeBody(this.request, limit);
  }

  onGone(listener: () => void): void {
    const response = this.response;
    if (response.destroyed && !response.writableFinished) {
      listener();
      return;
    }
    response.once("close", () => {
      if (!response.writableFinished) listener();
    });
  }

  send(status: number, headers: Record<string, string>, body: string): void {
    const response = this.response;
    // Nothing is written to a connection the client already closed.
    if (response.headersSent || response.destroyed) return;
    if (body === "") {
      response.writeHead(status, headers);
      response.end();
      return;
    }
    response.writeHead(status, withContentLength(headers, body));
    response.end(body);
  }

  // A stream the client closes is reported through onGone, like any early close.
  stream(headers: Record<string, string>): HttpStream {
    const response = this.response;
    response.writeHead(200, headers);
    response.flushHeaders();
    return {
      write(text) {
        if (!response.writableEnded && !response.destroyed) response.write(text);
      },
      end() {
        if (!response.writableEnded) response.end();
      },
    };
  }
}

/** `headers` plus `content-length`; the usual JSON answer gets a fixed-shape literal instead of a spread. */
function withContentLength(headers: Record<string, string>, body: string): Record<string, string> {
  const length = String(Buffer.byteLength(body));
  if (headers === JSON_HEADERS) return { "content-type": "application/json", "content-length": length };
  return { ...headers, "content-length": length };
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

  const endpoint = createEndpoint(server, resolved);
  const { createServer } = await import("node:http");
  let fallbackOrigin = `${host}:${port}`;
  const httpServer = createServer((request, response) => {
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
  });
  httpServer.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
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
