/**
 * The two 2025-era uses of HTTP GET (2025-11-25 basic/transports), loaded
 * only once a 2025 session needs them: the standalone stream that carries
 * server-initiated messages ("Listening for Messages from the Server"), and
 * the resumption of a response stream that broke before its answer
 * ("Resumability and Redelivery": GET with `Last-Event-ID`, after the
 * server's `retry` delay).
 *
 * @internal
 */
import type { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import type { isJsonRpcNotification, isJsonRpcRequest, isJsonRpcResponse, JsonRpcId, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import type { fetchFailure, HttpTransportError, sessionLostError } from "./errors.js";
import { readEventStream, type StreamOutcome, type StreamReader } from "./sse-read.js";
import type { eitherSignal, mediaTypeOf, reasonOf, sleep } from "./shared.js";
import type { ConnectionLost } from "../../../protocol/connection-lost.js";

/** Wait before reconnecting when the server named no `retry`. */
const DEFAULT_RETRY_MS = 1_000;
/** Ceiling of the doubling wait after failed connections. */
const MAX_BACKOFF_MS = 30_000;
/** Consecutive failed connections after which the GET stream gives up. */
const MAX_FAILURES = 6;
/** Reconnections a broken response stream gets to deliver its answer. */
const MAX_RESUMES = 5;

/** What the event-stream code needs from the transport. */
export interface StreamHost {
  /** The MCP endpoint. */
  readonly url: URL;
  /** The transport's fetch (called detached). */
  readonly fetch: typeof fetch;
  /** The 2025 session's id and agreed version, sent on every GET. */
  readonly session: { readonly id: string | undefined; readonly version: string | undefined };
  /** The extra headers and the credentials: what every GET carries. */
  baseHeaders(): Promise<Record<string, string>>;
  /** True once the transport is closed. */
  closed(): boolean;
  /** Readers being read: the transport's `close()` cancels them. */
  readonly streams: Set<StreamReader>;
  /** Reports a problem the application may want to know about. */
  warn(message: string): void;
  /** The longest SSE event read, in characters (`maxResponseBytes`). */
  readonly maxEventChars: number;
  /**
   * The helpers the lazily loaded stream modules (this one, `sse-response.ts`,
   * `sse-read.ts`, `server-messages.ts`) share with the transport, handed over
   * rather than imported: a bundle then keeps them in the transport's chunk,
   * and the stream modules import nothing from it (docs/internals.md).
   */
  readonly kit: StreamKit;
}

/** See {@link StreamHost.kit}. */
export interface StreamKit {
  readonly HttpTransportError: typeof HttpTransportError;
  readonly JsonRpcErrorCode: typeof JsonRpcErrorCode;
  readonly errorResponse: typeof errorResponse;
  readonly eitherSignal: typeof eitherSignal;
  readonly isJsonRpcNotification: typeof isJsonRpcNotification;
  readonly isJsonRpcRequest: typeof isJsonRpcRequest;
  readonly isJsonRpcResponse: typeof isJsonRpcResponse;
  readonly mediaTypeOf: typeof mediaTypeOf;
  readonly reasonOf: typeof reasonOf;
  readonly sleep: typeof sleep;
  readonly sessionLostError: typeof sessionLostError;
  readonly fetchFailure: typeof fetchFailure;
  readonly ConnectionLost: typeof ConnectionLost;
  /** The message of the error a closed transport throws. */
  readonly closedMessage: string;
}

/** One GET of the endpoint for an event stream: the standalone stream, or the resumption of a broken one (`Last-Event-ID`). */
async function open(host: StreamHost, lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
  if (host.closed()) throw new Error(host.kit.closedMessage);
  const headers = await host.baseHeaders();
  headers.accept = "text/event-stream";
  const { version, id } = host.session;
  if (version !== undefined) headers["mcp-protocol-version"] = version;
  if (id !== undefined) headers["mcp-session-id"] = id;
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  try {
    return await host.fetch(host.url, { method: "GET", headers, signal });
  } catch (error) {
    throw host.kit.fetchFailure(error, signal, host.closed(), host.url);
  }
}

/**
 * Gets the answer of a request whose SSE response ended (or broke off)
 * without it, by reconnecting with GET and `Last-Event-ID` after the
 * server's `retry` delay, doubling while attempts bring nothing, as many
 * times as the server keeps closing (within a bound).
 *
 * @param what - the method, for error messages.
 * @throws HttpTransportError when a reconnection is refused.
 * @throws ConnectionLost when the answer never comes: the connection keeps breaking, or the server cannot be reached.
 * @throws the signal's reason when it aborts (the caller's signal, or the transport's close).
 */
export async function resumeForAnswer(
  host: StreamHost,
  what: string,
  awaitedId: JsonRpcId,
  broken: StreamOutcome,
  onMessage: (message: unknown) => void,
  signal: AbortSignal,
): Promise<JsonRpcResponse> {
  let { lastEventId, retryMs } = broken;
  let idle = 0;
  let last: unknown = broken.broken;
  for (let attempt = 1; attempt <= MAX_RESUMES; attempt++) {
    // "The client MUST respect the retry field" (2025-11-25 transports, "Sending Messages to the Server" 6);
    // attempts that bring nothing wait twice as long each time.
    await host.kit.sleep(Math.min(MAX_BACKOFF_MS, (retryMs ?? DEFAULT_RETRY_MS) * 2 ** idle), signal);
    let response: Response;
    try {
      response = await open(host, lastEventId, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      last = error;
      idle++;
      continue;
    }
    if (!response.ok || host.kit.mediaTypeOf(response.headers.get("content-type")) !== "text/event-stream" || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new host.kit.HttpTransportError(
        response.status,
        `${what}: the response stream closed before its answer, and resuming it (GET with Last-Event-ID) was answered with HTTP ${response.status}.`,
      );
    }
    const outcome = await readEventStream(host.kit, response.body, awaitedId, onMessage, host.streams, host.maxEventChars);
    if (outcome.answer) return outcome.answer;
    idle = outcome.received ? 0 : idle + 1;
    last = outcome.broken ?? last;
    lastEventId = outcome.lastEventId ?? lastEventId;
    retryMs = outcome.retryMs ?? retryMs;
  }
  throw new host.kit.ConnectionLost(
    what,
    `${what}: the response stream broke off or closed ${MAX_RESUMES + 1} times before its answer (resumed with Last-Event-ID each time); ` +
      `giving up. The request may have run on the server; send it again if that is safe.`,
    last === undefined ? undefined : { cause: last },
  );
}

/**
 * The standalone GET stream of a 2025 session: opened once the session has
 * started, reconnected with `Last-Event-ID` after the server's `retry` (or
 * a doubling wait after failures, bounded), and stopped for good by
 * `stop()`, by a 405 (the server offers no stream), by a 404 (the session is
 * gone; a new session opens a new stream) or after repeated failures.
 */
export class EventStreamListener {
  readonly #host: StreamHost;
  readonly #onMessage: (message: unknown) => void;
  readonly #controller = new AbortController();
  #answered: (() => void) | undefined;

  constructor(host: StreamHost, onMessage: (message: unknown) => void) {
    this.#host = host;
    this.#onMessage = onMessage;
  }

  /**
   * Starts listening in the background.
   *
   * @returns a promise that settles (never rejects) once the server answered the first GET, or it failed.
   */
  start(): Promise<void> {
    const answered = new Promise<void>((resolve) => (this.#answered = resolve));
    void this.#run()
      .catch((error: unknown) => {
        if (!this.#controller.signal.aborted) this.#host.warn(`The server's event stream stopped: ${this.#host.kit.reasonOf(error)}`);
      })
      .finally(() => this.#answered?.());
    return answered;
  }

  /** Stops listening and cancels the open connection, if any. Idempotent. */
  stop(): void {
    this.#controller.abort(new Error("The event stream was stopped."));
  }

  /** True once stopped, by `stop()` or for one of the reasons above. */
  get stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  async #run(): Promise<void> {
    const signal = this.#controller.signal;
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    let failures = 0;
    while (!signal.aborted) {
      let outcome: StreamOutcome | undefined;
      try {
        const response = await open(this.#host, lastEventId, signal).finally(() => this.#answered?.());
        const verdict = this.#judge(response);
        if (verdict === "stop") {
          this.#controller.abort(new Error("The server offers no event stream."));
          return;
        }
        if (verdict === "read")
          outcome = await readEventStream(this.#host.kit, response.body!, undefined, this.#onMessage, this.#host.streams, this.#host.maxEventChars);
      } catch (error) {
        if (signal.aborted) return;
        if (failures + 1 >= MAX_FAILURES) throw error;
      }
      if (outcome !== undefined) {
        lastEventId = outcome.lastEventId ?? lastEventId;
        retryMs = outcome.retryMs ?? retryMs;
      }
      failures = outcome?.received ? 0 : failures + 1;
      if (failures >= MAX_FAILURES) {
        throw new Error(`${failures} connections in a row failed; server-initiated messages now arrive only on call responses.`);
      }
      const base = retryMs ?? DEFAULT_RETRY_MS;
      await this.#host.kit.sleep(failures === 0 ? base : Math.min(MAX_BACKOFF_MS, Math.max(base, DEFAULT_RETRY_MS) * 2 ** (failures - 1)), signal);
    }
  }

  /** Whether to read a GET response, retry later, or stop listening. */
  #judge(response: Response): "read" | "retry" | "stop" {
    if (response.ok && this.#host.kit.mediaTypeOf(response.headers.get("content-type")) === "text/event-stream" && response.body) return "read";
    void response.body?.cancel().catch(() => {});
    const status = response.status;
    // 405: no stream offered. 404: the session is gone, and the next request renews it (and the stream).
    if (status === 405 || status === 404) return "stop";
    if (status === 429 || status >= 500) return "retry";
    this.#host.warn(`The server refused the event stream (GET) with HTTP ${status}; server-initiated messages will arrive only on call responses.`);
    return "stop";
  }
}
