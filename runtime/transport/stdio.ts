/**
 * The stdio transport (MCP 2026-07-28): newline-delimited JSON-RPC over a
 * child process's standard streams. {@link serveStdio} runs a server on
 * this process's stdin/stdout; {@link StdioClientTransport} spawns a server
 * and talks to it.
 *
 * @packageDocumentation
 */
import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { JsonRpcErrorCode } from "../jsonrpc/errors.js";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../jsonrpc/messages.js";
import type { ClientTransport, MessageHandler, RequestContext, TransportRequestOptions } from "./types.js";

export type { ClientTransport, MessageHandler } from "./types.js";

/** Longest line accepted from the peer, in bytes: a guard against unbounded buffering. Default 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Splits a byte stream into lines and hands each complete one to `onLine`.
 * A line longer than `maxBytes` is dropped whole and reported to `onOversize`.
 */
function lineReader(stream: Readable, maxBytes: number, onLine: (line: string) => void, onOversize: () => void) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;
  stream.on("data", (chunk: Buffer | string) => {
    let buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (;;) {
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) {
        if (!discarding) {
          pending.push(buffer);
          pendingBytes += buffer.length;
          if (pendingBytes > maxBytes) {
            discarding = true;
            pending = [];
            pendingBytes = 0;
            onOversize();
          }
        }
        return;
      }
      const head = buffer.subarray(0, newline);
      buffer = buffer.subarray(newline + 1);
      if (discarding) {
        discarding = false;
        continue;
      }
      const line = pending.length === 0 ? head : Buffer.concat([...pending, head]);
      pending = [];
      pendingBytes = 0;
      if (line.length > maxBytes) {
        onOversize();
        continue;
      }
      const text = line.toString("utf8").replace(/\r$/, "");
      if (text.trim() !== "") onLine(text);
    }
  });
}

function errorResponse(id: JsonRpcId | undefined, code: number, message: string): JsonRpcResponse {
  return id === undefined ? { jsonrpc: "2.0", error: { code, message } } : { jsonrpc: "2.0", id, error: { code, message } };
}

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where responses go. Default `process.stdout`. */
  stdout?: Writable;
  /** Longest accepted line, in bytes. Default 4 MiB. */
  maxLineBytes?: number;
  /**
   * While serving on `process.stdout`, send `console.log`/`info`/`debug`
   * output to stderr so that nothing but protocol messages reaches stdout.
   * Default `true`.
   */
  redirectConsole?: boolean;
  /** Receives transport-level problems (unparseable lines, write failures). Default: writes to stderr. */
  onError?: (error: Error) => void;
}

/** A running stdio server. */
export interface StdioServerHandle {
  /** Resolves when stdin has ended and every in-flight request has settled. */
  closed: Promise<void>;
  /** Stops reading, cancels in-flight requests, and restores the console. */
  close(): Promise<void>;
}

/**
 * Serves an MCP server on this process's stdin/stdout: one JSON-RPC message
 * per line in, one per line out. Requests run concurrently;
 * `notifications/cancelled` aborts the named request (its answer is then
 * never written); end of stdin cancels whatever is still running and
 * resolves `closed`, after which the process can exit.
 *
 * @param server - Anything that answers JSON-RPC messages (`Server`, `McpServer`).
 * @param options - Streams (for tests), line limit, console redirection.
 * @throws {TypeError} when `server` has no `handle` method.
 *
 * @example
 * ```ts
 * const stdio = serveStdio(server);
 * await stdio.closed; // stdin closed by the client
 * ```
 */
