/**
 * The one request path, for both generations of the protocol: a classified
 * request's route, its protocol facts (version, client capabilities), its
 * checks, the middlewares and the handler, then its finished result. What
 * differs between a 2026-07-28 request and a 2025 client's is the revision
 * profile the caller passes (`modern.ts`, `legacy/profile.ts`): where the
 * version comes from, which schema checks the request, what shape the
 * result leaves in.
 *
 * @internal
 * @module
 */
import type { ServerCapabilities } from "../protocol/types.js";
import type { RequestContext } from "../protocol/context.js";
import { isObject, isThenable } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";
import type { ClassifiedRequest } from "../protocol/message.js";
import { RequestContextImpl } from "./context.js";
import { internalError, toErrorObject } from "./errors.js";
import type { RequestMeta } from "./meta.js";
import type { ResultFinisher } from "./results.js";
import type { Route } from "./routes.js";
import type { TaskDeclaration } from "./tasks/types.js";
import type { MiddlewareRequest } from "./types.js";
import { settle, type ServerCore } from "./middleware.js";

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

/** What a request needs of the server answering it, whichever generation asked. @internal */
export interface RequestHost extends ServerCore {
  readonly finisher: ResultFinisher;
  /** The tasks extension, when the server has one. */
  readonly tasks: TaskRoutes | undefined;
  /** The routes of methods outside the protocol schema (`setRequestHandler`), read by both profiles. */
  readonly custom: ReadonlyMap<string, Route>;
  /** A tool's task declaration, when tasks are on: what routes a `tools/call` to the task engine. */
  readonly taskSupport: ((toolName: string) => TaskDeclaration | undefined) | undefined;
  /** The deepest nesting a request's params may have (`maxNestingDepth`). */
  readonly maxNestingDepth: number;
  readonly validateResults: boolean;
  /** Every version the server answers, newest first: what `server/discover` and `-32022` list. */
  readonly versions: readonly string[];
  readonly instructions: string | undefined;
  /** The server's (2026-shaped) capabilities. */
  capabilities(): ServerCapabilities;
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
  /** The request as the checks and the handler see it: round-trip fields as this generation has them. */
  prepare(request: ClassifiedRequest, route: Route): { message: Record<string, unknown>; params: Record<string, unknown> };
  /** The schema check of the whole request, by the schema of the version it speaks. @throws McpError -32602 naming what is wrong */
  check(method: string, message: Record<string, unknown>, version: string): void | Promise<void>;
  /** The answer of a route without a handler (`server/discover`, the task methods, the 2025 built-ins). */
  builtIn(host: RequestHost, route: Route, params: Record<string, unknown>, ctx: RequestContextImpl, scope: Scope): Promise<Record<string, unknown>>;
  /** The wire result of what the handler returned. */
  finish(host: RequestHost, route: Route, handler: AnyHandler, invocation: Invocation, ctx: RequestContextImpl, scope: Scope): Promise<Record<string, unknown>>;
  /** A route that answers with a long-lived stream of its own (`subscriptions/listen`). */
  stream?(host: RequestHost, route: Route, params: Record<string, unknown>, ctx: RequestContextImpl): Promise<JsonRpcResponse | undefined> | undefined;
}

/**
 * Answers one classified request under `profile`. Resolves to the response,
 * or `undefined` when the client cancelled it (the spec asks for no answer
 * then). Never rejects.
 * @internal
 */
