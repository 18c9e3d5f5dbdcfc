/**
 * What the middlewares hear after the handler ran: `onInputRequired` for a
 * round that asks (the request-state boundary seals there) and
 * `onSettled` once the request is over, whichever generation asked.
 *
 * @internal
 * @module
 */
import type { InputRequiredResult } from "../protocol/types.js";
import { isThenable } from "../protocol/guards.js";
import type { Implementation } from "../protocol/types.js";
import type { LevelledLogger } from "../protocol/logging.js";
import type { MiddlewareRequest, ServerHandlers, ServerMiddleware } from "./types.js";

/** What every request path shares of its server. @internal */
export interface ServerCore {
  readonly serverInfo: Readonly<Implementation>;
  readonly handlers: ServerHandlers;
  readonly middlewares: readonly ServerMiddleware[];
  readonly logger: LevelledLogger;
}

/**
 * Tells every middleware the request is over (see `ServerMiddleware.onSettled`):
 * `outcome` is the result being sent when `produced`, else what was thrown.
 * A middleware that throws here is logged, never allowed to change the answer,
 * so callers need not await it; one that must act only after the answer left
 * (the state boundary's commit of a one-time token) defers that itself.
 * @internal
 */
export function settle(core: ServerCore, request: MiddlewareRequest | undefined, produced: boolean, outcome?: unknown): Promise<void> | undefined {
  if (request === undefined) return undefined;
  // Synchronous until a middleware answers with a promise: a settled request usually has nothing to wait for.
  const middlewares = core.middlewares;
  for (let i = 0; i < middlewares.length; i++) {
    const pending = settleOne(core, middlewares[i]!, request, produced, outcome);
    if (pending !== undefined) return settleRest(core, pending, i + 1, request, produced, outcome);
  }
  return undefined;
}

function settleOne(core: ServerCore, middleware: ServerMiddleware, request: MiddlewareRequest, produced: boolean, outcome: unknown): Promise<void> | undefined {
  if (middleware.onSettled === undefined) return undefined;
  try {
    const pending = middleware.onSettled(request, produced, outcome);
    if (isThenable(pending)) return Promise.resolve(pending).then(undefined, (error: unknown) => warnSettling(core, request, error));
  } catch (error) {
    warnSettling(core, request, error);
  }
  return undefined;
}

function warnSettling(core: ServerCore, request: MiddlewareRequest, error: unknown): void {
  core.logger.warn(`${request.method}: a middleware failed while settling the request`, { error });
}

async function settleRest(core: ServerCore, first: Promise<void>, from: number, request: MiddlewareRequest, produced: boolean, outcome: unknown): Promise<void> {
  await first;
  for (let i = from; i < core.middlewares.length; i++) await settleOne(core, core.middlewares[i]!, request, produced, outcome);
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