export function serveStdio(server: MessageHandler, options: ServeStdioOptions = {}): StdioServerHandle {
  if (!server || typeof (server as MessageHandler).handle !== "function") {
    throw new TypeError("serveStdio needs a server with a handle(message, context) method, such as an McpServer.");
  }
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const report = options.onError ?? ((error: Error) => process.stderr.write(`[mcp stdio] ${error.message}\n`));
  const inFlight = new Map<JsonRpcId, AbortController>();
  const running = new Set<Promise<void>>();
  let ended = false;

  const restoreConsole = options.redirectConsole !== false && stdout === process.stdout ? redirectConsoleToStderr() : () => {};

  const write = (message: JsonRpcResponse | JsonRpcNotification) => {
    if (stdout.writableEnded || stdout.destroyed) return;
    try {
      stdout.write(`${JSON.stringify(message)}\n`);
    } catch (error) {
      report(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const handleLine = (line: string) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      write(errorResponse(undefined, JsonRpcErrorCode.ParseError, "Parse error: each line must be one JSON-RPC message."));
      return;
    }
    if (Array.isArray(message)) {
      write(errorResponse(undefined, JsonRpcErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported."));
      return;
    }
    if (isJsonRpcNotification(message) && message.method === "notifications/cancelled") {
      const requestId = message.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        inFlight.get(requestId)?.abort(new Error("The client cancelled the request."));
      }
      return;
    }
    if (isJsonRpcResponse(message)) return; // 2026-07-28 servers never send requests, so nothing awaits a response.
    const isRequest = isJsonRpcRequest(message);
    const id = isRequest ? (message as JsonRpcRequest).id : undefined;
    const cancel = new AbortController();
    if (isRequest && (typeof id === "string" || typeof id === "number")) inFlight.set(id, cancel);
    const context: RequestContext = {
      signal: cancel.signal,
      sendNotification: isRequest
        ? (notification) => {
            if (!cancel.signal.aborted) write(notification);
          }
        : undefined,
    };
    const task = server
      .handle(message, context)
      .catch((error: unknown): JsonRpcResponse | undefined => {
        report(error instanceof Error ? error : new Error(String(error)));
        return isRequest ? errorResponse(id, JsonRpcErrorCode.InternalError, "Internal error") : undefined;
      })
      .then((response) => {
        if (id !== undefined) inFlight.delete(id);
        // A cancelled request gets no further messages, its answer included.
        if (response && !cancel.signal.aborted) write(response);
      });
    running.add(task);
    void task.finally(() => running.delete(task));
  };

  lineReader(stdin, maxLineBytes, handleLine, () =>
    write(errorResponse(undefined, JsonRpcErrorCode.InvalidRequest, `Invalid Request: a line exceeded ${maxLineBytes} bytes and was dropped.`)),
  );

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const finish = async () => {
    if (ended) return;
    ended = true;
    for (const controller of inFlight.values()) controller.abort(new Error("stdin closed."));
    await Promise.allSettled([...running]);
    restoreConsole();
    stdout.off("error", onStdoutError);
    resolveClosed();
  };
  // The client went away (EPIPE): stop, rather than die on an unhandled stream error.
  const onStdoutError = (error: Error) => {
    report(error);
    void finish();
  };
  stdout.on("error", onStdoutError);
  stdin.once("end", () => void finish());
  stdin.once("close", () => void finish());
  stdin.once("error", (error: Error) => {
    report(error);
    void finish();
  });
  if (typeof (stdin as NodeJS.ReadStream).resume === "function") stdin.resume();

  return {
    closed,
    async close() {
      stdin.pause();
      await finish();
    },
  };
}

function redirectConsoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return () => Object.assign(console, saved);
}

/** Options of {@link StdioClientTransport}. */
export interface StdioClientOptions {
  /** The executable to spawn, e.g. `"node"`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** Environment of the child. Default: this process's environment. */
  env?: Record<string, string | undefined>;
  /** Working directory of the child. */
  cwd?: string;
  /** What to do with the child's stderr (its logs). Default `"inherit"`. */
  stderr?: "inherit" | "pipe" | "ignore";
  /** Longest accepted line from the child, in bytes. Default 4 MiB. */
  maxLineBytes?: number;
  /** How long `close()` waits for the child to exit before signalling it, in ms. Default 2000. */
  shutdownTimeoutMs?: number;
  /** Receives notifications no pending request claims. */
  onNotification?: (notification: JsonRpcNotification) => void;
}

interface Pending {
  resolve(response: JsonRpcResponse): void;
  reject(error: unknown): void;
  progressToken: unknown;
  onNotification: ((notification: JsonRpcNotification) => void) | undefined;
}

/**
 * A {@link ClientTransport} that spawns an MCP server and speaks
 * newline-delimited JSON-RPC over its stdin/stdout. `Client.connect({ command, args })`
 * creates one.
 *
 * Closing ends the child's stdin, waits for it to exit, then escalates to
 * `SIGTERM` and `SIGKILL`.
 *
 * @example
 * ```ts
 * const transport = await StdioClientTransport.spawn({ command: "node", args: ["server.js"] });
 * const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } });
 * await transport.close();
 * ```
 */
export class StdioClientTransport implements ClientTransport {
  readonly #child: ChildProcess;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #options: StdioClientOptions;
  readonly #exited: Promise<void>;
  #serverRequestHandler: ((request: JsonRpcRequest) => Promise<JsonRpcResponse>) | undefined;
  #closed = false;
  #exitReason: Error | undefined;

  private constructor(child: ChildProcess, options: StdioClientOptions) {
    this.#child = child;
    this.#options = options;
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", (code, signal) => {
      this.#exitReason = new Error(
        `The MCP server process exited (${signal ? `signal ${signal}` : `code ${String(code)}`})${this.#closed ? "" : " unexpectedly"}.`,
      );
      for (const pending of this.#pending.values()) pending.reject(this.#exitReason);
      this.#pending.clear();
    });
    child.stdin!.on("error", () => {
      // EPIPE after the child died: the exit handler reports it.
    });
    lineReader(child.stdout!, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, (line) => this.#onLine(line), () => {});
  }

  /**
   * Spawns the server and resolves once the process has started.
   *
   * @throws {TypeError} for a missing command or arguments that are not strings.
   * @throws {Error} when the executable cannot be started (not found, not executable).
   */
  static async spawn(options: StdioClientOptions): Promise<StdioClientTransport> {
    if (!options || typeof options.command !== "string" || options.command === "") {
      throw new TypeError('stdio needs { command, args }, e.g. { command: "node", args: ["server.js"] }.');
    }
    const args = options.args ?? [];
    if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string")) {
      throw new TypeError("stdio args must be an array of strings.");
    }
    const { spawn } = await import("node:child_process");
    const child = spawn(options.command, [...args], {
      env: (options.env ?? process.env) as NodeJS.ProcessEnv,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
      windowsHide: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) =>
        reject(new Error(`Could not start the MCP server "${options.command}": ${error.message}`, { cause: error })),
      );
    });
    return new StdioClientTransport(child, options);
  }

  /** The child's stderr when `stderr: "pipe"` was chosen. */
  get stderr(): Readable | null {
    return this.#child.stderr;
  }

  /** The child's process id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Answers requests a 2025-era server sends over stdout (its back-channel). */
  setServerRequestHandler(handler: (request: JsonRpcRequest) => Promise<JsonRpcResponse>): void {
    this.#serverRequestHandler = handler;
  }

  /**
   * Writes a request and resolves with the response carrying its id.
   * Aborting `options.signal` sends `notifications/cancelled` and rejects with the signal's reason.
   *
   * @throws {RangeError} when the id is already in flight.
   * @throws {Error} when the server process has exited or the transport is closed.
   */
  request(message: JsonRpcRequest, options: TransportRequestOptions = {}): Promise<JsonRpcResponse> {
    if (this.#closed || this.#exitReason) {
      return Promise.reject(this.#exitReason ?? new Error("The stdio transport is closed; connect again to send more requests."));
    }
    if (this.#pending.has(message.id)) {
      return Promise.reject(new RangeError(`Request id ${String(message.id)} is already in flight; ids must be unique.`));
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const meta = message.params?._meta;
      const progressToken = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>).progressToken : undefined;
      const onAbort = () => {
        if (!this.#pending.delete(message.id)) return;
        this.#send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: message.id, reason: "aborted" } });
        reject(signal!.reason);
      };
      this.#pending.set(message.id, {
        resolve: (response) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
        progressToken,
        onNotification: options.onNotification,
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#send(message);
    });
  }

  /** Writes a notification. @throws {Error} when the server process has exited or the transport is closed. */
  async notify(message: JsonRpcNotification): Promise<void> {
    if (this.#closed || this.#exitReason) throw this.#exitReason ?? new Error("The stdio transport is closed.");
    this.#send(message);
  }

  /** Ends the child's stdin, waits for it to exit, then escalates to SIGTERM and SIGKILL; rejects pending requests. */
  async close(): Promise<void> {
    if (this.#closed) return this.#exited;
    this.#closed = true;
    const error = new Error("The stdio transport was closed.");
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.stdin!.end();
    const timeout = this.#options.shutdownTimeoutMs ?? 2000;
    if (await this.#waitExit(timeout)) return;
    this.#child.kill("SIGTERM");
    if (await this.#waitExit(timeout)) return;
    this.#child.kill("SIGKILL");
    await this.#exited;
  }

  async #waitExit(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.#exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  #send(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse): void {
    const stdin = this.#child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return;
    stdin.write(`${JSON.stringify(message)}\n`);
  }

  #onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // Not a protocol message: a misbehaving server's stray output is ignored.
    }
    if (isJsonRpcResponse(message)) {
      const id = (message as { id?: JsonRpcId }).id;
      if (id === undefined || id === null) return;
      const pending = this.#pending.get(id);
      if (!pending) return;
      this.#pending.delete(id);
      pending.resolve(message);
      return;
    }
    if (isJsonRpcNotification(message)) {
      this.#routeNotification(message);
      return;
    }
    if (isJsonRpcRequest(message)) void this.#answerServerRequest(message);
  }

  #routeNotification(notification: JsonRpcNotification): void {
    const params = notification.params;
    const token = params?.progressToken;
    let target: Pending | undefined;
    if (token !== undefined) {
      for (const pending of this.#pending.values()) {
        if (pending.progressToken === token) target = pending;
      }
    } else if (this.#pending.size === 1) {
      target = this.#pending.values().next().value;
    }
    const deliver = target?.onNotification ?? this.#options.onNotification;
    try {
      deliver?.(notification);
    } catch {
      // A throwing listener must not break the read loop.
    }
  }

  async #answerServerRequest(request: JsonRpcRequest): Promise<void> {
    const handler = this.#serverRequestHandler;
    const response: JsonRpcResponse = handler
      ? await handler(request).catch(() => errorResponse(request.id, JsonRpcErrorCode.InternalError, "The client failed to handle the request"))
      : errorResponse(request.id, JsonRpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    this.#send(response);
  }
}
