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
import { isObject, isThenable } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { Answered } from "../protocol/contracts.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { ClassifiedRequest } from "../protocol/message.js";
import { resultToWire } from "./adapt.js";
import { RequestContextImpl } from "./context.js";
import { internalError } from "./errors.js";
import { ROUTES, type Route } from "./routes.js";
import type { MiddlewareRequest } from "./types.js";
import type { AnyHandler, CheckedRequest, Invocation, RequestHost, RequestTracker, RevisionProfile } from "./request-types.js";
import { adapted, answerFailed, checkLater, failedAnswer, finishFailed, handlerFailed, refusal, refusedBy, restOfMiddlewares } from "./request-detours.js";
import { settle } from "./middleware.js";
import { snapshotJson } from "./state-boundary.js";
import { pathDeeperThan } from "./nesting-path.js";

export type { AnyHandler, Invocation, RequestHost, RequestTracker, RevisionProfile };

/**
 * Answers one classified request under `profile`: the response, or
 * `undefined` when the client cancelled it (the spec asks for no answer
 * then). At once when nothing had to be waited for, else a promise that
 * never rejects.
 * @internal
 */
export function answerRequest<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  request: ClassifiedRequest,
  scope: Scope,
  context: RequestContext | undefined,
): Answered {
  let checked: CheckedRequest | Promise<CheckedRequest>;
  try {
    checked = checkRequest(host, profile, request, scope);
  } catch (error) {
    return refusal(host, request, error);
  }
  // Not an async function: when nothing had to be awaited (the usual case), a stream route's own
  // promise is handed back as it is, so an idle listen stream is not held by a frame here as well.
  if (!isThenable(checked)) return begin(host, profile, request, scope, context, checked);
  return checked.then(
    (ready) => begin(host, profile, request, scope, context, ready),
    (error: unknown) => refusal(host, request, error),
  );
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
  assertNestingWithin(params, host.maxNestingDepth, request.nestingBound);
  const checking = route.checked ? profile.check(method, prepared.message, meta.protocolVersion) : undefined;
  if (checking === undefined && route.checkParams === undefined) {
    // Checked in the wire's shape, answered in the model's: a revision with an adapter maps its params here.
    return meta.adapter === undefined ? { route, handler, meta, params } : adapted(host, route, handler, meta, method, params);
  }
  return checkLater(host, route, handler, meta, method, params, checking);
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
): Answered {
  const ctx = new RequestContextImpl(request.id, METHOD_NAMES.get(request.method) ?? request.method, checked.meta, context);
  ctx.logger = host.logger;
  ctx.adapted = checked.adapted;
  let streaming: Promise<JsonRpcResponse | undefined> | undefined;
  try {
    streaming = profile.stream?.(host, checked.route, checked.params, ctx);
  } catch (error) {
    return ctx.isCancelledByClient ? undefined : refusal(host, request, error);
  }
  return streaming ?? answerCall(host, profile, scope, ctx, checked);
}

/**
 * Runs a request's handler (or built-in answer) while it is tracked, and
 * finishes its result. Each step that has nothing to wait for (no
 * middleware, handler or result check answering with a promise: a plain
 * tool call) runs in the same turn, and such a call is answered with no
 * promise at all.
 */
function answerCall<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  scope: Scope,
  ctx: RequestContextImpl,
  { route, handler, params }: CheckedRequest,
): Answered {
  scope.track(ctx);
  if (handler === undefined) {
    // A built-in answer (`server/discover`, `ping`…), tracked like a handler's.
    return Promise.resolve()
      .then(() => profile.builtIn(host, route, params, ctx, scope))
      .then(
        (result) => answered(host, scope, ctx, result),
        (error: unknown) => answerFailed(host, scope, ctx, error),
      );
  }
  let invoked: Invocation | Promise<Invocation>;
  try {
    invoked = invokeHandler(host, route, handler, params, ctx);
  } catch (error) {
    return answerFailed(host, scope, ctx, error);
  }
  if (isThenable<Invocation>(invoked)) {
    return invoked.then(
      (invocation) => finishCall(host, profile, scope, ctx, route, handler, invocation),
      (error: unknown) => answerFailed(host, scope, ctx, error),
    );
  }
  return finishCall(host, profile, scope, ctx, route, handler, invoked);
}

/** The handler ran: its result finished by the profile, the middlewares told, the answer built. */
function finishCall<Scope extends RequestTracker>(
  host: RequestHost,
  profile: RevisionProfile<Scope>,
  scope: Scope,
  ctx: RequestContextImpl,
  route: Route,
  handler: AnyHandler,
  invocation: Invocation,
): Answered {
  let finished: Record<string, unknown> | Promise<Record<string, unknown>>;
  try {
    finished = profile.finish(host, route, handler, invocation, ctx, scope);
  } catch (error) {
    return finishFailed(host, scope, ctx, invocation, error);
  }
  if (isThenable<Record<string, unknown>>(finished)) {
    return finished.then(
      (result) => settled(host, scope, ctx, invocation, result),
      (error: unknown) => finishFailed(host, scope, ctx, invocation, error),
    );
  }
  return settled(host, scope, ctx, invocation, finished);
}

