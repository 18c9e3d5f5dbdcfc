import type { JsonRpcId, JsonRpcNotification } from "../protocol/jsonrpc/messages.js";
import { SILENT_LOGGER, type LevelledLogger } from "../protocol/logging.js";
import type { AuthInfo, RequestContext } from "../protocol/context.js";
import type { ClientCapabilities, Implementation, InputResponses, LoggingLevel } from "../protocol/types.js";
import { principalOf } from "../state/index.js";
import { notificationToWire, type AdaptedRequest } from "../protocol/adapter.js";
import type { RequestMeta } from "./meta.js";
import type { Era } from "../protocol/revisions.js";

/**
 * What every handler receives about the request it answers. The same shape
 * serves the low-level `Server` and `McpServer`.
 */
export interface ServerRequestContext {
  /** The JSON-RPC id of this request (a retry has a new one). */
  readonly requestId: JsonRpcId;
  /** The method being answered, e.g. `"tools/call"`. */
  readonly method: string;
  /** The protocol version the request declared. */
  readonly protocolVersion: string;
  /** The capabilities the client declared on this request; never inferred from earlier ones. */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's self-reported name and version, for display and logs only. */
  readonly clientInfo: Implementation | undefined;
  /** The request's whole `_meta` (progress token, trace context, vendor keys). */
  readonly meta: Readonly<Record<string, unknown>>;
  /**
   * The least severe log level the client wants `notifications/message` for:
   * the request's `_meta` level (2026-07-28), or the session's
   * `logging/setLevel` (2025). `undefined` when it asked for none; then a
   * 2026-07-28 request gets no log messages at all, while a 2025 session gets
   * every level. `sendNotification` applies this filter for you.
   * @deprecated The protocol deprecates Logging as of 2026-07-28 (SEP-2577), to be removed no earlier than a
   *   year later: it keeps working, but log to stderr (stdio) or through OpenTelemetry instead.
   */
  readonly logLevel: LoggingLevel | undefined;
  /** The verified identity the transport attached, if it authenticated the caller. */
  readonly authInfo: AuthInfo | undefined;
  /** The HTTP request headers, when the request arrived over HTTP. */
  readonly headers: Headers | undefined;
  /**
   * The principal request state is bound to: what the sealing policy derives
   * (its `bindPrincipal`, else `authInfo`); `undefined` when there is none.
   */
  readonly principal: string | undefined;
  /** Aborted when the caller goes away or cancels this request. */
  readonly signal: AbortSignal;
  /** The client's answers to the previous round's input requests, under the keys the server chose. */
  readonly inputResponses: InputResponses | undefined;
  /** The previous round's state, always plaintext (verified and unsealed when a boundary is installed). */
  readonly requestState: string | undefined;
  /**
   * Sends a notification related to this request (progress, log message).
   * Resolves without sending when the transport has no channel for it, and
   * drops a `notifications/message` below the level the client asked for
   * (see {@link ServerRequestContext.logLevel}).
   */
  sendNotification(notification: JsonRpcNotification): Promise<void>;
  /**
   * Reports progress on this request with `notifications/progress`, on the
   * request's own response stream, under the `progressToken` of its `_meta`.
   * Resolves without sending when the client asked for no progress (no
   * token), or once the request is over or cancelled.
   *
   * A `done` that is not a finite number greater than the last one is
   * skipped (the spec makes progress increase) and warned about once per
   * request through the server's logger, whether or not the client sent a
   * token, so a tool behaves the same for every client.
   *
   * @param done - work done so far; should increase from one call to the next
   * @param total - the total, when known
   * @param message - what is happening, for people
   * @throws RangeError when `total` is given but not a finite number
   * @throws TypeError when `message` is given but not a string
   * @example
   * ```ts
   * for (const [i, file] of files.entries()) {
   *   await ctx.progress(i + 1, files.length, `Indexed ${file}`);
   * }
   * ```
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message about this request (`notifications/message`), if the
   * client asked for that level (see {@link ServerRequestContext.logLevel}).
   *
   * @param level - the message's severity
   * @param data - the message: a string or any JSON value
   * @param logger - the name of the logger, if any
   * @deprecated The protocol deprecates Logging as of 2026-07-28 (SEP-2577), to be removed no earlier
   *   than a year later: it still works, but log to stderr (stdio) or through OpenTelemetry instead.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
}

/** Syslog severities, least severe first (RFC 5424, as the logging utility orders them). */
const LOG_RANK: Readonly<Record<LoggingLevel, number>> = Object.freeze({
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
});

/** True for one of the eight protocol log levels. @internal */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && Object.hasOwn(LOG_RANK, value);
}

