/**
 * One 2025-era session on the server, from `initialize` to close: the
 * handshake's outcome, whether the client said `initialized`, and (in
 * `session-activity.ts`, once used) what it is doing: log level,
 * subscriptions, the server's requests to the client, the client's requests
 * being answered. Its requests go down the one request path (`request.ts`)
 * under the 2025 profile, with the session as their scope.
 *
 * @internal
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import { classifyMessage, type ClassifiedMessage } from "../../protocol/message.js";
import { FlightTable } from "../../protocol/flight-table.js";
import { LEGACY_VERSIONS } from "../../protocol/revisions.js";
import type { RequestContext } from "../../protocol/context.js";
import type { Answered, ServerSession, SessionPeer } from "../../protocol/contracts.js";
import { LAST_USE, PEER_OF, sendThrough, TRANSPORT_DATA, type KeptSession } from "../../protocol/session-keeper.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";
import { answerRequest, assertNestingWithin, type RevisionProfile } from "../request.js";
import { sessionLabel, type LegacyHost } from "./host.js";
import { loadLegacy } from "./load.js";
import type { Broadcastable, LegacyChannel, LegacyScope } from "./types.js";
import { agreeVersion, declaredBy, initializeResult, invalid } from "./lifecycle.js";
import { isObject } from "../../protocol/guards.js";
import { MetaKey } from "../../protocol/names.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";
import { askRound, type RoundSignal } from "./round.js";
import { beforeHandshake, Handshake, handshakeOf } from "./handshake.js";
import { newSessionId } from "./session-id.js";
import { SessionActivity } from "./session-activity.js";
import { PendingRequests, type Waiter } from "./pending-requests.js";

/** The 2025 profile, loaded (with the 2025 validators) by the first initialize: one for the process, not a reference per session. */
let profile: RevisionProfile<LegacyScope> | undefined;
const loadProfile = async () => (profile ??= (await loadLegacy()).LEGACY);

/**
 * A 2025 session held by a `Server`. A server may hold many thousands of idle ones, so an idle one is
 * small: its id, its handshake (with host and peer, a record shared by the sessions on that peer that
 * agreed the same) and its last use; what one in use needs, the transport's part too, is made on first
 * use. Over HTTP it is an idle session's only object of its own (see `session-keeper.ts`). @internal
 */
export class LegacySession implements ServerSession, Broadcastable, LegacyChannel, LegacyScope, KeptSession {
  readonly id: string = newSessionId();
  /** Idle, the handshake (with server and peer, a record shared with sessions that agreed the same); once used, the working state holding it. */
  #state: Handshake | SessionActivity;
  /** When it was last used, on the clock of the transport keeping it (idle expiry counts from here): a small integer. */
  [LAST_USE] = 0;

  constructor(host: LegacyHost, peer: SessionPeer) {
    this.#state = beforeHandshake(host, peer);
  }

  get [PEER_OF](): SessionPeer {
    return this.agreed.peer;
  }

  /** The transport's data for this session: kept in the working state, so an idle session has no slot for it. */
  get [TRANSPORT_DATA](): unknown {
    return this.activity?.transport;
  }

  set [TRANSPORT_DATA](data: unknown) {
    this.work().transport = data;
  }

  private get agreed(): Handshake {
    const state = this.#state;
    return state instanceof Handshake ? state : state.agreed;
  }

