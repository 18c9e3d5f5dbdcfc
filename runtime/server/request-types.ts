/**
 * The types the request path (`request.ts`) shares with the tasks
 * extension and the 2025 sessions, and what it asks of the server and of
 * each generation's revision profile.
 *
 * @internal
 * @module
 */
import type { AdaptedRequest } from "../protocol/adapter.js";
import type { ServerCapabilities } from "../protocol/types.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { ClassifiedRequest } from "../protocol/message.js";
import type { RequestContextImpl } from "./context.js";
import type { RequestMeta } from "./meta.js";
import type { ServerCore } from "./middleware.js";
import type { ResultFinisher } from "./results.js";
import type { Route } from "./routes.js";
import type { TaskDeclaration } from "./tasks/types.js";
import type { MiddlewareRequest } from "./types.js";

/**
 * What the request path asks of the tasks extension (`TaskEngine`): whether
 * its methods are answered, its capability, its methods' answers, and a call
 * of a tool that declares `task` (the task route).
 * @internal
 */
interface TaskRoutes {
  enabled(): boolean;
  advertise(capabilities: Record<string, unknown>): Record<string, unknown>;
  answer(method: string, params: unknown, ctx: RequestContextImpl): Promise<Record<string, unknown>>;
  callTool(declaration: TaskDeclaration, handler: AnyHandler, call: Record<string, unknown>, ctx: RequestContextImpl): Promise<Record<string, unknown>>;
}

/** Where a request is registered while it runs, so a cancellation can find it. @internal */
export interface RequestTracker {
  track(ctx: RequestContextImpl): void;
  untrack(ctx: RequestContextImpl): void;
}

/** A handler of some route, called with its params and context. @internal */
export type AnyHandler = (params: unknown, ctx: unknown) => unknown;

/** What one handler call produced, with the middleware view of the request it answered. @internal */
export interface Invocation {
  /** The handler's return value, checked to be an object. */
  raw: Record<string, unknown>;
  /** The params the handler received (after the middlewares). */
  params: Record<string, unknown>;
  /** The middleware view of the request; `undefined` when no middleware is installed. */
  request: MiddlewareRequest | undefined;
}

/** What a request needs of the server answering it, whichever generation asked. @internal */
export interface RequestHost extends ServerCore {
  readonly finisher: ResultFinisher;
  /** The tasks extension, when the server has one. */
  readonly tasks: TaskRoutes | undefined;
  /** The routes of methods outside the protocol schema (`setRequestHandler`), read by both profiles. */
  readonly custom: ReadonlyMap<string, Route>;
  /** A tool's task declaration, when tasks are on: what routes a `tools/call` to the task engine. */
  readonly taskSupport: ((toolName: string) => TaskDeclaration | undefined) | undefined;
  /** A tool's listing entry (McpServer's registry), which an adapted `tools/call` offers its adapter's hooks (`AdapterExchange.tool`). */
  readonly listedTool: ((name: string) => Readonly<Record<string, unknown>> | undefined) | undefined;
  /** The deepest nesting a request's params may have (`maxNestingDepth`). */
  readonly maxNestingDepth: number;
  readonly validateResults: boolean;
  /** Every version the server answers, newest first: what `server/discover` and `-32022` list. */
  readonly versions: readonly string[];
  readonly instructions: string | undefined;
  /** The server's (2026-shaped) capabilities. */
  capabilities(): ServerCapabilities;
}

/**
 * What differs between the generations on the request path. `Scope` is
 * what the request is answered within: nothing more than its tracker for a
 * 2026-07-28 request, the session (or the stateless stand-in) for a 2025 one.
 * @internal
 */
export interface RevisionProfile<Scope extends RequestTracker> {
  /** The route of `method` in this generation, or `undefined` (`-32601`). */
  route(host: RequestHost, method: string): Route | undefined;
  /** The protocol version and client capabilities the request is answered under. @throws McpError when the request cannot say */
  meta(host: RequestHost, params: Record<string, unknown>, scope: Scope): RequestMeta;
  /** Whether `route` is served to a peer speaking `version`: its revision's schema defines the method, or a custom method names it. */
  serves(route: Route, method: string, version: string): boolean;
  /** The request as the checks and the handler see it: round-trip fields as this generation has them. */
  prepare(request: ClassifiedRequest, route: Route): { message: Record<string, unknown>; params: Record<string, unknown> };
  /** The schema check of the whole request, by the schema of the version it speaks. @throws McpError -32602 naming what is wrong */
  check(method: string, message: Record<string, unknown>, version: string): void | Promise<void>;
  /** The answer of a route without a handler (`server/discover`, the task methods, the 2025 built-ins). */
  builtIn(host: RequestHost, route: Route, params: Record<string, unknown>, ctx: RequestContextImpl, scope: Scope): Promise<Record<string, unknown>>;
  /** The wire result of what the handler returned: synchronous when nothing had to be awaited. */
  finish(
    host: RequestHost,
    route: Route,
    handler: AnyHandler,
    invocation: Invocation,
    ctx: RequestContextImpl,
    scope: Scope,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** A route that answers with a long-lived stream of its own (`subscriptions/listen`). */
  stream?(host: RequestHost, route: Route, params: Record<string, unknown>, ctx: RequestContextImpl): Promise<JsonRpcResponse | undefined> | undefined;
}

/** A request past its route, protocol facts and checks. @internal */
export interface CheckedRequest {
  readonly route: Route;
  readonly handler: AnyHandler | undefined;
  readonly meta: RequestMeta;
  readonly params: Record<string, unknown>;
  /** Set when the request's revision has an adapter: `params` are then the model's. */
  readonly adapted?: AdaptedRequest | undefined;
}
