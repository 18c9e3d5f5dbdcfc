/**
 * The part of a 2026-07-28 request after its checks: the route's handler
 * run through the middleware pipeline (or the task engine, or
 * `server/discover`'s own answer), then what it returned turned into the
 * wire result.
 *
 * @internal
 * @module
 */
import type { InputRequiredResult, ServerCapabilities } from "../protocol/types.js";
import { copyToExtend } from "../protocol/copy.js";
import { isThenable } from "../protocol/guards.js";
import { assertClientCanAnswer } from "./capabilities.js";
import type { RequestContextImpl } from "./context.js";
import { internalError } from "./errors.js";
import { invokeHandler, passInputRequired, settle, type AnyHandler, type ServerCore } from "./pipeline.js";
import type { ResultFinisher } from "./results.js";
import type { Route } from "./routes.js";
import { isCreatedTask, TASK_ROUTE, type TaskEngine } from "./tasks/setup.js";
import type { MiddlewareRequest } from "./types.js";

/** What running a request needs from its server. @internal */
export interface AnswerHost {
  readonly core: ServerCore;
  readonly finisher: ResultFinisher;
  readonly tasks: TaskEngine | undefined;
  /** `server/discover`'s result, before it is finished. */
  readonly discover: () => Record<string, unknown>;
}

/**
 * Runs one checked request and resolves to its finished result; middlewares
 * hear how it settled.
 * @internal
 */
export async function answerRequest(
  host: AnswerHost,
  route: Route,
  handler: AnyHandler | undefined,
  params: Record<string, unknown>,
  ctx: RequestContextImpl,
): Promise<Record<string, unknown>> {
  if (route === TASK_ROUTE) return host.tasks!.answer(ctx.method, params, ctx);
  if (handler === undefined) return host.finisher.complete(route, ctx.method, host.discover());
  const { raw, request } = await invokeHandler(host.core, route, handler, params, ctx);
  let result: Record<string, unknown>;
  try {
    result = await finish(host, route, raw, request, ctx);
  } catch (error) {
    await settle(host.core, request, false, error);
    throw error;
  }
  void settle(host.core, request, true, result);
  return result;
}

/** The wire form of what a handler returned: checked, stamped, and sealed when it asks for input. */
async function finish(
  host: AnswerHost,
  route: Route,
  raw: Record<string, unknown>,
  request: MiddlewareRequest | undefined,
  ctx: RequestContextImpl,
): Promise<Record<string, unknown>> {
  if (isCreatedTask(raw)) return raw;
  if (raw.resultType === "input_required") {
    let result = host.finisher.inputRequired(route, ctx.method, raw as unknown as InputRequiredResult);
    assertClientCanAnswer(result.inputRequests as Record<string, unknown> | undefined, ctx.clientCapabilities);
    const passed = passInputRequired(host.core, result, request);
    result = isThenable<InputRequiredResult>(passed) ? await passed : passed;
    return result as unknown as Record<string, unknown>;
  }
  if (raw.resultType !== undefined && raw.resultType !== "complete") {
    throw internalError(`Internal error: the ${ctx.method} handler returned resultType ${JSON.stringify(raw.resultType)}; use "complete" or "input_required"`);
  }
  return host.finisher.complete(route, ctx.method, copyToExtend(raw));
}

/**
 * What `server/discover` answers: the versions served, the capabilities
 * (with the tasks extension's, when it is on) and the instructions.
 * @internal
 */
export function discoverResult(
  versions: readonly string[],
  capabilities: ServerCapabilities,
  instructions: string | undefined,
  tasks: TaskEngine | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    supportedVersions: [...versions],
    capabilities: tasks?.advertise(capabilities as Record<string, unknown>) ?? capabilities,
  };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
