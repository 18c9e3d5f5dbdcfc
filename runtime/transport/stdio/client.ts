/**
 * The client end of the stdio transport: {@link StdioClientTransport}
 * spawns a server and speaks newline-delimited JSON-RPC over its stdin/stdout.
 */
import type { ChildProcess } from "node:child_process";
import { ConnectionLost } from "../../protocol/connection-lost.js";
import { JsonRpcErrorCode } from "../../protocol/jsonrpc/errors.js";
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from "../../protocol/jsonrpc/messages.js";
import type { ClientTransport, TransportRequestOptions } from "../types.js";
import type { ServerRequestHandler } from "../../protocol/contracts.js";
import { peekRequestId } from "./peek-id.js";
import { startChild } from "./child.js";
import type { StdioChildStderr, StdioClientOptions } from "./client-options.js";
import { lineReader } from "./framing.js";
import { DEFAULT_MAX_LINE_BYTES } from "./limits.js";
import { META_SUBSCRIPTION_ID } from "../../protocol/names.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

export type { StdioClientOptions } from "./client-options.js";

interface Pending {
  method: string;
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
 * Closing ends the child's stdin and gives it `shutdownTimeoutMs` (250 ms)
 * to exit on its own, then sends `SIGTERM` and, 2 s later, `SIGKILL`.
 *
 * @example
 * ```ts
 * const transport = await StdioClientTransport.spawn({ command: "node", args: ["server.js"] });
 * const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } });
 * await transport.close();
 * ```
 */
export class StdioClientTransport implements ClientTransport {
  #child: ChildProcess;
  readonly #pending = new Map<JsonRpcId, Pending>();
  readonly #options: StdioClientOptions;
  #exited!: Promise<void>;
  #serverRequestHandler: ServerRequestHandler | undefined;
  #notificationHandler: ((notification: JsonRpcNotification) => void) | undefined;
  #closed = false;
  #exitReason: Error | undefined;

  private constructor(child: ChildProcess, options: StdioClientOptions) {
    this.#child = child;
    this.#options = options;
    this.#notificationHandler = options.onNotification;
    this.#attach(child);
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
    return new StdioClientTransport(await startChild(options), options);
  }

