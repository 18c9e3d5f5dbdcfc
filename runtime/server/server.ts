export type { ServerOptions } from "./options.js";
import { JsonRpcErrorCode } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { classifyMessage, type ClassifiedMessage, type ClassifiedRequest } from "../protocol/message.js";
import type { LegacyMode, RequestContext } from "../protocol/context.js";
import type { Answered, ServerSession, SessionHost, SessionPeer } from "../protocol/contracts.js";
import { isObject } from "../protocol/guards.js";
import type { Implementation, ServerCapabilities } from "../protocol/types.js";
import { createLogger, type LevelledLogger } from "../protocol/logging.js";
import { answerRequest } from "./request.js";
import { type InFlightRequests, MODERN, type ModernHost } from "./modern.js";
import type { LegacyHost } from "./legacy/host.js";
import { loadLegacy, legacyModules } from "./legacy/load.js";
import { LegacySession } from "./legacy/session.js";
import { SessionSet } from "./legacy/session-set.js";
import { keeperOf, opensKeptSessions } from "../protocol/session-keeper.js";
import type { ServerOptions } from "./options.js";
import { listEvent } from "./subscriptions/broadcaster.js";
import type { SubscriptionHub } from "./subscriptions/hub.js";
import type { ServerHandlers, ServerMiddleware } from "./types.js";
import { checkNotification } from "./validation.js";
import type { CustomMethods, CustomNotificationHandler, CustomRequestHandler, CustomRequestOptions, RequestHandlerArguments } from "./custom.js";
import { wireServer } from "./wiring.js";
import type { TaskEngine, TaskStatusListener } from "./tasks/setup.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";

/**
 * The low-level MCP server for protocol revision 2026-07-28, which also
 * serves 2025-era clients on the same endpoint (see `legacy`): you write the
 * handlers, it enforces the protocol around them.
 *
 * Every request is checked before a handler runs (JSON-RPC shape, the
 * required `_meta` protocol version and client capabilities, the generated
 * schema validator for its method), and every result is finished after:
 * `resultType` stamped, `serverInfo` added to `_meta`, caching hints filled
 * in on cacheable results. `onCallTool`, `onGetPrompt` and `onReadResource`
 * may return an `InputRequiredResult` (see {@link inputRequired}); the server
 * answers `-32021` instead when it asks for something the client did not
 * declare. Nothing is sealed until you opt in with
 * `server.use(requestStateBoundary(security))`.
 *
 * `Server` implements `MessageHandler`: hand it decoded JSON-RPC messages
 * from any transport. `handle` answers each message on its own (2025
 * requests included, statelessly); transports that keep a connection or a
 * session id call `openSession` so a 2025 client gets its session.
 *
 * @example
 * ```ts
 * const server = new Server({ name: "Provisioner", version: "1.0.0" }, {
 *   onListTools: () => ({ tools: [provisionTool] }),
 *   onCallTool: (params, ctx) => {
 *     const answer = ctx.inputResponses?.region;
 *     if (answer === undefined) return inputRequired({ inputRequests: { region: ASK_REGION } });
 *     return { content: [{ type: "text", text: "Provisioned." }] };
 *   },
 * });
 * ```
 */
export class Server implements SessionHost {
  /** The name and version this server reports in every result's `_meta`. */
  readonly serverInfo: Readonly<Implementation>;
  /** How 2025-era clients are served (the `legacy` option). */
  readonly legacy: LegacyMode;
  private readonly middlewares: ServerMiddleware[] = [];
  private readonly logger: LevelledLogger;
  private readonly capabilitiesSource: () => ServerCapabilities;
  private readonly inFlight: InFlightRequests;
  /** What the request path of either generation needs of this server; the middleware list is the live one, so `use` after construction still applies. */
  private readonly host: ModernHost & LegacyHost;
  private readonly sessions = new SessionSet();
  /** The tasks extension, when `tasks` is set (McpServer: always; it answers once a tool declares `task`). */
  private readonly tasks: TaskEngine | undefined;
  private readonly hub: SubscriptionHub;
  private readonly custom: CustomMethods;

