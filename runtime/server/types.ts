import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedRequestParams,
  ReadResourceRequestParams,
  ReadResourceResult,
} from "../protocol/types.js";
import type { Logger } from "../protocol/logging.js";
import type { RequestContext } from "../protocol/context.js";
import type { ServerRequestContext } from "./context.js";

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A result as a handler may write it: the server stamps `resultType:
 * "complete"`, adds `serverInfo` to `_meta` and fills caching hints it left
 * out, so none of those are required here.
 */
export type HandlerResult<T> = Omit<T, "resultType" | "ttlMs" | "cacheScope" | "_meta"> & {
  /** Leave it out: the server writes `"complete"` (an `InputRequiredResult` is built with `inputRequired`). */
  resultType?: "complete";
  /** Your own `_meta` keys; `io.modelcontextprotocol/serverInfo` is added. */
  _meta?: Record<string, unknown>;
  /** Overrides the server's caching hint for this result, see {@link CacheHint}. */
  ttlMs?: number;
  /** Overrides the server's caching scope for this result, see {@link CacheHint}. */
  cacheScope?: "public" | "private";
};

/** A caching hint for one cacheable method (see the spec's caching utility). */
export interface CacheHint {
  /** How long, in milliseconds, the client may treat the result as fresh; `>= 0`. */
  ttlMs: number;
  /** `"public"` when the result is the same for every caller, `"private"` otherwise. */
  cacheScope: "public" | "private";
}

/** The methods whose complete results carry caching hints. */
export type CacheableMethod = "server/discover" | "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" | "resources/read";

/**
 * Handlers of the low-level {@link Server}. Each receives the validated
 * `params` and a {@link ServerRequestContext}; a method whose handler is
 * absent answers `-32601`. Only `onCallTool`, `onGetPrompt` and
 * `onReadResource` may return an `InputRequiredResult`.
 */
export interface ServerHandlers {
  /** Answers `tools/list`; page with `params.cursor` and `nextCursor` when the list is long. */
  onListTools?(params: PaginatedRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<ListToolsResult>>;
  /** Runs `tools/call`; return an `InputRequiredResult` to ask the client for input, and get the answers on its retry. */
  onCallTool?(params: CallToolRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult>;
  /** Answers `prompts/list`. */
  onListPrompts?(params: PaginatedRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<ListPromptsResult>>;
  /** Renders `prompts/get`; may ask for input like `onCallTool`. */
  onGetPrompt?(params: GetPromptRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<GetPromptResult> | InputRequiredResult>;
  /** Answers `resources/list`. */
  onListResources?(params: PaginatedRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<ListResourcesResult>>;
  /** Answers `resources/templates/list`. */
  onListResourceTemplates?(params: PaginatedRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<ListResourceTemplatesResult>>;
  /** Reads `resources/read`; may ask for input like `onCallTool`. */
  onReadResource?(params: ReadResourceRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<ReadResourceResult> | InputRequiredResult>;
  /** Suggests values for a prompt argument or template variable (`completion/complete`). */
  onComplete?(params: CompleteRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<CompleteResult>>;
}

/**
 * Where the server reports what it does not put on the wire (handler
 * crashes, rejected request state, and at `debug` every round's decision and
 * every 2025 session's open and close): the package's one {@link Logger}
 * shape, `debug`/`info`/`warn`/`error`, each `(message, fields?)`. `console`
 * and pino loggers fit as they are.
 */
export type ServerLogger = Logger;

/** A request as middleware sees it, before the handler runs. */
export interface MiddlewareRequest {
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** The name in the server's `serverInfo`: the default audience of anything the middleware seals. */
  readonly serverName: string;
  /** The params the handler will receive; middleware may replace the object (never mutate the caller's). */
  params: Record<string, unknown>;
  /** The context the handler will receive: the caller's identity, capabilities and signal. */
  readonly context: ServerRequestContext;
  /** The server's logger, for what must not go on the wire. */
  readonly logger: ServerLogger;
  /** What the transport passed along with the message (auth, headers), if anything. */
  readonly transport: RequestContext | undefined;
  /**
   * Whether the method takes part in multi round-trip requests (its
   * `requestState` is sealed and verified): `tools/call`, `prompts/get`,
   * `resources/read`, and custom methods (`setRequestHandler`).
   */
  readonly mayAskInput?: boolean;
}

/**
 * A hook around the handlers of a low-level {@link Server}, installed with
 * `server.use(...)`. The request-state boundary is one.
 */
export interface ServerMiddleware {
  /**
   * Runs before the request is checked against the schema, on raw params;
   * throw an `McpError` to answer with it instead of the schema's error. The
   * request-state boundary uses it so that even a malformed `requestState`
   * gets the one fixed rejection.
   */
  screen?(method: string, params: Readonly<Record<string, unknown>>, logger: ServerLogger, mayAskInput?: boolean): void;
  /** Runs before the handler; throw an `McpError` to answer with an error instead. */
  onRequest?(request: MiddlewareRequest): void | Promise<void>;
  /** Runs on every `InputRequiredResult` after it passed the protocol checks, before it is sent. */
  onInputRequired?(result: InputRequiredResult, request: MiddlewareRequest): MaybePromise<InputRequiredResult>;
  /**
   * Runs once the request is over, after `onRequest` ran for it: `produced`
   * is `true` when the handler produced a result that is being sent
   * (complete or `input_required`), `false` when it or a later step failed.
   * The request-state boundary commits or releases a one-time token here.
   * With `produced` it runs on the event loop's next turn, once the
   * transport has written the answer, never before.
   * `outcome` is the result being sent when `produced` (sealed, stamped),
   * else what was thrown (an `McpError` for a rejection). Also runs when an
   * earlier middleware's `onRequest` threw, for every installed middleware.
   */
  onSettled?(request: MiddlewareRequest, produced: boolean, outcome?: unknown): void | Promise<void>;
}
