/**
 * The request path's detours: what a request goes through only when it
 * leaves the one-turn path of `request.ts` (a check that waits, a revision
 * with an adapter, a middleware answering with a promise) or fails on the
 * way. Kept apart so a plain call runs no function here, and the request
 * path reads as the usual case.
 *
 * @internal
 * @module
 */
import type { ClassifiedRequest } from "../protocol/message.js";
import { isThenable } from "../protocol/guards.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { errorResponse } from "../protocol/jsonrpc/responses.js";
import { adaptRequest } from "./adapt.js";
import type { RequestContextImpl } from "./context.js";
import { toErrorObject } from "./errors.js";
import type { RequestMeta } from "./meta.js";
import { settle } from "./middleware.js";
import type { AnyHandler, CheckedRequest, Invocation, RequestHost, RequestTracker } from "./request-types.js";
import type { Route } from "./routes.js";
import type { MiddlewareRequest } from "./types.js";

/** A request of a revision with an adapter, its params mapped to the model. @internal */
export function adapted(
  host: RequestHost,
  route: Route,
  handler: AnyHandler | undefined,
  meta: RequestMeta,
  method: string,
  wire: Record<string, unknown>,
): CheckedRequest {
  const adapted = adaptRequest(meta.adapter!, meta.protocolVersion, method, wire, host.listedTool);
  return { route, handler, meta, params: adapted.exchange.params as Record<string, unknown>, adapted };
}

/** The request once its schema check (still loading) and its route's async `checkParams` are done. @internal */
export async function checkLater(
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

/** The error answer of a request refused before its handler ran. @internal */
export function refusal(host: RequestHost, request: ClassifiedRequest, error: unknown): JsonRpcResponse {
  return errorResponse(request.id, toErrorObject(error, request.method, host.logger));
}

/** The profile refused the result: the middlewares are told (and awaited) before the error answer. @internal */
export async function finishFailed(
  host: RequestHost,
  scope: RequestTracker,
  ctx: RequestContextImpl,
  invocation: Invocation,
  error: unknown,
): Promise<JsonRpcResponse | undefined> {
  try {
    await settle(host, invocation.request, false, error);
  } catch (settling) {
    return answerFailed(host, scope, ctx, settling);
  }
  return answerFailed(host, scope, ctx, error);
}

/** The error answer of a request that failed once tracked; nothing for a request the client cancelled. Untracks the request. @internal */
export function answerFailed(host: RequestHost, scope: RequestTracker, ctx: RequestContextImpl, error: unknown): JsonRpcResponse | undefined {
  try {
    return failedAnswer(host, ctx, error);
  } finally {
    scope.untrack(ctx);
  }
}

/** The error answer of a tracked request; nothing for a request the client cancelled. @internal */
export function failedAnswer(host: RequestHost, ctx: RequestContextImpl, error: unknown): JsonRpcResponse | undefined {
  if (ctx.isCancelledByClient) return undefined;
  return errorResponse(ctx.requestId, toErrorObject(error, ctx.method, host.logger));
}

/**
 * The rest of the middlewares' `onRequest`, once one (`first`) answered
 * with a promise.
 * @throws what a middleware threw, once the others were told
 * @internal
 */
export async function restOfMiddlewares(host: RequestHost, request: MiddlewareRequest, first: PromiseLike<unknown>, from: number): Promise<void> {
  try {
    await first;
    for (let i = from; i < host.middlewares.length; i++) {
      const pending = host.middlewares[i]!.onRequest?.(request);
      if (isThenable(pending)) await pending;
    }
  } catch (error) {
    return refusedBy(host, request, error);
  }
}

/** A middleware refused the request: the others are told (and awaited) before it fails. @internal */
export async function refusedBy(host: RequestHost, request: MiddlewareRequest, error: unknown): Promise<never> {
  await settle(host, request, false, error);
  throw error;
}

/** The handler failed: the middlewares are told (and awaited) before it fails. @internal */
export async function handlerFailed(host: RequestHost, request: MiddlewareRequest | undefined, error: unknown): Promise<never> {
  if (request !== undefined) await settle(host, request, false, error);
  throw error;
}