  private set agreed(record: Handshake) {
    if (this.#state instanceof Handshake) this.#state = record;
    else this.#state.agreed = record;
  }

  private get activity(): SessionActivity | undefined {
    const state = this.#state;
    return state instanceof Handshake ? undefined : state;
  }

  get protocolVersion(): string | undefined {
    return this.agreed.protocolVersion;
  }

  get closed(): boolean {
    return this.activity?.closed === true;
  }

  /** The client's name and version from `initialize`, for logs. Frozen: it may be shared with other sessions. */
  get clientInfo(): Implementation | undefined {
    return this.agreed.clientInfo;
  }

  /** What the client declared in `initialize`. Frozen: it may be shared with other sessions. */
  get clientCapabilities(): ClientCapabilities {
    return this.agreed.clientCapabilities;
  }

  /** The level the client asked for with `logging/setLevel`, if any. */
  get logLevel(): LoggingLevel | undefined {
    return this.activity?.logLevel;
  }

  /** The working state, made on first use. */
  private work(): SessionActivity {
    const state = this.#state;
    return state instanceof Handshake ? (this.#state = new SessionActivity(state)) : state;
  }

  /** A session is the scope of its own requests: the back channel asks over it. */
  get session(): LegacyChannel {
    return this;
  }

  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    return Promise.resolve(this.handleClassified(classifyMessage(message, context?.protocolVersionHeader), context));
  }

  /** {@link LegacySession.handle} for a classified message: at once for a session's request with nothing to wait for. @internal */
  handleClassified(message: ClassifiedMessage, context?: RequestContext): Answered {
    const { host, protocolVersion } = this.agreed;
    const request = message.kind === "request" && message.era === "legacy" && message.method !== "initialize";
    return request && protocolVersion !== undefined && profile !== undefined && !this.closed
      ? answerRequest(host, profile, message, this, context)
      : this.#handleOther(message, context);
  }

  async #handleOther(message: ClassifiedMessage, context: RequestContext | undefined): Promise<JsonRpcResponse | undefined> {
    if (message.kind === "invalid") return invalid(message.id, message.detail);
    if (message.kind === "response") {
      this.settleAnswer(message.message);
      return undefined;
    }
    if (message.kind === "notification") {
      this.onNotification(message.method, message.params);
      return undefined;
    }
    const { id, method } = message;
    if (this.closed) return invalid(id, "this session has ended; start a new one with initialize");
    if (message.era === "modern" && method !== "initialize") {
      // Before any handshake a connection may speak 2026-07-28 (a stdio probe); once a session started, it may not switch.
      if (this.agreed.protocolVersion === undefined) return this.agreed.host.handleModern(message, context);
      return invalid(
        id,
        `this connection started a ${this.agreed.protocolVersion} session with initialize, and a request carrying the 2026-07-28 ` +
          "_meta envelope cannot join it. Use one protocol generation per connection (or per Mcp-Session-Id).",
      );
    }
    if (method === "initialize") return this.answerInitialize(id, message.message);
    if (this.agreed.protocolVersion === undefined) {
      if (method === "ping") return { jsonrpc: "2.0", id, result: {} }; // the lifecycle page allows ping before initialization
      return invalid(
        id,
        `${method} before initialize: a 2025 client must send initialize first; a 2026-07-28 request must carry ` +
          `_meta["${MetaKey.protocolVersion}"] (and over HTTP the MCP-Protocol-Version header)`,
      );
    }
    // Loaded by initialize, so a session's requests find their profile at hand.
    return answerRequest(this.agreed.host, profile ?? (await loadProfile()), message, this, context);
  }

  /** Asks the client every request of a round at once (2025 shape, `toLegacyParams`), results by key; one refusal cancels the rest. */
  askAll(requests: Record<string, { method: string; params?: Record<string, unknown> }>, ctx: RequestContextImpl): Promise<Record<string, Record<string, unknown>>> {
    return askRound(this, requests, ctx);
  }

