/**
 * What every request goes through between the protocol checks and the
 * finishing of its result, whichever generation asked: the middlewares,
 * the handler's own copy of the arguments, the handler call itself.
 *
 * @internal
 */
import type { Implementation, InputRequiredResult } from "../protocol/types.js";
import type { RequestContextImpl } from "./context.js";
import { internalError } from "./errors.js";
import type { Route } from "./routes.js";
import { snapshotJson } from "./snapshot.js";
import type { MiddlewareRequest, ServerHandlers, ServerMiddleware } from "./types.js";
import type { LevelledLogger } from "../protocol/logging.js";
import { isObject, isThenable } from "../protocol/guards.js";

/** What a server shares with its per-generation request paths. @internal */
export interface ServerCore {
  readonly serverInfo: Readonly<Implementation>;
  readonly handlers: ServerHandlers;
  readonly middlewares: readonly ServerMiddleware[];
  readonly logger: LevelledLogger;
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
 * Runs the middlewares' `onRequest`, then the handler.
 *
 * @throws McpError from a middleware, whatever the handler throws, or
 *   -32603 when the handler returns something that is not a result object
 * @internal
 */
export async function invokeHandler(
  core: ServerCore,
  route: Route,
  handler: AnyHandler,
  params: Record<string, unknown>,
  ctx: RequestContextImpl,
): Promise<Invocation> {
  let request: MiddlewareRequest | undefined;
  if (core.middlewares.length > 0) {
    request = { method: ctx.method, serverName: core.serverInfo.name, params, context: ctx, logger: core.logger, transport: ctx.transport };
    try {
      for (const middleware of core.middlewares) {
        const pending = middleware.onRequest?.(request);
        if (isThenable(pending)) await pending;
      }
    } catch (error) {
      await settle(core, request, false, error);
      throw error;
    }
    params = request.params;
    if (route.mayAskInput && isObject(params.arguments)) {
      // A middleware (the request-state boundary) binds what it mints to these arguments after the handler
      // ran: the handler gets its own copy, so filling in a default (args.limit ??= 10) cannot change them.
      params = { ...params, arguments: snapshotJson(params.arguments) };
    }
  }
  if (route.mayAskInput) {
    ctx.inputResponses = params.inputResponses as RequestContextImpl["inputResponses"];
    ctx.requestState = params.requestState as string | undefined;
  }
  try {
    return { raw: await callHandler(handler, params, ctx), params, request };
  } catch (error) {
    if (request !== undefined) await settle(core, request, false, error);
    throw error;
  }
}

/**
 * Tells every middleware the request is over (see `ServerMiddleware.onSettled`):
 * `outcome` is the result being sent when `produced`, else what was thrown.
 * A middleware that throws here is logged, never allowed to change the answer,
 * so callers need not await it; one that must act only after the answer left
 * (the state boundary's commit of a one-time token) defers that itself.
 * @internal
 */
export async function settle(core: ServerCore, request: MiddlewareRequest | undefined, produced: boolean, outcome?: unknown): Promise<void> {
  if (request === undefined) return;
  for (const middleware of core.middlewares) {
    if (middleware.onSettled === undefined) continue;
    try {
      const pending = middleware.onSettled(request, produced, outcome);
      if (isThenable(pending)) await pending;
    } catch (error) {
      core.logger.warn(`${request.method}: a middleware failed while settling the request`, { error });
    }
  }
}

/**
 * Hands an `InputRequiredResult` to every middleware's `onInputRequired`,
 * in order (the request-state boundary seals its `requestState` there).
 * Nothing happens without middlewares.
 *
 * @throws whatever a middleware throws (the boundary: -32603 when it cannot seal)
 * @internal
 */
export function passInputRequired(
  core: ServerCore,
  result: InputRequiredResult,
  request: MiddlewareRequest | undefined,
): InputRequiredResult | Promise<InputRequiredResult> {
  if (request === undefined) return result;
  return passFrom(core.middlewares, 0, result, request);
}

/** The middlewares from `index` on; synchronous until one answers with a promise (the seal usually does not). */
function passFrom(
  middlewares: readonly ServerMiddleware[],
  index: number,
  result: InputRequiredResult,
  request: MiddlewareRequest,
): InputRequiredResult | Promise<InputRequiredResult> {
  for (let at = index; at < middlewares.length; at++) {
    const next = middlewares[at]!.onInputRequired?.(result, request);
    if (next === undefined) continue;
    if (isThenable<InputRequiredResult>(next)) return Promise.resolve(next).then((settled) => passFrom(middlewares, at + 1, settled, request));
    result = next;
  }
  return result;
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
