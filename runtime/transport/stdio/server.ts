/**
 * The server end of the stdio transport: {@link serveStdio} answers
 * newline-delimited JSON-RPC on this process's stdin/stdout.
 */
import type { Readable, Writable } from "node:stream";
import { JsonRpcErrorCode } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import { isSessionHost, type MessageHandler, type RequestContext } from "../types.js";
import { peekRequestId } from "./peek-id.js";
import { classifyMessage, type ClassifiedMessage, type Decoded } from "../../protocol/message.js";
import type { ServerSession } from "../../protocol/contracts.js";
import { messageReader } from "./framing.js";
import { DEFAULT_MAX_LINE_BYTES } from "./limits.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

/** Default bound on requests answered at once over one stdio connection. */
const DEFAULT_MAX_CONCURRENT_REQUESTS = 1_024;

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where responses go. Default `process.stdout`. */
  stdout?: Writable;
  /** Longest accepted line, in bytes; a longer one gets `-32600` (with its id when its first bytes name one). Default 4 MiB. */
  maxLineBytes?: number;
  /**
   * Most requests answered at once; past it, and while stdout has not taken
   * what was written, stdin is not read. Default 1,024.
   */
  maxConcurrentRequests?: number;
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

  const maxInFlight = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  if (!Number.isSafeInteger(maxInFlight) || maxInFlight < 1) {
    throw new RangeError(`maxConcurrentRequests must be a positive integer, got ${String(options.maxConcurrentRequests)}.`);
  }
  // Backpressure: a client that stops reading its answers, or floods requests faster than they are
  // answered, must not make this process buffer without end. Reading stops while stdout has not
  // taken what was written, or while maxConcurrentRequests are running, and resumes when both clear.
  let waitingForDrain = false;
  const readIfClear = () => {
    if (ended) return;
    if (!waitingForDrain && running.size < maxInFlight) stdin.resume();
    else stdin.pause();
  };
  const write = (message: JsonRpcResponse | JsonRpcNotification | JsonRpcRequest) => {
    if (stdout.writableEnded || stdout.destroyed) return;
    try {
      if (stdout.write(`${JSON.stringify(message)}\n`) || waitingForDrain) return;
      waitingForDrain = true;
      stdin.pause();
      stdout.once("drain", () => {
        waitingForDrain = false;
        readIfClear();
      });
    } catch (error) {
      report(error instanceof Error ? error : new Error(String(error)));
    }
  };

  // One process, one connection: a 2025 client's initialize starts the session everything else then goes through.
  const session = isSessionHost(server) && server.legacy === "sessions" ? server.openSession({ send: write }) : undefined;
  const target: MessageHandler = session ?? server;

  const handleLine = (line: Decoded) => {
    if (!line.ok) {
      // The same answer, word for word, as the HTTP transport gives a body that is not a message.
      write(
        errorResponse(undefined, {
          code: JsonRpcErrorCode.ParseError,
          message: "Parse error: the line is not valid UTF-8 JSON; send one JSON-RPC message per line.",
        }),
      );
      return;
    }
    // The one classification of this line: envelope, kind and era, handed on to the session or the server.
    const message = classifyMessage(line.value, undefined, line.openings);
    if (message.kind === "invalid") {
      // A broken envelope is answered here, at the edge, whatever handler sits behind (as the HTTP transport does).
      write(errorResponse(message.id, { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${message.detail}.` }));
      return;
    }
    if (message.kind === "notification" && message.method === "notifications/cancelled") {
      const requestId = message.params?.requestId;
      if (typeof requestId === "string" || typeof requestId === "number") {
        inFlight.get(requestId)?.abort(new Error("The client cancelled the request."));
      }
      // A session also stops what the request was waiting on (a question it asked the client).
      if (session !== undefined) void handOver(session, message, undefined);
      return;
    }
    if (message.kind === "response") {
      // The client's answer to a request a 2025 session sent; with no session nothing awaits one.
      if (session !== undefined) void handOver(session, message, undefined);
      return;
    }
    const id = message.kind === "request" ? message.id : undefined;
    const cancel = new AbortController();
    if (id !== undefined) inFlight.set(id, cancel);
    const related =
      message.kind === "request"
        ? (outgoing: JsonRpcNotification | JsonRpcRequest) => {
            if (!cancel.signal.aborted) write(outgoing);
          }
        : undefined;
    const context: RequestContext = { signal: cancel.signal, sendNotification: related, sendRelated: related };
    const task = handOver(target, message, context)
      .catch((error: unknown): JsonRpcResponse | undefined => {
        report(error instanceof Error ? error : new Error(String(error)));
        return id !== undefined ? errorResponse(id, { code: JsonRpcErrorCode.InternalError, message: "Internal error" }) : undefined;
      })
      .then((response) => {
        if (id !== undefined) inFlight.delete(id);
        // A cancelled request gets no further messages, its answer included.
        if (response && !cancel.signal.aborted) write(response);
      });
    running.add(task);
    if (running.size >= maxInFlight) stdin.pause();
    void task.finally(() => {
      running.delete(task);
      if (stdin.isPaused()) readIfClear();
    });
  };

  messageReader(stdin, maxLineBytes, handleLine, (head) =>
    // The request's id, when its first bytes name one, lets the client settle that very call.
    write(
      errorResponse(peekRequestId(head), {
        code: JsonRpcErrorCode.InvalidRequest,
        message: `Invalid Request: a line exceeded ${maxLineBytes} bytes (maxLineBytes) and was dropped.`,
      }),
    ),
  );

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const finish = async () => {
    if (ended) return;
    ended = true;
    for (const controller of inFlight.values()) controller.abort(new Error("stdin closed."));
    session?.close("The client closed stdin.");
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

/** Hands a classified message on: as classified when the handler or session takes that, else as decoded. */
function handOver(target: MessageHandler | ServerSession, message: ClassifiedMessage, context: RequestContext | undefined): Promise<JsonRpcResponse | undefined> {
  // One promise either way: a line is answered after the turn that read it, whatever the handler returned.
  return Promise.resolve(target.handleClassified !== undefined ? target.handleClassified(message, context) : target.handle(message.message, context));
}