function settled(
  host: RequestHost,
  scope: RequestTracker,
  ctx: RequestContextImpl,
  invocation: Invocation,
  result: Record<string, unknown>,
): JsonRpcResponse | undefined {
  void settle(host, invocation.request, true, result);
  return answered(host, scope, ctx, result);
}

/** The success answer, in the wire's shape; nothing for a request the client cancelled. Untracks the request. */
function answered(host: RequestHost, scope: RequestTracker, ctx: RequestContextImpl, result: Record<string, unknown>): JsonRpcResponse | undefined {
  try {
    if (ctx.isCancelledByClient) return undefined;
    if (ctx.adapted !== undefined) result = resultToWire(ctx.adapted, result, host.validateResults);
    return { jsonrpc: "2.0", id: ctx.requestId, result };
  } catch (error) {
    return failedAnswer(host, ctx, error);
  } finally {
    scope.untrack(ctx);
  }
}

/**
 * Runs the middlewares' `onRequest`, then the handler: as a task when the
 * tool declares one (the task route), else directly. Synchronous until a
 * middleware or the handler answers with a promise.
 *
 * @throws McpError from a middleware, whatever the handler throws, or
 *   -32603 when the handler returns something that is not a result object
 *   (as a rejection once anything was awaited)
 * @internal
 */
export function invokeHandler(
  host: RequestHost,
  route: Route,
  handler: AnyHandler,
  params: Record<string, unknown>,
  ctx: RequestContextImpl,
): Invocation | Promise<Invocation> {
  if (host.middlewares.length === 0) return runHandler(host, route, handler, params, ctx, undefined);
  const request: MiddlewareRequest = {
    method: ctx.method,
    serverName: host.serverInfo.name,
    params,
    context: ctx,
    logger: host.logger,
    transport: ctx.transport,
    mayAskInput: route.mayAskInput,
  };
  const middlewares = host.middlewares;
  for (let i = 0; i < middlewares.length; i++) {
    let pending: unknown;
    try {
      pending = middlewares[i]!.onRequest?.(request);
    } catch (error) {
      return refusedBy(host, request, error);
    }
    if (isThenable(pending)) {
      return restOfMiddlewares(host, request, pending, i + 1).then(() => afterMiddlewares(host, route, handler, ctx, request));
    }
  }
  return afterMiddlewares(host, route, handler, ctx, request);
}

function afterMiddlewares(
  host: RequestHost,
  route: Route,
  handler: AnyHandler,
  ctx: RequestContextImpl,
  request: MiddlewareRequest,
): Invocation | Promise<Invocation> {
  let params = request.params;
  if (route.mayAskInput && isObject(params.arguments)) {
    // A middleware (the request-state boundary) binds what it mints to these arguments after the handler
    // ran: the handler gets its own copy, so filling in a default (args.limit ??= 10) cannot change them.
    params = { ...params, arguments: snapshotJson(params.arguments) };
  } else if (route.call !== undefined && route.mayAskInput) params = snapshotJson(params); // a custom method's params are its arguments
  return runHandler(host, route, handler, params, ctx, request);
}

function runHandler(
  host: RequestHost,
  route: Route,
  handler: AnyHandler,
  params: Record<string, unknown>,
  ctx: RequestContextImpl,
  request: MiddlewareRequest | undefined,
): Invocation | Promise<Invocation> {
  if (route.mayAskInput) {
    ctx.inputResponses = params.inputResponses as RequestContextImpl["inputResponses"];
    ctx.requestState = params.requestState as string | undefined;
  }
  let raw: unknown;
  try {
    const task = route.taskAware && host.taskSupport !== undefined ? host.taskSupport(params.name as string) : undefined;
    if (task !== undefined) {
      return Promise.resolve(host.tasks!.callTool(task, handler, params, ctx)).then(
        (done) => ({ raw: done, params, request }),
        (error: unknown) => handlerFailed(host, request, error),
      );
    }
    raw = handler(params, ctx);
    if (!isThenable(raw)) return { raw: resultObject(raw, ctx), params, request };
  } catch (error) {
    return handlerFailed(host, request, error);
  }
  return Promise.resolve(raw).then(
    (done) => ({ raw: resultObject(done, ctx), params, request }),
    (error: unknown) => handlerFailed(host, request, error),
  );
}

/** What a handler returned, when it is a result object. @throws McpError -32603 otherwise */
function resultObject(raw: unknown, ctx: RequestContextImpl): Record<string, unknown> {
  if (!isObject(raw)) {
    throw internalError(`Internal error: the ${ctx.method} handler returned ${raw === null ? "null" : typeof raw}, not a result object`);
  }
  return raw;
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
  return resultObject(raw, ctx);
}

/**
 * Refuses params nested deeper than `limit` before any schema check walks
 * them (a deep value would exhaust the validator's stack). A message whose
 * text could not nest that deep (`bound`, from its transport) is not walked.
 * @throws McpError -32602 naming where the limit was passed
 * @internal
 */
export function assertNestingWithin(params: unknown, limit: number, bound?: number): void {
  if ((bound !== undefined && bound <= limit) || typeof params !== "object" || params === null || depthWithin(params, 1, limit)) return;
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
  // Own enumerable values, as a for-in with an own-key check would visit, in one array: cheaper on every request.
  const items: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === "object" && item !== null && !depthWithin(item, depth + 1, limit)) return false;
  }
  return true;
}