  /**
   * Sends the client one request and resolves with its result. It goes on
   * the channel of `related` (the request being answered) when the transport
   * has one, else to the session's peer.
   *
   * @throws McpError carrying the client's error; -32603 when it does not answer in time
   */
  request(method: string, params: Record<string, unknown>, related: RequestContextImpl | undefined, signal?: RoundSignal): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new McpError(JsonRpcErrorCode.InternalError, `Cannot send ${method}: the session has ended`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const work = this.work();
    const id = ++work.nextId;
    const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
    const pending = (work.waiting ??= new PendingRequests(this.agreed.host.options.requestTimeoutMs));
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => {
        if (!pending.has(id)) return;
        const reason = "The server no longer needs the answer.";
        const cancelled: JsonRpcNotification = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } };
        Promise.resolve()
          .then(() => this.deliverMessage(cancelled, related))
          .catch(() => {}); // best effort: the client may be gone
        waiter.reject(signal!.reason);
      };
      const waiter: Waiter = {
        method,
        deadline: pending.deadline(),
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
      const initialized = this.afterInitialized();
      if (initialized !== undefined) {
        initialized.then(() => (pending.has(id) ? this.deliverMessage(message, related) : undefined)).catch(unsent);
        return;
      }
      // Sent at once, as the handler asks: no promise chain between the question and the wire.
      try {
        const sent = this.deliverMessage(message, related);
        if (sent !== undefined) sent.catch(unsent);
      } catch (error) {
        unsent(error);
      }
    });
  }

  /** Sends a notification that belongs to no request (list changed, resource updated). Dropped before initialize or after close. */
  notify(notification: JsonRpcNotification): void {
    if (this.closed || this.agreed.protocolVersion === undefined) return;
    Promise.resolve()
      .then(() => sendThrough(this.agreed.peer, this, notification))
      .catch((error: unknown) => this.agreed.host.logger.warn(`${notification.method} not delivered to a 2025 session`, { error }));
  }

  /** True when the client subscribed to updates of `uri`. */
  isSubscribed(uri: string): boolean {
    return this.activity?.subscriptions?.has(uri) === true;
  }

  subscribe(uri: string): void {
    (this.work().subscriptions ??= new Set()).add(uri);
  }

  unsubscribe(uri: string): void {
    this.activity?.subscriptions?.delete(uri);
  }

  setLogLevel(level: LoggingLevel): void {
    this.work().logLevel = level;
  }

  /** Registers a request being answered, so `notifications/cancelled` can reach it. */
  track(ctx: RequestContextImpl): void {
    (this.work().answering ??= new FlightTable()).set(ctx.requestId, ctx);
  }

  untrack(ctx: RequestContextImpl): void {
    const id = ctx.requestId;
    const answering = this.activity?.answering;
    if (answering?.get(id) === ctx) answering.delete(id);
    ctx.dispose();
  }

  close(reason = "The session was closed."): void {
    if (this.closed) return;
    const work = this.work();
    work.closed = true;
    this.agreed.host.logger.debug(`2025 session ${sessionLabel(this.id)} closed: ${reason}`, { session: sessionLabel(this.id), reason });
    const error = new McpError(JsonRpcErrorCode.InternalError, reason);
    work.waiting?.rejectAll(error);
    for (const ctx of work.answering?.values() ?? []) ctx.cancel(reason);
    work.markInitialized?.(); // requests still held back now fail at once: the session has ended
    this.agreed.host.sessionClosed(this);
  }

  private async answerInitialize(id: JsonRpcId, message: Record<string, unknown>): Promise<JsonRpcResponse> {
    if (this.agreed.protocolVersion !== undefined) {
      return invalid(id, `this session was already initialized (protocol ${this.agreed.protocolVersion}); start a new connection or session to initialize again`);
    }
    try {
      assertNestingWithin(message.params, this.agreed.host.maxNestingDepth);
      (await loadProfile()).check("initialize", message, LEGACY_VERSIONS[0]!);
    } catch (error) {
      const mcp = error as McpError;
      return errorResponse(id, mcp.toJSON());
    }
    const declared = declaredBy(message.params);
    const version = agreeVersion(declared.requested);
    const agreed = handshakeOf(this.agreed.host, this.agreed.peer, version, declared.capabilities, declared.clientInfo);
    this.agreed = this.agreed.clientInitialized ? agreed.initialized : agreed; // a client may say initialized early
    const client = declared.clientInfo === undefined ? "a client" : `${declared.clientInfo.name} ${declared.clientInfo.version}`;
    this.agreed.host.logger.debug(`2025 session ${sessionLabel(this.id)} opened: ${client}, protocol ${version}`, {
      session: sessionLabel(this.id),
      protocolVersion: version,
      client: declared.clientInfo?.name,
    });
    return { jsonrpc: "2.0", id, result: initializeResult(this.agreed.host, version, true) };
  }

  private onNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === "notifications/initialized") {
      this.agreed = this.agreed.initialized;
      this.activity?.markInitialized?.();
      return;
    }
    if (method !== "notifications/cancelled") return this.agreed.host.onNotification(method, params, undefined); // a custom one, or nothing to do
    const requestId = isObject(params) ? params.requestId : undefined;
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const reason = isObject(params) && typeof params.reason === "string" ? params.reason : "cancelled by the client";
    this.activity?.answering?.get(requestId)?.cancel(reason, true);
  }

  private settleAnswer(response: Record<string, unknown>): void {
    const id = response.id;
    const waiter = typeof id === "string" || typeof id === "number" ? this.activity?.waiting?.get(id) : undefined;
    if (waiter === undefined) {
      this.agreed.host.logger.warn("A 2025 client answered a request this session is not waiting on; ignored", { id });
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

  /** Waits, when the client has not yet said `notifications/initialized`, until it does (or the session ends). */
  private afterInitialized(): Promise<void> | undefined {
    if (this.agreed.clientInitialized || this.closed) return undefined;
    const work = this.work();
    work.initialized ??= new Promise<void>((resolve) => {
      work.markInitialized = resolve;
    });
    return work.initialized;
  }

  private deliverMessage(message: JsonRpcRequest | JsonRpcNotification, related: RequestContextImpl | undefined): void | Promise<void> {
    const sendRelated = related?.transport?.sendRelated;
    if (sendRelated !== undefined && !related!.isCancelled) return sendRelated(message);
    return sendThrough(this.agreed.peer, this, message);
  }
}
