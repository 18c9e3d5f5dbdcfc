/**
 * `node:http` binding of the Streamable HTTP handler. It drives the same
 * core as the web-standard handler straight from `IncomingMessage` /
 * `ServerResponse`, without building `Request`/`Response` objects.
 */
import type { Server as NodeHttpServer, ServerResponse } from "node:http";
import { createEndpoint, serveHttpExchange } from "./handler.js";
import { NodeExchange } from "./node-exchange.js";
import { isResourceMetadataPath, serveResourceMetadata } from "./resource-metadata.js";
import { DEFAULT_DRAIN_GRACE_MS, graceOf, installSignalHandlers, NodeDrain } from "./node-drain.js";
import { isLoopbackHost, resolveHttpOptions, type HttpHandlerOptions, type ResolvedHttpOptions } from "./policy.js";
import type { MessageHandler } from "../../types.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";

/** Options of {@link serveHttp}: where to listen, plus every handler option. */
export interface ServeHttpOptions extends HttpHandlerOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port to bind; `0` (the default) picks a free one. */
  port?: number;
  /**
   * Path of the MCP endpoint; other paths get `404` (except the health path
   * and, with `authorization`, the metadata document's well-known paths).
   * Default `/mcp`.
   */
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
  /**
   * How long `close()` (and a signal, see `handleSignals`) lets requests in
   * flight finish before cutting them, in milliseconds. Default 5,000.
   */
  drainGraceMs?: number;
  /**
   * How long `close()` keeps accepting connections once the health path
   * answers `503`, before the listener closes, in milliseconds: time for an
   * orchestrator's readiness probe to take the instance out. Default 0 (a
   * proxy such as nginx retries a refused connection on another instance).
   */
  drainKeepAcceptingMs?: number;
  /**
   * A readiness path, e.g. `"/healthz"`: `GET` (or `HEAD`) answers `200`
   * while serving and `503` once a drain started, so a load balancer or an
   * orchestrator stops sending traffic. It checks neither Host, Origin nor a
   * token (probes come from the infrastructure) and reveals only that state.
   */
  healthPath?: string;
  /**
   * Checks the health path also runs, e.g. `[replay.healthy]` from
   * `connectRedisReplayStore`: while one returns `false` (or throws) the path
   * answers `503 {"status":"degraded"}`, so a readiness probe can route around
   * an instance that lost its Redis. Keep them cheap and synchronous: a probe
   * calls them every few seconds. Default: none.
   */
  healthChecks?: ReadonlyArray<() => boolean>;
  /**
   * Drain on `SIGTERM` and `SIGINT` (`true`) or on the signals listed: the
   * first one stops accepting, lets requests in flight finish (up to
   * `drainGraceMs`), runs `onShutdown`, and exits the process with 0; a
   * second one exits at once. Default: off.
   */
  handleSignals?: boolean | readonly NodeJS.Signals[];
  /** With `handleSignals`: runs after the drain, before the process exits (close a Redis client here). */
  onShutdown?: () => void | Promise<void>;
}