/** How a context's principal is known: cached once computed, or from a resolver the request-state boundary sets. */
type PrincipalState = { computed: boolean; value: string | undefined; resolver: (() => string | undefined) | undefined; resolving: boolean };

/**
 * The server's own implementation of {@link ServerRequestContext}. The abort
 * controller is created only when a handler reads `signal`, because most
 * handlers never do and the hot path should not pay for one.
 * @internal
 */
export class RequestContextImpl implements ServerRequestContext {
  readonly requestId: JsonRpcId;
  readonly method: string;
  /** Which generation the request speaks, as classified at the edge. */
  readonly era: Era;
  readonly authInfo: AuthInfo | undefined;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly logLevel: LoggingLevel | undefined;
  inputResponses: InputResponses | undefined;
  requestState: string | undefined;
  /** What the transport passed along with the message. */
  readonly transport: RequestContext | undefined;
  /** Set when the request's revision has an adapter: its results and notifications leave in the wire's shape. @internal */
  adapted: AdaptedRequest | undefined = undefined;
  private controller: AbortController | undefined;
  private cancelReason: unknown;
  private cancelled = false;
  private byClient = false;
  /** Made on first use: most requests never ask (a listen stream's context lasts hours). */
  private principalState: PrincipalState | undefined;
  private detach: (() => void) | undefined;
  /** The last progress sent; `undefined` before the first (not -Infinity: a double field would box a number per request). */
  private lastProgress: number | undefined;
  private progressWarned = false;
  /** The server's logger (set by whoever creates the context); silent until then. @internal */
  logger: LevelledLogger = SILENT_LOGGER;
  private answered = false;
  private onCancelled: (() => void) | undefined;
  /** Whether log messages flow when no level was asked for (2025 sessions: yes; 2026-07-28: never). */
  private readonly logsWithoutLevel: boolean;

  constructor(requestId: JsonRpcId, method: string, meta: RequestMeta, transport: RequestContext | undefined) {
    this.requestId = requestId;
    this.method = method;
    this.era = meta.era;
    this.protocolVersion = meta.protocolVersion;
    this.clientCapabilities = meta.clientCapabilities;
    this.clientInfo = meta.clientInfo;
    this.meta = meta.raw;
    this.logLevel = meta.logLevel;
    this.logsWithoutLevel = meta.logsWithoutLevel === true;
    this.transport = transport;
    this.authInfo = transport?.authInfo;
  }

  get principal(): string | undefined {
    const state = (this.principalState ??= { computed: false, value: undefined, resolver: undefined, resolving: false });
    if (!state.computed) {
      const resolver = state.resolver;
      if (resolver !== undefined && !state.resolving) {
        // A resolver that reads ctx.principal itself gets the authInfo-derived value, not a loop.
        state.resolving = true;
        try {
          state.value = resolver();
        } finally {
          state.resolving = false;
        }
      } else {
        state.value = this.authInfo === undefined ? undefined : principalOf(this.authInfo);
        if (resolver !== undefined) return state.value; // mid-resolution: do not cache
      }
      state.computed = true;
    }
    return state.value;
  }

  /** Makes `principal` answer what sealed state binds to (the request-state boundary sets it). */
  resolvePrincipalWith(resolver: () => string | undefined): void {
    const state = (this.principalState ??= { computed: false, value: undefined, resolver: undefined, resolving: false });
    state.resolver = resolver;
    state.computed = false;
  }

