/**
 * How a `Server` gets its tasks extension: the engine for its options, the
 * route of the task methods, and the hooks McpServer passes.
 *
 * @internal
 */
import type { InputRequiredResult } from "../../protocol/types.js";
import { assertClientCanAnswer } from "../capabilities.js";
import type { ResultFinisher } from "../results.js";
import { ROUTES, type Route } from "../routes.js";
import type { AnyHandler } from "../pipeline.js";
import type { ServerHandlers, ServerLogger } from "../types.js";
import { isTaskMethod } from "../../protocol/tasks-wire.js";
import { TaskEngine } from "./engine.js";
import { TASK_HOOKS, type TaskHooks, type TaskHost, type TasksOptions } from "./options.js";

export { isCreatedTask } from "./records.js";
export { TaskEngine } from "./engine.js";
export type { TaskStatusListener } from "./options.js";

/** The route of the task methods: answered by the engine, with its own params checks. @internal */
export const TASK_ROUTE: Route = Object.freeze({ handler: undefined, result: "", cacheable: false, mayAskInput: false });

/**
 * The engine of a server with the `tasks` option (or McpServer's hooks); `undefined` without.
 * @internal
 */
export function createTaskEngine(
  serverInfo: unknown,
  logger: ServerLogger,
  finisher: ResultFinisher,
  options: { tasks?: TasksOptions; [TASK_HOOKS]?: TaskHooks },
): TaskEngine | undefined {
  const hooks = options[TASK_HOOKS];
  if (options.tasks === undefined && hooks === undefined) return undefined;
  const route = ROUTES.get("tools/call")!;
  const host: TaskHost = {
    serverInfo,
    logger,
    finishComplete: (raw) => finisher.complete(route, "tools/call", raw),
    finishInput: (raw, ctx) => {
      const result = finisher.inputRequired(route, "tools/call", raw as unknown as InputRequiredResult);
      assertClientCanAnswer(result.inputRequests as Record<string, unknown> | undefined, ctx.clientCapabilities);
      return result;
    },
  };
  return new TaskEngine(host, options.tasks ?? {}, hooks);
}

/**
 * The handlers a server with tasks runs: `onCallTool` wrapped by the engine,
 * so a call may become a task; the rest as given.
 * @internal
 */
export function withTaskToolCall(handlers: ServerHandlers, tasks: TaskEngine | undefined): ServerHandlers {
  if (tasks === undefined || handlers.onCallTool === undefined) return handlers;
  return { ...handlers, onCallTool: tasks.wrapToolCall(handlers.onCallTool as AnyHandler) as ServerHandlers["onCallTool"] };
}

/**
 * The route of `method`: a core route, or the task route while the tasks
 * extension answers; `undefined` when nothing serves it.
 * @internal
 */
export function routeOf(method: string, tasks: TaskEngine | undefined): Route | undefined {
  return ROUTES.get(method) ?? (tasks?.enabled() === true && isTaskMethod(method) ? TASK_ROUTE : undefined);
}
