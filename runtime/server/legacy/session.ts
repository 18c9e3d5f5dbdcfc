/**
 * One 2025-era session on the server, one object from `initialize` to
 * close: the handshake's outcome (version, client capabilities, log level,
 * subscriptions, whether the client said `initialized`), the requests the
 * server sent the client and is waiting on, and the client's requests being
 * answered (for `notifications/cancelled`). Its requests go down the one
 * request path (`request.ts`) under the 2025 profile, with the session as
 * their scope.
 *
 * @internal
 */
import { sessionLabel } from "./host.js";
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import { classifyMessage, keyOf, type ClassifiedMessage } from "../../protocol/message.js";
import { LEGACY_VERSIONS } from "../../protocol/revisions.js";
import type { RequestContext } from "../../protocol/context.js";
import type { ServerSession, SessionPeer } from "../../protocol/contracts.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";
import { answerRequest, assertNestingWithin, type RevisionProfile } from "../request.js";
import type { LegacyHost } from "./host.js";
import { loadLegacy } from "./load.js";
import type { Broadcastable, LegacyChannel, LegacyScope } from "./types.js";
import { agreeVersion, declaredBy, initializeResult } from "./lifecycle.js";
import { isObject } from "../../protocol/guards.js";
import { MetaKey } from "../../protocol/names.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";
import { askRound, type RoundSignal } from "./round.js";
import { PendingRequests, type Waiter } from "./pending-requests.js";

type LegacyProfile = RevisionProfile<LegacyScope>;

