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