export async function answerRequest<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  request: ClassifiedRequest,
  scope: Scope,
  context: RequestContext | undefined,
): Promise<JsonRpcResponse | undefined> {
  const { id, method } = request;
  let ctx: RequestContextImpl | undefined;
  try {
    const route = profile.route(host, method);
    if (route === undefined) throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    const handler = route.call ?? (route.handler === undefined ? undefined : (host.handlers[route.handler] as AnyHandler | undefined));
    if (route.handler !== undefined && handler === undefined) {
      throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} (this server does not provide it)`);
    }
    const meta = profile.meta(host, request.params ?? {}, scope);
    const prepared = profile.prepare(request, route);
    let params = prepared.params;
    for (const middleware of host.middlewares) middleware.screen?.(method, params, host.logger, route.mayAskInput);
    assertNestingWithin(params, host.maxNestingDepth);
    if (route.checked) {
      const checking = profile.check(method, prepared.message, meta.protocolVersion);
      if (checking !== undefined) await checking;
    }
    if (route.checkParams !== undefined) params = await route.checkParams(params);
    ctx = new RequestContextImpl(id, method, meta, context);
    ctx.logger = host.logger;
    // A listen stream may stay open for hours: it leaves this (large) frame behind at once.
    const streaming = profile.stream?.(host, route, params, ctx);
    if (streaming !== undefined) {
      ctx = undefined;
      return streaming;
    }
    scope.track(ctx);
    let result: Record<string, unknown>;
    if (handler === undefined) result = await profile.builtIn(host, route, params, ctx, scope);
    else {
      const invocation = await invokeHandler(host, route, handler, params, ctx);
      try {
        result = await profile.finish(host, route, handler, invocation, ctx, scope);
      } catch (error) {
        await settle(host, invocation.request, false, error);
        throw error;
      }
      void settle(host, invocation.request, true, result);
    }
    if (ctx.isCancelledByClient) return undefined;
    return { jsonrpc: "2.0", id, result };
  } catch (error) {
    if (ctx?.isCancelledByClient) return undefined;
    return errorResponse(id, toErrorObject(error, method, host.logger));
  } finally {
    if (ctx !== undefined) scope.untrack(ctx);
  }
}

/**
 * Runs the middlewares' `onRequest`, then the handler: as a task when the
 * tool declares one (the task route), else directly.
 *
 * @throws McpError from a middleware, whatever the handler throws, or
 *   -32603 when the handler returns something that is not a result object
 * @internal
 */
export async function invokeHandler(
  host: RequestHost,
  route: Route,
  handler: AnyHandler,
  params: Record<string, unknown>,
  ctx: RequestContextImpl,
): Promise<Invocation> {
  let request: MiddlewareRequest | undefined;
  if (host.middlewares.length > 0) {
    request = {
      method: ctx.method,
      serverName: host.serverInfo.name,
      params,
      context: ctx,
      logger: host.logger,
      transport: ctx.transport,
      mayAskInput: route.mayAskInput,
    };
    try {
      for (const middleware of host.middlewares) {
        const pending = middleware.onRequest?.(request);
        if (isThenable(pending)) await pending;
      }
    } catch (error) {
      await settle(host, request, false, error);
      throw error;
    }
    params = request.params;
    if (route.mayAskInput && isObject(params.arguments)) {
      // A middleware (the request-state boundary) binds what it mints to these arguments after the handler
      // ran: the handler gets its own copy, so filling in a default (args.limit ??= 10) cannot change them.
      params = { ...params, arguments: snapshotJson(params.arguments) };
    } else if (route.call !== undefined && route.mayAskInput) params = snapshotJson(params); // a custom method's params are its arguments
  }
  if (route.mayAskInput) {
    ctx.inputResponses = params.inputResponses as RequestContextImpl["inputResponses"];
    ctx.requestState = params.requestState as string | undefined;
  }
  try {
    const task = route.taskAware && host.taskSupport !== undefined ? host.taskSupport(params.name as string) : undefined;
    const raw = task === undefined ? await callHandler(handler, params, ctx) : await host.tasks!.callTool(task, handler, params, ctx);
    return { raw, params, request };
  } catch (error) {
    if (request !== undefined) await settle(host, request, false, error);
    throw error;
  }
}

/**
 * Calls the handler alone, without middlewares: a 2025 session re-runs a
 * handler this way once the client has answered what its needs asked.
 *
 * @throws whatever the handler throws, or -32603 for a non-object result
 * @internal
 */
export async function callHandler(handler: AnyHandler, params: Record<string, unknown>, ctx: RequestContextImpl): Promise<Record<string, unknown>> {
  let raw: unknown = handler(params, ctx);
  if (isThenable(raw)) raw = await raw;
  if (!isObject(raw)) {
    throw internalError(`Internal error: the ${ctx.method} handler returned ${raw === null ? "null" : typeof raw}, not a result object`);
  }
  return raw;
}

/** The nesting a request's params may have when the server sets no `maxNestingDepth`. @internal */
export const DEFAULT_MAX_NESTING_DEPTH = 100;

/**
 * Refuses params nested deeper than `limit` before any schema check walks
 * them (a deep value would exhaust the validator's stack).
 * @throws McpError -32602 naming where the limit was passed
 * @internal
 */
export function assertNestingWithin(params: unknown, limit: number): void {
  if (typeof params !== "object" || params === null || depthWithin(params, 1, limit)) return;
  // Only a refused request pays for naming where: the walk itself builds no paths.
  const path = pathDeeperThan(params, 1, limit, "/params")!;
  const where = path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-40)}` : path;
  throw new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${where} nests deeper than ${limit} levels, the most this server accepts (maxNestingDepth)`, {
    maxNestingDepth: limit,
  });
}

/** True when `value` (at `depth`) nests no deeper than `limit`; recursion is bounded by `limit` itself. */
function depthWithin(value: object, depth: number, limit: number): boolean {
  if (depth > limit) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && !depthWithin(item, depth + 1, limit)) return false;
    }
    return true;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && !depthWithin(item, depth + 1, limit)) return false;
  }
  return true;
}

/** The path of the first value past `limit`, the way {@link depthWithin} found it. */
function pathDeeperThan(value: object, depth: number, limit: number, path: string): string | undefined {
  if (depth > limit) return path;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, i) => [String(i), item])
    : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  for (const [key, item] of entries) {
    if (typeof item !== "object" || item === null) continue;
    const found = pathDeeperThan(item, depth + 1, limit, `${path}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A deep copy of a JSON value (objects, arrays, primitives), for handing a
 * handler arguments it may change without changing the request they came
 * in. Much cheaper than `structuredClone` for the small objects arguments
 * usually are; an own `"__proto__"` key stays an own key.
 * @internal
 */
export function snapshotJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = snapshotJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = snapshotJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