/** Options of {@link HttpServerHandle.close}. */
export interface HttpCloseOptions {
  /** How long requests in flight may take to finish, in milliseconds; then they are cut. Default: `drainGraceMs` (5 s). `0` cuts at once. */
  graceMs?: number;
  /** How long to keep accepting while the health path answers `503`, before the listener closes. Default: `drainKeepAcceptingMs` (0). */
  keepAcceptingMs?: number;
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
  /** The address it listens on, as given to `serveHttp` (default loopback). */
  host: string;
  /** The port it listens on: the one the system picked when you asked for 0. */
  port: number;
  /** The underlying `node:http` server. */
  server: NodeHttpServer;
  /**
   * Drains and closes. At once the health path answers `503` and every
   * 2025 session ends with its GET stream (sessions live in this process's
   * memory; their clients initialize again elsewhere), every
   * `subscriptions/listen` stream ends with its graceful result (new ones
   * are refused); after
   * `keepAcceptingMs` (default 0) the listener closes, requests in flight
   * (their SSE streams included) get up to `graceMs` to finish, each
   * connection closes once idle, and whatever is left is cut. Resolves once
   * every connection is closed; calling it again returns the same drain.
   */
  close(options?: HttpCloseOptions): Promise<void>;
  /** True once `close()` started (or a signal did). */
  readonly draining: boolean;
  /** Requests being answered right now (open SSE streams included). */
  readonly inFlight: number;
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
  const healthPath = options.healthPath;
  const healthChecks = options.healthChecks ?? [];
  if (!Array.isArray(healthChecks) || healthChecks.some((check) => typeof check !== "function")) {
    throw new TypeError("healthChecks must be an array of functions returning a boolean, e.g. [replay.healthy] from connectRedisReplayStore.");
  }
  if (healthChecks.length > 0 && healthPath === undefined) {
    throw new TypeError('healthChecks need a healthPath to answer on, e.g. healthPath: "/healthz".');
  }
  if (healthPath !== undefined && (typeof healthPath !== "string" || !healthPath.startsWith("/") || healthPath === path)) {
    throw new TypeError(`healthPath must be a path starting with "/" other than the MCP endpoint's (${path}), got ${JSON.stringify(healthPath)}.`);
  }
  const drainGraceMs = graceOf(options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS, "drainGraceMs");
  const drainKeepAcceptingMs = graceOf(options.drainKeepAcceptingMs ?? 0, "drainKeepAcceptingMs");
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
      drain.track(response);
      const url = request.url ?? "/";
      const query = url.indexOf("?");
      const requestPath = query === -1 ? url : url.slice(0, query);
      if (requestPath !== path) {
        if (isResourceMetadataPath(resolved.auth, requestPath)) {
          serveResourceMetadata(resolved.auth!, request.method ?? "GET", new NodeExchange(request, response, path, fallbackOrigin));
          return;
        }
        if (requestPath === healthPath && (request.method === "GET" || request.method === "HEAD")) {
          answerHealth(response, drain.draining ? "draining" : healthOf(healthChecks), request.method === "HEAD");
          return;
        }
        const body = JSON.stringify(errorResponse(undefined, { code: -32600, message: `Not Found: the MCP endpoint is ${path}.` }));
        response.writeHead(404, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
        response.end(body);
        return;
      }
      const exchange = new NodeExchange(request, response, path, fallbackOrigin);
      serveHttpExchange(endpoint, exchange, exchange);
    },
  );
  const drain = new NodeDrain(httpServer);
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
  let removeSignalHandlers: (() => void) | undefined;
  const close = (closeOptions: HttpCloseOptions = {}): Promise<void> => {
    removeSignalHandlers?.();
    const grace = graceOf(closeOptions.graceMs ?? drainGraceMs, "graceMs");
    const keepAccepting = graceOf(closeOptions.keepAcceptingMs ?? drainKeepAcceptingMs, "keepAcceptingMs");
    return drain.drain(grace, keepAccepting, () => {
      endpoint.sessions?.closeAll("The server is shutting down; initialize again.");
      // Listener streams end with their graceful result, so clients listen again elsewhere instead of waiting out the grace.
      (endpoint.handler as { closeSubscriptions?: (reason: string, final: boolean) => unknown }).closeSubscriptions?.(
        "The server is shutting down; listen again.",
        true,
      );
    });
  };
  const signals = signalsOf(options.handleSignals);
  if (signals.length > 0) {
    removeSignalHandlers = installSignalHandlers({ signals, drain: () => close(), onShutdown: options.onShutdown, exit: true, onError: resolved.onError });
  }
  return {
    url: `http://${urlHost}:${boundPort}${path}`,
    host,
    port: boundPort,
    server: httpServer,
    close,
    get draining() {
      return drain.draining;
    },
    get inFlight() {
      return drain.inFlight;
    },
  };
}

function signalsOf(option: ServeHttpOptions["handleSignals"]): readonly NodeJS.Signals[] {
  if (option === undefined || option === false) return [];
  if (option === true) return ["SIGTERM", "SIGINT"];
  if (!Array.isArray(option) || option.some((signal) => typeof signal !== "string" || !signal.startsWith("SIG"))) {
    throw new TypeError(`handleSignals must be true, false or a list of signal names such as ["SIGTERM"], got ${JSON.stringify(option)}.`);
  }
  return option;
}

/** The readiness answer: serving or draining, and nothing else about the server. */
type Health = "serving" | "degraded" | "draining";

function healthOf(checks: ReadonlyArray<() => boolean>): Health {
  for (const check of checks) {
    try {
      if (check() !== true) return "degraded";
    } catch {
      return "degraded";
    }
  }
  return "serving";
}

function answerHealth(response: ServerResponse, health: Health, head: boolean): void {
  const draining = health === "draining";
  const body = `{"status":"${health}"}`;
  response.writeHead(health === "serving" ? 200 : 503, {
    "content-type": "application/json",
    "content-length": String(body.length),
    "cache-control": "no-store",
    ...(draining ? { connection: "close" } : {}),
  });
  response.end(head ? undefined : body);
}
