/**
 * How a `Server` gets its tasks extension: the engine for its options, the
 * route of the task methods, and the hooks McpServer passes.
 *
 * @internal
 */
import type { InputRequiredResult } from "../../../generated/2026-07-28/index.js";
import { assertClientCanAnswer } from "../capabilities.js";
import type { ResultFinisher } from "../results.js";
import { ROUTES, type Route } from "../routes.js";
import type { ServerLogger } from "../types.js";
import { TaskEngine } from "./engine.js";
import { TASK_HOOKS, type TaskHooks, type TaskHost, type TasksOptions } from "./options.js";

export { isCreatedTask } from "./records.js";
export { isTaskMethod } from "../../protocol/tasks-wire.js";
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