  /**
   * @param info - the server's name and version (`serverInfo`)
   * @param handlers - the methods this server answers
   * @param options - instructions, extra capabilities, caching defaults, logger
   * @throws TypeError when `info` lacks a string `name` or `version`, a
   *   handler is not a function, or a caching hint is malformed
   */
  constructor(info: Implementation, handlers: ServerHandlers = {}, options: ServerOptions = {}) {
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      throw new TypeError('Server: the first argument must be { name: string, version: string }, e.g. { name: "my-server", version: "1.0.0" }');
    }
    for (const [key, handler] of Object.entries(handlers)) {
      if (handler !== undefined && typeof handler !== "function") {
        throw new TypeError(`Server: handler ${key} must be a function, got ${typeof handler}`);
      }
    }
    this.serverInfo = Object.freeze({ ...info });
    this.logger = createLogger(options.logger ?? console, options.logLevel ?? "warn");
    const parts = wireServer(this.serverInfo, handlers, options, this.middlewares, this.logger, this.sessions);
    this.host = parts.host;
    this.legacy = parts.legacy;
    this.inFlight = parts.inFlight;
    this.tasks = parts.tasks;
    this.hub = parts.hub;
    this.custom = parts.custom;
    this.capabilitiesSource = parts.capabilities;
    opensKeptSessions(this); // a transport may open its sessions on one shared peer (see session-keeper.ts)
  }

  /**
   * Installs a middleware around the handlers, such as the request-state
   * boundary. Middlewares run in the order installed.
   *
   * @param middleware - hooks to run before handlers and on `InputRequiredResult`s
   * @param options - `outermost: true` installs it ahead of every middleware so far (McpServer's
   *   sealing included), so it sees each request first and its end last: what telemetry needs
   * @returns this server, for chaining
   * @throws TypeError when `middleware` has no hook
   */
  use(middleware: ServerMiddleware, options: { outermost?: boolean } = {}): this {
    if (
      !isObject(middleware) ||
      (typeof middleware.onRequest !== "function" &&
        typeof middleware.onInputRequired !== "function" &&
        typeof middleware.screen !== "function" &&
        typeof middleware.onSettled !== "function")
    ) {
      throw new TypeError("Server.use: expected a middleware with onRequest and/or onInputRequired, e.g. requestStateBoundary(security)");
    }
    if (options.outermost === true) this.middlewares.unshift(middleware);
    else this.middlewares.push(middleware);
    return this;
  }

  /** The capabilities `server/discover` advertises. */
  get capabilities(): ServerCapabilities {
    return this.capabilitiesSource();
  }

  /**
   * Answers one decoded JSON-RPC message. Resolves to the response for a
   * request, `undefined` for a notification (or a request the client
   * cancelled with `notifications/cancelled`). Never rejects.
   *
   * @param message - one decoded JSON value from a transport
   * @param context - what the transport knows about the caller
   */
  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
    return Promise.resolve(this.handleClassified(classifyMessage(message, context?.protocolVersionHeader), context));
  }

  /**
   * {@link Server.handle} for a message a transport already classified
   * (`classifyMessage`, at the edge), so nothing judges it twice; the
   * answer comes at once when nothing had to be waited for.
   *
   * @param message - the classified message
   * @param context - what the transport knows about the caller
   * @internal
   */
  handleClassified(message: ClassifiedMessage, context?: RequestContext): Answered {
    switch (message.kind) {
      case "request":
        if (message.era === "modern") return answerRequest(this.host, MODERN, message, this.inFlight, context);
        return this.answerStateless(message, context);
      case "invalid":
        return errorResponse(message.id, { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${message.detail}` });
      case "notification":
        try {
          this.handleNotification(message.method, message.message, context);
        } catch (error) {
          // handle() never rejects: a notification has no answer, so its failure can only be logged.
          this.logger.warn(`${message.method} ignored: handling it threw`, { error });
        }
        return undefined;
      default:
        return undefined; // a response: 2026-07-28 servers send no requests, so it matches nothing
    }
  }

  /**
   * Serves a request method through the same request path as the built-in
   * methods: the envelope checks, the middlewares (sealing, telemetry), MRTR
   * (where the method may ask, the handler may return an
   * `InputRequiredResult`; its `requestState` is sealed bound to the method
   * and its params) and the errors.
   *
   * - A method a served revision's schema defines (and the server has no
   *   route for): no schemas; the generated validators of the request's
   *   revision check params and result, the handler is typed from the
   *   schema (params without `_meta`; a result without `resultType`, which
   *   the SDK adds), and a peer whose revision lacks the method gets `-32601`.
   * - A method the server answers itself (`tools/list`, …): the same, with
   *   `{ override: true }`.
   * - A method in no schema (an extension's): `params` and `result` schemas
   *   (JSON Schema or Standard Schema) checked before and after the handler
   *   (`-32602` naming the path, `-32603`), served to every revision or the
   *   `revisions` named.
   *
   * @param method - the method name, e.g. `"widgets/list"`
   * @param rest - `(handler)` or `(options, handler)`: see {@link RequestHandlerArguments}
   * @returns this server, for chaining
   * @throws TypeError for a method the server answers itself (without `override`), one already registered,
   *   `revisions` naming a version the server does not serve, a schema that does not compile, or a handler
   *   that is not a function
   * @example
   * ```ts
   * server.setRequestHandler("widgets/list", { params: { type: "object", properties: { cursor: { type: "string" } } } }, () => ({
   *   widgets: [{ id: "w1" }],
   * }));
   * ```
   */
  setRequestHandler<M extends string>(method: M, ...rest: RequestHandlerArguments<M>): this {
    const [options, handler] = typeof rest[0] === "function" ? [{}, rest[0]] : rest;
    this.custom.addRequest(method, options as CustomRequestOptions, handler as CustomRequestHandler);
    return this;
  }

  /**
   * Handles a notification the protocol schema does not define. Its params
   * are checked against `options.params` when given (a misfit is logged and
   * dropped: a notification has no answer); what the handler throws is logged.
   *
   * @param method - the notification's method, e.g. `"notifications/widgets/changed"`
   * @param options - a `params` schema; `override: true` to replace one the protocol defines
   * @param handler - `(params, context) => void`
   * @returns this server, for chaining
   * @throws TypeError for a notification already handled (without `override`) or a handler that is not a function
   */
  setNotificationHandler(method: string, options: Pick<CustomRequestOptions, "params" | "override">, handler: CustomNotificationHandler): this {
    this.custom.addNotification(method, options, handler);
    return this;
  }

  /**
   * Opens a 2025 session for a transport that keeps a connection (stdio,
   * in memory) or a session id (HTTP). Its messages then go to the
   * session's `handle`; what it starts on its own goes to `peer`.
   *
   * @param peer - where list-changed notifications and requests unrelated to any call are sent
   * @throws Error when this server does not hold sessions (`legacy` is `"stateless"` or `"reject"`)
   */
  openSession(peer: SessionPeer): ServerSession {
    if (this.legacy !== "sessions") {
      throw new Error(
        `Server.openSession: this server serves 2025 clients ${this.legacy === "reject" ? "not at all" : "statelessly"} (legacy: "${this.legacy}"), so it opens no sessions`,
      );
    }
    if (typeof peer !== "object" || peer === null || typeof peer.send !== "function") {
      throw new TypeError("Server.openSession: peer must be an object with send(message)");
    }
    const session = new LegacySession(this.host, peer);
    this.sessions.add(session, keeperOf(peer));
    return session;
  }

  /**
   * Announces that a list changed (`notifications/tools/list_changed` and
   * the like) through the broadcaster: to every `subscriptions/listen`
   * stream that opted in, on this instance and on every instance sharing the
   * broadcaster, and to every open 2025 session. McpServer calls it when
   * registrations change.
   *
   * @param list - which list: `"tools"`, `"prompts"` or `"resources"`
   */
  sendListChanged(list: "tools" | "prompts" | "resources"): void {
    this.hub.publish(listEvent(list));
  }

  /**
   * Announces that the resource at `uri` changed, with
   * `notifications/resources/updated`, through the broadcaster: to the
   * listener streams whose `resourceSubscriptions` name it, and to the 2025
   * sessions subscribed to it (`resources/subscribe`).
   *
   * @param uri - the resource's URI, exactly as subscribed
   * @throws TypeError when `uri` is not a non-empty string
   */
  sendResourceUpdated(uri: string): void {
    if (typeof uri !== "string" || uri === "") throw new TypeError("resourceUpdated: uri must be a non-empty string, the resource's URI as clients subscribe to it");
    this.hub.publish({ type: "resourceUpdated", uri });
  }

  /** How many `subscriptions/listen` streams are open on this server. */
  get openSubscriptions(): number {
    return this.hub.size;
  }

  /**
   * Ends every open `subscriptions/listen` stream gracefully: each listen
   * request is answered with its result (the spec's graceful closure), so
   * clients know to listen again, on another instance if this one is going
   * away. The HTTP server's drain calls it; with `final` (what
   * {@link Server.close} does) new listen requests are refused from then on.
   *
   * @param reason - why, for the `notifications/cancelled` sent on stdio and in memory
   * @returns how many streams were closed
   */
  closeSubscriptions(reason = "The server is shutting down.", final = false): number {
    return this.hub.closeAll(reason, final);
  }

  /**
   * Shuts the server's long-lived parts down: closes every listener stream
   * (refusing new ones) and stops receiving from the broadcaster.
   * Idempotent. Requests in flight are left to finish.
   */
  close(reason = "The server is shutting down."): void {
    this.hub.close(reason);
  }

  /**
   * Subscribes to the status changes of this server's tasks (the tasks
   * extension), each as the `DetailedTask` a `notifications/tasks/status`
   * carries. Nothing is sent unless `tasks` is set.
   *
   * @param listener - called on every change, synchronously; what it throws is logged
   * @returns the function that unsubscribes
   * @throws TypeError when `listener` is not a function
   */
  onTaskStatus(listener: TaskStatusListener): () => void {
    if (this.tasks === undefined) throw new TypeError("Server.onTaskStatus: this server has no tasks (set the tasks option)");
    return this.tasks.onStatus(listener);
  }

  /** How many 2025 sessions are open. */
  get openSessions(): number {
    return this.sessions.size;
  }

  /** A 2025 request outside any session: the 2025 modules answer it, loaded on the first one. */
  private answerStateless(request: ClassifiedRequest, context: RequestContext | undefined): Answered {
    const loaded = legacyModules();
    if (loaded !== undefined) return loaded.answerStateless(this.host, request, context);
    return loadLegacy().then(({ answerStateless }) => answerStateless(this.host, request, context));
  }

  private handleNotification(method: string, message: Record<string, unknown>, context: RequestContext | undefined): void {
    if (method !== "notifications/cancelled") {
      // The spec forbids answering notifications: a custom one runs its handler, an unknown one is ignored.
      this.host.onNotification(method, message.params as Record<string, unknown> | undefined, context);
      return;
    }
    // Over Streamable HTTP (the only transport that passes headers) closing the response stream is the
    // cancellation signal; ids there are chosen by many independent callers, so an id names no one request.
    if (context?.headers !== undefined) return;
    const checked = checkNotification(method, message);
    if (!checked.ok) {
      this.logger.warn(`notifications/cancelled ignored: ${checked.message}`);
      return;
    }
    const params = message.params as { requestId: JsonRpcId; reason?: string };
    this.inFlight.cancel(params.requestId, params.reason, context);
  }
}