  /** The command line this transport runs, e.g. `["node", "server.js"]`. */
  get commandLine(): readonly string[] {
    return [this.#options.command, ...(this.#options.args ?? [])];
  }

  /** The working directory and command line: what `Client.connect` remembers this server's era by. */
  get endpointKey(): string {
    return `stdio ${JSON.stringify([this.#options.cwd ?? "", ...this.commandLine])}`;
  }

  /** The child's stderr when `stderr: "pipe"` was chosen (a Node `Readable`). */
  get stderr(): StdioChildStderr | null {
    return this.#child.stderr;
  }

  /** The child's process id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Answers requests a 2025-era server sends over stdout (its back-channel). */
  setServerRequestHandler(handler: ServerRequestHandler): void {
    this.#serverRequestHandler = handler;
  }

  /** Receives notifications no pending request claims (replaces `options.onNotification`). */
  setNotificationHandler(handler: (notification: JsonRpcNotification) => void): void {
    this.#notificationHandler = handler;
  }

  /**
   * Spawns the same command again when the child has exited (a 2025-era
   * server may quit on the `server/discover` probe it does not know);
   * does nothing while the child runs.
   *
   * @returns true when it started a new process, false when the child was still running.
   * @throws {Error} after `close()`, or when the command cannot be started again.
   */
  async reopen(): Promise<boolean> {
    if (this.#closed) throw new Error("The stdio transport is closed; connect again to send more requests.");
    if (this.#exitReason === undefined) return false;
    const child = await startChild(this.#options);
    this.#child = child;
    this.#exitReason = undefined;
    this.#attach(child);
    return true;
  }

  /**
   * Writes a request and resolves with the response carrying its id.
   * Aborting `options.signal` sends `notifications/cancelled` and rejects with the signal's reason.
   *
   * @throws {RangeError} when the id is already in flight.
   * @throws {ConnectionLost} when the server process has exited, before or while the request waited.
   * @throws {Error} when the transport is closed.
   */
  request(message: JsonRpcRequest, options: TransportRequestOptions = {}): Promise<JsonRpcResponse> {
    if (this.#closed) return Promise.reject(new Error("The stdio transport is closed; connect again to send more requests."));
    if (this.#exitReason) return Promise.reject(lost(message.method, this.#exitReason));
    if (this.#pending.has(message.id)) {
      return Promise.reject(new RangeError(`Request id ${String(message.id)} is already in flight; ids must be unique.`));
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      const meta = message.params?._meta;
      const progressToken = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>).progressToken : undefined;
      const onAbort = () => this.cancel(message.id, signal!.reason);
      this.#pending.set(message.id, {
        method: message.method,
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

  /**
   * Cancels a request in flight: sends `notifications/cancelled` with its id
   * and rejects its pending `request` with `reason`. Does nothing for an id
   * no longer in flight.
   */
  cancel(id: JsonRpcId, reason: unknown): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    const timedOut = (reason as { name?: unknown } | null)?.name === "RequestTimeout";
    this.#send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: timedOut ? "The client's timeout for this request elapsed." : "The client cancelled this request." },
    });
    pending.reject(reason);
  }

  /** Writes a notification. @throws {Error} when the server process has exited or the transport is closed. */
  async notify(message: JsonRpcNotification): Promise<void> {
    if (this.#closed || this.#exitReason) throw this.#exitReason ?? new Error("The stdio transport is closed.");
    this.#send(message);
  }

  /** Wires a freshly spawned child: exit handling, stdin errors, the line reader. */
  #attach(child: ChildProcess): void {
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", (code, signal) => {
      if (child !== this.#child) return;
      this.#exitReason = new Error(`The MCP server process exited (${signal ? `signal ${signal}` : `code ${String(code)}`})${this.#closed ? "" : " unexpectedly"}.`);
      // A host catches the process dying under a call as it catches an HTTP connection breaking: ConnectionLost.
      for (const pending of this.#pending.values()) pending.reject(lost(pending.method, this.#exitReason, true));
      this.#pending.clear();
    });
    child.stdin!.on("error", () => {
      // EPIPE after the child died: the exit handler reports it.
    });
    const maxLineBytes = this.#options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    lineReader(
      child.stdout!,
      maxLineBytes,
      (line) => {
        if (child === this.#child) this.#onLine(line);
      },
      (head) => {
        if (child === this.#child) this.#onOversizedLine(head, maxLineBytes);
      },
    );
  }

  /**
   * Ends the child's stdin and waits up to `shutdownTimeoutMs` (250 ms) for it
   * to exit, as a well-behaved server does at the end of its input; then
   * sends SIGTERM (a server's cue to clean up and exit) and, after 2 s more,
   * SIGKILL. Rejects pending requests.
   */
  async close(): Promise<void> {
    if (this.#closed) return this.#exited;
    this.#closed = true;
    const error = new Error("The stdio transport was closed.");
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.stdin!.end();
    // Many servers (those whose stdio transport never watches for the end of input, with a timer running) only
    // exit on a signal: waiting long for them to notice the closed stdin made every close() take seconds.
    const timeout = this.#options.shutdownTimeoutMs ?? 250;
    if (await this.#waitExit(timeout)) return;
    this.#child.kill("SIGTERM");
    if (await this.#waitExit(Math.max(timeout, 2000))) return;
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

  /**
   * A line too long to keep was dropped: fail the request it answered, so the
   * call ends with a reason instead of never. Its id is read from the line's
   * first bytes; with none readable, the only request in flight is the one.
   */
  #onOversizedLine(head: Uint8Array, maxLineBytes: number): void {
    const id = peekRequestId(head);
    const target = id !== undefined ? id : this.#pending.size === 1 ? this.#pending.keys().next().value : undefined;
    if (target === undefined) return;
    const pending = this.#pending.get(target);
    if (pending === undefined) return;
    this.#pending.delete(target);
    pending.reject(
      new Error(
        `The server's reply to request ${JSON.stringify(target)} was longer than ${maxLineBytes} bytes and was dropped; ` +
          "raise maxLineBytes if its answers really are this large.",
      ),
    );
  }

  #routeNotification(notification: JsonRpcNotification): void {
    const params = notification.params;
    const token = params?.progressToken;
    const meta = params?._meta;
    // Every message of a subscriptions/listen stream names the request that opened it.
    const subscription = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[META_SUBSCRIPTION_ID] : undefined;
    let target: Pending | undefined;
    if (typeof subscription === "string" || typeof subscription === "number") {
      target = this.#pending.get(subscription);
    } else if (token !== undefined) {
      for (const pending of this.#pending.values()) {
        if (pending.progressToken === token) target = pending;
      }
    } else if (this.#pending.size === 1) {
      target = this.#pending.values().next().value;
    }
    const deliver = target?.onNotification ?? this.#notificationHandler;
    try {
      deliver?.(notification);
    } catch {
      // A throwing listener must not break the read loop.
    }
  }

  async #answerServerRequest(request: JsonRpcRequest): Promise<void> {
    const handler = this.#serverRequestHandler;
    const response: JsonRpcResponse = handler
      ? await handler(request).catch(() => errorResponse(request.id, { code: JsonRpcErrorCode.InternalError, message: "The client failed to handle the request" }))
      : errorResponse(request.id, { code: JsonRpcErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    this.#send(response);
  }
}

/**
 * The error of a request the server process's exit left without an answer
 * (`sent`: it was in flight, so it may have run) or that came after the exit
 * (never sent); the exit is its cause.
 */
function lost(method: string, exit: Error, sent = false): ConnectionLost {
  const advice = sent ? "It may have run: connect again, and send it again only if that is safe." : "It was not sent: connect again to send it.";
  return new ConnectionLost(method, `${method}: ${exit.message} ${advice}`, { cause: exit });
}