  get headers(): Headers | undefined {
    return this.transport?.headers;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      const outer = this.transport?.signal;
      if (this.cancelled) this.controller.abort(this.cancelReason);
      else if (outer !== undefined) {
        if (outer.aborted) this.controller.abort(outer.reason);
        else {
          const onAbort = (): void => this.cancel(outer.reason);
          outer.addEventListener("abort", onAbort, { once: true });
          this.detach = () => outer.removeEventListener("abort", onAbort);
        }
      }
    }
    return this.controller.signal;
  }

  /** True once the request was cancelled (by the transport or `notifications/cancelled`). */
  get isCancelled(): boolean {
    if (this.cancelled) return true;
    const transport = this.transport;
    if (transport === undefined) return false;
    // Where the transport tracks it without a signal, reading `signal` would create one for nothing.
    return transport.whenGone !== undefined ? transport.gone === true : transport.signal?.aborted === true;
  }

  progress(done: number, total?: number, message?: string): Promise<void> {
    if (total !== undefined && (typeof total !== "number" || !Number.isFinite(total)))
      throw new RangeError(`ctx.progress: total must be a finite number, got ${String(total)}`);
    if (message !== undefined && typeof message !== "string") throw new TypeError(`ctx.progress: message must be a string, got ${typeof message}`);
    // Judged the same with or without a progressToken, so a tool behaves alike for every client:
    // a value that does not increase is skipped (the spec makes progress increase), never thrown.
    if (typeof done !== "number" || !Number.isFinite(done) || (this.lastProgress !== undefined && done <= this.lastProgress)) {
      this.warnProgressOnce(done);
      return Promise.resolve();
    }
    this.lastProgress = done;
    const token = this.meta.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return Promise.resolve();
    const params: Record<string, unknown> = { progressToken: token, progress: done };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  private warnProgressOnce(done: unknown): void {
    if (this.progressWarned) return;
    this.progressWarned = true;
    const last = this.lastProgress === undefined ? "none yet" : String(this.lastProgress);
    this.logger.warn(
      `${this.method}: ctx.progress(${String(done)}) skipped: done must be a finite number greater than the last one (${last}); ` +
        "later skips in this request are not logged",
      { method: this.method, requestId: this.requestId, reason: "progress_not_increasing", done: String(done), last },
    );
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (!isLoggingLevel(level)) throw new TypeError(`ctx.log: level must be one of ${Object.keys(LOG_RANK).join(", ")}, got ${JSON.stringify(level)}`);
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    return this.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params });
  }

  async sendNotification(notification: JsonRpcNotification): Promise<void> {
    const send = this.transport?.sendNotification;
    // Nothing about a request may follow its answer (progress "MUST stop after completion").
    if (send === undefined || this.isCancelled || this.answered) return;
    if (notification.method === "notifications/message" && !this.wantsLog(notification.params?.level)) return;
    await send(this.adapted === undefined ? notification : notificationToWire(this.adapted, notification));
  }

  private wantsLog(level: unknown): boolean {
    if (this.logLevel === undefined) return this.logsWithoutLevel;
    const rank = LOG_RANK[level as LoggingLevel];
    // An unknown level is not ours to drop: the result validator or the client judges it.
    return rank === undefined || rank >= LOG_RANK[this.logLevel];
  }

  /** True once the client cancelled with `notifications/cancelled`: the spec asks for no response then. */
  get isCancelledByClient(): boolean {
    return this.byClient;
  }

  /** Aborts the handler's signal. */
  cancel(reason: unknown, byClient = false): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.byClient = byClient;
    this.cancelReason = reason;
    this.controller?.abort(reason);
    this.onCancelled?.();
  }

  /**
   * Calls `callback` once when the request is cancelled (by the client or the
   * transport), without creating the `signal`: a long-lived listener stream
   * pays for one event listener rather than an AbortController of its own.
   * @returns the function that detaches it
   */
  whenCancelled(callback: () => void): () => void {
    if (this.isCancelled) {
      callback();
      return () => {};
    }
    let fired = false;
    const once = (): void => {
      if (fired) return;
      fired = true;
      callback();
    };
    const transport = this.transport;
    let detachOuter: (() => void) | undefined;
    if (transport?.whenGone !== undefined) detachOuter = transport.whenGone(once);
    else {
      const outer = transport?.signal;
      outer?.addEventListener("abort", once, { once: true });
      if (outer !== undefined) detachOuter = () => outer.removeEventListener("abort", once);
    }
    this.onCancelled = once;
    return () => {
      detachOuter?.();
      if (this.onCancelled === once) this.onCancelled = undefined;
    };
  }

  /**
   * Like {@link whenCancelled}, for the one watcher of a request that lasts
   * as long as the request itself (a listen stream): `watcher` must not
   * mind being called twice. Where the transport offers `whenGone`, the
   * watcher is registered as it is, with no wrapper or detach function kept
   * per request, and `undefined` is returned; otherwise the function that
   * detaches it.
   * @internal
   */
  watchCancelled(watcher: () => void): (() => void) | undefined {
    const transport = this.transport;
    if (transport?.whenGone === undefined || this.isCancelled) return this.whenCancelled(watcher);
    this.onCancelled = watcher;
    transport.whenGone(watcher); // its detach is not needed: the transport's context ends with the request
    return undefined;
  }

  /** Detaches from the transport's signal once the request is answered. */
  dispose(): void {
    this.answered = true;
    this.detach?.();
  }
}