function invalid(id: JsonRpcId | undefined, detail: string): JsonRpcResponse {
  return errorResponse(id, { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${detail}` });
}

/** A 2025 session held by a `Server`. @internal */
export class LegacySession implements ServerSession, Broadcastable, LegacyChannel, LegacyScope {
  readonly id: string = globalThis.crypto.randomUUID();
  #protocolVersion: string | undefined;
  #clientCapabilities: ClientCapabilities = {};
  #clientInfo: Implementation | undefined;
  #logLevel: LoggingLevel | undefined;
  #closed = false;
  /** Whether the client sent `notifications/initialized`; requests to the client wait for it (the lifecycle's SHOULD NOT). */
  #clientInitialized = false;
  #initialized: Promise<void> | undefined;
  #markInitialized: (() => void) | undefined;
  #nextId = 0;
  /** The 2025 profile of the request path, once loaded (with the 2025 validators) for this session's initialize. */
  #profile: LegacyProfile | undefined;
  #subscriptions: Set<string> | undefined; // these three are made on first use: an idle session holds none
  #waiting: PendingRequests | undefined;
  #answering: Map<string, RequestContextImpl> | undefined;
  readonly #host: LegacyHost;
  readonly #peer: SessionPeer;

  constructor(host: LegacyHost, peer: SessionPeer) {
    this.#host = host;
    this.#peer = peer;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The client's name and version from `initialize`, for logs. */
  get clientInfo(): Implementation | undefined {
    return this.#clientInfo;
  }

  /** What the client declared in `initialize`. */
  get clientCapabilities(): ClientCapabilities {
    return this.#clientCapabilities;
  }

  /** The level the client asked for with `logging/setLevel`, if any. */
  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  /** A session is the scope of its own requests: the back channel asks over it. */
  get session(): LegacyChannel {
    return this;
  }

  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    return this.handleClassified(classifyMessage(message, context?.protocolVersionHeader), context);
  }

  /** {@link LegacySession.handle} for a message the transport already classified. @internal */
  async handleClassified(message: ClassifiedMessage, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    if (message.kind === "invalid") return invalid(message.id, message.detail);
    if (message.kind === "response") {
      this.#settle(message.message);
      return undefined;
    }
    if (message.kind === "notification") {
      this.#notification(message.method, message.params);
      return undefined;
    }
    const { id, method } = message;
    if (this.#closed) return invalid(id, "this session has ended; start a new one with initialize");
    if (message.era === "modern" && method !== "initialize") {
      // Before any handshake a connection may speak 2026-07-28 (a stdio probe); once a session started, it may not switch.
      if (this.#protocolVersion === undefined) return this.#host.handleModern(message, context);
      return invalid(
        id,
        `this connection started a ${this.#protocolVersion} session with initialize, and a request carrying the 2026-07-28 ` +
          "_meta envelope cannot join it. Use one protocol generation per connection (or per Mcp-Session-Id).",
      );
    }
    if (method === "initialize") return this.#initialize(id, message.message);
    if (this.#protocolVersion === undefined) {
      if (method === "ping") return { jsonrpc: "2.0", id, result: {} }; // the lifecycle page allows ping before initialization
      return invalid(
        id,
        `${method} before initialize: a 2025 client must send initialize first; a 2026-07-28 request must carry ` +
          `_meta["${MetaKey.protocolVersion}"] (and over HTTP the MCP-Protocol-Version header)`,
      );
    }
    // Loaded by initialize, so a session's requests find their profile at hand.
    return answerRequest(this.#host, this.#profile ?? (await this.#loadProfile()), message, this, context);
  }

  /**
   * Asks the client every request of one round at once (in 2025 shape, see
   * `toLegacyParams`) and resolves with their results under the same keys.
   * One refusal cancels the others.
   */
  askAll(requests: Record<string, { method: string; params?: Record<string, unknown> }>, ctx: RequestContextImpl): Promise<Record<string, Record<string, unknown>>> {
    return askRound(requests, ctx, (method, params, round) => this.request(method, params, ctx, round));
  }

  /**
   * Sends the client one request and resolves with its result. It goes on
   * the channel of `related` (the request being answered) when the transport
   * has one, else to the session's peer.
   *
   * @throws McpError carrying the client's error; -32603 when it does not answer in time
   */
  request(method: string, params: Record<string, unknown>, related: RequestContextImpl | undefined, signal?: RoundSignal): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new McpError(JsonRpcErrorCode.InternalError, `Cannot send ${method}: the session has ended`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = ++this.#nextId;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
    const pending = (this.#waiting ??= new PendingRequests((waiter) => this.#overdue(waiter)));
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => {
        if (!pending.has(id)) return;
        const reason = "The server no longer needs the answer.";
        const cancelled: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } };
        Promise.resolve()
          .then(() => this.#deliver(cancelled, related))
          .catch(() => {}); // best effort: the client may be gone
        waiter.reject(signal!.reason);
      };
      const waiter: Waiter = {
        method,
        deadline: Date.now() + this.#host.options.requestTimeoutMs,
        resolve: (result) => {
          if (!pending.delete(id)) return;
          signal?.removeEventListener("abort", onAbort);
          resolve(result);
        },
        reject: (error) => {
          if (!pending.delete(id)) return;
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      pending.add(id, waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      const unsent = (error: unknown) =>
        waiter.reject(new McpError(JsonRpcErrorCode.InternalError, `Could not send ${method} to the client`, undefined, { cause: error }));
      // The lifecycle page: no requests to the client before it said notifications/initialized.
      const initialized = this.#afterInitialized();
      if (initialized !== undefined) {
        initialized.then(() => (pending.has(id) ? this.#deliver(message, related) : undefined)).catch(unsent);
        return;
      }
      // Sent at once, as the handler asks: no promise chain between the question and the wire.
      try {
        const sent = this.#deliver(message, related);
        if (sent !== undefined) sent.catch(unsent);
      } catch (error) {
        unsent(error);
      }
    });
  }

  /** The error of a request the client did not answer within `legacySessions.requestTimeoutMs`. */
  #overdue(waiter: Waiter): McpError {
    const seconds = this.#host.options.requestTimeoutMs / 1000;
    return new McpError(JsonRpcErrorCode.InternalError, `The client did not answer ${waiter.method} within ${seconds} s (legacySessions.requestTimeoutMs)`);
  }

  /** Sends a notification that belongs to no request (list changed, resource updated). Dropped before initialize or after close. */
  notify(notification: JsonRpcNotification): void {
    if (this.#closed || this.#protocolVersion === undefined) return;
    Promise.resolve()
      .then(() => this.#peer.send(notification))
      .catch((error: unknown) => this.#host.logger.warn(`${notification.method} not delivered to a 2025 session`, { error }));
  }

  /** True when the client subscribed to updates of `uri`. */
  isSubscribed(uri: string): boolean {
    return this.#subscriptions?.has(uri) === true;
  }

  subscribe(uri: string): void {
    (this.#subscriptions ??= new Set()).add(uri);
  }

  unsubscribe(uri: string): void {
    this.#subscriptions?.delete(uri);
  }

  setLogLevel(level: LoggingLevel): void {
    this.#logLevel = level;
  }

  /** Registers a request being answered, so `notifications/cancelled` can reach it. */
  track(ctx: RequestContextImpl): void {
    (this.#answering ??= new Map()).set(keyOf(ctx.requestId), ctx);
  }

  untrack(ctx: RequestContextImpl): void {
    const key = keyOf(ctx.requestId);
    if (this.#answering?.get(key) === ctx) this.#answering.delete(key);
    ctx.dispose();
  }

  close(reason = "The session was closed."): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#host.logger.debug(`2025 session ${sessionLabel(this.id)} closed: ${reason}`, { session: sessionLabel(this.id), reason });
    const error = new McpError(JsonRpcErrorCode.InternalError, reason);
    this.#waiting?.rejectAll(error);
    for (const ctx of this.#answering?.values() ?? []) ctx.cancel(reason);
    this.#markInitialized?.(); // requests still held back now fail at once: the session has ended
    this.#host.sessionClosed(this);
  }

  async #initialize(id: JsonRpcId, message: Record<string, unknown>): Promise<JsonRpcResponse> {
    if (this.#protocolVersion !== undefined) {
      return invalid(id, `this session was already initialized (protocol ${this.#protocolVersion}); start a new connection or session to initialize again`);
    }
    try {
      assertNestingWithin(message.params, this.#host.maxNestingDepth);
      (await this.#loadProfile()).check("initialize", message, LEGACY_VERSIONS[0]!);
    } catch (error) {
      const mcp = error as McpError;
      return errorResponse(id, mcp.toJSON());
    }
    const declared = declaredBy(message.params);
    const version = agreeVersion(declared.requested);
    this.#protocolVersion = version;
    this.#clientCapabilities = declared.capabilities;
    this.#clientInfo = declared.clientInfo;
    const client = declared.clientInfo === undefined ? "a client" : `${declared.clientInfo.name} ${declared.clientInfo.version}`;
    this.#host.logger.debug(`2025 session ${sessionLabel(this.id)} opened: ${client}, protocol ${version}`, {
      session: sessionLabel(this.id),
      protocolVersion: version,
      client: declared.clientInfo?.name,
    });
    return { jsonrpc: "2.0", id, result: initializeResult(this.#host, version, true) };
  }

  #notification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === "notifications/initialized") {
      this.#clientInitialized = true;
      this.#markInitialized?.();
      return;
    }
    if (method !== "notifications/cancelled") return this.#host.onNotification(method, params, undefined); // a custom one, or nothing to do
    const requestId = isObject(params) ? params.requestId : undefined;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const reason = isObject(params) && typeof params.reason === "string" ? params.reason : "cancelled by the client";
    this.#answering?.get(keyOf(requestId))?.cancel(reason, true);
  }

  #settle(response: Record<string, unknown>): void {
    const id = response.id;
    const waiter = typeof id === "string" || typeof id === "number" ? this.#waiting?.get(id) : undefined;
    if (waiter === undefined) {
      this.#host.logger.warn("A 2025 client answered a request this session is not waiting on; ignored", { id });
      return;
    }
    if (isObject(response.error)) {
      const error = McpError.fromObject(response.error as { code: number; message: string; data?: unknown });
      waiter.reject(new McpError(error.code, `The client refused ${waiter.method}: ${error.message}`, error.data));
      return;
    }
    if (!isObject(response.result)) {
      waiter.reject(new McpError(JsonRpcErrorCode.InternalError, `The client answered ${waiter.method} with a result that is not an object`));
      return;
    }
    waiter.resolve(response.result);
  }

  async #loadProfile(): Promise<LegacyProfile> {
    this.#profile ??= (await loadLegacy()).LEGACY;
    return this.#profile;
  }

  /** Waits, when the client has not yet said `notifications/initialized`, until it does (or the session ends). */
  #afterInitialized(): Promise<void> | undefined {
    if (this.#clientInitialized || this.#closed) return undefined;
    this.#initialized ??= new Promise<void>((resolve) => {
      this.#markInitialized = resolve;
    });
    return this.#initialized;
  }

  #deliver(message: JsonRpcRequest | JsonRpcNotification, related: RequestContextImpl | undefined): void | Promise<void> {
    const sendRelated = related?.transport?.sendRelated;
    if (sendRelated !== undefined && !related!.isCancelled) return sendRelated(message);
    return this.#peer.send(message);
  }
}
