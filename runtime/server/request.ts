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
import type { RequestContext } from "../protocol/context.js";
import type { AdaptedRequest } from "../protocol/adapter.js";
import { isObject, isThenable } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";
import type { ClassifiedRequest } from "../protocol/message.js";
import { adaptRequest, resultToWire } from "./adapt.js";
import { RequestContextImpl } from "./context.js";
import { internalError, toErrorObject } from "./errors.js";
import type { RequestMeta } from "./meta.js";
import { ROUTES, type Route } from "./routes.js";
import type { MiddlewareRequest } from "./types.js";
import type { AnyHandler, Invocation, RequestHost, RequestTracker, RevisionProfile } from "./request-types.js";
import { settle } from "./middleware.js";
import { pathDeeperThan } from "./nesting-path.js";

export type { AnyHandler, Invocation, RequestHost, RequestTracker, RevisionProfile };

/**
 * Answers one classified request under `profile`. Resolves to the response,
 * or `undefined` when the client cancelled it (the spec asks for no answer
 * then). Never rejects.
 * @internal
 */
export function answerRequest<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  request: ClassifiedRequest,
  scope: Scope,
  context: RequestContext | undefined,
): Promise<JsonRpcResponse | undefined> {
  let checked: CheckedRequest | Promise<CheckedRequest>;
  try {
    checked = checkRequest(host, profile, request, scope);
  } catch (error) {
    return Promise.resolve(refusal(host, request, error));
  }
  // Not an async function: when nothing had to be awaited (the usual case), a stream route's own
  // promise is handed back as it is, so an idle listen stream is not held by a frame here as well.
  if (!isThenable(checked)) return begin(host, profile, request, scope, context, checked);
  return checked.then(
    (ready) => begin(host, profile, request, scope, context, ready),
    (error: unknown) => refusal(host, request, error),
  );
}

/** A request past its route, protocol facts and checks. */
interface CheckedRequest {
  readonly route: Route;
  readonly handler: AnyHandler | undefined;
  readonly meta: RequestMeta;
  readonly params: Record<string, unknown>;
  /** Set when the request's revision has an adapter: `params` are then the model's. */
  readonly adapted?: AdaptedRequest | undefined;
}

/**
 * The route, protocol facts and checks of a request: synchronous unless a
 * check has to wait (a schema still loading, a route's async `checkParams`).
 * @throws McpError for an unknown method, a bad envelope or params
 */
function checkRequest<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  request: ClassifiedRequest,
  scope: Scope,
): CheckedRequest | Promise<CheckedRequest> {
  const method = request.method;
  const route = profile.route(host, method);
  if (route === undefined) throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
  const handler = route.call ?? (route.handler === undefined ? undefined : (host.handlers[route.handler] as AnyHandler | undefined));
  if (route.handler !== undefined && handler === undefined) {
    throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} (this server does not provide it)`);
  }
  const meta = profile.meta(host, request.params ?? {}, scope);
  if (!profile.serves(route, method, meta.protocolVersion)) {
    throw new McpError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol ${meta.protocolVersion}, which this request speaks`);
  }
  const prepared = profile.prepare(request, route);
  const params = prepared.params;
  for (const middleware of host.middlewares) middleware.screen?.(method, params, host.logger, route.mayAskInput);
  assertNestingWithin(params, host.maxNestingDepth);
  const checking = route.checked ? profile.check(method, prepared.message, meta.protocolVersion) : undefined;
  if (checking === undefined && route.checkParams === undefined) {
    // Checked in the wire's shape, answered in the model's: a revision with an adapter maps its params here.
    return meta.adapter === undefined ? { route, handler, meta, params } : adapted(host, route, handler, meta, method, params);
  }
  return checkLater(host, route, handler, meta, method, params, checking);
}

/** A request of a revision with an adapter, its params mapped to the model. */
function adapted(host: RequestHost, route: Route, handler: AnyHandler | undefined, meta: RequestMeta, method: string, wire: Record<string, unknown>) {
  const adapted = adaptRequest(meta.adapter!, meta.protocolVersion, method, wire, host.listedTool);
  return { route, handler, meta, params: adapted.exchange.params as Record<string, unknown>, adapted };
}

async function checkLater(
  host: RequestHost,
  route: Route,
  handler: AnyHandler | undefined,
  meta: RequestMeta,
  method: string,
  wire: Record<string, unknown>,
  checking: void | Promise<void>,
): Promise<CheckedRequest> {
  await checking;
  const checked = meta.adapter === undefined ? { route, handler, meta, params: wire } : adapted(host, route, handler, meta, method, wire);
  return route.checkParams === undefined ? checked : { ...checked, params: await route.checkParams(checked.params) };
}

/** The error answer of a request refused before its handler ran. */
function refusal(host: RequestHost, request: ClassifiedRequest, error: unknown): JsonRpcResponse {
  return errorResponse(request.id, toErrorObject(error, request.method, host.logger));
}

/** Each protocol method's name as one string: a context (a listen stream's lasts hours) keeps it, not its body's copy. */
const METHOD_NAMES: ReadonlyMap<string, string> = new Map(Array.from(ROUTES.keys(), (name) => [name, name]));

/** Creates the request's context and answers it: by its stream (`subscriptions/listen`), else by its handler. */
function begin<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  request: ClassifiedRequest,
  scope: Scope,
  context: RequestContext | undefined,
  checked: CheckedRequest,
): Promise<JsonRpcResponse | undefined> {
  const ctx = new RequestContextImpl(request.id, METHOD_NAMES.get(request.method) ?? request.method, checked.meta, context);
  ctx.logger = host.logger;
  ctx.adapted = checked.adapted;
  let streaming: Promise<JsonRpcResponse | undefined> | undefined;
  try {
    streaming = profile.stream?.(host, checked.route, checked.params, ctx);
  } catch (error) {
    return Promise.resolve(ctx.isCancelledByClient ? undefined : refusal(host, request, error));
  }
  return streaming ?? answerCall(host, profile, scope, ctx, checked);
}

/** Runs a request's handler (or built-in answer) while it is tracked, and finishes its result. */
async function answerCall<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  scope: Scope,
  ctx: RequestContextImpl,
  { route, handler, params }: CheckedRequest,
): Promise<JsonRpcResponse | undefined> {
  scope.track(ctx);
  try {
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
    if (ctx.adapted !== undefined) result = resultToWire(ctx.adapted, result, host.validateResults);
    return { jsonrpc: "2.0", id: ctx.requestId, result };
  } catch (error) {
    if (ctx.isCancelledByClient) return undefined;
    return errorResponse(ctx.requestId, toErrorObject(error, ctx.method, host.logger));
  } finally {
    scope.untrack(ctx);
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
